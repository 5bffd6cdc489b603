"""The subword block of the "Real model" page (lesson 003): the pieces shown are the bundled tokenizer's."""
from __future__ import annotations

from embedviz.app.i18n import catalog
from embedviz.lessons.widget_keys import RealModel as K
from tests.app import pagetest as pt

TAB = K.TAB  # the subwords sit in a tab of their own, so a page open does not draw their input and table


def _open(lang: str = "en", **query):
    query.setdefault(K.MODEL, "all-MiniLM-L6-v2")  # the bundled WordPiece model (Chinese opens on e5)
    return pt.page(K.MODEL, lang=lang, session={TAB: catalog()["real.tab_subwords"][lang]}, **query)


def _pieces(at):
    table = next(d.value for d in at.table if list(d.value.columns)[0] in ("piece", "子词"))
    return table.iloc[:, 0].tolist(), table.iloc[:, 1].tolist()


def test_unbelief_is_shown_as_this_model_splits_it(minilm):
    at = _open().run()
    pt.ok(at)
    pieces, ids = _pieces(at)
    encoding = minilm.tokenizer.encode("unbelief", add_special_tokens=False)
    assert pieces == encoding.tokens == ["un", "##bel", "##ie", "##f"]  # not the lesson's BPE "un" + "belief"
    assert ids == list(encoding.ids)
    assert any("4 piece(s): un + ##bel + ##ie + ##f" in c.value for c in at.caption)


def test_another_word_and_chinese(minilm):
    at = _open(**{K.SUBWORD: "tokenization"}).run()
    pt.ok(at)
    assert _pieces(at)[0] == ["token", "##ization"]
    zh = _open("zh").run()
    pt.ok(zh)
    assert any("子词" in m.value for m in zh.markdown)
