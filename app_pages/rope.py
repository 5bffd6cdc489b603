"""RoPE: queries and keys rotate with position, so attention scores depend only on the offset m - n (lesson 003).

The title and the lead come first, then the sections, each a tab bound to ``?rope_tab=`` (only the open tab runs
and is sent) in the lesson's order; the shared controls, the formulas and the details follow the open section.
Widgets that change one section only (the heatmap's window, the pair demo's inputs) sit in fragments, so moving
them redraws that section alone.
"""
import streamlit as st

from embedviz.app import live
from embedviz.app import rope_view as view
from embedviz.app.i18n import t
from embedviz.app.widgets import bound_tabs, BIND, human_number, lesson_button, log_options, notice, plot, show_error
from embedviz.app.widgets import lead
from embedviz.downsample import ANGLE_HEATMAP_POSITIONS, DENSE_DISTANCES
from embedviz.figures import joined, line_chart
from embedviz.figures import rope as figs
from embedviz.lessons.widget_keys import Rope as K

PRESETS = view.rope_presets()
CUSTOM = "custom"
PAIRINGS = {"half": "rope.pairing_half", "interleaved": "rope.pairing_interleaved"}  # each and its catalog key
THETAS = log_options(100.0, 1e7, extra=view.REFERENCE_THETAS)
LENGTHS = sorted({2**p for p in range(4, 18)} | {p.max_context_length for p in PRESETS.values()})
WINDOWS = [2**p for p in range(5, 18)]
LIVE_TABS = ("rope.tab_angles", "rope.tab_decay")  # tabs whose figure redraws in the browser while its sliders move


def apply_preset() -> None:
    p = PRESETS.get(st.session_state[K.PRESET])
    if p:
        st.session_state.update({K.HEAD_DIM: p.head_dim, K.THETA: float(p.theta), K.LENGTH: p.max_context_length})


def to_custom() -> None:
    st.session_state[K.PRESET] = CUSTOM


SLIDERS = (live.Slider(K.HEAD_DIM, "rope.head_dim", tuple(range(2, 257, 2)), on_change=to_custom),
           live.Slider(K.THETA, "rope.theta", THETAS, human_number, on_change=to_custom),
           live.Slider(K.LENGTH, "rope.context_length", LENGTHS, human_number, on_change=to_custom))


def angles_tab(head_dim: int, theta: float, context_length: int, pairing: str) -> None:
    """1. per-dimension rotation angles, live (not a fragment: a live figure's commit must rerun the page, which
    holds the widgets it moves)."""
    st.header(t("rope.heat_header"))
    chart = st.container()  # the chart first, the window under it (read first: the chart needs it)
    window = st.select_slider(t("rope.window"), WINDOWS, value=256, format_func=human_number, key=K.WINDOW,
                              bind=BIND)
    if window > context_length:
        st.caption(t("rope.window_clipped", length=human_number(context_length)))
    with chart:
        angle_chart(head_dim, theta, context_length, pairing, window)


def angle_chart(head_dim: int, theta: float, context_length: int, pairing: str, window: int) -> None:
    try:
        heat = view.angle_heatmap(head_dim, theta, min(window, context_length), pairing)
    except ValueError as error:
        show_error(error)
        return
    note = joined(t("rope.heat_note"), t("common.showing_every", step=heat.step) if heat.step > 1 else None)
    live.figure("rope_angles", figs.angle_heatmap, heat.z, heat.positions, heat.pair,
                title=t("rope.heat_title"), note=note, x_title=t("common.position"), y_title=t("common.dimension"),
                hover=t("rope.heat_hover"), row_label=t("rope.heat_row"), key=K.LIVE_ANGLES, sliders=SLIDERS,
                budget={"positions": ANGLE_HEATMAP_POSITIONS},
                fixed={"window": window, "pairing": pairing, "max_ticks": figs.MAX_TICKS},
                texts=live.templates(row=("rope.heat_row", "d", "i"), note="rope.heat_note",
                                     showing_every=("common.showing_every", "step"), scale_key="common.scale_key"))


@st.fragment
def pair_tab(head_dim: int, theta: float) -> None:
    """2. one pair in the plane, lesson 003's q = (1, 0), k = (0.8, 0.6); its inputs rerun this fragment only."""
    st.header(t("rope.pair_header"))
    st.markdown(t("rope.pair_intro"))
    cols = st.columns(4)
    half = head_dim // 2
    pair = cols[0].slider(t("rope.pair_index"), 0, half - 1, 0, key=K.PAIR, bind=BIND) if half > 1 else 0
    m = cols[1].number_input(t("rope.m"), 0, 1_000_000, 5, key=K.M, bind=BIND)
    n = cols[2].number_input(t("rope.n"), 0, 1_000_000, 3, key=K.N, bind=BIND)
    shift = cols[3].number_input(t("rope.shift"), 0, 1_000_000, 45, key=K.SHIFT, bind=BIND)
    try:
        pv = view.pair_view(head_dim, theta, int(pair), int(m), int(n), int(shift))
    except ValueError as error:
        show_error(error)
        return
    demo, omega = pv.demo, f"{pv.omega:.4g}"
    left, right = st.columns([3, 1])
    names = [t("rope.arrow_q", m=m), t("rope.arrow_k", n=n), t("rope.arrow_q", m=m + shift),
             t("rope.arrow_k", n=n + shift)]
    with left:
        plot(figs.pair_plane, demo, names=names, title=t("rope.pair_title", i=pair, omega=omega),
             note=t("rope.pair_note"))
    with right:
        st.metric(t("rope.score", m=m, n=n), f"{demo.score:.4f}")
        st.metric(t("rope.score", m=m + shift, n=n + shift), f"{demo.score_shifted:.4f}",
                  help=t("rope.score_help_same", d=m - n))
        other = "rope.score_help_other" if n else "rope.score_help_same"  # n = 0: the same two positions
        st.metric(t("rope.score", m=m, n=0), f"{demo.score_other:.4f}", help=t(other, d=m))
    st.caption(t("rope.pair_caption", i=pair, omega=omega, wavelen=f"{pv.wavelen:,.1f}"))


def decay_tab(head_dim: int, theta: float, context_length: int) -> None:
    """3. long-range decay of aligned q, k: several thetas overlaid, and lesson 003's table."""
    st.header(t("rope.decay_header"))
    st.markdown(t("rope.decay_intro"))
    lesson_button(K.LESSON, "lesson.rope_button",
                  {K.HEAD_DIM: 128, K.THETA: 10_000.0, K.PRESET: CUSTOM}, help="lesson.rope_help")
    dec = view.decay(head_dim, theta, context_length)
    chosen = t("rope.theta_chosen", theta=human_number(theta))
    series = {(chosen if th == theta else t("rope.theta_label", theta=human_number(th))): curve
              for th, curve in dec.curves.items()}
    live.figure("rope_decay", figs.decay_chart, dec.distances, series, highlight=chosen,
                title=t("rope.decay_title", hd=head_dim), x_title=t("rope.distance"), y_title=t("rope.mean_cos"),
                note=t("rope.decay_note"), key=K.LIVE_DECAY, sliders=SLIDERS, budget={"dense": DENSE_DISTANCES},
                fixed={"thetas": view.REFERENCE_THETAS, "theta_labels": list(map(human_number, view.REFERENCE_THETAS)),
                       "widths": [figs.CHOSEN_WIDTH, figs.REFERENCE_WIDTH], "dashes": figs.DECAY_DASHES},
                texts=live.templates(title=("rope.decay_title", "hd"), chosen=("rope.theta_chosen", "theta"),
                                     reference=("rope.theta_label", "theta")))
    table = dec.table
    st.dataframe({
        t("rope.col_distance"): table.distance,
        t("rope.col_text"): [f"{v:.3f}" for v in table.text],
        t("rope.col_chosen", hd=head_dim, theta=human_number(theta)): [f"{v:.3f}" for v in table.chosen],
    }, hide_index=True)
    st.caption(t("rope.table_caption"))


def random_tab(head_dim: int, theta: float, context_length: int) -> None:
    """4. aligned q, k against independent random q, k: decay is a property of aligned vectors only."""
    st.header(t("rope.random_header"))
    st.markdown(t("rope.random_intro"))
    dec = view.aligned_and_random(head_dim, theta, context_length)
    hi, lo = t("rope.series_spread_hi"), t("rope.series_spread_lo")
    plot(line_chart, dec.distances,
         {t("rope.series_aligned"): dec.aligned, t("rope.series_random"): dec.random.mean,
          hi: dec.random.high, lo: dec.random.low},
         title=t("rope.random_title", hd=head_dim, theta=human_number(theta)), x_title=t("rope.distance"),
         y_title=t("rope.score_cos"), note=t("rope.random_note", n=view.RANDOM_SAMPLES), log_x=True,
         dashes={hi: "dot", lo: "dot"})


def wave_tab(head_dim: int, theta: float, context_length: int) -> None:
    """5. wavelengths against the context length."""
    st.header(t("rope.wave_header"))
    wl = view.wavelengths(head_dim, theta, context_length)
    plot(figs.wavelength_chart, wl.wavelen, wl.never, context_length, title=t("rope.wave_title"),
         x_title=t("rope.pair_axis"), y_title=t("rope.wavelength_axis"),
         legend=[t("rope.wave_turns"), t("rope.wave_never")],
         context_label=t("rope.wave_context", length=human_number(context_length)), hover=t("rope.wave_hover"),
         note=t("rope.wave_note", never=int(wl.never.sum()), pairs=head_dim // 2,
                length=human_number(context_length)))
    st.markdown(t("rope.wave_explain"))


def pairing_tab(head_dim: int, theta: float, context_length: int, pairing: str) -> None:
    """6. the two pairings: the same rotation with the dimensions listed in another order."""
    st.header(t("rope.pairing_header"))
    st.markdown(t("rope.pairing_intro"))
    ps = view.pairing_scores(head_dim, theta, min(context_length - 1, 200))
    rows = [("▶ " if p == pairing else "") + t(key) for p, key in PAIRINGS.items()]
    plot(figs.pairing_map, ps.half_pair, ps.interleaved_pair, title=t("rope.map_title"), row_names=rows,
         x_title=t("common.dimension"), hover=t("rope.map_hover"), note=t("rope.map_note"))
    series = {t("rope.series_half"): ps.half, t("rope.series_permuted"): ps.permuted,
              t("rope.series_raw"): ps.raw}
    dashes = {t("rope.series_permuted"): "dash", t("rope.series_raw"): "dot"}
    plot(figs.pairing_scores_chart, ps.offsets, series, dashes=dashes, title=t("rope.scores_title", hd=head_dim),
         x_title=t("rope.offset_axis"), y_title=t("rope.score_axis"), note=t("rope.scores_note"))
    st.caption(t("rope.pairs_caption", half=ps.half_dims, interleaved=ps.interleaved_dims) + " "
               + t("rope.max_diff", diff=f"{ps.max_diff:.1e}"))


def lesson_tab() -> None:
    """7. lesson 003: the sinusoidal-vs-RoPE table, and why Qwen3's limit is 40,960."""
    st.header(t("ropel.vs_header"))
    st.table({t(column): [t(keys[i]) for keys in view.LESSON_ASPECTS]
              for i, column in enumerate(("ropel.col_aspect", "ropel.col_sin", "ropel.col_rope"))})
    st.header(t("ropel.qwen_header"))
    b = {k: human_number(v) for k, v in vars(view.position_budget()).items()}  # every field, as shown
    st.markdown(t("ropel.qwen_text", max=b["max_position_embeddings"], native=b["native"], headroom=b["headroom"],
                  factor=b["yarn_factor"], reach=b["yarn_reach"], theta=b["rope_theta"]))
    st.table({t(key, factor=b["yarn_factor"]): [b[field]] for key, field in (
        ("ropel.m_max", "max_position_embeddings"), ("ropel.m_native", "native"), ("ropel.m_headroom", "headroom"),
        ("ropel.m_reach", "yarn_reach"))})


st.title(t("rope.title"))
lead("rope.lead")
# the open section first, then the controls every section shares, the formulas and the details: the containers are
# created in that order and the controls filled first (the sections need their values)
sections_area, controls_area = st.container(), st.container()

with controls_area:
    cols = st.columns(2)
    preset = cols[0].selectbox(
        t("rope.preset"), [CUSTOM, *PRESETS], format_func=lambda x: t("rope.custom") if x == CUSTOM else x,
        key=K.PRESET, on_change=apply_preset, bind=BIND,
    )
    pairing = cols[1].segmented_control(
        t("rope.pairing"), list(PAIRINGS), default="half", format_func=lambda p: t(PAIRINGS[p]), key=K.PAIRING,
        required=True, bind=BIND,
    )
    hidden = live.open_tab(K.TAB, list(view.TABS.values())) in LIVE_TABS
    with live.controls(K.CONTROLS, hidden=hidden):  # the live figure shows them
        cols = st.columns(3)
    head_dim = cols[0].slider(
        t("rope.head_dim"), 2, 256, 128, step=2, key=K.HEAD_DIM, help=t("rope.head_dim_help"), on_change=to_custom,
        bind=BIND,
    )
    theta = cols[1].select_slider(
        t("rope.theta"), THETAS, value=10_000.0, format_func=human_number, key=K.THETA, help=t("rope.theta_help"),
        on_change=to_custom, bind=BIND,
    )
    context_length = cols[2].select_slider(
        t("rope.context_length"), LENGTHS, value=4_096, format_func=human_number, key=K.LENGTH, on_change=to_custom,
        bind=BIND,
    )
    if preset in PRESETS:
        st.caption(view.preset_caption(preset))
    for formula in view.FORMULAS:
        st.latex(formula)
    with st.expander(t("common.details")):  # the intro, the symbols and the sign of R(k) (shared with Sinusoidal)
        st.markdown(t("rope.intro"))
        st.caption(t("rope.formula_caption"))
        st.caption(t("sin.sign_note"))

# bound tabs run lazily: only the open tab runs and is sent; the open tab is in the URL
with sections_area:
    tabs = bound_tabs(K.TAB, list(view.TABS.values()))
sections = {
    "angles": lambda: angles_tab(head_dim, theta, context_length, pairing),
    "pair": lambda: pair_tab(head_dim, theta),
    "decay": lambda: decay_tab(head_dim, theta, context_length),
    "random": lambda: random_tab(head_dim, theta, context_length),
    "wave": lambda: wave_tab(head_dim, theta, context_length),
    "pairing": lambda: pairing_tab(head_dim, theta, context_length, pairing),
    "lesson": lesson_tab,
}
for tab, code in zip(tabs, view.TAB_CODES):
    if tab.open:
        with tab:
            sections[code]()

notice("rope.notice")
