"""Every string a user reads, in English and 简体中文.

The catalog is split by page: each module in ``embedviz/app/locales/`` defines ``STRINGS = {key: {"en": ..., "zh":
...}}`` and ``PREFIX``, the one prefix of all its keys (``"sin."`` in locales/sinusoidal.py, named after its page
app_pages/sinusoidal.py), so a key leads to its file; they are merged here. ``t(key, **values)`` formats the
string of the current language. A missing key raises at once (tests walk the whole catalog), so a page never shows
a raw key.
"""
from __future__ import annotations

import importlib
import json
import pkgutil
from functools import lru_cache
from pathlib import Path

import streamlit as st

from embedviz.app import compat
from embedviz.app.markup import Markup, escape

LANGUAGES = {"en": "English", "zh": "简体中文"}
DEFAULT_LANGUAGE = "en"
# Each language as a BCP 47 tag: the document's lang (a screen reader picks its voice by it) and plotly.js's locale.
LANGUAGE_TAGS = {"en": "en", "zh": "zh-CN"}
# plotly.js's own zh-CN locale (its toolbar's buttons, "double-click to zoom back out", month names), a copy of the
# npm package plotly.js-locales' file: the plotly package installs plotly.js without its locales.
PLOTLY_LOCALE_FILE = Path(__file__).parent / "browser" / "plotly-locale-zh-cn.json"
LANG_KEY = "lang"  # widget key and URL query parameter


@lru_cache(maxsize=1)
def catalog() -> dict[str, dict[str, str]]:
    """All locale modules merged; a key defined twice is a bug and raises."""
    from embedviz.app import locales

    merged: dict[str, dict[str, str]] = {}
    for info in pkgutil.iter_modules(locales.__path__):
        module = importlib.import_module(f"{locales.__name__}.{info.name}")
        for key, texts in module.STRINGS.items():
            if key in merged:
                raise KeyError(f"i18n key {key!r} is defined twice (again in locales/{info.name}.py)")
            merged[key] = texts
    return merged


def current_language() -> str:
    """The language chosen in the sidebar (session state), else the URL's ?lang=, else English. Once the frame's
    switch has been drawn it is fixed for the run, and read from the run's memo (``remember_language``): a run
    calls ``t`` a few hundred times, and each read of session state costs microseconds a class's burst pays a
    hundredfold."""
    held = compat.this_run().get(LANG_KEY)
    if held is not None:
        return held
    lang = st.session_state.get(LANG_KEY) or st.query_params.get(LANG_KEY) or DEFAULT_LANGUAGE
    by_label = {label: code for code, label in LANGUAGES.items()}  # a bound widget writes its label to the URL
    lang = by_label.get(lang, lang)
    return lang if lang in LANGUAGES else DEFAULT_LANGUAGE


def remember_language() -> str:
    """After the language switch is drawn: the run's language, kept for the rest of the run."""
    run = compat.this_run()
    run.pop(LANG_KEY, None)
    run[LANG_KEY] = lang = current_language()
    return lang


def t(key: str, /, **values) -> Markup:
    """The text for ``key`` in the current language, formatted with ``values``.

    The catalog's texts are markdown the app wrote; a string value may come from a reader (a URL, a text field, a
    config, a file name), so it is escaped to show as text (embedviz/app/markup.py). A value that is itself app
    markup (another ``t`` result, a :class:`Markup`) and numbers pass unchanged.
    """
    entry = catalog()[key]
    text = entry.get(current_language()) or entry[DEFAULT_LANGUAGE]
    if not values:
        return Markup(text)
    return Markup(text.format(**{name: escape(v) if isinstance(v, str) else v for name, v in values.items()}))


@lru_cache(maxsize=1)
def _plotly_zh() -> dict:
    held = json.loads(PLOTLY_LOCALE_FILE.read_text(encoding="utf-8"))
    return {held["name"]: {"dictionary": held["dictionary"], "format": held["format"]}}


def plotly_locale() -> dict:
    """A chart's plotly.js config entries that put its toolbar and hovers in the reader's language: the locale and,
    given inline (Streamlit's plotly.js bundle registers none but English), its dictionary. Empty in English."""
    tag = LANGUAGE_TAGS[current_language()]
    return {"locale": tag, "locales": _plotly_zh()} if tag in _plotly_zh() else {}
