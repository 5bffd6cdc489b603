"""A text in the reader's language is never kept by Streamlit's caches.

``st.cache_data`` keys a result by its arguments only: a cached function that looks a catalog text up (``t``,
``localized``) gives the next reader the first reader's language. The scan names every such function in the pages
and embedviz/app/; the page test shows the failure it guards against on a real page.
"""
from __future__ import annotations

import ast

import pytest

import tests.app.pagetest as pt
from embedviz.lessons.widget_keys import Context
from tests.conftest import ROOT

FILES = sorted([*(ROOT / "app_pages").glob("*.py"), *(ROOT / "embedviz" / "app").glob("*.py")])
TEXT_CALLS = {"t", "localized"}


def _cached(node: ast.FunctionDef) -> bool:
    for decorator in node.decorator_list:
        target = decorator.func if isinstance(decorator, ast.Call) else decorator
        if isinstance(target, ast.Attribute) and target.attr in {"cache_data", "cache_resource"}:
            return True
    return False


def cached_texts(source: str, label: str) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef) and _cached(node):
            params = {a.arg for a in node.args.args + node.args.kwonlyargs}
            calls = {n.func.id for n in ast.walk(node) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)}
            if calls & TEXT_CALLS and "lang" not in params:
                found.append(f"{label}:{node.lineno}: {node.name}")
    return found


def test_no_cached_function_looks_a_text_up_without_the_language_in_its_key():
    found = [hit for path in FILES for hit in cached_texts(path.read_text(), str(path.relative_to(ROOT)))]
    assert not found, "cached functions that keep one reader's language for the next:\n" + "\n".join(found)


def test_the_scan_names_a_cached_text():
    bad = "@st.cache_data(max_entries=4)\ndef f(x):\n    return t('k', x=x)"
    good = ["@st.cache_data\ndef f(x, lang):\n    return t('k', lang=lang)", "def f(x):\n    return t('k')",
            "@st.cache_data\ndef f(x):\n    return x * 2"]
    assert cached_texts(bad, "x")
    assert not any(cached_texts(code, "x") for code in good)


@pytest.mark.parametrize("first", ["en", "zh"])
def test_the_context_pages_caption_follows_each_readers_language(first):
    second = "zh" if first == "en" else "en"
    for lang in (first, second):
        at = pt.page("context_extension", lang=lang, **{Context.SOURCE: "Qwen3-0.6B"}).run()
        pt.ok(at)
        assert any(pt.shows(c.value, "ctx.source_caption", lang) for c in at.caption), lang
