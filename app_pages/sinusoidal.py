"""Sinusoidal positional encoding: the table, its frequencies, distance vs gap, similarity and the rotation property.

Each section is a tab bound to ?sin_tab= (lazy: a page open or a slider step draws the open tab only); the rotation
check's own inputs rerun its fragment only.
"""
import streamlit as st

from embedviz import figures
from embedviz.app import live
from embedviz.app import sinusoidal_view as cached
from embedviz.app.i18n import t
from embedviz.app.widgets import (
    BIND, bound_tabs, choice_slider, details, human_number, lesson_button, log_options, notice, page_header, plot,
    show_error,
)
from embedviz.downsample import CELL_BUDGET, CURVE_POINTS, DENSE_POINTS, HEATMAP_PAIRS
from embedviz.models.params import PRESETS
from embedviz.positions.sinusoidal import DEFAULT_BASE
from embedviz.figures.sinusoidal import HEADROOM, LOG_GAPS_PAST, distance_figure, encoding_heatmap, rotation_figure
from embedviz.lessons.widget_keys import Sinusoidal as K

D_OPTIONS = (2, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256, 384, 512, 768, 1024, 1536, 2048, 3072, 4096)
L_OPTIONS = (1, 2, 4, 8, 16, 32, 64, 100, 128, 256, 512, 1000, 1024, 2048, 4096, 8192, 16384, 32768, 65536, 131072)
# stops beside the 1-2-5 grid: the Transformer paper's base, and Llama 3's rope_theta (RoPE's base plays this role)
BASE_OPTIONS = log_options(100.0, 1e7, extra=(DEFAULT_BASE, PRESETS["Llama-3.1-8B"].rope_theta))
SLIDERS = (live.Slider(K.D_MODEL, "common.d_model", D_OPTIONS),
           live.Slider(K.LENGTH, "sin.positions", L_OPTIONS, human_number),
           live.Slider(K.BASE, "sin.base", BASE_OPTIONS, human_number))
TABS = ("sin.tab_encoding", "sin.tab_lesson", "sin.tab_similarity", "sin.tab_rotation")  # ?sin_tab= holds the label
LIVE_TABS = ("sin.tab_encoding", "sin.tab_lesson")  # tabs whose figure redraws in the browser while its sliders move


def encoding_tab(num_positions: int, d_model: int, base: float) -> None:
    view = cached.encoding_view(num_positions, d_model, base)
    notes = []  # the figure's subtitle says what was left out; what to look for goes below it then
    if view.pos_step > 1:
        notes.append(t("common.showing_every", step=view.pos_step))
    if view.pair_step > 1:
        notes.append(t("sin.every_pair", step=view.pair_step))
    live.figure("sin_heatmap", encoding_heatmap, view.z, view.positions, view.dims,
                note=figures.joined(*notes) or t("sin.heatmap_note"),
                title=t("sin.heatmap_title", L=human_number(num_positions), D=d_model),
                x_title=t("common.position"), y_title=t("common.dimension"), key=K.LIVE_HEATMAP,
                sliders=SLIDERS, budget={"cells": CELL_BUDGET, "pairs": HEATMAP_PAIRS},
                texts={"title": t("sin.heatmap_title", L="{L}", D="{D}"), "note": t("sin.heatmap_note"),
                       "showing_every": t("common.showing_every", step="{step}"),
                       "every_pair": t("sin.every_pair", step="{step}"), "scale_key": t("common.scale_key")})
    if notes:
        st.caption(t("sin.heatmap_note"))
    st.caption(t("sin.encoding_more"))


def lesson_tab(num_positions: int, d_model: int, base: float) -> None:
    """Lesson 003's two tables (frequencies, distance by gap) and the distance curve they sample."""
    freq = cached.frequency_table(d_model, base)
    curves = cached.distance_curves(num_positions, d_model, base)
    text_table = cached.text_distances(d_model, base)
    st.header(t("sin.freq_header"))
    st.markdown(t("sin.freq_text"))
    st.dataframe(
        {
            t("sin.col_pair"): freq.pair, t("sin.col_dims"): freq.dims,
            t("sin.col_omega"): freq.omega, t("sin.col_wavelength"): freq.wavelength,
        },
        column_config={
            t("sin.col_omega"): st.column_config.NumberColumn(format="%.4g"),
            t("sin.col_wavelength"): st.column_config.NumberColumn(format="%.1f"),
        },
        hide_index=True, height=min(36 + 35 * len(freq.pair), 320),
    )
    if freq.truncated:
        st.caption(t("sin.freq_truncated", head=cached.FREQ_HEAD, tail=cached.FREQ_TAIL, n=freq.num_pairs))

    st.header(t("sin.distance_header"))
    st.markdown(t("sin.distance_text"))
    left, right = st.columns([2.2, 1])
    with left:
        # the levels' names, two decimals: the browser fills the same templates while a thumb moves
        levels = live.templates(typical=("sin.typical", "v:.2f"), bound=("sin.bound", "v:.2f"))
        live.figure("sin_distance", distance_figure, curves.gaps, curves.distances,
                    [t("sin.from_start", s=human_number(s)) for s in curves.starts],
                    typical=curves.typical, bound=curves.bound,
                    typical_name=levels["typical"].format(v=curves.typical),
                    bound_name=levels["bound"].format(v=curves.bound), title=t("sin.distance_title"),
                    note=t("sin.distance_note"), x_title=t("sin.gap"), y_title=t("sin.distance"),
                    key=K.LIVE_DISTANCE, sliders=SLIDERS, budget={"curve_points": CURVE_POINTS, "dense": DENSE_POINTS},
                    fixed={"starts": list(curves.starts), "log_gaps_past": LOG_GAPS_PAST, "headroom": HEADROOM},
                    texts=levels)
        st.caption(t("sin.typical_note", w=human_number(round(freq.wavelength[-1]))))
    with right:
        st.dataframe(
            {
                t("sin.col_gap"): text_table.gap,
                t("sin.col_from", s=0): text_table.from_0, t("sin.col_from", s=100): text_table.from_100,
            },
            column_config={t("sin.col_from", s=s): st.column_config.NumberColumn(format="%.4f") for s in (0, 100)},
            hide_index=True, height=36 + 35 * len(text_table.gap),
        )
        st.caption(t("sin.table_caption"))


def similarity_tab(num_positions: int, d_model: int, base: float) -> None:
    sim = cached.similarity_view(num_positions, d_model, base)
    st.header(t("sin.similarity_header"))
    sim_step = t("common.showing_every", step=sim.step) if sim.step > 1 else None
    plot(figures.similarity_heatmap, sim.S, list(sim.positions), title=t("sin.similarity_title"),
         note=sim_step or t("sin.similarity_note"), x_title=t("common.position"), y_title=t("common.position"),
         height=560)
    if sim_step:
        st.caption(t("sin.similarity_note"))


@st.fragment
def rotation_tab(d_model: int, base: float) -> None:
    """p and k change this section only: a fragment, so they rerun it and not the page."""
    st.header(t("sin.rotation_header"))
    st.markdown(t("sin.rotation_text"))
    st.latex(
        r"\begin{pmatrix}\sin((p+k)\omega_i)\\ \cos((p+k)\omega_i)\end{pmatrix}="
        r"\begin{pmatrix}\cos k\omega_i & \sin k\omega_i\\ -\sin k\omega_i & \cos k\omega_i\end{pmatrix}"
        r"\begin{pmatrix}\sin p\omega_i\\ \cos p\omega_i\end{pmatrix}"
    )
    st.caption(t("sin.sign_note"))
    cols = st.columns(3)
    p = cols[0].number_input(t("sin.p"), 0, 1_000_000, 5, key=K.P, bind=BIND)
    k = cols[1].number_input(t("sin.k"), -100_000, 100_000, 3, key=K.K, bind=BIND)
    try:
        check = cached.rotation(int(p), int(k), d_model, base)
    except ValueError as error:
        show_error(error)
        return
    cols[2].metric(t("sin.rotation_error"), f"{check.max_error:.1e}")
    names = [t("sin.series_start"), t("sin.series_direct"), t("sin.series_rotated")]
    plot(rotation_figure, check.start, check.direct, check.rotated, names, title=t("sin.rotation_title"),
         note=t("sin.rotation_note"), x_title=t("common.dimension"), y_title=t("sin.value"))


page_header("sin.title", "sin.lead")  # the figure first: the formula, the intro and the lesson's settings follow it

with live.controls(K.CONTROLS, hidden=live.open_tab(K.TAB, TABS) in LIVE_TABS):  # the live figure shows them
    cols = st.columns(3)
    with cols[0]:
        d_model = choice_slider(K.D_MODEL, "common.d_model", D_OPTIONS, 64)
    with cols[1]:
        num_positions = choice_slider(K.LENGTH, "sin.positions", L_OPTIONS, 128, format_func=human_number)
    with cols[2]:
        base = choice_slider(K.BASE, "sin.base", BASE_OPTIONS, 10_000.0, format_func=human_number)

tabs = bound_tabs(K.TAB, TABS)
sections = (lambda: encoding_tab(num_positions, d_model, base), lambda: lesson_tab(num_positions, d_model, base),
            lambda: similarity_tab(num_positions, d_model, base), lambda: rotation_tab(d_model, base))
for tab, draw in zip(tabs, sections):
    if tab.open:
        with tab:
            try:
                draw()
            except ValueError as error:
                show_error(error)

lesson_button(K.LESSON, "lesson.sin_button", {K.D_MODEL: 8, K.BASE: 10_000.0, K.TAB: t("sin.tab_lesson")},
              help="lesson.sin_help")
details(t("sin.intro"), t("sin.formula_caption"),
        formula=r"PE_{p,\,2i}=\sin(p\,\omega_i),\quad PE_{p,\,2i+1}=\cos(p\,\omega_i),"
        r"\qquad \omega_i=\mathrm{base}^{-2i/D}")
notice("sin.notice")
