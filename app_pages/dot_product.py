"""Dot product and cosine (lesson 002): two 2-D arrows, their dot product and cosine, and "predict the similarity"."""
import streamlit as st

from embedviz.app import dot_product_view as view
from embedviz.app.i18n import t
from embedviz.app.markup import escape
from embedviz.app.widgets import bound_tabs, BIND, details, int_slider, lead, notice, plot, segmented, show_error
from embedviz.dot_product import BAND_NAMES, PREDICTION_PAIRS
from embedviz.figures import dot_product as figs
from embedviz.lessons.widget_keys import DotProduct as K

LENGTHS = [0.5 * i for i in range(0, 9)]  # 0 .. 4
BANDS = {"close": "dot.band_close", "related": "dot.band_related", "unrelated": "dot.band_unrelated",
         "opposite": "dot.band_opposite"}  # dot_product.BAND_NAMES, by catalog key

st.title(t("dot.title"))
lead("dot.lead")


@st.fragment
def arrows_tab() -> None:
    """The four sliders move only the arrows, so a step reruns and redraws this section, not the page. The arrows
    on the left, their sliders and numbers beside them (under them on a phone)."""
    chart, side = st.columns([3, 2])
    with side:
        cols = st.columns(2)
        with cols[0]:
            len_u = st.select_slider(t("dot.len_u"), LENGTHS, value=2.0, key=K.LEN_U, bind=BIND)
            len_v = st.select_slider(t("dot.len_v"), LENGTHS, value=1.5, key=K.LEN_V, bind=BIND)
        with cols[1]:
            ang_u = int_slider(K.ANGLE_U, "dot.ang_u", 0, 359, 0)
            ang_v = int_slider(K.ANGLE_V, "dot.ang_v", 0, 359, 60)
    try:
        r = view.vectors(len_u, ang_u, len_v, ang_v)
    except ValueError as error:
        with chart:
            show_error(error)
        return
    c = r.comparison
    with side:
        m = st.columns(2)
        m[0].metric(t("dot.m_dot"), f"{c.dot:.3f}")
        m[1].metric(t("dot.m_product"), f"{c.lengths_times_cos:.3f}")
        m = st.columns(2)
        m[0].metric(t("dot.m_cos"), f"{c.cos:.3f}")
        m[1].metric(t("dot.m_angle"), f"{c.angle_deg:.1f}°")
    (ux, uy), (vx, vy) = (f"{x:.2f}" for x in r.u), (f"{x:.2f}" for x in r.v)
    with chart:
        plot(figs.vectors_figure, r.u, r.v, names=("u", "v"), note=t("dot.fig_note"),
             title=t("dot.fig_title", ux=ux, uy=uy, vx=vx, vy=vy))
    st.markdown(t("dot.rules"))


def predict_tab() -> None:
    """Lesson 002's activity: guess a band per pair, then reveal the bundled model's cosines."""
    st.markdown(t("dot.predict_text"))
    guesses = []
    grid = st.columns(2)
    for i, (a, b) in enumerate(PREDICTION_PAIRS):
        with grid[i % 2]:
            st.markdown(f"**{escape(a)} – {escape(b)}**")
            guesses.append(segmented(K.GUESS(i), "dot.col_guess", BAND_NAMES, "unrelated",
                                     format_func=lambda band: t(BANDS[band])))
    if not st.toggle(t("dot.reveal"), key=K.REVEAL, bind=BIND):
        st.caption(t("dot.hidden"))
        return
    try:
        answers = view.prediction_answers()
    except ValueError as error:
        show_error(error)
        return
    right = view.grade(tuple(guesses), tuple(ans.band for ans in answers))
    st.metric(t("dot.score"), f"{sum(right)} / {len(right)}")
    st.dataframe({
        t("dot.col_pair"): [f"{ans.a} – {ans.b}" for ans in answers],
        t("dot.col_guess"): [t(BANDS[g]) for g in guesses],
        t("dot.col_cos"): [ans.cos for ans in answers],
        t("dot.col_band"): [t(BANDS[ans.band]) for ans in answers],
        t("dot.col_right"): ["✓" if ok else "✗" for ok in right],
    }, column_config={t("dot.col_cos"): st.column_config.NumberColumn(format="%.3f")}, hide_index=True)


# bound tabs run lazily: the page opens on the arrows only, the activity draws when its tab is opened
tabs = bound_tabs(K.TAB, ["dot.tab_arrows", "dot.tab_predict"])
for tab, render in zip(tabs, (arrows_tab, predict_tab)):
    if tab.open:
        with tab:
            render()
details(t("dot.intro"), formula=r"\|u\| = \sqrt{u_0^2 + u_1^2 + \dots},\qquad u\cdot v = u_0 v_0 + u_1 v_1 + \dots"
        r" = \|u\|\,\|v\|\cos\theta,\qquad \cos\theta = \frac{u\cdot v}{\|u\|\,\|v\|}")
notice("dot.notice")
