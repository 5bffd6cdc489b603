"""Take a figure away: the arrays it was drawn from as CSV, with column names, so a teacher can re-plot it.

One tidy table per figure, one row per drawn point (a heatmap: one row per cell):

    trace,<x axis title>,<y axis title>,value,text
    sinusoidal,0,0,0.0,
    ...

``trace`` is the trace's name (its legend entry, or ``trace 1``, ``trace 2`` ... when it has none); the x / y
columns are named after the figure's axis titles when every trace shares them, else ``x`` / ``y``; ``value`` is a
heatmap's cell value and ``text`` a point's label, each present only when some trace has them. Pure: a
``plotly.graph_objects.Figure`` (or its dict) in, a string out; nothing is computed that the figure does not hold.
"""
from __future__ import annotations

import base64
import csv
import io
from collections.abc import Iterator, Mapping

import numpy as np
import plotly.graph_objects as go


def _axis_title(layout: go.Layout, axis: str) -> str:
    """The title text of a trace's axis: 'x' -> layout.xaxis, 'x2' -> layout.xaxis2."""
    name = axis[0] + "axis" + axis[1:]
    try:
        title = layout[name].title.text
    except (KeyError, AttributeError):
        return ""
    return title or ""


def _array(values) -> np.ndarray:
    """A trace field as an array; a typed array as plotly sends it ({"dtype": "f4", "bdata": base64, "shape"}) too."""
    if isinstance(values, dict) and "bdata" in values:
        flat = np.frombuffer(base64.b64decode(values["bdata"]), dtype=np.dtype(values["dtype"]))
        shape = values.get("shape")
        return flat.reshape([int(n) for n in str(shape).split(",")]) if shape else flat
    return np.asarray(values)


def _column(values, n: int) -> list:
    """A trace field as a plain list of length ``n`` (indices 0..n-1 when the field is missing, as plotly draws it)."""
    if values is None:
        return list(range(n))
    return _array(values).tolist()


def _rows(trace) -> Iterator[tuple]:
    """(x, y, value, text) for every point of one trace."""
    if trace.type == "heatmap":
        z = _array(trace.z)  # (rows = y, cols = x)
        if z.ndim != 2:
            return
        xs, ys, cells = _column(trace.x, z.shape[1]), _column(trace.y, z.shape[0]), z.tolist()
        for r, y in enumerate(ys):
            for c, x in enumerate(xs):
                yield x, y, cells[r][c], ""
        return
    ys = trace.y if trace.y is not None else None
    xs = trace.x if trace.x is not None else None
    n = len(_array(ys)) if ys is not None else len(_array(xs)) if xs is not None else 0
    x_col, y_col = _column(xs, n), _column(ys, n)
    text = trace.text if trace.text is not None and not isinstance(trace.text, str) else None
    texts = list(text) if text is not None else [trace.text or ""] * n
    for x, y, label in zip(x_col, y_col, texts):
        yield x, y, "", label


def _number(value) -> str:
    """Floats written in full precision (repr), so the CSV parses back to the figure's numbers; a whole number (a
    position drawn from a float array) as the text writes it, 300 rather than 300.0."""
    if isinstance(value, float):
        if np.isnan(value):
            return ""
        return str(int(value)) if value.is_integer() and abs(value) < 2 ** 53 else repr(value)
    return "" if value is None else str(value)


# the column names a table gets unless the caller names them in its reader's language (``{n}``: the trace number)
COLUMNS = {"trace": "trace", "x": "x", "y": "y", "value": "value", "text": "text", "unnamed": "trace {n}"}


def figure_csv(figure: go.Figure | dict, columns: Mapping[str, str] | None = None) -> str:
    """The figure's traces as one CSV table (see the module docstring for its columns); ``columns`` renames the
    columns of :data:`COLUMNS` (e.g. into the reader's language), any it leaves out keep their English name."""
    names = {**COLUMNS, **(columns or {})}
    fig = figure if isinstance(figure, go.Figure) else go.Figure(figure)
    traces = list(fig.data)
    x_titles = {_axis_title(fig.layout, getattr(tr, "xaxis", None) or "x") for tr in traces}
    y_titles = {_axis_title(fig.layout, getattr(tr, "yaxis", None) or "y") for tr in traces}
    x_name = x_titles.pop() if len(x_titles) == 1 and "" not in x_titles else names["x"]
    y_name = y_titles.pop() if len(y_titles) == 1 and "" not in y_titles else names["y"]
    if y_name == x_name:
        x_name, y_name = f"{x_name} (x)", f"{y_name} (y)"
    table = [(tr.name or names["unnamed"].format(n=i + 1), *row) for i, tr in enumerate(traces) for row in _rows(tr)]
    has_value = any(tr.type == "heatmap" for tr in traces)
    has_text = any(row[4] not in ("", None) for row in table)
    header = [names["trace"], x_name, y_name]
    header += ([names["value"]] if has_value else []) + ([names["text"]] if has_text else [])
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(header)
    for name, x, y, value, text in table:
        row = [name, _number(x), _number(y)]
        row += [_number(value)] if has_value else []
        row += [text] if has_text else []
        writer.writerow(row)
    return out.getvalue()


def table_csv(columns: dict[str, list]) -> str:
    """A small table (column name -> values, as given to ``st.dataframe``) as CSV."""
    names = list(columns)
    lengths = {len(columns[name]) for name in names}
    if len(lengths) > 1:
        raise ValueError(f"columns must have one length, got {sorted(lengths)}")
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(names)
    for row in zip(*(columns[name] for name in names)):
        writer.writerow([_number(v) for v in row])
    return out.getvalue()


def slug(title: str) -> str:
    """A file name stem from a figure title: 'Sinusoidal PE (128 × 64)' -> 'sinusoidal-pe-128-64' (Chinese kept)."""
    text = "".join(ch.lower() if ch.isalnum() else "-" for ch in title)
    return "-".join(part for part in text.split("-") if part)[:60] or "figure"


def file_name(title: str) -> str:
    """The CSV file name of a figure: its title's slug + '.csv'."""
    return f"{slug(title)}.csv"
