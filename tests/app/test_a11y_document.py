"""The document-level words a screen reader gets (embedviz/app/a11y.py): the script that applies them survives the
sanitiser st.html runs, and what is said carries no markdown marks."""
from __future__ import annotations

import re

import pytest

from embedviz.app import a11y, serving
from tests.conftest import ROOT

# DOMPurify (st.html's sanitiser, streamlit 1.67) removes an element whose text holds "<" before a letter, "/" or
# "!" (its mXSS guard), so a script whose comment names a tag would silently not run.
DOMPURIFY_DROPS = re.compile(r"<[/\w!]")


@pytest.mark.parametrize("name", ["page_a11y.js", "presenter_keys.js"])
def test_the_inline_scripts_survive_st_htmls_sanitiser(name):
    source = (ROOT / "embedviz" / "app" / "browser" / name).read_text(encoding="utf-8")
    assert not DOMPURIFY_DROPS.search(source), DOMPURIFY_DROPS.search(source)


def test_the_served_policy_allows_the_script_a11y_draws():
    assert serving.script_hash(a11y.PAGE_A11Y_JS) in serving.POLICY["script-src"]


def test_what_is_said_has_no_markdown_marks():
    assert a11y.spoken("**Look at:** the `max` difference, $\\omega$ \\* 2") == "Look at: the max difference, \\omega * 2"


def test_a_marker_carries_its_words_as_an_escaped_attribute():
    block = a11y._block(lang="zh-CN", say='a "quoted" <b>word</b> & more', say_key="003:1")
    marker = block.split("<script>")[0]
    assert 'data-lang="zh-CN"' in marker and 'data-say-key="003:1"' in marker
    assert "&lt;b&gt;" in marker and "&quot;quoted&quot;" in marker and "<b>" not in marker
