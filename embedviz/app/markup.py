"""Reader-supplied values shown as text inside Streamlit markdown, never as markup.

Streamlit renders every st.markdown / st.error / st.warning / st.caption / st.info / st.success / st.toast body,
and most widget labels and help texts, as GitHub-flavoured markdown with KaTeX math (``$...$``) and its own
directives (``:red[...]``, ``:material/home:``, emoji shortcodes). A value from the URL, a text field, a pasted
config or a file name that reaches one of those bodies could otherwise put a foreign image (``![x](http://...)``),
a foreign link (``[a](http://...)``, ``<http://...>``, a bare ``http://...``) or page-covering math
(``$\\rule{3000em}{3000em}$``) into every reader's page. :func:`escape` backslash-escapes exactly the characters
that open such constructs; markdown shows an escaped character as itself, so the reader sees the value literally.

The catalog's ``t(key, **values)`` passes every string value through :func:`escape` (``embedviz/app/i18n.py``);
its own result, and anything else that is markup written by the app, is a :class:`Markup` and passes unchanged.
"""
from __future__ import annotations

import re


class Markup(str):
    """A string the app wrote as markdown (a catalog text), safe to put into a markdown body as it is."""

    __slots__ = ()


# Each rule escapes a character only where it can open something, so a message's "must be <= 4", "[0, 10)",
# "head_dim * factor" or "rope_theta" reads in the source as it was raised.
# code, math, strikethrough and the escape character itself, wherever they stand
_ALWAYS = re.compile(r"([\\`$~])")
# '*' opens or closes emphasis unless spaces stand on both sides ("a * b")
_STAR = re.compile(r"(?<!\s)\*|\*(?!\s)")
# '_' opens emphasis only at a word's edge: "rope_theta" stays as written, "_x_" does not become italic
_UNDERSCORES = re.compile(r"(?<![^\W_])_+|_+(?![^\W_])")
# a link or an image needs "](" (or "][" for a reference); raw HTML and <autolinks> need '<' before a letter;
# an entity needs '&' before a name or '#'
_BRACKET = re.compile(r"\](?=[(\[])")
_ANGLE = re.compile(r"<(?=[A-Za-z/!?])")
_AMP = re.compile(r"&(?=[#A-Za-z])")
# ':' starts a directive (:red[...]), a shortcode (:material/home:, :smile:) and the scheme of a bare link
# (http://...); a ':' before a space or at the end (a sentence's "error: ...") opens nothing. Shortcodes and bare
# links are found in the text after markdown has read its escapes, so a backslash alone does not stop them: a
# WORD JOINER (U+2060, invisible and zero-width) after the ':' does.
_COLON = re.compile(r":(?=\S)")
_JOINER = "\u2060"
# the "www." and '@' of a bare "www.host" or "name@host.org", which GitHub markdown turns into links (found in
# the text, like shortcodes: a joiner splits them)
_BARE = re.compile(r"(?i)(?<=www)\.|@")
# what opens a block when the value begins a line: a heading, a quote, a list item, a link definition
_LINE_START = re.compile(r"^(\s*)([#>\[]|\d*[-+.)](?=\s|$))")


def escape(value: object) -> Markup:
    """``value`` as a markdown fragment that shows exactly its text (one line: line breaks become spaces)."""
    if isinstance(value, Markup):
        return value
    text = " ".join(str(value).splitlines())
    text = _ALWAYS.sub(r"\\\1", text)
    text = _STAR.sub(r"\\*", text)
    text = _UNDERSCORES.sub(lambda m: "\\_" * len(m.group()), text)
    text = _BRACKET.sub(r"\\]", text)
    text = _ANGLE.sub(r"\\<", text)
    text = _AMP.sub(r"\\&", text)
    text = _COLON.sub("\\\\:" + _JOINER, text)
    text = _BARE.sub(lambda m: _JOINER + m.group(), text)
    text = _LINE_START.sub(lambda m: m.group(1) + _escape_last(m.group(2)), text)
    return Markup(text)


def _escape_last(marker: str) -> str:
    """ "12." -> "12\\.", "#" -> "\\#": the backslash goes before the marker's punctuation."""
    return marker[:-1] + "\\" + marker[-1]


def trusted(text: str) -> Markup:
    """``text`` marked as markup the app itself wrote (a composed catalog text), so ``t`` does not escape it."""
    return Markup(text)
