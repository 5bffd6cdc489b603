"""Figures of the RoPE page: arrays and translated strings in, ``go.Figure`` out."""
from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import plotly.graph_objects as go

from embedviz.downsample import stride_for
from embedviz.figures import BELOW_MARGIN, COLORWAY, GREY, LEGEND_BELOW, LIGHT_GREY, f32, heatmap, line_chart, new_figure, quoted

Q_COLOR, K_COLOR = COLORWAY[0], COLORWAY[1]
NEVER_COLOR, TURNS_COLOR = COLORWAY[1], COLORWAY[0]
# Rules that the live copies of the angle heatmap and the decay chart (embedviz/app/live) get in their data from
# here, so each is written once.
MAX_TICKS = 16  # the angle heatmap's dimension axis names at most this many rows (0, 8, 16, ... at head_dim 128)
CHOSEN_WIDTH, REFERENCE_WIDTH = 3.5, 1.6  # the decay chart's chosen theta, thick, over the reference thetas
# ... and each curve its own dash, by its place: the curves differed by colour alone
DECAY_DASHES = ("solid", "dash", "dot", "dashdot")


def angle_heatmap(z, positions, pair, *, title: str, x_title: str, y_title: str, hover: str, row_label: str,
                  scale_key: str, note: str | None = None, downsample_note: str | None = None):
    """cos(m * w_i) per dimension (rows) and position (columns); hover names the pair each dimension belongs to.

    ``row_label`` is the reader's words for a row with {d} (dimension) and {i} (its pair), e.g. "dimension {d} (pair
    {i})": each row is a category named so, and the hover shows it (``%{y}`` in ``hover``). One label per row
    instead of a per-cell pair array: the same hover for ~1/20 of the bytes, and a step redraws less. The axis
    still reads 0, 8, 16, ... (ticks named by dimension only). ``scale_key`` (the fixed -1..1 scale in words) ends
    the subtitle instead of a colour bar: a slider step redraws this chart, and the colour bar was its costliest part.
    """
    pair = np.asarray(pair)
    rows = [row_label.format(d=d, i=int(i)) for d, i in enumerate(pair)]
    every = stride_for(len(rows), MAX_TICKS)  # the browser's copy: formulas.js's strideFor, pinned to it
    return heatmap(z, x=f32(positions), y=rows, title=title, x_title=x_title, y_title=y_title, note=note,
                   zmin=-1.0, zmax=1.0, colorbar_title="cos", downsample_note=downsample_note, scale_key=scale_key,
                   hovertemplate=hover + "<extra></extra>",
                   yaxis=dict(type="category", tickmode="array", tickvals=rows[::every],
                              ticktext=[str(d) for d in range(0, len(rows), every)]))


def _arrow(fig: go.Figure, vec, *, name: str, color: str, dash: str | None = None, opacity: float = 1.0) -> None:
    fig.add_trace(
        go.Scatter(
            x=[0.0, float(vec[0])], y=[0.0, float(vec[1])], name=name, mode="lines+markers",
            line=dict(color=color, width=3, dash=dash), opacity=opacity,
            marker=dict(symbol=["circle", "arrow"], size=[4, 16], angleref="previous", color=color),
            hovertemplate=f"{name}<br>(%{{x:.3f}}, %{{y:.3f}})<extra></extra>",
        )
    )


def pair_plane(demo, *, title: str, names: Sequence[str], note: str | None = None) -> go.Figure:
    """One frequency pair in the plane: q at m and k at n (solid), both shifted by s (dashed), on the unit circle.

    ``names`` labels the four arrows: q at m, k at n, q at m+s, k at n+s.
    """
    fig = new_figure(title, note=note, height=460)
    radius = max(1.0, float(np.linalg.norm(demo.q_m)), float(np.linalg.norm(demo.k_n))) * 1.15
    t = np.linspace(0, 2 * np.pi, 121)
    fig.add_trace(go.Scatter(x=f32(np.cos(t)), y=f32(np.sin(t)), mode="lines", hoverinfo="skip", showlegend=False,
                             line=dict(color=LIGHT_GREY, width=1, dash="dot")))
    _arrow(fig, demo.q_m, name=names[0], color=Q_COLOR)
    _arrow(fig, demo.k_n, name=names[1], color=K_COLOR)
    _arrow(fig, demo.q_ms, name=names[2], color=Q_COLOR, dash="dash", opacity=0.55)
    _arrow(fig, demo.k_ns, name=names[3], color=K_COLOR, dash="dash", opacity=0.55)
    fig.update_xaxes(range=[-radius, radius], zeroline=True, zerolinecolor=LIGHT_GREY)
    fig.update_yaxes(range=[-radius, radius], zeroline=True, zerolinecolor=LIGHT_GREY, scaleanchor="x", scaleratio=1)
    fig.update_layout(legend=dict(orientation="v", x=1.02, xanchor="left", y=1.0, yanchor="top"))
    return fig


def decay_chart(distances, curves: Mapping[str, np.ndarray], *, highlight: str, title: str, x_title: str,
                y_title: str, note: str | None = None) -> go.Figure:
    """mean_i cos(d * w_i) vs distance (log x), one line per theta; the chosen theta drawn thick."""
    fig = line_chart(distances, curves, title=title, x_title=x_title, y_title=y_title, note=note, log_x=True)
    for i, trace in enumerate(fig.data):
        trace.line.width = CHOSEN_WIDTH if trace.name == highlight else REFERENCE_WIDTH
        trace.line.dash = DECAY_DASHES[i % len(DECAY_DASHES)]
    fig.add_hline(y=0.0, line=dict(color=GREY, width=1))
    fig.update_layout(legend=LEGEND_BELOW, height=460, margin=dict(b=BELOW_MARGIN))
    return fig


def wavelength_chart(wavelen, never, context_length: int, *, title: str, x_title: str, y_title: str,
                     legend: Sequence[str], context_label: str, hover: str, note: str | None = None) -> go.Figure:
    """Wavelength 2*pi / w_i of each pair (log y) against the context length; pairs that never turn once in red.
    ``hover`` may quote a pair's wavelength as the text does with ``%{customdata}``.

    ``legend`` = (name of pairs that turn at least once, name of pairs that never finish a turn).
    """
    wavelen, never = np.asarray(wavelen), np.asarray(never, dtype=bool)
    pairs = np.arange(wavelen.size)
    fig = new_figure(title, note=note, x_title=x_title, y_title=y_title)
    for mask, name, color in ((~never, legend[0], TURNS_COLOR), (never, legend[1], NEVER_COLOR)):
        fig.add_trace(go.Bar(x=pairs[mask], y=f32(wavelen[mask]), name=name, marker_color=color,
                             customdata=[quoted(w) for w in wavelen[mask]],  # 6.3, 63, 628: as the text says
                             hovertemplate=hover + "<extra></extra>"))
    # a trace, not add_hline(annotation_text=...): plotly places hline annotations wrongly on a log axis
    fig.add_trace(go.Scatter(x=[-0.5, wavelen.size - 0.5], y=[context_length, context_length], mode="lines",
                             name=context_label, line=dict(color="#333", dash="dash", width=2), hoverinfo="name"))
    fig.update_yaxes(type="log")
    fig.update_layout(bargap=0.05, legend=LEGEND_BELOW, height=460, margin=dict(b=BELOW_MARGIN))
    return fig


def pairing_map(half_pair, interleaved_pair, *, title: str, row_names: Sequence[str], x_title: str,
                hover: str, note: str | None = None) -> go.Figure:
    """Which pair each dimension belongs to, one row per pairing; cells show the pair index when they fit."""
    z = np.vstack([half_pair, interleaved_pair]).astype(np.float32)  # (2, head_dim)
    fig = new_figure(title, note=note, x_title=x_title, height=240)
    show_text = z.shape[1] <= 32
    fig.add_trace(
        go.Heatmap(z=z, y=list(row_names), colorscale="Viridis", showscale=False, xgap=1, ygap=2,
                   text=z.astype(int) if show_text else None, texttemplate="%{text}" if show_text else None,
                   hovertemplate=hover + "<extra></extra>")
    )
    fig.update_yaxes(autorange="reversed", showgrid=False)
    fig.update_xaxes(showgrid=False)
    fig.update_layout(margin=dict(l=200))
    return fig


def pairing_scores_chart(offsets, series: Mapping[str, np.ndarray], *, title: str, x_title: str, y_title: str,
                         dashes: Mapping[str, str], note: str | None = None) -> go.Figure:
    """Attention score vs offset m - n for the same q, k under the two pairings (and without the permutation)."""
    fig = line_chart(offsets, series, title=title, x_title=x_title, y_title=y_title, note=note, dashes=dashes)
    widths = [3.5, 2.0, 1.2]
    for trace, width in zip(fig.data, widths):
        trace.line.width = width
    fig.update_layout(legend=LEGEND_BELOW, height=440, margin=dict(b=BELOW_MARGIN))
    return fig
