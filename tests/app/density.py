"""How much a reader must read before a page's first figure, and how long its sentences run, as AppTest sees the
page at its defaults. Used by test_density.py; ``python -m tests.app.density [PAGE ...] [-v]`` prints the table for
every page (or the pages named), and with -v each long sentence.

What counts: the body text a reader meets in page order (markdown, captions, alert boxes, plain text), outside
collapsed expanders, popovers and the tabs that are not open, and the page's title (read before anything else);
headings inside the page are labels, not reading, and a widget's label or help is not counted. "Before the first figure" stops at the first chart or table. English is
counted in words; Chinese in characters, with each Latin word or number counted as one character.
"""
from __future__ import annotations

import re
import sys
from collections.abc import Iterator

from streamlit.testing.v1 import AppTest

FIGURES = {"plotly_chart", "table", "dataframe", "arrow_data_frame", "arrow_table", "image", "imgs", "vega_lite_chart",
           "graphviz_chart", "pyplot", "deck_gl_json_chart",
           "bidi_component"}  # a live figure (embedviz/app/live.py), a v2 component to AppTest
TEXTS = {"Markdown", "Caption", "Text", "Info", "Success", "Warning", "Error", "Exception", "Divider", "Badge"}
HIDDEN = {"expandable", "popover"}  # closed until the reader opens them
_HAN = re.compile(r"[\u4e00-\u9fff]")
_LATIN = re.compile(r"[A-Za-z0-9][A-Za-z0-9'’_.,\-+×/→…=()]*")
_MARKUP = re.compile(r"\$\$.*?\$\$|\$[^$\n]*\$|`[^`]*`|<[^>]*>|https?://\S+|[*#>|]", re.S)
# A sentence ends at . ! ? (or after a closing bracket or quote that follows one) before the next word, at 。！？,
# and at a line break: each item of a markdown list ("- ", "1. ") and each table row counts on its own. Not at a
# semicolon or colon, which join clauses of one sentence, nor after an abbreviation that ends in a full stop.
_SENTENCE_END = re.compile(r"(?:(?<=[.!?])|(?<=[.!?][)”\"’]))\s+(?=\S)|(?<=[。！？])")
_ABBREVIATION = re.compile(r"(\bet al|\be\.g|\bi\.e|\bvs|\bcf|\bFig|\bEq|\bNo)\.$")


def _children(node) -> list:
    kids = getattr(node, "children", None) or {}
    return list(kids.values()) if isinstance(kids, dict) else list(kids)


def _kind(node) -> str:
    return getattr(node, "type", "") or ""


def visible(node) -> Iterator:
    """The elements a reader sees without opening anything, in page order."""
    yield node
    kind = _kind(node)
    if kind in HIDDEN or type(node).__name__ == "Expander":
        if not getattr(getattr(node, "proto", None), "expanded", False):
            return
    kids = _children(node)
    if kind == "tab_container" or type(node).__name__ == "Tabs":
        kids = kids[:1]  # the open tab: a page opens on its first
    for child in kids:
        yield from visible(child)


def _text(node) -> str | None:
    name = type(node).__name__
    if name == "Title":  # the page's title (st.title): read first
        return str(getattr(node, "value", "") or "")
    if name not in TEXTS and name != "Markdown":
        return None
    if getattr(node, "type", "") in ("heading", "title", "header", "subheader"):
        return None
    return str(getattr(node, "value", "") or "")


def plain(text: str) -> str:
    return _MARKUP.sub(" ", text)


def count(text: str, lang: str) -> int:
    """English words, or Chinese characters plus Latin words / numbers."""
    text = plain(text)
    latin = len(_LATIN.findall(text))
    return latin if lang == "en" else len(_HAN.findall(text)) + latin


def sentences(text: str) -> list[str]:
    """``text``'s sentences, formulas and code left out (``plain``)."""
    out = []
    for line in plain(text).splitlines():
        pieces: list[str] = []
        for piece in _SENTENCE_END.split(line):
            if pieces and _ABBREVIATION.search(pieces[-1]):
                pieces[-1] += " " + piece  # "Press et al. 2021" is one sentence
            else:
                pieces.append(piece)
        out += [p.strip() for p in pieces if p and p.strip()]
    return out


def measure(at: AppTest, lang: str) -> dict:
    """{"before": words before the first figure, "long": sentences over 35 words on the default view (English),
    "nested": texts with a parenthesis inside a parenthesis, "figure": whether a figure was found}."""
    before, seen_figure, long_, nested = 0, False, [], []
    for node in visible(at._tree):
        if _kind(node) in FIGURES or type(node).__name__ in ("Table", "Dataframe", "PlotlyChart"):
            seen_figure = True
            continue
        text = _text(node)
        if not text:
            continue
        if not seen_figure:
            before += count(text, lang)
        if lang == "en":
            long_ += [s for s in sentences(text) if count(s, "en") > 35]
        if _nested(plain(text)):
            nested.append(text[:80])
    return {"before": before, "long": long_, "nested": nested, "figure": seen_figure}


def _nested(text: str) -> bool:
    depth = 0
    for ch in text:
        if ch in "(（":
            depth += 1
            if depth > 1:
                return True
        elif ch in ")）":
            depth = max(0, depth - 1)
    return False


def main() -> None:
    from embedviz.app.pages import PAGES
    from tests.app import pagetest as pt

    names = [file.removeprefix("app_pages/").removesuffix(".py") for _, entries in PAGES for file, *_ in entries]
    only = [arg for arg in sys.argv[1:] if not arg.startswith("-")]
    verbose = "-v" in sys.argv[1:]  # the long sentences themselves, on stderr
    print("| page | en words | zh chars | en sentences > 35 | nested () |")
    print("|---|---:|---:|---:|---:|")
    for name in names:
        if only and name not in only:
            continue
        row = {}
        for lang in ("en", "zh"):
            at = pt.page(name, lang=lang, timeout=300).run()
            row[lang] = measure(at, lang)
        print(f"| {name} | {row['en']['before']} | {row['zh']['before']} | {len(row['en']['long'])} | "
              f"{len(row['en']['nested']) + len(row['zh']['nested'])} |", flush=True)
        if verbose:
            for s in row["en"]["long"]:
                print("    LONG:", s[:160], file=sys.stderr)


if __name__ == "__main__":
    main()
