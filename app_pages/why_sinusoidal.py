"""Why sine and cosine (lesson 003): raw index, index / length and binary codes, each with its flaw, then the fix."""
import streamlit as st

from embedviz.app import why_sinusoidal_view as view
from embedviz.app.i18n import t
from embedviz.app.widgets import bound_tabs, choice_slider, human_number, int_slider, notice, plot, show_error
from embedviz.app.widgets import details, lead
from embedviz.figures import why_sinusoidal as figs
from embedviz.lessons.widget_keys import WhySinusoidal as K

LENGTHS = (4, 8, 10, 16, 32, 64, 100, 128, 256, 512, 1000, 1024, 2048, 4096)
D_OPTIONS = (2, 4, 6, 8, 10, 12, 16, 24, 32, 48, 64)
SCHEMES = {"raw": "why_sinusoidal.scheme_raw", "normalized": "why_sinusoidal.scheme_normalized",
           "binary": "why_sinusoidal.scheme_binary",
           "sinusoidal": "why_sinusoidal.scheme_sinusoidal"}  # each scheme and its catalog key
TABS = ["why_sinusoidal.tab_raw", "why_sinusoidal.tab_norm", "why_sinusoidal.tab_binary", "why_sinusoidal.tab_smooth",
        "why_sinusoidal.tab_table"]
NUMBER_COLUMNS = ["why_sinusoidal.col_max", "why_sinusoidal.col_step_min", "why_sinusoidal.col_step_max"]

st.title(t("why_sinusoidal.title"))
lead("why_sinusoidal.lead")
# the open section first, the sliders every section reads under it: the containers are created in page order and
# the sliders filled first
sections_area, controls_area = st.container(), st.container()
cols = controls_area.columns(4)
with cols[0]:
    length = choice_slider(K.LENGTH, "why_sinusoidal.length", LENGTHS, 1000, format_func=human_number)
with cols[1]:
    other = choice_slider(K.OTHER_LENGTH, "why_sinusoidal.other_length", LENGTHS, 10, format_func=human_number)
with cols[2]:
    position = int_slider(K.POSITION, "why_sinusoidal.position", 0, LENGTHS[-1] - 1, 500)
with cols[3]:
    d_model = choice_slider(K.D_MODEL, "common.d_model", D_OPTIONS, 8)

try:
    v = view.why_sinusoidal_view(length, other, position, d_model)
except ValueError as error:
    with sections_area:
        show_error(error)
    st.stop()
p, s = v.position, v.summary
if v.clipped:
    controls_area.caption(t("why_sinusoidal.clipped", asked=f"{position:,}", L=f"{length:,}", p=f"{p:,}"))

# bound tabs run lazily: a page open or a slider step draws the open tab's section only, and the tab is in the URL
with sections_area:
    raw_tab, norm_tab, binary_tab, smooth_tab, table_tab = bound_tabs(K.TAB, TABS)

if raw_tab.open:  # 1. raw index
    with raw_tab:
        st.header(t("why_sinusoidal.raw_header"))
        plot(figs.values_figure, v.x, {t("why_sinusoidal.series_raw"): v.raw},
             title=t("why_sinusoidal.raw_title", L=f"{length:,}"),
             x_title=t("common.position"), y_title=t("why_sinusoidal.value"), marker=p, marker_name=f"p = {p:,}")
        m1, m2 = st.columns(2)
        m1.metric(t("why_sinusoidal.raw_max"), f"{s.schemes['raw'].max_abs:,.0f}")
        m2.metric(t("why_sinusoidal.raw_ratio"), f"{s.raw_vs_embedding:,.0f}")
        st.markdown(t("why_sinusoidal.raw_text"))  # why it fails, under the curve that shows it

if norm_tab.open:  # 2. index / length
    with norm_tab:
        st.header(t("why_sinusoidal.norm_header"))
        st.markdown(t("why_sinusoidal.norm_text"))
        m1, m2, m3 = st.columns(3)
        m1.metric(t("why_sinusoidal.norm_value", p=f"{p:,}", L=f"{length:,}"), f"{v.value:.4g}")
        m2.metric(t("why_sinusoidal.norm_other", L2=f"{other:,}"), f"{v.same_value_other:,.4g}")
        m3.metric(t("why_sinusoidal.norm_step"), f"{s.schemes['normalized'].step_max:.4g}")
        plot(figs.values_figure,
             v.x, {t("why_sinusoidal.series_norm", L=f"{L:,}"): curve for L, curve in v.normalized.items()},
             title=t("why_sinusoidal.norm_title"), x_title=t("common.position"), y_title=t("why_sinusoidal.value"),
             marker=p, marker_name=f"p = {p:,}")

if binary_tab.open:  # 3. binary, and the smooth counter with the same periods
    with binary_tab:
        st.header(t("why_sinusoidal.bin_header"))
        st.markdown(t("why_sinusoidal.bin_text"))
        st.markdown(t("why_sinusoidal.code", p=f"{p:,}", D=d_model, code="".join(map(str, reversed(v.code)))))
        if s.collide:
            a, b = s.collide
            st.warning(t("why_sinusoidal.collide", D=d_model, n=f"{b:,}", a=a, b=f"{b:,}"))
        plot(figs.counter_figure,
             v.binary, v.smooth, v.counter_positions,
             title=t("why_sinusoidal.counter_title", n=len(v.counter_positions)),
             subplot_titles=(t("why_sinusoidal.counter_binary"), t("why_sinusoidal.counter_smooth")),
             x_title=t("common.position"), y_title=t("why_sinusoidal.bit"),
             note=t("why_sinusoidal.counter_note", periods=", ".join(f"{q:,.0f}" for q in v.periods)))

if smooth_tab.open:  # the fix: every step the same distance
    with smooth_tab:
        st.markdown(t("why_sinusoidal.sin_text"))
        if v.steps:
            plot(figs.steps_figure,
                 v.step_positions, {t(SCHEMES[k]): c for k, c in v.steps.items()},
                 title=t("why_sinusoidal.steps_title", D=d_model), x_title=t("common.position"),
                 y_title=t("why_sinusoidal.steps_y"),
                 note=t("why_sinusoidal.steps_note"))

if table_tab.open:  # the four side by side
    with table_tab:
        st.header(t("why_sinusoidal.table_header"))
        st.dataframe(
            {
                t("why_sinusoidal.col_scheme"): [t(key) for key in SCHEMES.values()],
                t("why_sinusoidal.col_max"): [s.schemes[k].max_abs for k in SCHEMES],
                t("why_sinusoidal.col_step_min"): [s.schemes[k].step_min for k in SCHEMES],
                t("why_sinusoidal.col_step_max"): [s.schemes[k].step_max for k in SCHEMES],
                t("why_sinusoidal.col_distinct", L=f"{length:,}"): [s.schemes[k].distinct for k in SCHEMES],
            },
            column_config={t(key): st.column_config.NumberColumn(format="%.4g") for key in NUMBER_COLUMNS},
            hide_index=True,
        )

st.markdown(t("why_sinusoidal.history_pointer"))  # learned vs sinusoidal: on the Learned positions page
details(t("why_sinusoidal.intro"))
notice("why_sinusoidal.notice")
