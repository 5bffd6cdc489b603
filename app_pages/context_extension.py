"""Context extension: PI, dynamic NTK, YaRN, Llama 3 and LongRoPE stretch RoPE past its training length (lesson 003).

It opens on the simplest, position interpolation on LLaMA-2-7B (4K x 4). The open tab's figure comes first; the
shared controls and the intro follow it."""
import streamlit as st

from embedviz.rope import context_extension, config as rope_config, scaling as rope_scaling, theta_calculator
from embedviz.positions.attention import logit_scale
from embedviz.app import context_extension_view as view, live, past_length_view
from embedviz.app.i18n import t
from embedviz.app.markup import trusted
from embedviz.app.widgets import BIND, bound_tabs, download_csv, human_number, notice, plot, show_error
from embedviz.app.widgets import details, lead
from embedviz.figures import context_extension as figs
from embedviz.figures.export import table_csv
from embedviz.lessons.widget_keys import Context as K

defaults = view.DEFAULTS  # the widgets' starting values: the default source's settings

st.title(t("ctx.title"))
lead("ctx.lead")

# the open section first (its figure on the first screen), then the settings every section reads: the containers
# are created in that order and the settings filled first
sections_area, controls_area = st.container(), st.container()
with controls_area:
    # 1. where the numbers come from: a preset or a model's config.json
    source = st.selectbox(t("ctx.source"), view.SOURCES, index=view.SOURCES.index(view.DEFAULT_SOURCE), key=K.SOURCE,
                          help=t("ctx.source_help"), bind=BIND)
    config_text = ""
    try:
        if source == view.CONFIG:
            left, right = st.columns([2, 1])
            view.config_from_link()
            try:  # a refused upload says why and leaves the text as it was
                view.take_upload(right.file_uploader(t("ctx.upload"), type=["json"], key=K.UPLOAD,
                                                     max_upload_size=view.UPLOAD_MB))
            except ValueError as error:
                show_error(error)
            config_text = left.text_area(t("ctx.paste"), view.EXAMPLE_CONFIG_TEXT, height=220, key=K.CONFIG,
                                         max_chars=rope_config.MAX_CONFIG_CHARS, help=t("ctx.paste_help"))
            if not view.config_to_link(config_text):
                left.caption(t("ctx.link_no_config", limit=f"{view.CONFIG_URL_CHARS:,}"))
        settings = view.source_settings(source, config_text)
    except ValueError as error:
        show_error(error)
        st.stop()
    view.sync(source, config_text, settings)
    st.caption(view.source_caption(source, settings))

    # 2. the method and its settings
    methods = view.method_options(settings)
    method = st.segmented_control(t("ctx.method"), methods, default=defaults[K.METHOD], key=K.METHOD, required=True,
                                  format_func=lambda m: t(view.METHOD_NAMES[m]), bind=BIND)
    method_name = t(view.METHOD_NAMES[method])  # as the texts and charts name it
    if "longrope" not in methods:
        st.caption(t("ctx.no_longrope"))
    cols = st.columns(5)
    factor = cols[0].number_input(t("ctx.factor"), *view.FACTOR, defaults[K.FACTOR], step=0.5, key=K.FACTOR,
                                  help=t("ctx.factor_help"), bind=BIND)
    original = cols[1].number_input(t("ctx.original"), *view.LENGTH, defaults[K.ORIGINAL], step=1024, key=K.ORIGINAL,
                                    help=t("ctx.original_help"), bind=BIND)
    target = cols[2].number_input(t("ctx.target"), *view.LENGTH, defaults[K.TARGET], step=1024, key=K.TARGET,
                                  help=t("ctx.target_help"), bind=BIND)
    head_dim = cols[3].slider(t("ctx.head_dim"), *view.HEAD_DIM, defaults[K.HEAD_DIM], step=2, key=K.HEAD_DIM,
                              bind=BIND)
    theta = cols[4].number_input(t("ctx.theta"), *view.THETA, defaults[K.THETA], step=10_000.0, format="%.0f",
                                 key=K.THETA, bind=BIND)

    # Fixed slots: rows that come and go (a method's parameters, what was changed, warnings) live in containers that
    # are always there, so the tabs below keep their place and a step does not redraw them as new elements.
    params, ratio = {}, 1.0
    with st.container():
        if names := view.method_params(method):
            st.markdown(f"**{t('ctx.params_header', method=method_name)}**")
            for col, name in zip(st.columns(max(len(names), 4)), names):
                key, lo, hi, step = view.PARAM_SPECS[name]
                label, help_text = (t(key) for key in view.PARAM_TEXTS[name])
                if name == "truncate":
                    params[name] = col.toggle(label, defaults[key], key=key, help=help_text, bind=BIND)
                else:
                    params[name] = col.number_input(label, lo, hi, defaults[key], step=step, key=key, help=help_text,
                                                    bind=BIND)
        if method in view.CONTEXT_LENGTH_METHODS:
            ratio = st.select_slider(t("ctx.ratio"), view.RATIOS, value=defaults[K.RATIO],
                                     format_func=lambda r: f"{r:g}×", key=K.RATIO, bind=BIND)
    status = st.container()  # what was changed, the current length, warnings
    if changed := view.changes(settings, method):
        left, right = status.columns([6, 1])
        items = [t("ctx.change_item", name=name, was=was) for name, was in changed]  # the widgets show the new values
        left.caption(t("ctx.changed", source=source, changes=", ".join(items)))
        right.button(t("ctx.reset"), on_click=view.request_reset, key=K.RESET)

    try:
        ext = view.extension(source, config_text, method, int(head_dim), float(theta), float(factor), int(original),
                             int(target), float(ratio), tuple(params.items()))
    except ValueError as error:
        show_error(error)
        st.stop()
    v, context_length = ext.view, ext.context_length
    pairs = len(v.kinds)
    rotated = 2 * pairs  # the dimensions that turn: head_dim, or its rotated part under a partial rotation
    if context_length is not None:
        status.caption(t("ctx.ratio_caption", context_length=human_number(context_length), method=method_name))
    if target <= original and v.context_length <= original:  # neither the target nor the current length
        status.warning(t("ctx.not_longer"))
    elif beyond := context_extension.beyond_factor(method, int(original), int(target), float(factor)):
        status.warning(t("ctx.beyond", target=human_number(target), covered=human_number(beyond.covered),
                         times=f"{beyond.times:.3g}"))
    kind_names = {k: t(view.KIND_NAMES[k]) for k in figs.KINDS}
    lines = [t("ctx.trained_line", length=human_number(original)), t("ctx.target_line", length=human_number(target))]


def pairs_tab() -> None:
    """Which pairs the method stretches (the wavelength chart), then how many meet angles training never showed.

    The method's text and formulas sit in their own tab: this view is light to open and to redraw on a step."""

    def result() -> str:  # the chart's CSV: one row per pair, built only when the button is pressed
        return table_csv({t("ctx.pair_axis"): list(range(pairs)), t("ctx.wave_before"): v.wavelen_before.tolist(),
                          t("tour.csv_after", method=method_name): v.wavelen_after.tolist(),
                          t("ctx.ratio_axis"): v.ratio.tolist(), t("tour.csv_kind"): list(v.kinds)})

    live.figure("ctx_wave", figs.wavelength_chart,  # live: it follows the factor and theta sliders under it
        v.wavelen_before, v.wavelen_after, v.kinds, original=int(original), target=int(target),
        title=t("ctx.wave_title", method=method_name), x_title=t("ctx.pair_axis"), y_title=t("ctx.wave_axis"),
        before_name=t("ctx.wave_before"), kind_names=kind_names, context_labels=lines, hover=t("ctx.wave_hover"),
        note=t("ctx.wave_note"), csv=result, key=K.LIVE_WAVE, sliders=view.live_sliders(), texts={}, budget={},
        fixed=view.live_fixed(method, rotated, int(original), context_length, params, settings, kind_names,
                              figs.KIND_COLORS, t("ctx.wave_hover")))
    m = st.columns(3)
    help_unseen = t("ctx.unseen_help", length=human_number(v.context_length))
    m[0].metric(t("ctx.unseen_without"), f"{int(v.unseen_unscaled.sum())} / {pairs}", help=help_unseen)
    m[1].metric(t("ctx.unseen_with", method=method_name), f"{int(v.unseen_scaled.sum())} / {pairs}", help=help_unseen)
    if v.base is not None:
        m[2].metric(t("ctx.base"), human_number(round(v.base)))
    else:
        m[2].metric(t("ctx.kinds"), " / ".join(str(v.kinds.count(k)) for k in figs.KINDS))
    if v.overshoot_unscaled > 1:
        st.caption(t("ctx.overshoot", unscaled=f"{v.overshoot_unscaled:.3g}", scaled=f"{v.overshoot_scaled:.3g}",
                     method=method_name))
    notice("ctx.notice")
    # the same methods on a real model, read past its trained length (a new tab: this page keeps its settings)
    st.link_button(t("ctx.real_model"), past_length_view.lesson_url(), icon=":material/trending_up:")
    with st.expander(t("common.details")):  # the other methods: not on screen at the defaults
        st.markdown(t("ctx.notice_more"))


def method_tab() -> None:
    """What the method does: its text, its formula, and what it does to attention."""
    title, text = view.METHOD_TEXTS[method]
    st.header(t(title))
    st.markdown(t(text))
    words = {word: t(key) for word, key in view.FORMULA_WORDS.items()}  # its \text{} in the reader's words
    st.latex(trusted(rope_scaling.formula(rope_scaling.LATEX[method], words)))
    st.metric(t("ctx.attention"), f"{v.attention_factor:.4f}", help=t("ctx.attention_help"))
    attention_formula = rope_scaling.attention_factor_latex(method, factor=float(factor), original=int(original),
                                                            params=params, value=v.attention_factor)
    if attention_formula:
        st.latex(trusted(rope_scaling.formula(attention_formula, words)))  # LaTeX the core wrote from numbers
        # the attention factor scales cos and sin, so the rotated dims only: part of q.k under a partial rotation,
        # and under DeepSeek's MLA, whose q.k also spans qk_nope_head_dim dims that never rotate
        qk_dims = settings.mla.qk_head_dim if settings.mla else int(head_dim)
        key = "ctx.logit_scale" if rotated == qk_dims else "ctx.logit_scale_partial"
        st.caption(t(key, af=f"{v.attention_factor:.4f}", logit=f"{logit_scale(v.attention_factor):.4f}",
                     dims=rotated, head_dim=qk_dims))
    else:
        st.caption(t("ctx.attention_none", method=method_name))
    if settings.mla and settings.mla.logit_factor != 1:
        st.caption(t("ctx.mla_logits", logit=f"{settings.mla.logit_factor:.4f}",
                     factor=f"{settings.mla.factor:g}"))
    with st.expander(t("ctx.all_methods")):
        st.markdown(t("ctx.about"))


def ratio_tab() -> None:
    plot(figs.ratio_chart,
        v.ratio, v.kinds, factor=float(factor), title=t("ctx.ratio_title", method=method_name, factor=f"{factor:g}"),
        x_title=t("ctx.pair_axis"), y_title=t("ctx.ratio_axis"), kind_names=kind_names,
        factor_label=t("ctx.ratio_line"), hover=t("ctx.ratio_hover"), note=t("ctx.ratio_note"),
    )


def turns_tab() -> None:
    length = human_number(v.context_length)
    turns = {
        t("ctx.turns_trained", length=human_number(original)): v.turns_trained,
        t("ctx.turns_unscaled", length=length): v.turns_unscaled,
        t("ctx.turns_scaled", method=method_name, length=length): v.turns_scaled,
    }
    plot(figs.turns_chart,
        turns, title=t("ctx.turns_title"), x_title=t("ctx.pair_axis"), y_title=t("ctx.turns_axis"),
        one_turn_label=t("ctx.one_turn"), dashes={t("ctx.turns_unscaled", length=length): "dot"},
        note=t("ctx.turns_note"),
    )


def decay_tab() -> None:
    plot(figs.decay_chart,
        v.distances, v.decay_before, v.decay_after, original=int(original), target=int(target),
        names=[t("ctx.decay_before"), t("ctx.decay_after", method=method_name)],
        title=t("ctx.decay_title", length=human_number(target)), x_title=t("ctx.decay_axis_x"),
        y_title=t("ctx.decay_axis_y"), context_labels=lines, note=t("ctx.decay_note"),
    )


@st.fragment
def calculator_tab(head_dim: int, target: int) -> None:
    """The other road, pre-train with a larger theta. Its k slider reruns this tab only (a fragment).
    ``head_dim``: the d of the bound, the dimensions that rotate."""
    st.header(t("ctx.calc_header"))
    st.markdown(t("ctx.calc_intro", d=head_dim))
    k = st.slider(t("ctx.calc_k"), 1, 32, 1, key=K.K, bind=BIND)
    try:
        calc = view.calculator(head_dim, target, int(k))
    except ValueError as error:  # a partial rotation of a small head: 2 rotated dimensions, one pair
        show_error(error)
        return
    st.latex(trusted(theta_calculator.theta_for_context_latex(head_dim, target, calc.k, calc.theta)))
    if calc.clamped:
        st.caption(t("ctx.calc_clamped", head_dim=head_dim, pairs=head_dim // 2, k=calc.k))
    c = st.columns(2)
    c[0].metric(t("ctx.calc_theta", k=calc.k), human_number(round(calc.theta)))
    c[1].metric(t("ctx.calc_one"), human_number(round(calc.one_turn)))
    rows = calc.rows
    calc_table = {
        t("ctx.col_model"): [r.model for r in rows],
        "head_dim": [r.head_dim for r in rows],
        t("ctx.col_trained"): [human_number(r.trained) for r in rows],
        t("ctx.col_theta"): [human_number(r.theta) for r in rows],
        t("ctx.col_one"): [human_number(round(r.one_turn)) for r in rows],
        t("ctx.col_k", k=calc.k): [human_number(round(r.k_turn)) for r in rows],
        t("ctx.col_slow"): [f"{r.slow} / {r.pairs}" for r in rows],
    }
    st.table(calc_table, hide_index=True)  # three rows: an HTML table, the tab opens without the data grid
    download_csv(table_csv(calc_table), t("ctx.calc_header"), key=K.CALC_CSV)
    st.markdown(t("ctx.calc_honest"))


# 3. one section per tab; bound tabs are lazy: only the open one runs and is sent, and it is in the URL
with sections_area:
    tabs = bound_tabs(K.TAB, list(view.TABS.values()))
sections = (pairs_tab, method_tab, ratio_tab, turns_tab, decay_tab, lambda: calculator_tab(rotated, int(target)))
for tab, render in zip(tabs, sections, strict=True):
    if tab.open:
        with tab:
            render()
with controls_area:
    details(t("ctx.intro"))
