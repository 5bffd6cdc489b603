"""A real model past its length: GlassLM (glassllm's English RoPE model, trained on 128 tokens) reads up to 8x further,
with each context-extension method; its loss by position, its attention by head, and whether it can copy (lesson 003).

Each tab's figure comes first (a slot filled once the widgets under it are read), then its controls: the text,
length and factor every tab shares, and its own."""
import math

import streamlit as st

from embedviz.app import past_length_view as view
from embedviz.app.i18n import t
from embedviz.app.widgets import BIND, bound_tabs, download_csv, human_number, lead, plot, show_error
from embedviz.figures import past_length as figs
from embedviz.figures.export import table_csv
from embedviz.lessons.widget_keys import PastLength as K

d = view.DEFAULTS
st.title(t("past.title"))
lead("past.lead")  # the model's description sits under the tabs: the figure comes first
names = {m: t(key) for m, key in view.METHOD_NAMES.items()}
PRESSED = "_past_pressed"  # session state: the reader asked for the methods the last run's budget left


def shared_controls() -> tuple[str, str, int, float]:
    """The text, the length and the factor, under a tab's figure: drawn by whichever tab is open (the same keys,
    so a setting carries from tab to tab and stays in the URL). Returns (source, text, length, factor)."""
    left, middle, right = st.columns([3, 3, 2])
    view.labels_of_this_language(K.SOURCE, view.SOURCE_NAMES, many=False)
    source = left.segmented_control(t("past.source"), view.SOURCES, default=d["source"], key=K.SOURCE,
                                    required=True, format_func=lambda s: t(view.SOURCE_NAMES[s]), bind=BIND)
    length = middle.select_slider(t("past.length"), [r * 128 for r in view.RATIOS], value=d["length"], key=K.LENGTH,
                                  help=t("past.length_help"), bind=BIND)  # plain numbers: one link in both languages
    factor = right.select_slider(t("past.factor"), view.FACTORS, value=d["factor"], key=K.FACTOR,
                                 format_func=view.factor_label, help=t("past.factor_help"), bind=BIND)
    own = ""
    if source == "own":
        own = st.text_area(t("past.text"), view.own_text_default(), max_chars=view.MAX_OWN_CHARS, height=140,
                           key=K.TEXT, help=t("past.text_help"), bind=BIND)
    return source, view.text_of(source, own), int(length), float(factor)


def read_text(text: str):
    """(facts, None) for a text the model can read, else (None, the refusal)."""
    try:
        return view.text_facts(text), None
    except ValueError as error:
        return None, error


def text_caption(source: str, facts) -> None:
    """Which text the model read, and that it reads English only (its tokenizer is an English BPE)."""
    if facts is not None:
        key = "past.default_caption" if source == "default" else "past.own_caption"
        st.caption(t(key, chars=human_number(facts.chars), tokens=human_number(facts.tokens)) + " " + t("past.english"))
    else:
        st.caption(t("past.english"))


def loss_tab() -> None:
    """Part 1: the loss at each position, per method, the trained length marked; the table of buckets under it."""
    slot = st.container()
    source, text, length, factor = shared_controls()
    view.labels_of_this_language(K.METHODS, view.METHOD_NAMES, many=True)
    methods = st.multiselect(t("past.methods"), list(view.METHOD_NAMES), default=d["methods"], key=K.METHODS,
                             max_selections=view.MAX_METHODS, format_func=names.get, bind=BIND)
    facts, text_error = read_text(text)
    text_caption(source, facts)
    trained = facts.trained if facts else view.TRAINED
    with slot:
        if text_error is not None:
            show_error(text_error)
            return
        if not methods:
            st.info(t("past.no_methods"))
            return
        try:
            run = view.losses(text, list(methods), factor, length, press=st.session_state.pop(PRESSED, False))
        except ValueError as error:
            show_error(error)
            return
        plan, ratio = run.plan, length // trained
        curves = {m: (c.x, c.mean, c.low, c.high) for m, c in view.curves(run).items()}
        independent = max(1, min(plan.independent, len(plan.starts)))
        plot(figs.loss_by_position, curves, {m: names[m] for m in curves}, trained=trained,
             title=t("past.chart_title", length=length, ratio=ratio, trained=trained), x_title=t("past.position_axis"),
             y_title=t("past.loss_axis"), ppl_title=t("past.ppl"), trained_label=t("past.trained_line", trained=trained),
             hover=t("past.hover"), note=t("past.chart_note", windows=len(plan.starts), bin=max(1, length // view.CURVE_BINS),
                                             n=independent))
        table_rows = view.rows(run, trained)
        st.caption(verdict(table_rows, trained))
        if run.left:
            a, b = st.columns([4, 1])
            a.warning(t("past.left", n=len(run.left), methods=", ".join(names[m] for m in run.left),
                        budget=f"{view.RUN_CPU_BUDGET_S:g}"))
            b.button(t("past.more"), key=K.MORE, on_click=lambda: st.session_state.__setitem__(PRESSED, True))
    noise(table_rows, plan, length, trained)
    bucket_table(table_rows, length, trained)
    with st.expander(t("common.details")):
        st.markdown(t("past.details"))


def verdict(table_rows, trained: int) -> str:
    """Lesson 003's claim in numbers: no scaling's loss inside and past the trained length, and the best method past."""
    past = [r for r in table_rows if not math.isnan(r.past)]
    if not past:
        return t("past.verdict_inside")
    best = min(past, key=lambda r: r.past)
    none = next((r for r in table_rows if r.method == "none"), None)
    if none is None:
        return t("past.verdict_best", trained=trained, best=names[best.method], best_past=f"{best.past:.2f}")
    return t("past.verdict", inside=f"{none.inside:.2f}", past=f"{none.past:.2f}", rise=f"{none.past - none.inside:+.2f}",
             trained=trained, best=names[best.method], best_past=f"{best.past:.2f}")


def noise(table_rows, plan, length: int, trained: int) -> None:
    """Whether the windows can tell the methods apart: beyond their noise, or within it (or too few windows)."""
    if length <= trained:
        return
    if plan.independent < 2:
        st.warning(t("past.too_short", tokens=human_number(plan.n_tokens), length=length, independent=plan.independent))
        return
    apart, within = [], []
    for r in table_rows:
        if r.separations is None:
            continue
        past = [s for b, s in zip(r.buckets, r.separations) if b.start >= trained]
        (apart if past and all(s.separable for s in past) else within).append(names[r.method])
    if apart or within:
        nothing = t("past.nothing")
        st.caption(t("past.noise", windows=len(plan.starts), length=length, independent=plan.independent,
                     trained=trained, apart=", ".join(apart) or nothing, within=", ".join(within) or nothing))
    if plan.overlapping:
        st.caption(t("past.overlap", tokens=human_number(plan.n_tokens), independent=plan.independent))


def bucket_table(table_rows, length: int, trained: int) -> None:
    """The mean loss per bucket of 128 positions (rows: methods), and its CSV with spreads and perplexities."""
    st.markdown(f"**{t('past.table_title', bucket=trained)}**")
    first = table_rows[0].buckets
    heads = [f"{b.start}–{b.stop - 1}" for b in first]
    table = {t("past.col_method"): [names[r.method] for r in table_rows]}
    for i, head in enumerate(heads):
        table[head] = [f"{r.buckets[i].loss:.2f}" for r in table_rows]
    if length > trained:
        table[t("past.col_rise")] = [f"{r.past - r.inside:+.2f}" for r in table_rows]
    st.table(table, hide_index=True)

    def csv() -> str:
        long = {t("past.col_method"): [], t("past.col_start"): [], t("past.col_stop"): [], t("past.col_loss"): [],
                t("past.col_std"): [], t("past.col_ppl"): []}
        for r in table_rows:
            for b in r.buckets:
                for column, value in zip(long, (r.method, b.start, b.stop - 1, round(b.loss, 4), round(b.std, 4),
                                                round(b.perplexity, 2))):
                    long[column].append(value)
        return table_csv(long)

    download_csv(csv, t("past.table_title", bucket=trained), key=K.TABLE_CSV)


def attention_tab() -> None:
    """Part 2: one head's attention map, every head's weight by distance beside RoPE's decay, what each head does."""
    slot = st.container()
    source, text, length, factor = shared_controls()
    a, b, c = st.columns([3, 1, 1])
    view.labels_of_this_language(K.ATT_METHOD, view.METHOD_NAMES, many=False)
    method = a.selectbox(t("past.att_method"), list(view.METHOD_NAMES), index=list(view.METHOD_NAMES).index(d["att_method"]),
                         key=K.ATT_METHOD, format_func=names.get, bind=BIND)
    layer = b.selectbox(t("past.layer"), range(4), index=d["layer"], key=K.LAYER, bind=BIND)
    head = c.selectbox(t("past.head"), range(4), index=d["head"], key=K.HEAD, bind=BIND)
    facts, text_error = read_text(text)
    text_caption(source, facts)
    trained = facts.trained if facts else view.TRAINED
    with slot:
        if text_error is not None:
            show_error(text_error)
            return
        try:
            v = view.attention(text, method, factor, length, int(layer), int(head))
        except ValueError as error:
            show_error(error)
            return
        plot(figs.attention_map, v.heatmap, step=v.step,
             title=t("past.att_title", layer=layer, head=head, length=length, method=names[method]),
             x_title=t("past.att_x"), y_title=t("past.att_y"), colorbar_title=t("past.att_bar"),
             hover=t("past.att_hover"), note=t("past.att_note"))
        st.caption(t("past.kinds", trained=trained, length=length, method=names[method],
                     trained_counts=kind_counts(v.kinds_trained), counts=kind_counts(v.kinds)), help=t("past.kinds_help"))
    head_names = [[t("past.head_name", layer=i, head=j) for j in range(4)] for i in range(4)]
    plot(figs.distance_profiles, v.distances, v.profiles, v.decay,
         title=t("past.profiles_title", length=length, method=names[method]), head_names=head_names,
         decay_name=t("past.decay_name"), x_title=t("past.profiles_x"), y_title=t("past.profiles_y"),
         decay_title=t("past.decay_y"), subplot_titles=[t("past.profiles_left"), t("past.profiles_right")],
         hover=t("past.profiles_hover"))
    trained_counts, counts = view.kind_counts(v.kinds_trained), view.kind_counts(v.kinds)
    st.markdown(t("past.honest", decay32=f"{v.decay_near:.2f}", local=trained_counts.get("local", 0),
                  far=trained_counts.get("far", 0), previous=trained_counts.get("previous", 0), length=length,
                  far_here=counts.get("far", 0)))
    table = {
        t("past.col_head"): [t("past.head_name", layer=k.layer, head=k.head) for k in v.kinds],
        t("past.col_kind_trained", trained=trained): [t(view.KIND_NAMES[k.kind]) for k in v.kinds_trained],
        t("past.col_far_trained", trained=trained): [f"{k.far:.0%}" for k in v.kinds_trained],
        t("past.col_kind_here"): [t(view.KIND_NAMES[k.kind]) for k in v.kinds],
        t("past.col_far_here"): [f"{k.far:.0%}" for k in v.kinds],
        t("past.col_previous"): [f"{k.previous:.2f}" for k in v.kinds],
        t("past.col_follows"): [f"{k.follows:+.2f}" for k in v.kinds],
    }
    st.dataframe(table, hide_index=True)


def kind_counts(kinds) -> str:
    return ", ".join(t("past.kind_count", n=n, kind=t(view.KIND_NAMES[kind])) for kind, n in view.kind_counts(kinds).items())


def copy_tab() -> None:
    """Part 3, dropped: the measurement that says why (the model does not copy inside its own 128 tokens)."""
    check = view.copy_check()
    plot(figs.copy_bars, t("past.copy_labels").split("|"), list(check.losses), title=t("past.copy_title"),
         y_title=t("past.loss_axis"), hover=t("past.copy_hover"))
    first, second, third = (f"{x:.2f}" for x in check.losses)
    st.markdown(t("past.copy_yes" if check.copies else "past.copy_no", passages=check.passages, passage=check.passage,
                  first=first, second=second, third=third))


tabs = bound_tabs(K.TAB, list(view.TABS.values()))
for tab, render in zip(tabs, (loss_tab, attention_tab, copy_tab), strict=True):
    if tab.open:
        with tab:
            render()
with st.expander(t("past.about")):
    st.markdown(t("past.intro"))
