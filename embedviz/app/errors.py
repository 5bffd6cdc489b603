"""Core refusals in the reader's language.

The core raises :class:`embedviz.errors.InputError` (a ValueError) with a stable ``code`` and its ``params``; its
English sentence comes from the core's one template table, which a notebook and the core tests read. A page shows it
through :func:`localized`: English readers see the message as raised; for other languages the catalog entry
"err.<code>" (locales/err.py) is filled with the error's fields, each rendered as the English renders it, so
parameter names and values stay as they are (identifiers and numbers). Nothing here reads the English back.
A ValueError without a code (a check the core does not expect a reader to reach) is shown in English under a
translated lead-in ("err.untranslated"), never dropped.
"""
from __future__ import annotations

from embedviz.app.i18n import DEFAULT_LANGUAGE, catalog, current_language
from embedviz.app.markup import Markup, escape
from embedviz.errors import InputError


def localized(error: ValueError, lang: str | None = None) -> Markup:
    """``error`` (a core ValueError) in ``lang`` (default: the reader's language), as markdown that shows the
    message's values (the offending word, a config's string, a file name) as text."""
    lang = lang or current_language()
    if lang == DEFAULT_LANGUAGE:
        return escape(str(error))
    if isinstance(error, InputError):
        fields = error.fields()
        about = fields.pop("about", None)
        text = _text(f"err.{error.code}", lang, **fields)
        return Markup(text + _text("err.about", lang, about=about)) if about else text
    return _text("err.untranslated", lang, message=str(error))


def _text(key: str, lang: str, /, **values: str) -> Markup:
    entry = catalog()[key]
    return Markup((entry.get(lang) or entry[DEFAULT_LANGUAGE]).format(**{k: escape(v) for k, v in values.items()}))
