"""Figures of the "Compare encodings" page: arrays and translated strings in, ``go.Figure`` out."""
from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from embedviz.figures import BELOW_MARGIN, DIVERGING, LEGEND_BELOW, TEMPLATE, bar_chart, f32, line_chart, titled

# one dash style per scheme so overlapping curves stay visible (sinusoidal and RoPE coincide exactly)
DASHES = ("solid", "solid", "dash", "dot", "dashdot")


def adjacent_chart(positions, curves: Mapping[str, np.ndarray], *, title: str, x_title: str, y_title: str,
                   note: str | None = None) -> go.Figure:
    """cos(V(p), V(p+1)) vs position p, one line per scheme."""
    dashes = dict(zip(curves, DASHES))
    fig = line_chart(positions, curves, title=title, x_title=x_title, y_title=y_title, note=note, dashes=dashes)
    for trace, width in zip(fig.data, (3.5, 1.2, 2.0, 2.5, 1.5)):
        trace.line.width = width
    fig.update_yaxes(range=[-1.05, 1.05])
    fig.update_layout(legend=LEGEND_BELOW, height=440, margin=dict(b=BELOW_MARGIN))
    return fig


def _panels(
    matrices: Sequence[np.ndarray], positions, *, title: str, subplot_titles: Sequence[str], note: str | None,
    zmin: float, zmax: float, colorscale: str, colorbar_title: str, hover: str, height: int = 400,
) -> go.Figure:
    """Square heatmaps side by side on one shared colour scale (so the panels compare), y reversed like a matrix."""
    fig = make_subplots(rows=1, cols=len(matrices), subplot_titles=list(subplot_titles), horizontal_spacing=0.04)
    labels = f32(positions)
    for col, z in enumerate(matrices, start=1):
        fig.add_trace(go.Heatmap(z=f32(z), x=labels, y=labels, coloraxis="coloraxis", hoverongaps=False,
                                 hovertemplate=hover + "<extra></extra>"), row=1, col=col)
        fig.update_yaxes(autorange="reversed", showgrid=False, row=1, col=col, showticklabels=col == 1)
        fig.update_xaxes(showgrid=False, row=1, col=col)
    fig.update_layout(
        template=TEMPLATE, title=titled(title, note), height=height, margin=dict(t=100),
        coloraxis=dict(colorscale=colorscale, cmin=zmin, cmax=zmax, colorbar=dict(title=dict(text=colorbar_title))),
    )
    return fig


def similarity_panels(matrices: Sequence[np.ndarray], positions, *, title: str, subplot_titles: Sequence[str],
                      hover: str, note: str | None = None) -> go.Figure:
    """Cosine-similarity matrices of position vectors, one per scheme, on the fixed scale [-1, 1]."""
    return _panels(matrices, positions, title=title, subplot_titles=subplot_titles, note=note, zmin=-1.0, zmax=1.0,
                   colorscale=DIVERGING, colorbar_title="cos", hover=hover)


def alibi_bias_panels(bias, positions, *, title: str, subplot_titles: Sequence[str], hover: str, colorbar_title: str,
                      floor: float = -8.0, note: str | None = None) -> go.Figure:
    """ALiBi bias -slope * (i - j) of a few heads; the colour scale stops at ``floor`` (softmax weight e^floor ~ 0)."""
    return _panels(list(bias), positions, title=title, subplot_titles=subplot_titles, note=note, zmin=floor,
                   zmax=0.0, colorscale="Blues_r", colorbar_title=colorbar_title, hover=hover)


def slopes_chart(slopes, *, title: str, x_title: str, y_title: str, note: str | None = None) -> go.Figure:
    """One bar per head, log y: a geometric sequence is a straight staircase."""
    heads = [str(h) for h in range(1, len(slopes) + 1)]
    fig = bar_chart(heads, slopes, title=title, x_title=x_title, y_title=y_title, note=note, log_y=True)
    fig.update_xaxes(type="category")
    return fig
