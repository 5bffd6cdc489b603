"""Catalog keys are written out where they are used (grep "cmp.why_rope_relative" finds its page), not built from
a code at run time: each page's key table names every code of the core registry it covers, and every key in it is
in the catalog, so a new method, scheme or tab fails here instead of raising KeyError on a page."""
from __future__ import annotations

import ast
import re

import pytest

from embedviz.rope import (
    context_extension, layers as rope_layers, reach as rope_reach, scaling as rope_scaling, vision as rope_vision,
)
from embedviz.app import context_extension_view, modern_rope_view, past_length_view, real_model_view, rope_view
from embedviz.language_model import extension as lm_extension, heads as lm_heads
from embedviz.app.i18n import catalog
from embedviz.figures import context_extension as context_figs
from tests.conftest import ROOT

# keys still built from a code, by file: each family is one registry's, keyed by its own codes (an error's code,
# a tour step's name, a question's options); the count may only go down
BUILT = {
    "embedviz/app/errors.py": 1,  # err.<code>: one entry per embedviz.errors.TEMPLATES code (tests/app/test_errors.py)
    "embedviz/app/locales/err.py": 1,  # the same table, read into the catalog
    "embedviz/app/classroom_view.py": 1,  # classroom.err.<code>, likewise for the class store's refusals
    "embedviz/app/tour.py": 13,  # tour.<lesson>.<step>, tour.q.<question>.<option>: tests/test_tours.py walks them all
    "embedviz/app/widgets.py": 2,  # common.alt_<word> / csv_col_<column>: the figure-text words, shared with live.py
    "embedviz/app/live.py": 2,
}


def built_keys(source: str, prefixes: set[str], tails: frozenset[str] = frozenset()) -> list[tuple[int, str]]:
    """(line, expression) of each f-string or "prefix." + value that starts like a catalog key, and of each
    f-string that ends like one after a prefix chosen at run time (``f"{prefix}.title"``, ".title" in ``tails``)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        head = None
        if isinstance(node, ast.JoinedStr) and len(node.values) == 2 and isinstance(node.values[0], ast.FormattedValue) \
                and isinstance(node.values[1], ast.Constant) and node.values[1].value in tails:
            found.append((node.lineno, ast.unparse(node)))
            continue
        if isinstance(node, ast.JoinedStr) and node.values and isinstance(node.values[0], ast.Constant):
            head = node.values[0].value
        elif (isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add) and isinstance(node.left, ast.Constant)
              and isinstance(node.left.value, str)):
            head = node.left.value
        if head and re.fullmatch(r"[a-z]+\.[\w.]*", head) and head.split(".")[0] + "." in prefixes:
            found.append((node.lineno, ast.unparse(node)))
    return found


def _tails() -> frozenset[str]:
    """What follows a key's first part: ".title" of "sin.title"."""
    return frozenset("." + key.split(".", 1)[1] for key in catalog())


def test_pages_and_views_write_their_keys_out():
    prefixes, tails = {key.split(".")[0] + "." for key in catalog()}, _tails()
    counts = {}
    for path in sorted([*(ROOT / "app_pages").glob("*.py"), *(ROOT / "embedviz" / "app").rglob("*.py")]):
        name = path.relative_to(ROOT).as_posix()
        hits = built_keys(path.read_text(encoding="utf-8"), prefixes, tails)
        assert len(hits) <= BUILT.get(name, 0), f"{name}: write these keys out: {hits}"
        counts[name] = len(hits)
    assert {name: n for name, n in counts.items() if n} == BUILT, "fewer left: lower the counts above"


def test_the_scan_sees_a_built_key():
    assert built_keys('t(f"cmp.scheme_{s}")\nt("mod.len_" + kind)\nt("cmp.title")\nf"{x}.y"\nt(f"{prefix}.title")\n',
                      {"cmp.", "mod."}, _tails()) \
        == [(1, "f'cmp.scheme_{s}'"), (2, "'mod.len_' + kind"), (5, "f'{prefix}.title'")]
    assert ".y" not in _tails()


def test_the_scan_sees_the_keys_page_header_used_to_build():
    """page_header once built "<prefix>.title", .lead, .intro and .formula_caption: those f-strings are caught."""
    old = 'st.title(t(f"{prefix}.title"))\nlead(f"{prefix}.lead", t(f"{prefix}.intro"), t(f"{prefix}.formula_caption"))\n'
    assert len(built_keys(old, {"sin."}, _tails())) == 4


@pytest.mark.parametrize("table, codes", [
    (context_extension_view.METHOD_NAMES, context_extension.METHODS),
    (context_extension_view.METHOD_TEXTS, context_extension.METHODS),
    (context_extension_view.PARAM_TEXTS, context_extension_view.PARAM_SPECS),
    (context_extension_view.KIND_NAMES, context_figs.KINDS),
    (context_extension_view.FORMULA_WORDS, rope_scaling.FORMULA_WORDS),
    (modern_rope_view.REACH_NAMES, (rope_reach.FULL, rope_reach.SLIDING, rope_reach.CHUNKED)),
    (modern_rope_view.VISION_NAMES, rope_vision.LAYOUTS),
    (modern_rope_view.PRESET_NAMES, rope_layers.PUBLISHED.values()),
    (modern_rope_view.LENGTH_NAMES, ("trained", "max", rope_reach.SLIDING, rope_reach.CHUNKED)),
    (past_length_view.METHOD_NAMES, lm_extension.METHODS),
    (past_length_view.KIND_NAMES, lm_heads.KINDS),
    (past_length_view.SOURCE_NAMES, past_length_view.SOURCES),
])
def test_each_key_table_covers_its_registry(table, codes):
    assert set(table) == set(codes)


def test_every_written_out_key_is_in_the_catalog():
    ctx, mod = context_extension_view, modern_rope_view
    tables = [ctx.METHOD_NAMES, ctx.METHOD_TEXTS, ctx.PARAM_TEXTS, ctx.KIND_NAMES, ctx.FORMULA_WORDS, mod.REACH_NAMES,
              mod.LENGTH_NAMES, mod.CRITICAL_TEXTS, mod.VISION_NAMES, mod.PRESET_NAMES, mod.TABS, rope_view.TABS,
              ctx.TABS, real_model_view.TABS, past_length_view.METHOD_NAMES, past_length_view.KIND_NAMES,
              past_length_view.SOURCE_NAMES, past_length_view.TABS]
    keys = [key for table in tables for value in table.values() for key in
            (value if isinstance(value, tuple) else (value,))]
    keys += list(real_model_view.STEP_COLUMNS) + list(real_model_view.LESSON_COLUMNS)
    assert [key for key in keys if key not in catalog()] == []


def test_every_key_a_page_writes_is_in_the_catalog():
    """The pages' own tables (compare's WHY, token embeddings' OPTIMISERS, ...): each key-shaped string a page holds
    names a catalog entry (a page is a script, so its tables are read from its source)."""
    prefixes = {key.split(".")[0] for key in catalog()}
    missing = {}
    for path in sorted((ROOT / "app_pages").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and re.fullmatch(
                    r"[a-z]+\.[\w.-]+", node.value) and node.value.split(".")[0] in prefixes:
                if node.value not in catalog():
                    missing.setdefault(path.name, []).append(node.value)
    assert not missing
