"""Learned positions: a trained position table (all-MiniLM-L6-v2's, bundled) beside a sinusoidal one of the same
size, and what the Transformer paper found when it compared the two (lesson 003)."""
import streamlit as st

from embedviz.app import real_model_view as view
from embedviz.app.i18n import t
from embedviz.app.step_section import step_figure
from embedviz.app.markup import trusted
from embedviz.app.widgets import BIND, bound_tabs, details, lead, notice, pc_axes, plot, show_error
from embedviz.figures import real_model as figs
from embedviz.lessons.widget_keys import LearnedPositions as K

TABS = ["learn.tab_steps", "learn.tab_matrix", "learn.tab_rotation", "learn.tab_distance"]

info = view.model_info()
L, CAP = info.num_positions, view.FINE_TUNE_LENGTH
st.title(t("learn.title"))
lead("learn.lead")

learned, sinusoidal = view.row_views("learned", 0, L), view.row_views("sinusoidal", 0, L)
names = {"learned": t("learn.learned"), "sinusoidal": t("learn.sinusoidal")}

# bound tabs run lazily: a page open or a slider step draws the open tab's one main chart, and the tab is in the URL
steps_tab, matrix_tab, rotation_tab, distance_tab = bound_tabs(
    K.TAB, TABS)

if steps_tab.open:
    with steps_tab:
        curves = {names["learned"]: learned.adjacent, names["sinusoidal"]: sinusoidal.adjacent}
        if st.toggle(t("multi.pos_e5"), key=K.E5, bind=BIND, help=t("multi.pos_e5_help")):
            if (missing := view.missing_package(view.E5_NAME)) is not None:
                st.error(t("multi.missing", package=missing.package, pip=missing.pip))
            else:  # e5's learned table has the same (512, 384) shape: its curve sits on the same axis
                curves[t("multi.pos_e5_name")] = view.row_views(f"learned:{view.E5_NAME}", 0, L).adjacent
        step_figure(learned, curves, t("common.position"), shared=True)
        st.markdown(t("learn.jump", p0=CAP - 2, p1=CAP - 1, p2=CAP, cap=CAP, a=learned.adjacent[CAP - 2],
                      b=learned.adjacent[CAP - 1], typical=learned.typical, norm=learned.norms[CAP - 1],
                      median=learned.median_norm))
        notice("learn.notice")

if matrix_tab.open:
    with matrix_tab:
        start, stop = st.slider(t("learn.window"), 0, L - 1, (0, L - 1), key=K.WINDOW, bind=BIND)
        try:
            window, sin_window = (view.row_views(s, start, stop + 1) for s in ("learned", "sinusoidal"))
        except ValueError as error:
            show_error(error)
        else:
            step = window.step
            plot(figs.matrices_side_by_side,
                 window.similarity, sin_window.similarity, window.rows[::step],
                 title=t("learn.matrix_title", a=start, b=stop), x_title=t("common.position"),
                 note=t("learn.matrix_note") if step == 1 else t("common.downsampled", rs=step, cs=step),
                 subplot_titles=[names["learned"], names["sinusoidal"]])

if rotation_tab.open:
    with rotation_tab:
        start, stop = st.slider(t("learn.rows"), 0, L - 1, (0, L - 1), key=K.ROWS, bind=BIND)
        try:
            window = view.row_views("learned", start, stop + 1)
        except ValueError as error:
            show_error(error)
        else:
            plot(figs.rows_pca, window.pca, window.rows, title=t("learn.pca_title", a=start, b=stop),
                 color_title=t("common.position"), note=t("learn.pca_note"), axis_titles=pc_axes())
            # the rotation sentence only where the two PCA axes carry similar variance and turn steadily
            st.markdown(t("learn.turn" if window.rotation else "learn.no_turn", deg=window.turn_degrees,
                          period=window.period))

if distance_tab.open:
    with distance_tab:
        curves = view.offset_curves(("learned", "sinusoidal"))
        plot(figs.offset_curve, curves.offsets, {names[s]: curves.by_source[s] for s in ("learned", "sinusoidal")},
             title=t("learn.offset_title"), x_title=t("learn.offset_axis"), y_title="cos",
             note=t("learn.offset_note", period=learned.period))

# the whole table's numbers and the paper's comparison, under the open section's figure
first, last = learned.adjacent[0], learned.adjacent[-1]
cols = st.columns(4)
cols[0].metric(t("learn.metric_typical"), f"{learned.typical:.4f}")
cols[1].metric(t("learn.metric_first"), f"{first:.4f}", f"{first - learned.typical:+.4f}")
cols[2].metric(t("learn.metric_last", a=L - 2, b=L - 1), f"{last:.4f}", f"{last - learned.typical:+.4f}")
cols[3].metric(t("learn.metric_sinusoidal"), f"{sinusoidal.typical:.4f}")
details(t("learn.intro", L=L, D=info.d_model), trusted(f'**{t("learn.paper_header")}**'), t("learn.paper"))
