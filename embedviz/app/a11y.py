"""What a screen reader is told about the page beyond its elements: the document's title and language, and what
changed (a tour's new step, a question's verdict) through one polite live region.

Streamlit sets the title (``st.set_page_config``) but not the document's language (its index.html says
``lang="en"``, streamlit/streamlit#15726) and has no live region of its own. Both are done by
``browser/page_a11y.js``: drawn after a hidden marker that carries the data, it runs again whenever the marker
changes (the served CSP allows it by its hash, embedviz/app/serving.py). The blocks take no room on the page
(``HIDDEN_CSS``).
"""
from __future__ import annotations

import html
import re

import streamlit as st

from embedviz.app.i18n import LANGUAGE_TAGS, current_language
from embedviz.app.serving import PAGE_A11Y_JS

MARK = "embedviz-a11y"  # the markers' class
# A marker's element (and its 1rem gap in the column) is out of the layout; the script still runs.
HIDDEN_CSS = (f"<style>[data-testid='stElementContainer']:has(> [data-testid='stHtml'] > .{MARK})"
              " { display: none; }</style>")
_MARKUP = re.compile(r"\*\*|__|`|\$|\\(?=[\\`*_{}\[\]()#+\-.!$])")  # markdown's marks, which a listener need not hear


def spoken(markdown: str) -> str:
    """A catalog text as a screen reader should hear it: without markdown's emphasis, code and formula marks."""
    return " ".join(_MARKUP.sub("", str(markdown)).split())


def _block(**data: str) -> str:
    fields = " ".join(f'data-{name.replace("_", "-")}="{html.escape(value, quote=True)}"'
                      for name, value in data.items() if value)
    return f'<span class="{MARK}" hidden {fields}></span><script>{PAGE_A11Y_JS}</script>'


def document(title: str, *, say: str = "", say_key: str = "", page: str = "") -> None:
    """This run's document: its title, its language (the reader's) and, when ``say_key`` is new to the browser,
    ``say`` announced; ``page`` names the page, so the script runs again on another page (which it opens at its
    top). In the sidebar, at its end: in the main area a block took the page's first place before its CSS arrived
    (a layout shift)."""
    st.set_page_config(page_title=title)
    with st.sidebar:
        st.html(HIDDEN_CSS)  # style only: takes no place
        st.html(_block(lang=LANGUAGE_TAGS[current_language()], say=spoken(say), say_key=say_key, page=page),
                unsafe_allow_javascript=True)  # our own file; the data are escaped attribute values


def announce(text: str, key: str) -> None:
    """Say ``text`` once for ``key`` (a question's verdict, where it is drawn: a fragment's rerun draws only its
    own block)."""
    st.html(_block(say=spoken(text), say_key=key), unsafe_allow_javascript=True)
