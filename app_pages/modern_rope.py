"""RoPE in today's models: per-layer settings, partial / proportional rotation, NoPE layers, M-RoPE, and theory.

The model choice stays above; each section is a tab bound to ``?mod_tab=`` (only the open tab runs and is sent).
The scan-length slider redraws its own fragment only (the wavelength chart's L line and the base bound); the
bound is read from rope_theory.KNOWN_SCANS for the published head sizes, so a step costs no scan.
"""
import streamlit as st

from embedviz.rope import config as rope_config, layers as rope_layers, theory as rope_theory
from embedviz.app import modern_rope_view as view
from embedviz.app.context_extension_view import METHOD_NAMES
from embedviz.app.i18n import t
from embedviz.app.widgets import bound_tabs, BIND, details, human_number, lead, plot, show_error
from embedviz.figures import modern_rope as figs
from embedviz.lessons.widget_keys import ModernRope as K


def all_nope(model: view.ModernModel) -> None:
    """No layer turns a pair: why a tab is empty, and (every layer NoPE) where the model's sense of order comes from."""
    if any(not s.attention for s in model.settings):  # conv / linear-attention layers are not NoPE ones
        st.info(t("mod.no_rope"))
    else:
        st.info(t("mod.all_nope_temp" if model.temperature else "mod.all_nope"))


def layers_tab(model: view.ModernModel, labels: dict, colors: dict) -> None:
    """The layer strip, and Llama 4's NoPE temperature."""
    reach = [t(view.REACH_NAMES[kind], span=human_number(span or 0)) + (t("mod.reach_sinks") if sinks else "")
             for kind, span, sinks in model.reach]
    plot(figs.layer_strip, model.layers, labels, colors, title=t("mod.strip_title", layers=len(model.layers)),
         x_title=t("mod.strip_x"), reach=reach, key=K.STRIP)
    if not model.rope_settings:  # nope_text speaks of the RoPE layers under a NoPE one
        all_nope(model)
    if model.temperature:
        temp = model.temperature
        text = t("mod.temp_text", attn_scale=f"{temp.attn_scale:g}", floor_scale=human_number(temp.floor_scale))
        st.markdown(f"{t('mod.nope_text')} {text}" if model.rope_settings else text)
        curve = view.temperature(temp.floor_scale, temp.attn_scale)
        plot(figs.two_curves, curve.positions, (t("mod.temp_name"), curve.scale), ("", None),
             title=t("mod.temp_title"), x_title=t("mod.temp_x"), y_title=t("mod.temp_y"), key=K.TEMPERATURE)


def decay_tab(rope_settings: list[view.Setting], colors: dict) -> None:
    """Each distinct setting's long-range decay."""
    plot(figs.decay_curves, view.DISTANCES, {s.name: s.curves.decay for s in rope_settings}, colors,
         title=t("mod.decay_title"), x_title=t("mod.decay_x"), y_title=t("mod.decay_y"), key=K.DECAY)


def head_tab(model: view.ModernModel, rope_settings: list[view.Setting], colors: dict) -> None:
    """Partial / proportional rotation: which dimensions turn; MLA's softmax scale."""
    plot(figs.head_layout, [(s.name, s.curves.rotated) for s in rope_settings], colors, title=t("mod.head_title"),
         x_title=t("mod.head_x"), rotated_name=t("mod.rotated"), unrotated_name=t("mod.unrotated"), key=K.HEAD)
    st.markdown(t("mod.partial_text"))
    if model.mla:
        mla = model.mla
        st.caption(t("mod.mla", rope=rope_settings[0].head_dim, qk=mla.qk_head_dim, mscale=mla.mscale,
                     scale=mla.scale))


def mrope_tab(model: view.ModernModel) -> None:
    """M-RoPE bands, or a pointer to the model that has them."""
    if not model.mrope:
        st.info(t("mod.no_mrope", name=view.source_label(view.MROPE_SOURCE)))
        return
    axis_names = [t("mod.axis_t"), t("mod.axis_h"), t("mod.axis_w")]
    plot(figs.mrope_band, model.mrope.axes, model.mrope.wavelengths, axis_names,
         title=t("mod.mrope_title"), x_title=t("mod.wave_x"), y_title=t("mod.wave_y"), key=K.MROPE)
    st.markdown(t("mod.mrope_text"))


def vision_tab() -> None:
    """2-D (axial) RoPE of vision encoders over a patch grid, beside the text model's M-RoPE bands."""
    layout = st.selectbox(t("mod.vision_layout"), view.VISION_LAYOUTS, key=K.VISION_LAYOUT, bind=BIND,
                          format_func=lambda code: t(view.VISION_NAMES[code]))
    grid = st.select_slider(t("mod.vision_grid"), view.VISION_GRIDS, value=16, key=K.VISION_GRID, bind=BIND)
    left, right = st.columns(2)
    row = left.slider(t("mod.vision_row"), 0, view.VISION_GRIDS[-1] - 1, 4, key=K.VISION_ROW, bind=BIND)
    col = right.slider(t("mod.vision_col"), 0, view.VISION_GRIDS[-1] - 1, 4, key=K.VISION_COL, bind=BIND)
    out = view.vision(layout, grid, row, col)
    plot(figs.patch_similarity_map, out.similarity, out.row, out.col,
         title=t("mod.vision_title", row=out.row, col=out.col, grid=grid), x_title=t("mod.vision_x"),
         y_title=t("mod.vision_y"), patch_name=t("mod.vision_patch"), key=K.VISION)
    st.markdown(t("mod.vision_text", head_dim=out.head_dim, theta=human_number(out.theta),
                  quarter=out.head_dim // 4))


@st.fragment
def scan_section(rope_settings: list[view.Setting], colors: dict, dim: int, theory: rope_theory.TrainingTheory,
                 theta: float, train: int) -> None:
    """The scan-length slider reruns this fragment only: the wavelengths with L marked, and the base bound.
    ``theory``'s still pairs (proportional RoPE) each add 1 to the sum the bound is about."""
    theory_length = st.select_slider(t("mod.scan_length"), view.SCAN_LENGTHS, value=1_024, key=K.SCAN_LENGTH, bind=BIND)
    plot(figs.wavelength_curves, {s.name: s.curves.wavelengths for s in rope_settings}, colors,
         title=t("mod.wave_title"), x_title=t("mod.wave_x"), y_title=t("mod.wave_y"),
         lines=[(train, t("mod.train_line", length=human_number(train))),
                (theory_length, t("mod.scan_line", length=human_number(theory_length)))],
         note=t("mod.critical_note", critical=theory.critical, head_dim=dim), key=K.WAVE)
    still_pairs, turning_pairs = theory.still_pairs, theory.turning_pairs
    if still_pairs and still_pairs >= turning_pairs:  # the head tab's argument: no base can fail
        st.markdown(t("mod.base_bound_any", still=still_pairs, pairs=dim // 2, turning=turning_pairs,
                      theta=human_number(theta)))
        return
    try:
        bound = view.base_bound(dim, theory_length)
    except ValueError as error:  # a pasted head of a few dimensions: no base keeps B(m) >= 0 this far
        show_error(error)
        return
    if bound.base_bound is None:  # a pasted head size: the scan ran out of the server's time budget
        st.info(t("mod.base_bound_stopped", length=human_number(theory_length), head_dim=dim,
                  below=f"{bound.base_below:.3g}", budget=view.SCAN_CPU_BUDGET_S))
    else:
        st.markdown(t("mod.base_bound", length=human_number(theory_length), head_dim=dim,
                      which=t("mod.d_whole_head" if still_pairs else "mod.d_rotated"),
                      bound=f"{bound.base_bound:.3g}", one_turn=f"{bound.one_turn:.3g}",
                      theta=human_number(theta)))
        if still_pairs:
            st.caption(t("mod.base_bound_prop", pairs=dim // 2, turning=turning_pairs))


def theory_tab(model: view.ModernModel, rope_settings: list[view.Setting], colors: dict) -> None:
    """The theory that sizes theta: critical dimension, base bound, Position Interpolation's bounds."""
    first, context = rope_settings[0], model.train_length
    reach = first.reach  # these layers' window or chunk: they never meet a longer offset
    train = min(reach.span, context) if reach else context
    dim = first.curves.exponent_dim  # the d of theta^(-2i/d): rotary dims (partial), the whole head (proportional)
    turning = first.rotary_dim  # < dim for proportional RoPE, whose other pairs have frequency 0
    theory = view.theory(dim, first.theta, train, turning)
    st.header(t("mod.theory"))
    if model.distinct_ropes > 1:  # the numbers below are one setting's: say which (Gemma: the sliding layers')
        st.caption(t("mod.theory_setting", n=model.distinct_ropes, name=first.name,
                     theta=human_number(first.theta)))
    critical = view.CRITICAL_TEXTS[theory.critical >= turning, bool(reach)]  # every turning pair turns?
    length = t(view.LENGTH_NAMES[reach.kind if reach else model.context], n=human_number(train))
    text = t(critical, head_dim=dim, theta=human_number(first.theta), train=human_number(train), length=length,
             critical=theory.critical, rest=turning - theory.critical, turning=turning)
    still = t("mod.critical_still", still=dim - turning, still_pairs=theory.still_pairs, pairs=dim // 2)
    st.markdown(f"{text} {still}" if theory.still_pairs else text)
    scan_section(rope_settings, colors, dim, theory, first.theta, train)
    plot(figs.two_curves, theory.s, (t("mod.pi_interp"), theory.interpolation),
         (t("mod.pi_extrap"), theory.extrapolation), title=t("mod.pi_title"), x_title=t("mod.pi_x"),
         y_title=t("mod.pi_y"), log_y=True, key=K.PI)
    ratio = theory.ratio  # the extrapolation bound's minimum over the offsets drawn, per the interpolation bound
    if ratio >= 1:  # "at least 6.5 times" at theta 1.5 (6.57): cut, never rounded up
        st.markdown(t("mod.pi_text", interp=theory.interpolation[0],
                      ratio=f"{int(ratio):,}" if ratio >= 10 else f"{int(ratio * 10) / 10:g}"))
    else:  # a pasted theta barely above 1: the interpolation bound is the looser one
        st.markdown(t("mod.pi_text_loose", interp=theory.interpolation[0], ratio=ratio))


st.title(t("mod.title"))
lead("mod.lead")  # the model to show, then its strip; the intro follows the sections

# the model: a published config or a pasted one
source = st.selectbox(t("mod.source"), view.SOURCES, index=0, key=K.SOURCE, help=t("mod.source_help"), bind=BIND,
                      format_func=view.source_label)
config_text = ""
if source == view.CONFIG:
    config_text = st.text_area(t("mod.paste"), view.example_text(), height=220, key=K.CONFIG,
                               max_chars=rope_config.MAX_CONFIG_CHARS)
try:
    model = view.model(source, config_text)
except ValueError as error:
    show_error(error)
    st.stop()

settings = model.settings
colors = figs.setting_colors([s.name for s in settings], rope_layers.NOPE)
labels = {}
for s in settings:
    count = model.counts[s.name]
    count = t("mod.layer_count_one") if count == 1 else t("mod.layer_count", n=count)
    if s.nope:
        labels[s.name] = t("mod.nope_label" if s.attention else "mod.no_attention_label", name=s.name,
                           layers=count)
    else:
        method = METHOD_NAMES.get(s.rope_type)  # a scaling method by its name, a plain rope_type ("default") as is
        labels[s.name] = t("mod.setting_label", name=s.name, rope_type=t(method) if method else s.rope_type,
                           theta=human_number(s.theta), rotary=s.rotary_dim, head_dim=s.head_dim,
                           layers=count)
rope_settings = model.rope_settings

# bound tabs run lazily: only the open tab runs and is sent; the open tab is in the URL
tabs = bound_tabs(K.TAB, list(view.TABS.values()))
sections = {
    "layers": lambda: layers_tab(model, labels, colors),
    "decay": lambda: decay_tab(rope_settings, colors),
    "head": lambda: head_tab(model, rope_settings, colors),
    "mrope": lambda: mrope_tab(model),
    "vision": vision_tab,
    "theory": lambda: theory_tab(model, rope_settings, colors),
}
for tab, code in zip(tabs, view.TAB_CODES):
    if tab.open:
        with tab:
            if code not in ("layers", "vision") and not rope_settings:  # every layer NoPE: no pair turns, nothing to draw here
                all_nope(model)
            else:
                sections[code]()
details(t("mod.intro"))
