"""Lesson blocks of the "Token embeddings" page: raw ids (lesson 001) and lesson 004's 409.6M preset."""
from __future__ import annotations

from embedviz.app.i18n import catalog
from embedviz.lessons.widget_keys import Tokens as K
from tests.app import pagetest as pt

TAB = catalog()["tok.tab_onehot"]


def test_defaults_show_byte_ids_and_king_queen(minilm):
    at = pt.page("token_embeddings", **{K.TAB: TAB["en"]}).run()
    pt.ok(at)
    bytes_table = at.dataframe[0].value
    assert bytes_table.iloc[:, 0].tolist() == [ord(c) for c in "@ABCD"]  # 'A' 65, 'B' 66 (lesson 001)
    king, queen = minilm.token_id("king"), minilm.token_id("queen")
    near = at.dataframe[1].value
    assert near.iloc[:, 0].tolist() == list(range(king - 3, king + 4))
    assert near.iloc[:, 1].tolist() == minilm.tokens(range(king - 3, king + 4))
    assert max(c for i, c in zip(near.iloc[:, 0], near.iloc[:, 2]) if i != king) < 0.3  # id neighbours: unrelated
    metrics = {m.label: m.value for m in at.metric}
    cos = pt_cos(minilm, king, queen)
    assert metrics[pt.text("raw.m_cos", word="king", other="queen")] == f"{cos:.3f}"
    assert any(pt.shows(c.value, "raw.ids") and f"{abs(king - queen):,}" in c.value for c in at.caption)


def pt_cos(m, a, b) -> float:
    x, y = m.token_embeddings[a].astype(float), m.token_embeddings[b].astype(float)
    return float(x @ y / (x @ x) ** 0.5 / (y @ y) ** 0.5)


def test_other_words_and_errors(minilm):
    at = pt.page("token_embeddings", **{K.TAB: TAB["en"], K.CHAR: "a", K.WORD: "cat", K.OTHER: "dog"}).run()
    pt.ok(at)
    assert at.dataframe[0].value.iloc[:, 0].tolist() == [95, 96, 97, 98, 99]
    assert {m.label: m.value for m in at.metric}[pt.text("raw.m_cos", word="cat", other="dog")] == f"{pt_cos(minilm, minilm.token_id('cat'), minilm.token_id('dog')):.3f}"
    bad = pt.page("token_embeddings", **{K.TAB: TAB["en"], K.WORD: "xylophone"}).run()
    pt.ok(bad, errors_allowed=True)
    assert any("xylophone" in e.value and pt.shows(e.value, "err.word_pieces") for e in bad.error)


def test_chinese():
    at = pt.page("token_embeddings", lang="zh", **{K.TAB: TAB["zh"]}).run()
    pt.ok(at)
    assert pt.is_chinese(at.header[0].value)
    assert any("相隔" in c.value for c in at.caption)


def test_lesson_004_preset_shows_409_6_million():
    from embedviz.models.params import LESSON_004

    params_tab = catalog()["tok.tab_params"]["en"]
    at = pt.page("token_embeddings", **{K.TAB: params_tab}).run()
    at.selectbox(key=K.PRESET).set_value(LESSON_004).run()
    pt.ok(at)
    assert at.number_input(key=K.VOCAB).value == 100_000 and at.number_input(key=K.WIDTH).value == 4_096
    token_metric = catalog()["tok.metric_token"]["en"]
    assert pt.metric(at, token_metric) == "409,600,000"  # lesson 004: "4 亿多个浮点数"


def test_chinese_names_each_lesson_with_its_word():
    """'第 001 课', never a bare '第 001', on this page's and the Trained embedding page's texts (one name for a lesson)."""
    import re

    for key, texts in catalog().items():
        if key.split(".")[0] in ("tok", "train", "raw", "sub"):
            assert not re.search(r"第 ?00\d(?! ?课)", texts["zh"]), key
