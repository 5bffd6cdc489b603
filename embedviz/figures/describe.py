"""A chart's text alternative for a screen reader: what it shows and its key numbers, in the reader's words.

Built from what the figure itself holds, so it can never disagree with the drawing: the title, the axis titles and,
per trace, its name, its number of points and the range of its values (a heatmap: its size and the range of its
cells). The words come from the caller (the i18n catalog), as every figure's words do::

    {title}. {y} against {x}. cos(d·ω): 129 points, 0.2779 to 1. ...

Pure: a ``plotly.graph_objects.Figure`` in, a string out.
"""
from __future__ import annotations

import re
from collections.abc import Mapping

import numpy as np
import plotly.graph_objects as go

from embedviz.figures.export import _array, _axis_title

# What the words must hold ({...} fields); English defaults, a page passes the reader's language.
WORDS = {
    "axes": "{y} against {x}",
    "series": "{name}: {n} points, {low} to {high}",
    "heatmap": "{name}: {rows} × {cols} cells, {low} to {high}",
    "more": "{n} more series",
    "unnamed": "series {n}",
    "sep": ". ",  # between the parts; Chinese ends each with 。
    "end": ".",
}
MAX_SERIES = 4  # past a few series a screen reader's listener is better served by the CSV below the chart
DIGITS = 4  # significant digits of a quoted number
TRIM = ".。 "  # a part's own end, left off before the separator
_TAG = re.compile(r"<[^>]+>")


def rules() -> dict:
    """What a live figure's browser needs to say the same of a figure it drew itself (the words come from the
    catalog, ``WORDS``'s keys): the tag pattern (read alike by JavaScript), the series cap, the digits, the trim."""
    return {"tag": _TAG.pattern, "max_series": MAX_SERIES, "digits": DIGITS, "trim": TRIM}


def plain(text: str | None) -> str:
    """A title as a listener hears it: no HTML tags (plotly's <br>, <sup>, <b>), no doubled spaces."""
    return " ".join(_TAG.sub(" ", text or "").split())


def number(value: float) -> str:
    """Four significant digits, as the pages quote their numbers (0.2779, 1.5e+04)."""
    return f"{value:.{DIGITS}g}"


def _values(trace) -> np.ndarray:
    """The numbers a trace draws along its value axis (a heatmap's cells, a bar's or line's y), finite only."""
    field = trace.z if trace.type == "heatmap" else trace.y if getattr(trace, "y", None) is not None else None
    if field is None:
        return np.empty(0)
    try:
        values = np.asarray(_array(field), dtype=np.float64).ravel()
    except (TypeError, ValueError):  # categorical values (labels), not numbers
        return np.empty(0)
    return values[np.isfinite(values)]


def text_alternative(figure: go.Figure, words: Mapping[str, str] | None = None) -> str:
    """One paragraph saying what ``figure`` shows: title (and subtitle), axes, and each series' range."""
    w = {**WORDS, **(words or {})}
    layout = figure.layout
    parts = [plain(layout.title.text)]
    subtitle = getattr(getattr(layout.title, "subtitle", None), "text", None)
    if subtitle:
        parts.append(plain(subtitle))
    x, y = plain(_axis_title(layout, "x")), plain(_axis_title(layout, "y"))
    if x and y:
        parts.append(w["axes"].format(x=x, y=y))
    traces = [tr for tr in figure.data if getattr(tr, "visible", True) is not False]
    for i, trace in enumerate(traces[:MAX_SERIES]):
        values = _values(trace)
        if not values.size:
            continue
        name = plain(trace.name) or w["unnamed"].format(n=i + 1)
        low, high = number(float(values.min())), number(float(values.max()))
        if trace.type == "heatmap":
            rows, cols = np.shape(_array(trace.z))[:2]
            parts.append(w["heatmap"].format(name=name, rows=rows, cols=cols, low=low, high=high))
        else:
            parts.append(w["series"].format(name=name, n=values.size, low=low, high=high))
    if len(traces) > MAX_SERIES:
        parts.append(w["more"].format(n=len(traces) - MAX_SERIES))
    return w["sep"].join(part.rstrip(TRIM) for part in parts if part) + w["end"]
