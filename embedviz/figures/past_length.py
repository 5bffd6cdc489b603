"""Figures of "A real model past its length": glassllm's loss by position, its attention, and its copy check."""
from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from embedviz.figures import BELOW_MARGIN, COLORWAY, LEGEND_BELOW, TEMPLATE, f32, heatmap, new_figure, plain, titled

TRAINED_LINE = dict(color="#555", dash="dash", width=1.5)
# one colour per method, the same on every chart: no scaling is the black reference, the others the palette's
METHOD_COLORS = {"none": "#000000", "linear": COLORWAY[1], "theta": COLORWAY[5], "dynamic": COLORWAY[2],
                 "ntk_by_parts": COLORWAY[4], "yarn": COLORWAY[0], "llama3": COLORWAY[3]}
PERPLEXITY_TICKS = (50, 70, 100, 150, 200, 300, 500)
LAYER_DASHES = ("solid", "dot", "dash", "dashdot")


def _rgba(hex_color: str, alpha: float) -> str:
    r, g, b = (int(hex_color[i:i + 2], 16) for i in (1, 3, 5))
    return f"rgba({r},{g},{b},{alpha})"


def loss_by_position(curves: Mapping[str, tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]],
                     names: Mapping[str, str], *, trained: int, title: str, x_title: str, y_title: str,
                     ppl_title: str, trained_label: str, hover: str, note: str | None = None) -> go.Figure:
    """Mean loss against position, one line per method with a band of one standard deviation across windows.

    ``curves``: method -> (x, mean, low, high); ``names``: method -> its name in the reader's language. A dashed
    line marks the trained length; the right axis reads the same values as perplexity, e^loss."""
    traces, lows, highs = [], [], []
    for method, (x, mean, low, high) in curves.items():
        color = METHOD_COLORS.get(method, COLORWAY[0])
        name = names[method]
        x = f32(x)
        traces.append(go.Scatter(x=np.concatenate([x, x[::-1]]), y=f32(np.concatenate([high, low[::-1]])),
                                 fill="toself", fillcolor=_rgba(color, 0.12), line=dict(width=0),
                                 hoverinfo="skip", showlegend=False, legendgroup=method))
        traces.append(go.Scatter(x=x, y=f32(mean), name=name, mode="lines", legendgroup=method,
                                 line=dict(color=color, width=3 if method == "none" else 2),
                                 hovertemplate=f"{plain(name)}<br>{hover}<extra></extra>"))
        lows.append(float(np.min(low)))
        highs.append(float(np.max(high)))
    lo, hi = (min(lows), max(highs)) if lows else (3.0, 6.0)
    pad = 0.05 * (hi - lo or 1.0)
    y_range = [lo - pad, hi + pad]
    ticks = [t for t in PERPLEXITY_TICKS if y_range[0] <= np.log(t) <= y_range[1]]
    layout = dict(
        yaxis=dict(range=y_range),
        # the same axis read as perplexity: e^loss at the loss it sits beside
        yaxis2=dict(overlaying="y", side="right", range=y_range, tickvals=[float(np.log(t)) for t in ticks],
                    ticktext=[str(t) for t in ticks], title=dict(text=ppl_title), showgrid=False),
        shapes=[dict(type="line", xref="x", x0=trained - 0.5, x1=trained - 0.5, yref="paper", y0=0, y1=1,
                     line=TRAINED_LINE)],
        # at the foot of the line, inside the plot: above it sat on the subtitle once the text was larger
        annotations=[dict(text=trained_label, xref="x", x=trained - 0.5, yref="paper", y=0.0, xanchor="left",
                          yanchor="bottom", showarrow=False, font=dict(size=11))],
        legend=LEGEND_BELOW, margin=dict(l=60, r=60, t=90, b=BELOW_MARGIN),
    )
    # an invisible trace on the right axis, so plotly draws it
    traces.append(go.Scatter(x=[0], y=[y_range[0]], yaxis="y2", mode="markers", marker=dict(opacity=0),
                             hoverinfo="skip", showlegend=False))
    # 400 px with its legend: on a 1280 x 720 screen the legend sits on the first screen under the page's lead
    return new_figure(title, note=note, x_title=x_title, y_title=y_title, height=400, data=traces, layout=layout)


def attention_map(z: np.ndarray, *, step: int, title: str, x_title: str, y_title: str, colorbar_title: str,
                  hover: str, note: str | None = None, downsample_note: str | None = None) -> go.Figure:
    """One head's attention weights, query (rows) x key (columns), already block-averaged (``step`` positions per
    block); causal, so the upper triangle is empty."""
    positions = (np.arange(z.shape[0]) * step).tolist()
    if step > 1:
        note = " · ".join(n for n in (note, (downsample_note or "").format(rs=step, cs=step)) if n)
    z = np.where(np.triu(np.ones_like(z, dtype=bool), 1), np.nan, z)  # keys after the query: not a zero, nothing
    # most weights are small and a few near 1: the colour saturates at the 99th percentile, so the spread-out
    # heads show at all (the hover gives every cell's value)
    top = float(np.nanpercentile(z, 99)) or float(np.nanmax(z)) or 1.0
    return heatmap(z, x=positions, y=positions, title=title, x_title=x_title, y_title=y_title, note=note,
                   colorscale="Blues", zmid=None, zmin=0.0, zmax=top,
                   colorbar_title=colorbar_title, hovertemplate=hover + "<extra></extra>", height=480)


def distance_profiles(distances: np.ndarray, profiles: np.ndarray, decay: np.ndarray, *, title: str,
                      head_names: Sequence[Sequence[str]], decay_name: str, x_title: str, y_title: str,
                      decay_title: str, subplot_titles: Sequence[str], hover: str, note: str | None = None
                      ) -> go.Figure:
    """Left: every head's mean weight against distance (log-log), one colour per head within a layer, one dash per
    layer. Right: the RoPE page's decay curve, mean_i cos(d w_i), over the same distances."""
    fig = make_subplots(rows=1, cols=2, column_widths=[0.62, 0.38], horizontal_spacing=0.1,
                        subplot_titles=list(subplot_titles))
    x = f32(distances)
    layers, per_layer = profiles.shape[:2]
    for layer in range(layers):
        for head in range(per_layer):
            name = head_names[layer][head]
            fig.add_trace(go.Scatter(x=x, y=f32(np.maximum(profiles[layer, head], 1e-6)), mode="lines", name=name,
                                     legendgroup=f"layer{layer}",
                                     line=dict(color=COLORWAY[head % len(COLORWAY)], dash=LAYER_DASHES[layer % 4],
                                               width=1.6),
                                     hovertemplate=f"{plain(name)}<br>{hover}<extra></extra>"), row=1, col=1)
    fig.add_trace(go.Scatter(x=x, y=f32(decay), mode="lines", name=decay_name, line=dict(color="#000", width=3),
                             hovertemplate=f"{plain(decay_name)}<br>{hover}<extra></extra>"), row=1, col=2)
    fig.update_xaxes(type="log", title=dict(text=x_title))
    # below 1e-4 a mean weight is a handful of queries' noise (the far distances have few queries): cut there
    fig.update_yaxes(type="log", title=dict(text=y_title), range=[-4, 0], exponentformat="power", row=1, col=1)
    fig.update_yaxes(title=dict(text=decay_title), row=1, col=2)
    fig.update_layout(template=TEMPLATE, title=titled(title, note), height=520, legend=LEGEND_BELOW,
                      margin=dict(l=60, r=20, t=100, b=BELOW_MARGIN + 40))
    return fig


def copy_bars(labels: Sequence[str], losses: Sequence[float], *, title: str, y_title: str, hover: str,
              note: str | None = None) -> go.Figure:
    """The mean loss on each copy of a repeated passage: a model that copies has a much lower second bar."""
    trace = go.Bar(x=list(labels), y=f32(losses), marker_color=[COLORWAY[0], COLORWAY[1], COLORWAY[1]][:len(labels)],
                   text=[f"{v:.2f}" for v in losses], textposition="outside",
                   hovertemplate=hover + "<extra></extra>")
    top = max(losses) if len(losses) else 1.0
    return new_figure(title, note=note, y_title=y_title, height=360, data=[trace],
                      layout=dict(yaxis=dict(range=[0, top * 1.2])))
