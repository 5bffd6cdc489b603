"""Token embeddings: ids pick rows of a table; one-hot vs dense; which rows a gradient reaches; what tables cost."""
import streamlit as st

from embedviz.app import token_embeddings_view as view
from embedviz.app.i18n import t
from embedviz.app.markup import trusted
from embedviz.app.widgets import (
    bound_tabs, choice_slider, download_csv, human_number, lesson_button, notice, plot, segmented, show_error,
)
from embedviz.app.widgets import details, lead
from embedviz.figures import heatmap
from embedviz.figures import tokens as figs
from embedviz.figures.export import table_csv
from embedviz.input_layer.lookup import INIT_SCHEMES
from embedviz.models.params import POSITIONAL_KINDS, PRESETS
from embedviz.lessons.widget_keys import Tokens as K

QWEN_EXAMPLE = "我爱学习"  # lesson 004's sentence: single characters and a two-character token (学习)
OPTIMISERS = {"sgd": "tok.opt_sgd", "adam": "tok.opt_adam", "adamw": "tok.opt_adamw"}  # each and its catalog key
POSITIONAL_NAMES = {"none": "tok.pos_none", "learned": "tok.pos_learned", "sinusoidal": "tok.pos_sinusoidal",
                    "rope": "tok.pos_rope", "alibi": "tok.pos_alibi"}  # params.POSITIONAL_KINDS
TABLE_METRICS = ["tok.metric_token", "tok.metric_pos", "tok.metric_total", "tok.metric_head"]

st.title(t("tok.title"))
lead("tok.lead")
# the text and the width, then the open section, then the other settings: the containers are created in page order
# and the settings filled first (every section reads them)
top, sections_area, controls_area = st.container(), st.container(), st.container()
c1, c2 = top.columns([3, 2])
text = c1.text_input(t("tok.text"), value="Hello", key=K.TEXT, max_chars=64, bind="query-params")
with c2:
    d_model = choice_slider(K.D_MODEL, "common.d_model", view.D_MODELS, 8)
with controls_area:
    c1, c2 = st.columns([5, 1])
    with c1:
        scheme = segmented(K.INIT, "tok.init", INIT_SCHEMES, "gpt2", format_func=view.INIT_LABELS.get)
    with c2:
        seed = int(st.number_input(t("tok.seed"), 0, 9_999, 0, key=K.SEED, bind="query-params"))
    lesson_button(K.LESSON, "lesson.tok_button", {K.TEXT: "Hello", K.D_MODEL: 8, K.INIT: "unit"},
                  help="lesson.tok_help")
try:
    v = view.lookup_view(text or "", d_model, scheme, seed)
    top.caption(t("tok.ids", n=len(v.ids), ids=", ".join(map(str, v.ids.tolist()))))
except ValueError as error:  # empty text: the parameter tab still works
    v = None
    with top:
        show_error(error)


def lookup_tab() -> None:
    cmp, T = v.comparison, len(v.ids)
    plot(figs.lookup_figure,
        view.table(d_model, scheme, seed), v.ids, cmp.by_index, v.labels,
        title=t("tok.lookup_title", T=T, D=d_model), table_title=t("tok.table_title", D=d_model),
        block_title=t("tok.block_title", T=T, D=d_model), x_title=t("common.dimension"),
        id_title=t("tok.token_id"), colour_key=t("common.scale_key_signed"), downsample_note=t("common.downsampled"),
    )
    st.latex(r"X = W[\mathrm{ids}] = \mathrm{one\_hot}(\mathrm{ids})\,W,\qquad W\in\mathbb{R}^{V\times D},\;"
             r"X\in\mathbb{R}^{T\times D}")
    m1, m2, m3 = st.columns(3)
    m1.metric(t("tok.way_index"), f"({T}, {d_model})")
    m2.metric(t("tok.way_one_hot"), f"{cmp.max_diff_one_hot:.1e}", help=t("tok.max_diff_help"))
    m3.metric(t("tok.way_nn"), f"{cmp.max_diff_nn_embedding:.1e}", help=t("tok.max_diff_help"))
    st.markdown(t("tok.lookup_md"))  # the three ways the metrics compare, under them
    notice("tok.notice_lookup")


def init_tab() -> None:
    st.header(t("tok.init_header"))
    st.markdown(t("tok.init_md"))
    st.latex(r"W_{ij}\sim\mathcal{N}(0,\sigma^2),\quad \sigma\in\{0.02,\;1/\sqrt{D},\;1\},\qquad"
             r" \mathbb{E}\,\|W_i\|\approx\sigma\sqrt{D}")
    i1, i2, i3 = st.columns(3)
    i1.metric(t("tok.metric_init_std"), f"{v.init_std:.4g}")
    i2.metric(t("tok.metric_std"), f"{v.std:.4g}")
    i3.metric(t("tok.metric_norm"), f"{v.mean_row_norm:.3g}")
    plot(figs.init_scale_figure,
        view.D_MODELS, view.init_scales(seed), view.INIT_LABELS, d_model,
        title=t("tok.init_title"), x_title=t("common.d_model"), y_title=t("tok.init_y"), note=t("tok.init_note"),
    )


def raw_ids_block() -> None:
    """Lesson 001: an id is a name, not a number (byte ids, and the bundled model's id neighbours)."""
    st.header(t("raw.header"))
    st.markdown(t("raw.text"))
    r1, r2, r3 = st.columns(3)
    char = r1.text_input(t("raw.char"), value="B", key=K.CHAR, max_chars=1, bind="query-params")
    word = r2.text_input(t("raw.word"), value="king", key=K.WORD, max_chars=40, bind="query-params")
    other = r3.text_input(t("raw.other"), value="queen", key=K.OTHER, max_chars=40, bind="query-params")
    try:
        near = view.byte_neighbours(char or "B")
        r = view.id_neighbour_rows(word or "king", other or "queen")
    except ValueError as error:
        show_error(error)
        return
    r1.dataframe({t("raw.col_id"): [i for i, _ in near], t("raw.col_char"): [c for _, c in near]}, hide_index=True)
    r2.dataframe({t("raw.col_id"): [i for i, _ in r.rows], t("raw.col_token"): r.tokens,
                  t("raw.col_cos", word=word): [c for _, c in r.rows]}, hide_index=True,
                 column_config={t("raw.col_cos", word=word): st.column_config.NumberColumn(format="%.3f")})
    r3.metric(t("raw.m_cos", word=word, other=other), f"{r.other_cos:.3f}")
    r3.metric(t("raw.m_rank", word=word, other=other), f"{r.rank:,} / {r.vocab_size - 1:,}")
    st.caption(t("raw.ids", word=word, other=other, a=r.id, b=r.other_id, gap=r.gap, V=r.vocab_size))


def onehot_tab() -> None:
    st.markdown(t("tok.onehot_md"))
    st.latex(r"\|e_i-e_j\|=\sqrt{1^2+1^2}=\sqrt{2}\approx1.414\quad(i\neq j)")
    dist = v.distances
    plot(figs.distance_pair,
        dist.one_hot, dist.dense, v.distinct_labels, title=t("tok.dist_title", n=len(dist.ids)),
        one_hot_title=t("tok.dist_onehot"), dense_title=t("tok.dist_dense", D=d_model),
    )
    if dist.one_hot_range is None:
        st.caption(t("tok.dist_single"))
    else:
        o1, o2 = st.columns(2)
        o1.metric(t("tok.metric_onehot_range"), "{:.4f} … {:.4f}".format(*dist.one_hot_range))
        o2.metric(t("tok.metric_dense_range"), "{:.4f} … {:.4f}".format(*dist.dense_range))
    notice("tok.notice_onehot")
    raw_ids_block()  # after the tab's figure: a refused word there leaves the distances drawn


def gradient_tab() -> None:
    st.markdown(t("tok.grad_md"))
    untied, tied_word = t("tok.latex_untied"), t("tok.latex_tied")  # catalog words
    st.latex(trusted(r"L=-\frac{1}{T-1}\sum_{t=1}^{T-1}\log\mathrm{softmax}\big(W[x_t]\,H^\top\big)_{x_{t+1}},\qquad "
                     rf"H=\begin{{cases}}W_{{\text{{out}}}}&\text{{{untied}}}\\W&\text{{{tied_word}}}\end{{cases}}"))
    tied = st.toggle(t("tok.tied"), value=False, key=K.TIED, help=t("tok.tied_help"), bind="query-params")
    try:
        g = view.gradient_view(text or "", d_model, scheme, seed, tied)
    except ValueError as error:  # a single byte has no next token
        show_error(error)
        return
    step, V = g.step, len(g.step.row_grad_norm)
    count = len(step.rows_with_gradient)
    plot(figs.gradient_rows_figure,
        step.row_grad_norm, step.input_ids, step.target_ids, g.hover, title=t("tok.grad_title", n=count, V=V),
        x_title=t("tok.token_id"), y_title=t("tok.grad_y"), strip_title=t("tok.grad_strip"),
        names=(t("tok.grad_used"), t("tok.grad_target"), t("tok.grad_other")), grad_title=t("common.grad_norm"),
    )
    g1, g2, g3 = st.columns(3)
    g1.metric(t("tok.metric_rows"), f"{count} / {V}")
    g2.metric(t("tok.metric_moved"), f"{len(step.rows_changed)} / {V}")
    g3.metric(t("tok.metric_loss"), f"{step.loss:.3f}", help=t("tok.loss_help"))
    if tied and count < V:
        st.warning(t("tok.grad_saturated", n=V - count))
    used = ", ".join(g.hover[i] for i in step.rows_with_gradient[:20])
    if not (tied and count < V):  # the tied notice says every row moves: the warning above says why not here
        notice("tok.notice_grad_tied" if tied else "tok.notice_grad_untied", used=used)
    if not tied:  # the notice's last sentence, shown: a second step with each optimiser
        moved = view.second_step(text, d_model, scheme, seed)
        st.caption(t("tok.second_md", other=view.SECOND_TEXT, V=V))
        st.table({t("tok.second_opt"): [t(OPTIMISERS[o]) for o in moved],
                  t("tok.second_moved"): [f"{n} / {V}" for n, _ in moved.values()],
                  t("tok.second_outside"): [k for _, k in moved.values()]})


def parameter_tab() -> None:
    st.markdown(t("tok.params_md"))
    token, learned, head = t("tok.latex_token"), t("tok.latex_learned"), t("tok.latex_head")  # catalog words
    st.latex(trusted(rf"\underbrace{{V\cdot D}}_{{\text{{{token}}}}}+\underbrace{{L\cdot D}}_{{\text{{{learned}}}}}"
                     rf"\;\big(+\underbrace{{V\cdot D}}_{{\text{{{head}}}}}\big)"))
    view.init_calculator()
    st.selectbox(t("tok.preset"), [view.CUSTOM, *PRESETS], key=K.PRESET, on_change=view.apply_preset,
                 bind="query-params", format_func=lambda p: t("tok.custom") if p == view.CUSTOM else p)
    p1, p2, p3 = st.columns(3)
    calc = dict(on_change=view.match_preset, bind="query-params")
    vocab = p1.number_input(t("tok.vocab"), 1, 1_000_000, key=K.VOCAB, **calc)
    width = p2.number_input(t("tok.pd_model"), 1, 65_536, key=K.WIDTH, **calc)
    max_context_length = p3.number_input(t("tok.max_pos"), 0, 1_048_576, key=K.MAX_CONTEXT_LENGTH, **calc)
    q1, q2 = st.columns([2, 1])
    positional = q1.selectbox(t("tok.positional"), POSITIONAL_KINDS, key=K.POSITIONAL,
                              format_func=lambda k: t(POSITIONAL_NAMES[k]), **calc)
    tied = q2.toggle(t("tok.ptied"), key=K.TIE, **calc)
    try:
        pv = view.parameter_view(int(vocab), int(width), int(max_context_length), positional, bool(tied))
    except ValueError as error:  # e.g. a learned table with L = 0
        show_error(error)
        return
    c, mem = pv.counts, pv.memory
    values = [c.token_embedding, c.positional_embedding, c.total, c.output_head]
    for col, key, value in zip(st.columns(4), TABLE_METRICS, values):
        col.metric(t(key), human_number(value))
    tables = [c.token_embedding, c.positional_embedding, c.output_head]  # the counts drawn, right under them
    plot(figs.parameter_bars, [t("tok.bar_token"), t("tok.bar_pos"), t("tok.bar_head")], tables,
         title=t("tok.params_title"), y_title=t("tok.params_y"),
         text=[human_number(x) for x in tables])
    download_csv(table_csv({t("tour.csv_quantity"): [t(key) for key in TABLE_METRICS],
                            t("tour.csv_parameters"): values}), t("tok.params_title"), key=K.PARAMS_CSV)
    st.markdown(t("tok.memory", fp32=view.human_bytes(mem["fp32"].total), bf16=view.human_bytes(mem["bf16"].total),
                  fp32_head=view.human_bytes(mem["fp32"].total_with_head),
                  bf16_head=view.human_bytes(mem["bf16"].total_with_head)))
    preset, shares = st.session_state.get(K.PRESET), view.preset_shares()
    if preset in shares:
        st.success(t("tok.share", name=preset, share=f"{shares[preset]:.1%}",
                     total=human_number(PRESETS[preset].total_params)))
    else:
        st.caption(t("tok.share_unknown"))
    plot(figs.parameter_bars, list(shares), [100 * s for s in shares.values()], title=t("tok.shares_title"),
         y_title=t("tok.shares_y"), highlight=preset, note=t("tok.shares_note"),
         text=[f"{s:.1%}" for s in shares.values()])
    notice("tok.notice_params")


def qwen_tab() -> None:
    st.markdown(t("multi.qwen_intro"))
    lesson_button(K.QWEN_TRY, "multi.qwen_try", {K.TEXT: QWEN_EXAMPLE})
    if (pip := view.qwen_missing()) is not None:
        st.error(t("multi.qwen_missing", pip=pip))
        return
    try:
        q = view.qwen_view(text or "", d_model, scheme, seed)
    except ValueError as error:
        show_error(error)
        return
    st.caption(t("multi.qwen_counts", chars=len(text), n=len(q.ids), bytes=q.byte_count))
    st.dataframe({t("multi.col_piece"): q.pieces, t("multi.col_qwen_id"): q.ids.tolist(),
                  t("multi.col_chars"): q.chars, t("multi.col_bytes"): q.nbytes,
                  t("multi.col_byte_ids"): q.byte_ids}, hide_index=True)
    if q.partial:
        st.caption(t("multi.qwen_partial"))
    labels = [f"{p} ({i})" for p, i in zip(q.pieces, q.ids.tolist())]
    plot(heatmap, q.rows, y=labels, title=t("multi.qwen_rows_title", T=len(q.ids), V=f"{q.vocab_size:,}",
                                               D=d_model), x_title=t("common.dimension"), y_title=t("tok.token_id"),
         yaxis={"automargin": True})  # "学习 (100134)": wider than the default left margin
    st.caption(t("multi.qwen_not_weights", V=f"{q.vocab_size:,}"))


# bound tabs run lazily: only the open tab's figures are built on a rerun, and the open tab is in the URL
# (one main figure per tab: a page open or a d_model step redraws one chart)
with sections_area:
    tabs = bound_tabs(K.TAB, ["tok.tab_lookup", "tok.tab_init", "tok.tab_onehot", "tok.tab_grad", "tok.tab_params",
                              "multi.tab_qwen"])
for tab, render, needs_text in zip(tabs, (lookup_tab, init_tab, onehot_tab, gradient_tab, parameter_tab, qwen_tab),
                                   (1, 1, 1, 1, 0, 1)):
    if tab.open and (v is not None or not needs_text):
        with tab:
            render()
with controls_area:
    details(t("tok.intro"))
