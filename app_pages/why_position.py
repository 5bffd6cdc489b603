"""Why position: attention without positions is permutation-equivariant (lesson 003), so word order is invisible."""
import streamlit as st

from embedviz.app import why_position_view as cached
from embedviz.app.i18n import t
from embedviz.app.widgets import bound_tabs, BIND, details, int_slider, notice, page_header, plot, segmented, show_error
from embedviz.figures.sinusoidal import difference_heatmap, outputs_side_by_side
from embedviz.lessons.widget_keys import WhyPosition as K

SPLITS = {"words": "why.split_words", "chars": "why.split_chars"}  # each choice and its catalog key
SHUFFLES = {"reverse": "why.shuffle_reverse", "random": "why.shuffle_random", "typed": "why.shuffle_typed"}
KINDS = {"none": "why.pos_none", "sinusoidal": "why.pos_sinusoidal", "learned": "why.pos_learned"}

page_header("why.title", "why.lead")  # the figure first: the formula and the intro follow the experiment


@st.fragment
def experiment() -> None:
    """The whole experiment below the header: its widgets affect only it, so a step reruns and redraws this part,
    not the frame and the header. The sentence comes first, then the figure it makes, the two sentences and their
    numbers, and the other settings (the containers are created in that order and filled once the settings are
    read)."""
    text = st.text_input(t("why.text"), value="the cat sat on the mat", key=K.TEXT, max_chars=200,
                         help=t("why.text_help"), bind=BIND)
    figure, measured, settings = st.container(), st.container(), st.container()
    with settings:
        split, shuffle, shuffled_text, kind, causal, seed, d_model = experiment_settings()
    try:
        result, plain_difference = cached.word_order(text, split, shuffle, shuffled_text, seed, kind, d_model, causal)
    except ValueError as error:
        with figure:
            show_error(error)
        return
    with figure:
        outputs(result, kind, causal)
    with measured:
        numbers(result, plain_difference, kind, causal)


def experiment_settings() -> tuple:
    """How the sentence is split and shuffled, the positions, the mask, the seed and the width."""
    left, right = st.columns(2)
    with left:
        split = segmented(K.SPLIT, "why.split", SPLITS, "words", format_func=lambda s: t(SPLITS[s]))
    with right:
        shuffle = segmented(K.SHUFFLE, "why.shuffle", SHUFFLES, "reverse",
                            format_func=lambda s: t(SHUFFLES[s]))
    shuffled_text = ""
    if shuffle == "typed":
        shuffled_text = st.text_input(t("why.order"), value="mat the on sat cat the", key=K.ORDER, max_chars=200,
                                      bind=BIND)
    left, middle, right = st.columns([1.6, 1, 1])
    with left:
        kind = segmented(K.POSITIONS, "why.positions", KINDS, "none", format_func=lambda s: t(KINDS[s]))
        causal = st.toggle(t("why.causal"), False, key=K.CAUSAL, help=t("why.causal_help"), bind=BIND)
    with middle:
        seed = int_slider(K.SEED, "why.seed", 0, 99, 0)
    with right:
        d_model = int_slider(K.D_MODEL, "common.d_model", 2, 64, 8)
    return split, shuffle, shuffled_text, kind, causal, seed, d_model


def numbers(result, plain_difference: float, kind: str, causal: bool) -> None:
    """The two sentences and the largest difference without and with positions."""
    st.markdown(t("why.sentences", original=" ".join(result.tokens), shuffled=" ".join(result.shuffled_tokens)))
    metrics = st.columns(2)
    metrics[0].metric(t("why.metric_plain_causal" if causal else "why.metric_plain"), f"{plain_difference:.2e}",
                      help=t("why.metric_help"))
    if kind != "none":
        kind_name = t(KINDS[kind])
        metrics[1].metric(t("why.metric_with", kind=kind_name), f"{result.demo.max_difference:.2e}",
                          help=t("why.metric_help"))


def outputs(result, kind: str, causal: bool) -> None:
    """The tabs: the per-token difference, the outputs in both orders, dog bites man and the causal mask."""
    demo = result.demo
    labels = [f"{i}: {tok}" for i, tok in enumerate(result.tokens)]
    shuffled_labels = [f"{i}: {tok}" for i, tok in enumerate(result.shuffled_tokens)]
    # (the difference first: it is what the metric below measures, token by token); bound tabs run lazily
    tabs = bound_tabs(K.TAB, ["why.tab_difference", "why.tab_outputs", "why.tab_words"])
    if tabs[0].open:
        with tabs[0]:
            plot(difference_heatmap, demo.difference, labels, title=t("why.diff_title"), x_title=t("common.dimension"),
                 colour_key=t("why.diff_scale"),
                 note=t("why.diff_note_causal" if causal and kind == "none" else
                        "why.diff_note_none" if kind == "none" else "why.diff_note_pos"))
    if tabs[1].open:
        with tabs[1]:
            plot(outputs_side_by_side, demo.outputs, demo.shuffled_outputs, labels, shuffled_labels,
                 title=t("why.figure_title"), note=t("why.figure_note"),
                 subplot_titles=[t("why.panel_before"), t("why.panel_after")], x_title=t("common.dimension"))
    if tabs[2].open:
        with tabs[2]:
            words_tab()


def words_tab() -> None:
    st.header(t("why.dog_header"))
    st.markdown(t("why.dog"))
    st.header(t("why.causal_header"))
    st.markdown(t("why.causal_md"))


experiment()
details(t("why.intro"), t("why.formula_caption"),
        formula=r"\mathrm{Attn}(X)=\mathrm{softmax}\!\Big(\tfrac{XW_q\,(XW_k)^\top}{\sqrt{d}}\Big)\,XW_v,"
        r"\qquad \mathrm{Attn}(PX)=P\,\mathrm{Attn}(X)")
notice("why.notice")
