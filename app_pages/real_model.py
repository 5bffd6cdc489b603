"""Real model: the token table of a bundled pretrained model (all-MiniLM-L6-v2, or multilingual-e5-small, which
reads Chinese), offline; the learned position tables have their own page (learned_positions.py)."""
import streamlit as st

from embedviz.app import real_model_view as view
from embedviz.app.errors import localized
from embedviz.app.i18n import current_language, t
from embedviz.app.step_section import step_figure
from embedviz.app.widgets import bound_tabs, BIND, int_slider, notice, pc_axes, plot, show_error
from embedviz.app.widgets import details, lead, lesson_button
from embedviz.figures import real_model as figs
from embedviz.lessons.widget_keys import RealModel as K

DEFAULT_PAIRS = "cat, dog\ncat, car\nking, queen\nman, woman"
SCRIPT_NAMES = {"han": "multi.script_han", "latin": "multi.script_latin", "hangul": "multi.script_hangul",
                "cyrillic": "multi.script_cyrillic", "thai": "multi.script_thai", "arabic": "multi.script_arabic",
                "greek": "multi.script_greek", "kana": "multi.script_kana", "devanagari": "multi.script_devanagari",
                "hebrew": "multi.script_hebrew", "other": "multi.script_other"}  # unigram.script_of's codes
E5_WORDS = "动物: 猫, 狗, 马, 牛, 鸟, 鱼\n交通: 汽车, 火车, 飞机, 自行车, 公交车\n王室: 国王, 王子, 公主\n数字: 一, 二, 三, 四, 五, 六"
E5_PAIRS = "猫, 狗\n猫, 汽车\ncat, dog\ncat, car\n猫, cat"  # lesson 003's pairs, then the same in English
E5_SUBWORDS = "unbelief 我爱学习"  # SentencePiece pieces of an English and a Chinese word at once
DEFAULT_WORDS = (
    "animals: cat, dog, horse, cow, bird, fish\nvehicles: car, bus, truck, train, bicycle, plane\n"
    "royals: king, queen, prince, princess, throne, crown\nnumbers: one, two, three, four, five, six"
)


def ranked(tokens, scores, title: str) -> None:
    left, right = st.columns([2, 3])
    left.dataframe(ranked_rows(tokens, scores), hide_index=True)
    with right:
        plot(figs.score_bars, tokens, scores, title=title, x_title="cos", err=err)


def ranked_rows(tokens, scores) -> list[dict]:
    # an e5 cosine carries its 4-bit rounding in the column title, as in the caption under it
    return view.ranked_rows(tokens, scores, token_column=t("common.token"),
                            cos_column=t("multi.cos_col", err=err) if err else "cos", decimals=3 if err else 4)


def rounding_note() -> None:
    if err:
        st.caption(t("multi.rounding", err=err))


def model_text(minilm_key: str, e5_key: str) -> str:
    """The key of a text about the model on show: e5's own where MiniLM's would say wrong things."""
    return e5_key if e5 else minilm_key


# The title, the lead and the lesson's table first, then the model picker and the model's numbers: the slots are
# created in page order and filled once the picker has said which model the page shows.
title, lead_slot, first, model_area = st.empty(), st.container(), st.container(), st.container()
name = model_area.selectbox(t("multi.model"), view.MODELS, key=K.MODEL, bind=BIND, help=t("multi.model_help"),
                            index=view.MODELS.index(view.default_model(current_language())),
                            format_func=lambda n: n.split("/")[-1])
e5, err = name != view.MODELS[0], view.rounding(name)
title.title(t("multi.title") if e5 else t("real.title"))
if (missing := view.missing_package(name)) is not None:
    st.error(t("multi.missing", package=missing.package, pip=missing.pip))
    st.stop()
info = view.model_info(name)
positions_moved = t("real.positions_moved", L=info.num_positions, D=info.d_model)
with lead_slot:
    lead("multi.lead" if e5 else "real.lead")

with first:
    measured = view.lesson_pairs(name)
    st.table(view.lesson_rows(measured, columns=[t(key) for key in view.LESSON_COLUMNS],
                              lesson=t("real.lesson_source"), here=t("real.here_source"), name=name, err=err),
             hide_index=True)
    if e5:
        st.caption(t("multi.lesson_caption", cat_dog=measured[("猫", "狗")], cat_car=measured[("猫", "汽车")],
                     en_dog=measured[("cat", "dog")], en_car=measured[("cat", "car")]))
        rounding_note()
    else:
        st.caption(t("real.lesson_caption", cat_dog=measured[("cat", "dog")], cat_car=measured[("cat", "car")],
                     rank=view.neighbour_rank("cat", "car"), V=f"{view.model_info().vocab_size:,}",
                     cat_airplane=measured[("cat", "airplane")], cat_tuesday=measured[("cat", "tuesday")]))
        lesson_button(K.TRY_E5, "multi.try_e5", {K.MODEL: view.E5_NAME}, help="multi.try_e5_help")

with model_area:
    metrics = st.columns(4)
    metrics[0].metric(t("real.metric_vocab"), f"{info.vocab_size:,}")
    metrics[1].metric("d_model", f"{info.d_model:,}")
    metrics[2].metric(t("real.metric_positions"), f"{info.num_positions:,}")
    metrics[3].metric(t("real.metric_params"), f"{info.token_params:,}")
    details(*((t("multi.intro"), positions_moved, t("multi.lesson_header")) if e5
              else (t("real.intro"), positions_moved, t("real.lesson_header"))),
            formula=r"\cos(u, v) = \frac{u \cdot v}{\lVert u \rVert\,\lVert v \rVert}\in[-1, 1]")

# bound tabs run lazily: a page open draws the header and the open tab only (the subwords' input and table
# included, which sit in a tab of their own)
pairs_tab, subwords_tab, analogy_tab, neighbours_tab, cross_tab, map_tab, upload_tab = bound_tabs(
    K.TAB, view.TAB_LABEL_KEYS)

if pairs_tab.open:
    with pairs_tab:
        text = st.text_area(t("real.pairs_input"), value=E5_PAIRS if e5 else DEFAULT_PAIRS,
                            key=K.PAIRS_E5 if e5 else K.PAIRS, height=150 if e5 else 130,
                            max_chars=2_000, help=t("real.pairs_help"), bind=BIND)
        rows = view.pair_rows(text, name)
        for row in rows:
            if row.pieces:
                st.warning(t("real.pair_format", line=row.line, n=row.pieces))
            elif row.error:
                st.warning(t("real.pair_skipped", line=row.line, message=localized(row.error)))
        good = [row for row in rows if row.cos is not None]
        if good:
            plot(figs.pair_bars, [f"{r.a} / {r.b}" for r in good], [r.cos for r in good],
                 title=t("real.pairs_title"), y_title="cos", note=t("real.pairs_note"), err=err)
            rounding_note()
        else:
            st.warning(t("real.pairs_none"))
        notice(model_text("real.pairs_notice", "multi.pairs_notice"))

if subwords_tab.open:  # lesson 003: subwords
    with subwords_tab:
        st.markdown(f"**{t('sub.header')}**\n\n{t('multi.sub_e5' if e5 else 'sub.text')}")
        s1, s2 = st.columns([1, 2])
        default_word = E5_SUBWORDS if e5 else "unbelief"
        sub_word = s1.text_input(t("sub.word"), value=default_word, key=K.SUBWORD_E5 if e5 else K.SUBWORD,
                                 max_chars=40, bind=BIND)
        try:
            pieces = view.pieces(sub_word or default_word, name)
        except ValueError as error:
            show_error(error)
        else:
            s2.table({t("sub.col_piece"): [p for p, _ in pieces], t("sub.col_id"): [i for _, i in pieces]})
            shown = [f"'{p}'" if e5 else p for p, _ in pieces]  # SentencePiece pieces quoted: "be" is data
            s1.caption(t("sub.count", word=sub_word, n=len(pieces), pieces=" + ".join(shown)))

if analogy_tab.open:
    with analogy_tab:
        st.markdown(t("real.analogy_intro"))
        cols = st.columns(4)
        words = [col.text_input(label, value=word, key=key, max_chars=40, bind=BIND)
                 for col, label, word, key in zip(cols, ("a", "− b", "+ c"), ("king", "man", "woman"),
                                                  (K.A, K.B, K.C))]
        with cols[3]:
            k = int_slider(K.ANALOGY_K, "real.k", 1, 30, 10)
        try:
            tokens, scores = view.analogy_rows(*words, k, name)
        except ValueError as error:
            show_error(error)
        else:
            ranked(tokens, scores, t("real.analogy_title", a=words[0], b=words[1], c=words[2]))
            rounding_note()
            notice(model_text("real.analogy_notice", "multi.analogy_notice"))

if neighbours_tab.open:
    with neighbours_tab:
        left, right = st.columns(2)
        word = left.text_input(t("real.word"), value="cat", key=K.WORD, max_chars=40, bind=BIND)
        with right:
            k = int_slider(K.K, "real.k", 1, 50, 10)
        try:
            tokens, scores = view.neighbour_rows(word, k, name)
        except ValueError as error:
            show_error(error)
        else:
            ranked(tokens, scores, t("real.neighbours_title", word=word, k=k))
            rounding_note()
            notice(model_text("real.neighbours_notice", "multi.neighbours_notice"))

if cross_tab.open:
    with cross_tab:
        st.markdown(t("multi.cross_intro"))
        if not e5:
            st.info(t("multi.cross_needs_e5"))
        else:
            left, right = st.columns(2)
            word = left.text_input(t("multi.cross_word"), value="猫", key=K.CROSS_WORD, max_chars=40, bind=BIND)
            with right:
                k = int_slider(K.CROSS_K, "real.k", 2, 50, 12)
            try:
                cross = view.cross_lingual_rows(word, k, name)
            except ValueError as error:
                show_error(error)
            else:
                scripts = [t(SCRIPT_NAMES[code]) for code in cross.scripts]
                rows = ranked_rows(cross.tokens, cross.scores)
                for row, script in zip(rows, scripts):
                    row[t("multi.col_script")] = script
                st.dataframe(rows, hide_index=True, height=view.table_height(len(rows)))
                distinct = list(dict.fromkeys(scripts))
                st.caption(t("multi.cross_scripts", n=len(distinct), k=k, scripts="、".join(distinct)))
                plot(figs.score_bars, cross.tokens, cross.scores, title=t("multi.cross_title", word=word, k=k),
                     x_title="cos", err=err)
                rounding_note()

if map_tab.open:
    with map_tab:
        text = st.text_area(t("real.map_input"), value=E5_WORDS if e5 else DEFAULT_WORDS,
                            key=K.WORDS_E5 if e5 else K.WORDS, height=130,
                            max_chars=4_000, help=t("real.map_help"), bind=BIND)
        try:
            result = view.word_map(text, name)
        except ValueError as error:
            show_error(error)
        else:
            for word, error in result.skipped:
                st.warning(t("real.map_skipped", word=word, message=localized(error)))
            plot(figs.word_map, result.points, result.labels, result.groups, title=t("real.map_title"),
                 axis_titles=pc_axes(),
                 note=t("real.map_note"))
            notice(model_text("real.map_notice", "multi.map_notice"))

if upload_tab.open:
    with upload_tab:
        limits = view.upload_limits()
        st.markdown(t("real.upload_intro", mb=limits.mb, values=limits.values))
        uploaded = st.file_uploader(t("real.upload_label"), type=["safetensors", "npy"], key=K.UPLOAD,
                                    max_upload_size=view.UPLOAD_MB, on_change=view.forget_upload)
        try:
            table = view.uploaded_table(uploaded)
        except ValueError as error:
            show_error(error)
        else:
            if table is None:
                st.caption(t("real.upload_hint"))
            else:
                V, D = table.shape
                st.success(t("real.upload_ok", name=table.name, V=V, D=D)
                           + (f" {t('real.upload_tensor', tensor=table.token_tensor)}" if table.token_tensor else ""))
                limit = view.view_row_limit(V, D)
                n = (st.slider(t("real.upload_rows", limit=limit), 2, limit, min(limit, 256), key=K.ROWS)
                     if limit > 2 else 2)
                views = view.row_views(table.source, 0, n, _upload=table)
                note = t("common.downsampled", rs=views.step, cs=views.step) if views.step > 1 else None
                plot(figs.single_matrix(views.similarity, views.rows[:: views.step],
                                        title=t("real.upload_matrix_title", n=n), x_title=t("real.row"), note=note))
                step_figure(views, {table.name: views.adjacent}, t("real.row"))
                plot(figs.rows_pca(views.pca, views.rows, title=t("real.pca_rows_title", n=n),
                                   color_title=t("real.row"), note=t("real.pca_rows_note"), axis_titles=pc_axes()))
                notice("real.upload_notice")
