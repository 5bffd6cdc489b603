"""Figures of the Dot product page: two 2-D arrows, whose dot product and cosine the page reads out."""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go

from embedviz.figures import BLUE, LIGHT_GREY, VERMILLION, f32, new_figure


def vectors_figure(u, v, *, names: Sequence[str], title: str, note: str | None = None):
    """Two arrows from the origin on equal axes, each labelled."""
    u, v = np.asarray(u, dtype=np.float64), np.asarray(v, dtype=np.float64)
    lim = max(1.0, float(np.abs(np.concatenate([u, v])).max())) * 1.2
    fig = new_figure(title, note=note, height=420)
    for vec, name, color in ((u, names[0], BLUE), (v, names[1], VERMILLION)):
        fig.add_trace(go.Scatter(x=f32([0, vec[0]]), y=f32([0, vec[1]]), mode="lines+markers+text", name=name,
                                 text=["", name], textposition="top center", line=dict(color=color, width=3)))
    fig.update_xaxes(range=[-lim, lim], zeroline=True, zerolinecolor=LIGHT_GREY)
    fig.update_yaxes(range=[-lim, lim], zeroline=True, zerolinecolor=LIGHT_GREY, scaleanchor="x", scaleratio=1)
    return fig
