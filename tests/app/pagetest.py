"""What the page tests share: open a page in AppTest (URL, session, language), read its charts, check it ran."""
from __future__ import annotations

import base64
import json
import re
import string
from collections.abc import Mapping
from typing import Any

import numpy as np
from streamlit.testing.v1 import AppTest

from embedviz.app.errors import localized
from embedviz.app.i18n import catalog
from embedviz.errors import InputError
from tests.conftest import ROOT

CHART_JSON_LIMIT = 1_000_000  # bytes of one chart's JSON the browser is sent at most
_HAN = re.compile(r"[\u4e00-\u9fff]")


def page(name: str, *, timeout: int = 60, lang: str | None = None, session: Mapping[str, Any] | None = None,
         **query: str) -> AppTest:
    """app_pages/<name>.py in AppTest, not run yet: ``query`` as URL parameters, ``session`` as session state,
    ``lang`` ("en" / "zh") as the language the frame would have picked."""
    at = AppTest.from_file(str(ROOT / "app_pages" / f"{name}.py"), default_timeout=timeout)
    for key, value in query.items():
        at.query_params[key] = value
    for key, value in (session or {}).items():
        at.session_state[key] = value
    if lang:
        at.session_state["lang"] = lang
    return at


def ok(at: AppTest, *, errors_allowed: bool = False) -> None:
    """The run raised nothing and (unless ``errors_allowed``) showed no st.error."""
    assert not at.exception, at.exception
    if not errors_allowed:
        assert not at.error, [e.value for e in at.error]


def english_only(text: str) -> bool:
    """Whether a Chinese reader's error box holds a message the error catalog does not know: the core's English
    under the lead-in "only in English" (embedviz/app/errors.py)."""
    return catalog()["err.untranslated"]["zh"].split("{")[0] in text


def text(key: str, lang: str = "en", **values) -> str:
    """The catalog's text for ``key`` (filled with ``values`` if given): what a test looks for instead of retyping
    the English, so a rewording changes the catalog alone."""
    entry = catalog()[key][lang]
    return entry.format(**values) if values else entry


def refusal(code: str, lang: str = "en", /, **params) -> str:
    """The error box a page shows (widgets.show_error) for the core's ``InputError(code, **params)``: the catalog's
    lead-in around the message as embedviz.app.errors.localized renders it in ``lang``. A test names a refusal by
    its code and params, as the core raises it, instead of retyping its sentence."""
    return text("common.input_error", lang, message=localized(InputError(code, **params), lang))


def _pieces(key: str, lang: str) -> list[str]:
    """The words of ``key`` between its placeholders ("{D}", "{n:,}"), each stripped, empty ones left out."""
    return [part.strip() for part in re.split(r"\{[^{}]*\}", catalog()[key][lang]) if part.strip()]


def words(key: str, lang: str = "en") -> str:
    """The longest run of ``key``'s text without a placeholder: found in what the page shows whatever it filled in
    (``chart(at, words("cmp.slopes_title"))``)."""
    return max(_pieces(key, lang), key=len)


def shows(shown: str, key: str, lang: str = "en") -> bool:
    """Whether ``shown`` holds the text of ``key``: every run of its words, in order, whatever the values."""
    at = 0
    for piece in _pieces(key, lang):
        at = shown.find(piece, at)
        if at < 0:
            return False
        at += len(piece)
    return True


def fields(shown: str, key: str, lang: str = "en") -> dict[str, str] | None:
    """The values the page filled into ``key``'s placeholders, read back out of ``shown`` ({"length": "1,024",
    ...}), or None when ``shown`` holds no text of ``key``: a test then checks a number the page printed without
    retyping the sentence around it. A value at the very start or end of the text is one word, brackets left out (it
    has no words on that side to stop at); a placeholder used twice must be filled the same both times."""
    parts = [(literal, name) for literal, name, _spec, _conv in string.Formatter().parse(catalog()[key][lang])]
    pattern, seen = [], set()
    for i, (literal, name) in enumerate(parts):
        pattern.append(re.escape(literal))
        if name is None:
            continue
        open_ended = (i == 0 and not literal) or (i == len(parts) - 1)
        value = r"[^\s()（）\[\]]+" if open_ended else ".+?"
        pattern.append(f"(?P={name})" if name in seen else f"(?P<{name}>{value})")
        seen.add(name)
    found = re.search("".join(pattern), shown, flags=re.DOTALL)
    return found.groupdict() if found else None


def is_chinese(text: str) -> bool:
    """Whether the text holds a Han character (a translated title, label or figure)."""
    return _HAN.search(text) is not None


# charts


def chart_json(at: AppTest) -> list[str]:
    """Each plotly chart's JSON as sent to the browser, live figures (embedviz/app/live.py) included, in page
    order: a live figure is a v2 component, which AppTest shows as an unknown "bidi_component" element whose
    JSON data carry the figure it draws first."""
    return _charts_and_live(at.main)


def _charts_and_live(node) -> list[str]:
    out = []
    for child in getattr(node, "children", {}).values():
        kind = getattr(child, "type", None)
        if kind == "plotly_chart":
            out.append(child.proto.spec)
        elif kind == "bidi_component":
            out.append(json.loads(child.proto.json)["figure"])
        out += _charts_and_live(child)
    return out


def live_data(at: AppTest, key: str) -> dict:
    """The data a live figure's component was given (its sliders, texts and first figure)."""
    (element,) = [e for e in at.get("bidi_component") if e.proto.id.endswith(key) or key in e.proto.id]
    return json.loads(element.proto.json)


def spec(chart) -> dict:
    """One plotly chart element's figure as a dict."""
    return json.loads(chart.proto.spec)


def specs(at: AppTest) -> list[dict]:
    """Every plotly chart's figure on the page, in page order."""
    return [json.loads(text) for text in chart_json(at)]


def titles(at: AppTest) -> list[str]:
    return [figure["layout"]["title"]["text"] for figure in specs(at)]


def chart(at: AppTest, title_part: str) -> dict:
    """The one figure whose title contains ``title_part``."""
    matches = [figure for figure in specs(at) if title_part in figure["layout"]["title"]["text"]]
    assert len(matches) == 1, titles(at)
    return matches[0]


def trace_json(figure: dict) -> str:
    """A figure's traces as canonical JSON, to tell whether what is drawn changed."""
    return json.dumps(figure["data"], sort_keys=True)


def values(array) -> np.ndarray:
    """A trace field as plotly sends it: a list, or a typed array {"dtype": "f4", "bdata": base64}."""
    if isinstance(array, dict) and "bdata" in array:
        return np.frombuffer(base64.b64decode(array["bdata"]), dtype=np.dtype(array["dtype"]))
    return np.asarray(array)


# other elements


def metrics(at: AppTest, *keys: str, lang: str = "en") -> dict[str, str]:
    """The values of the st.metric widgets labelled by catalog ``keys`` (a label with placeholders matches with any
    values filled in), by key; a key the page shows no metric for is left out."""
    out: dict[str, str] = {}
    for key in keys:
        for shown in at.metric:
            if shown.label == text(key, lang) or ("{" in text(key, lang) and shows(shown.label, key, lang)):
                out[key] = shown.value
                break
    return out


def metric(at: AppTest, label_start: str) -> str:
    """The value of the first st.metric whose label starts with ``label_start``."""
    for shown in at.metric:
        if shown.label.startswith(label_start):
            return shown.value
    raise AssertionError(f"no metric {label_start!r}: {[m.label for m in at.metric]}")
