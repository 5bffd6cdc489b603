"""Short sentences everywhere: every text of the catalog, in both languages, whether a page shows it at its defaults
or not (tour steps, notices of other settings, error messages), keeps each sentence under 35 English words or 70
Chinese characters. tests/app/test_density.py holds a page's default view to the same English limit; this is the
whole catalog.

The rule, and its exceptions, are those of the counter in tests/app/density.py:
- formulas and code ($...$, `...`), markup and links are not words; a placeholder ({n}) is one word, as the number
  it becomes is;
- a sentence ends at . ! ? before the next word (not after "et al.", "e.g.", "vs." ...) and at 。！？; a semicolon or a
  colon does not end one;
- a list is not a sentence: each line of it, a markdown list item or a table row, counts on its own.
English is counted in words; Chinese in characters, each Latin word or number counted as one character.
"""
from __future__ import annotations

import pytest

from embedviz.app.i18n import catalog
from tests.app import density

LONGEST = {"en": 35, "zh": 70}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_catalog_sentence_is_short(lang):
    long_ = {}
    for key, texts in catalog().items():
        for sentence in density.sentences(texts[lang]):
            if (n := density.count(sentence, lang)) > LONGEST[lang]:
                long_[key] = f"{n}: {sentence}"
    assert not long_, "\n".join(f"{key} ({text})" for key, text in sorted(long_.items()))


@pytest.mark.parametrize(("text", "expected"), [
    ("One two. Three four!", ["One two.", "Three four!"]),
    ("Press et al. 2021 found it; e.g. here.", ["Press et al. 2021 found it; e.g. here."]),  # abbreviations
    ("It turns (by ω). multilingual-e5-small cuts.", ["It turns (by ω).", "multilingual-e5-small cuts."]),
    ("Checklist:\n- **unique**: a, b;\n- **bounded**: c.", ["Checklist:", "- unique : a, b;", "- bounded : c."]),
    ("第一句。第二句；还是第二句！", ["第一句。", "第二句；还是第二句！"]),
])
def test_the_splitter_ends_sentences_where_a_reader_does(text, expected):
    assert [" ".join(s.split()) for s in density.sentences(text)] == [" ".join(s.split()) for s in expected]


def test_formulas_and_code_are_not_counted():
    assert density.count("The score $q^T R(m-n) k$ of `nn.Embedding` grows.", "en") == 4  # The, score, of, grows
    assert density.count("分数 $q^T k$ 变大", "zh") == 4


def test_a_long_sentence_is_found_in_either_language():
    en = " ".join(["word"] * 36) + "."
    zh = "字" * 71 + "。"
    assert [s for s in density.sentences(en) if density.count(s, "en") > LONGEST["en"]]
    assert [s for s in density.sentences(zh) if density.count(s, "zh") > LONGEST["zh"]]
