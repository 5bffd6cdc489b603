"""Page tests look a text up by its catalog key (pagetest.text / words / shows / metrics), not by retyping its
English: a rewording then changes the catalog alone, and the test still checks the page shows that text.

The scan: string literals inside an ``assert`` of tests/app/test_*.py that are two or more words of some
catalog English text. An assert that reads ``catalog()`` itself checks the catalog's own words (a lesson's claim,
a number quoted in a sentence) and is left alone. The counts below are what is left and may only go down."""
from __future__ import annotations

import ast
import re

from embedviz.app.i18n import catalog
from tests.conftest import ROOT

LEFT = {  # file -> English literals still asserted (each a text the page shows that a key could name)
    "test_page_real_model.py": 5,  # the real-model page's tests are being rewritten with the token views
    "test_page_rope_truth.py": 2, "test_page_truth.py": 2,  # the catalog's own claims, read into a variable first
    "test_page_input_layer.py": 1,  # the core's own message quoted inside a warning
    "test_page_learned_positions.py": 1, "test_page_trained_embedding.py": 1,  # a number's markup: "about **62°**"
    "test_page_why_position.py": 1,  # "0: the": a token label, not a sentence
    "test_wording.py": 5,  # the catalog's wording itself, checked against the lessons' claims
    "test_i18n_pages.py": 2,  # the English checker's own examples
    "test_tours.py": 1,  # the tour panel's tests are being rewritten with the panel
}


def _english_runs() -> list[str]:
    return [part for entry in catalog().values() for part in re.split(r"\{[^{}]*\}", entry.get("en", ""))
            if len(part.split()) >= 2]


def english_literals(source: str, runs: list[str]) -> list[tuple[int, str]]:
    """(line, literal) of each catalog English literal asserted in ``source``."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Assert) or "catalog()" in ast.unparse(node):
            continue
        for const in ast.walk(node):
            if isinstance(const, ast.Constant) and isinstance(const.value, str):
                words = const.value.strip()
                if len(words.split()) >= 2 and re.search(r"[A-Za-z]{3}", words) and any(words in run for run in runs):
                    found.append((const.lineno, const.value))
    return found


def test_page_tests_name_texts_by_key():
    runs = _english_runs()
    counts = {}
    for path in sorted((ROOT / "tests" / "app").glob("test_*.py")):
        hits = english_literals(path.read_text(encoding="utf-8"), runs)
        if len(hits) > LEFT.get(path.name, 0):
            raise AssertionError(f"{path.name}: look these up by key: {hits}")
        counts[path.name] = len(hits)
    assert {name: n for name, n in counts.items() if n} == LEFT, "fewer left: lower the counts above"


def test_the_scan_sees_a_retyped_english_text():
    runs = _english_runs()
    title = catalog()["cmp.title"]["en"]
    assert english_literals(f"assert at.title[0].value == {title!r}\n", runs) == [(1, title)]
    assert english_literals(f"assert at.title[0].value == catalog()['cmp.title']['en'] != {title!r}\n", runs) == []


def test_fields_reads_back_the_values_a_page_filled_in():
    from tests.app.pagetest import fields, text

    shown = "Intro. " + text("mod.theory_setting", n=2, name="sliding_attention", theta="10,000") + " More."
    assert fields(shown, "mod.theory_setting") == {"n": "2", "name": "sliding_attention", "theta": "10,000"}
    assert fields("(" + text("mod.layer_count", n=48) + ")", "mod.layer_count") == {"n": "48"}
    assert fields(text("mod.layer_count_one"), "mod.layer_count") is None
    assert fields(text("mod.theory_setting", "zh", n=3, name="a", theta="1"), "mod.theory_setting", "zh")["n"] == "3"
