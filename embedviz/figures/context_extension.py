"""Figures of the Context-extension page: per-pair arrays and translated strings in, ``go.Figure`` out.

Pairs are coloured by what the method does to them (``KIND_COLORS``): kept as trained, interpolated (divided by
the full factor) or blended (anything in between: a ramp, NTK's new base, LongRoPE's per-pair factors).
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import plotly.graph_objects as go

from embedviz.figures import (
    BELOW_MARGIN, COLORWAY, GREY, LEGEND_BELOW, f32, line_chart, new_figure, reference_lines, reference_marks,
)

KINDS = ("kept", "blended", "interpolated")
KIND_COLORS = {"kept": COLORWAY[0], "blended": COLORWAY[3], "interpolated": COLORWAY[1]}
BEFORE_COLOR = GREY
ORIGINAL_LINE = dict(color="#333", dash="dash", width=1.5)
TARGET_LINE = dict(color=COLORWAY[4], dash="dot", width=2)


def kind_hover(name: str, hover: str) -> str:
    """A kind of pair's hover template: its name over ``hover`` (a live figure's browser is sent these)."""
    return f"{name}<br>{hover}<extra></extra>"


def _kind_traces(values, kinds: Sequence[str], kind_names: Mapping[str, str], *, hover: str) -> list[go.Scatter]:
    """One trace per kind (so the legend explains the colours); x is the pair index."""
    values, kinds = np.asarray(values), np.asarray(kinds)
    pairs = np.arange(values.size)
    masks = {kind: kinds == kind for kind in KINDS}
    return [go.Scatter(x=pairs[mask], y=f32(values[mask]), name=kind_names[kind], mode="markers",
                       marker=dict(color=KIND_COLORS[kind], size=7),
                       hovertemplate=kind_hover(kind_names[kind], hover))
            for kind, mask in masks.items() if mask.any()]


def _context_lines(original: int, target: int, labels: Sequence[str], *, axis: str, log: bool) -> list[tuple]:
    """The trained (original) and the target context length as labelled reference lines (``reference_marks``)."""
    ends = ("top", "bottom") if axis == "x" else ("left", "right")
    return [(original, ORIGINAL_LINE, labels[0], ends[0]), (target, TARGET_LINE, labels[1], ends[1])]


def wavelength_chart(wavelen_before, wavelen_after, kinds, *, original: int, target: int, title: str,
                     x_title: str, y_title: str, before_name: str, kind_names: Mapping[str, str],
                     context_labels: Sequence[str], hover: str, note: str | None = None) -> go.Figure:
    """Wavelength 2*pi / w_i per pair (log y) before (grey line) and after (coloured points), against the
    trained and the target context. ``context_labels`` = (trained, target). Built in one construction: a head_dim
    or factor step redraws it (see ``embedviz.figures.new_figure``)."""
    pairs = np.arange(len(wavelen_before))
    before = go.Scatter(x=pairs, y=f32(wavelen_before), mode="lines", name=before_name,
                        line=dict(color=BEFORE_COLOR, width=3), hovertemplate=hover + "<extra></extra>")
    lines = _context_lines(original, target, context_labels, axis="y", log=True)
    return new_figure(title, note=note, x_title=x_title, y_title=y_title, height=460,
                      data=[before, *_kind_traces(wavelen_after, kinds, kind_names, hover=hover)],
                      layout=dict(**reference_marks(lines, axis="y", log=True),
                                  yaxis=dict(type="log", exponentformat="power"), legend=LEGEND_BELOW,
                                  margin=dict(l=60, r=20, t=80, b=BELOW_MARGIN)))


def ratio_chart(ratio, kinds, *, factor: float, title: str, x_title: str, y_title: str,
                kind_names: Mapping[str, str], factor_label: str, hover: str, note: str | None = None) -> go.Figure:
    """New / old frequency per pair (log y): 1 = kept, 1/factor = fully interpolated, a line at each."""
    lines = [(1.0, dict(color=GREY, width=1), "", "left")]
    if factor > 1:
        lines.append((1.0 / factor, ORIGINAL_LINE, factor_label, "right"))
    return new_figure(title, note=note, x_title=x_title, y_title=y_title, height=420,
                      data=_kind_traces(ratio, kinds, kind_names, hover=hover),
                      layout=dict(**reference_marks(lines, axis="y", log=True), yaxis=dict(type="log"),
                                  legend=LEGEND_BELOW, margin=dict(l=60, r=20, t=80, b=BELOW_MARGIN)))


def decay_chart(distances, before, after, *, original: int, target: int, names: Sequence[str], title: str,
                x_title: str, y_title: str, context_labels: Sequence[str], note: str | None = None) -> go.Figure:
    """mean_i cos(d * w_i) vs distance d (log x) with plain and scaled frequencies; ``names`` = (before, after)."""
    fig = line_chart(distances, {names[0]: before, names[1]: after}, title=title, x_title=x_title,
                     y_title=y_title, note=note, log_x=True, height=420)
    fig.data[0].line.update(color=BEFORE_COLOR, width=3)
    fig.data[1].line.update(color=COLORWAY[1], width=2)
    reference_lines(fig, [(0.0, dict(color=GREY, width=1), "", "left")], axis="y", log=False)
    reference_lines(fig, _context_lines(original, target, context_labels, axis="x", log=True), axis="x", log=True)
    fig.update_layout(legend=LEGEND_BELOW, margin=dict(l=60, r=20, t=80, b=BELOW_MARGIN))
    return fig


def turns_chart(turns: Mapping[str, np.ndarray], *, title: str, x_title: str, y_title: str,
                one_turn_label: str, dashes: Mapping[str, str] | None = None,
                note: str | None = None) -> go.Figure:
    """Full turns per pair within a context (log y), one series per (frequencies, context); a line at one turn."""
    series = {name: np.asarray(values, dtype=np.float64) for name, values in turns.items()}
    # a log axis cannot show 0 turns (a pair at frequency 0): those sit at the smallest positive count; the
    # others are drawn as they are, however few turns (at theta 1e10 a slow pair turns 1e-7 times)
    positive = [v[v > 0].min() for v in series.values() if (v > 0).any()]
    floor = min(positive, default=1.0)
    series = {name: np.where(v > 0, v, floor) for name, v in series.items()}
    pairs = np.arange(len(next(iter(series.values()))))
    fig = line_chart(pairs, series, title=title, x_title=x_title, y_title=y_title, note=note, log_y=True,
                     markers=True, dashes=dashes, height=420)
    colors = [BEFORE_COLOR, "#555", COLORWAY[1]]
    for trace, color in zip(fig.data, colors):
        trace.update(line=dict(color=color), marker=dict(size=4, color=color))
    reference_lines(fig, [(1.0, TARGET_LINE, one_turn_label, "right")], axis="y", log=True)
    fig.update_yaxes(exponentformat="power")
    fig.update_layout(legend=LEGEND_BELOW, margin=dict(l=60, r=20, t=80, b=BELOW_MARGIN))
    return fig
