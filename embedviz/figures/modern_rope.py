"""Figures of the "RoPE in today's models" page: a model's layers, its RoPE settings, M-RoPE and the theory.

Arrays and already-translated strings in, ``go.Figure`` out; no math beyond picking what to draw.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import plotly.graph_objects as go

from embedviz.figures import BELOW_MARGIN, COLORWAY, GREY, LIGHT_GREY, LEGEND_BELOW, f32, heatmap, new_figure, reference_lines

NOPE_COLOR = GREY
UNROTATED_COLOR = LIGHT_GREY
AXIS_COLORS = (COLORWAY[0], COLORWAY[2], COLORWAY[3])  # time, height, width


def setting_colors(names: Sequence[str], nope_name: str) -> dict[str, str]:
    """One colour per setting, grey for NoPE."""
    colors, k = {}, 0
    for name in names:
        if name == nope_name:
            colors[name] = NOPE_COLOR
        else:
            colors[name] = COLORWAY[k % len(COLORWAY)]
            k += 1
    return colors


REACH_SHADES = (LIGHT_GREY, "#525252", "#222222", "#6e6e6e", "#3a3a3a")  # greys: the reach row is not a RoPE


def layer_strip(layer_names: Sequence[str], labels: Mapping[str, str], colors: Mapping[str, str], *, title: str,
                x_title: str, note: str | None = None, reach: Sequence[str] | None = None) -> go.Figure:
    """One cell per layer, coloured by the RoPE setting it uses; ``labels`` name each setting in the legend and the
    hover names the layer by ``x_title`` (both translated). ``reach`` (one translated label per layer: "window
    1,024", "chunk 8,192", "whole context", with sinks) adds a grey row above: what each layer can attend to."""
    fig = new_figure(title, note=note, x_title=x_title, height=230 if reach is None else 340)
    layers = np.arange(len(layer_names))
    rows = [(layer_names, labels, colors, 0.0)]
    if reach is not None:
        kinds = list(dict.fromkeys(reach))
        rows.append((reach, {k: k for k in kinds},
                     {k: REACH_SHADES[i % len(REACH_SHADES)] for i, k in enumerate(kinds)}, 1.1))
    for row_names, row_labels, row_colors, base in rows:
        names = np.asarray(row_names)
        for name in dict.fromkeys(row_names):
            mask = names == name
            fig.add_trace(go.Bar(x=layers[mask], y=np.ones(int(mask.sum()), dtype=np.float32),
                                 base=np.full(int(mask.sum()), base, dtype=np.float32), name=row_labels[name],
                                 marker=dict(color=row_colors[name], line=dict(width=0.5, color="white")),
                                 width=1.0, hovertemplate=f"{row_labels[name]}<br>{x_title} %{{x}}<extra></extra>"))
    fig.update_yaxes(visible=False, range=[0, 1 if reach is None else 2.1])
    # with the reach row the legend has twice the entries, so twice the rows
    fig.update_layout(barmode="overlay", bargap=0, legend=LEGEND_BELOW,
                      margin=dict(l=20, r=20, t=70, b=BELOW_MARGIN if reach is None else 170))
    return fig


def wavelength_curves(series: Mapping[str, np.ndarray], colors: Mapping[str, str], *, title: str, x_title: str,
                      y_title: str, lines: Sequence[tuple[float, str]] = (), note: str | None = None) -> go.Figure:
    """Wavelength (positions per turn) of every rotated pair, one curve per setting, log y; ``lines`` are
    horizontal reference lines (a training length) with their labels."""
    fig = new_figure(title, note=note, x_title=x_title, y_title=y_title)
    for name, values in series.items():
        fig.add_trace(go.Scatter(x=np.arange(len(values)), y=f32(values), name=name, mode="lines+markers",
                                 marker=dict(size=4, color=colors.get(name)), line=dict(color=colors.get(name))))
    # not add_hline(annotation_text=...): on a log axis it put the label at 10**value, off the chart
    style = dict(color="#333", dash="dash", width=1.5)
    reference_lines(fig, [(value, style, label, "left") for value, label in lines], axis="y", log=True)
    fig.update_yaxes(type="log")
    fig.update_layout(legend=LEGEND_BELOW, margin=dict(l=60, r=20, t=80, b=BELOW_MARGIN))
    return fig


def decay_curves(distances, series: Mapping[str, np.ndarray], colors: Mapping[str, str], *, title: str,
                 x_title: str, y_title: str) -> go.Figure:
    """mean_i cos(distance * w_i) over distance, one curve per setting (log x)."""
    fig = new_figure(title, x_title=x_title, y_title=y_title)
    for name, values in series.items():
        fig.add_trace(go.Scatter(x=f32(distances), y=f32(values), name=name, mode="lines",
                                 line=dict(color=colors.get(name))))
    fig.update_xaxes(type="log")
    fig.update_layout(legend=LEGEND_BELOW, margin=dict(l=60, r=20, t=80, b=BELOW_MARGIN))
    return fig


def head_layout(rows: Sequence[tuple[str, np.ndarray]], colors: Mapping[str, str], *, title: str, x_title: str,
                rotated_name: str, unrotated_name: str) -> go.Figure:
    """Each setting's head, dimension by dimension: coloured where RoPE turns it, grey where it passes through.
    ``rows`` holds (setting name, boolean mask of rotated dimensions, shape (head_dim,))."""
    fig = new_figure(title, x_title=x_title, height=140 + 40 * len(rows))
    shown = set()
    for name, rotated in rows:
        rotated = np.asarray(rotated, dtype=bool)
        for flag, label, color in ((True, rotated_name, colors.get(name)), (False, unrotated_name, UNROTATED_COLOR)):
            dims = np.flatnonzero(rotated == flag)
            if not dims.size:
                continue
            fig.add_trace(go.Bar(x=np.ones(dims.size, dtype=np.float32), y=[name] * dims.size, base=f32(dims),
                                 orientation="h", marker=dict(color=color), width=0.6,
                                 name=f"{name}: {label}" if flag else label, showlegend=flag or label not in shown,
                                 hovertemplate=f"{name}<br>{label}<br>{x_title} %{{base}}<extra></extra>"))
            shown.add(label)
    fig.update_layout(barmode="overlay", legend=LEGEND_BELOW, margin=dict(l=140, r=20, t=70, b=BELOW_MARGIN))
    return fig


def mrope_band(axes: np.ndarray, wavelengths: np.ndarray, axis_names: Sequence[str], *, title: str, x_title: str,
               y_title: str) -> go.Figure:
    """Wavelength per pair, coloured by the position axis (time / height / width) the pair follows."""
    fig = new_figure(title, x_title=x_title, y_title=y_title)
    pairs = np.arange(len(axes))
    for axis, name in enumerate(axis_names):
        mask = np.asarray(axes) == axis
        if not mask.any():
            continue
        fig.add_trace(go.Bar(x=pairs[mask], y=f32(np.asarray(wavelengths)[mask]), name=name,
                             marker=dict(color=AXIS_COLORS[axis % 3])))
    fig.update_yaxes(type="log")
    fig.update_layout(bargap=0.05, legend=LEGEND_BELOW, margin=dict(l=60, r=20, t=80, b=BELOW_MARGIN))
    return fig


def two_curves(x, first: tuple[str, np.ndarray], second: tuple[str, np.ndarray], *, title: str, x_title: str,
               y_title: str, log_y: bool = False, note: str | None = None) -> go.Figure:
    """Two named curves over the same x (the PI bound against the extrapolation bound; a temperature).

    A constant curve (the PI bound) is drawn from its two ends: the same line, without 1,500 equal points."""
    fig = new_figure(title, note=note, x_title=x_title, y_title=y_title)
    x = np.asarray(x)
    for (name, values), color in ((first, COLORWAY[2]), (second, COLORWAY[1])):
        if values is not None:
            values = np.asarray(values)
            ends = len(values) > 2 and bool(np.all(values == values[0]))
            fig.add_trace(go.Scatter(x=f32(x[[0, -1]] if ends else x), y=f32(values[[0, -1]] if ends else values),
                                     name=name, mode="lines", line=dict(color=color)))
    if log_y:
        fig.update_yaxes(type="log")
    fig.update_layout(legend=LEGEND_BELOW, margin=dict(l=60, r=20, t=80, b=BELOW_MARGIN))
    return fig


def patch_similarity_map(similarity, row: int, col: int, *, title: str, x_title: str, y_title: str,
                         patch_name: str) -> go.Figure:
    """2-D RoPE over an image's patch grid: cos similarity of patch (row, col)'s rotation to every patch's,
    rows down, columns across; the chosen patch is marked."""
    similarity = np.asarray(similarity)
    fig = heatmap(similarity, title=title, x=np.arange(similarity.shape[1]), y=np.arange(similarity.shape[0]),
                  x_title=x_title, y_title=y_title, zmin=-1.0, zmax=1.0, colorbar_title="cos", height=520)
    fig.add_trace(go.Scatter(x=[col], y=[row], mode="markers", name=patch_name, showlegend=False,
                             marker=dict(symbol="x", size=12, color="black"),
                             hovertemplate=f"{patch_name}<extra></extra>"))
    return fig
