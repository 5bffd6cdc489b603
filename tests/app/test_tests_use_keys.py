"""Page tests look a text up by its catalog key (pagetest.text / words / shows / fields / metrics), not by retyping
its English: a rewording then changes the catalog alone, and the test still checks the page shows that text.

The scan: string literals inside an ``assert``'s test of tests/app/test_*.py that are two or more whole words of
some catalog English text. An assert that reads ``catalog()`` itself, or a name bound to a piece of it
(``text = catalog()["mod.intro"]``), checks the catalog's own words (a lesson's claim, a number quoted in a
sentence) and is left alone. LEFT is what is left and may only go down.

A core refusal's English has its values filled in ("tour ('009') must be one of ..."), so no literal lies inside one
run of its template: any literal holding three or more words of an "err.<code>" template counts, and none may be
left (a page test names a refusal by code and params: pagetest.refusal, pagetest.fields)."""
from __future__ import annotations

import ast
import re
from pathlib import Path

from embedviz.app.i18n import catalog
from tests.conftest import ROOT

LEFT: dict[str, int] = {}  # file -> English literals still asserted (each a text the page shows that a key could name)


def _english_runs() -> list[str]:
    return [part for entry in catalog().values() for part in re.split(r"\{[^{}]*\}", entry.get("en", ""))
            if len(part.split()) >= 2]


def _root(expr: ast.expr) -> ast.expr:
    """What an expression reads from: ``catalog()`` for ``catalog()["mod.intro"]["en"].split(":")[0]``."""
    while True:
        if isinstance(expr, ast.Call) and not (isinstance(expr.func, ast.Name) and expr.func.id == "catalog"):
            expr = expr.func
        elif isinstance(expr, (ast.Subscript, ast.Attribute)):
            expr = expr.value
        else:
            return expr


def _catalog_names(tree: ast.AST) -> set[str]:
    """Names bound to the catalog's own text (``text = catalog()["mod.intro"]``, or a piece of such a name): an
    assert on them checks the catalog's words, as one that reads ``catalog()`` inline does."""
    names: set[str] = set()
    assigns = [node for node in ast.walk(tree) if isinstance(node, ast.Assign)]
    for _ in range(3):  # a piece of a catalog name, itself a piece of another
        for node in assigns:
            root = _root(node.value)
            if "catalog()" == ast.unparse(root) or isinstance(root, ast.Name) and root.id in names:
                names |= {n.id for target in node.targets for n in ast.walk(target) if isinstance(n, ast.Name)}
    return names


def english_literals(source: str, runs: list[str]) -> list[tuple[int, str]]:
    """(line, literal) of each catalog English literal asserted in ``source`` (its test, not its message)."""
    found = []
    for function in ast.walk(ast.parse(source)):
        if not isinstance(function, (ast.FunctionDef, ast.Module)):
            continue
        catalog_names = _catalog_names(function)
        for node in ast.walk(function):
            if not isinstance(node, ast.Assert) or "catalog()" in ast.unparse(node.test):
                continue
            if {n.id for n in ast.walk(node.test) if isinstance(n, ast.Name)} & catalog_names:
                continue
            for const in ast.walk(node.test):
                if isinstance(const, ast.Constant) and isinstance(const.value, str):
                    words = const.value.strip()
                    whole = re.compile(rf"(?<!\w){re.escape(words)}(?!\w)")  # "0: the" is not in "10: the"
                    if len(words.split()) >= 2 and re.search(r"[A-Za-z]{3}", words) and any(whole.search(run)
                                                                                             for run in runs):
                        found.append((const.lineno, const.value))
    return sorted(set(found))


def _refusal_runs() -> list[str]:
    """The runs of three or more words between the placeholders of each core refusal's English template."""
    return sorted({part.strip() for key, entry in catalog().items() if key.startswith("err.")
                   for part in re.split(r"\{[^{}]*\}", entry.get("en", "")) if len(part.split()) >= 3})


def refusal_literals(source: str, runs: list[str]) -> list[tuple[int, str]]:
    """(line, literal) of each string literal in ``source`` that holds a run of a refusal's English."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and any(
                re.search(rf"(?<!\w){re.escape(run)}(?!\w)", node.value) for run in runs):
            found.append((node.lineno, node.value))
    return sorted(found)


def test_page_tests_name_refusals_by_code():
    runs = _refusal_runs()
    hits = {path.name: found for path in sorted((ROOT / "tests" / "app").glob("test_*.py"))
            if path.name != Path(__file__).name  # its own examples of what the scan sees
            and (found := refusal_literals(path.read_text(encoding="utf-8"), runs))}
    assert not hits, f"name these refusals by code and params (pagetest.refusal): {hits}"


def test_the_scan_sees_a_retyped_refusal():
    runs = _refusal_runs()
    shown = 'assert "tour (\'009\') must be one of" in at.error[0].value\n'
    assert refusal_literals(shown, runs) == [(1, "tour ('009') must be one of")]
    assert refusal_literals('assert at.error[0].value == refusal("one_of", name="tour", value="009")\n', runs) == []


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
    bound = f"def test():\n    text = catalog()['cmp.title']['en']\n    assert {title!r} in text\n"
    assert english_literals(bound, runs) == []  # the catalog's own words, read into a name first
    shown = f"def test():\n    text = at.title[0].value\n    assert {title!r} in text, 'no {title}'\n"
    assert english_literals(shown, runs) == [(3, title)]  # the page's text: counted once, its message not


def test_fields_reads_back_the_values_a_page_filled_in():
    from tests.app.pagetest import fields, text

    shown = "Intro. " + text("mod.theory_setting", n=2, name="sliding_attention", theta="10,000") + " More."
    assert fields(shown, "mod.theory_setting") == {"n": "2", "name": "sliding_attention", "theta": "10,000"}
    assert fields("(" + text("mod.layer_count", n=48) + ")", "mod.layer_count") == {"n": "48"}
    assert fields(text("mod.layer_count_one"), "mod.layer_count") is None
    assert fields(text("mod.theory_setting", "zh", n=3, name="a", theta="1"), "mod.theory_setting", "zh")["n"] == "3"
