"""Figures for the "Real model" page: arrays and already translated strings in, go.Figure out."""
from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import plotly.graph_objects as go

from embedviz.figures import BELOW_MARGIN, COLORWAY, LEGEND_BELOW, bar_chart, f32, line_chart, new_figure, scatter_2d
from embedviz.figures import VERMILLION, side_by_side, similarity_heatmap

ROUGH_COLOR = VERMILLION
PATH_POINTS = 12  # the first rows joined in order in a PCA picture: enough to see a turn, few enough to follow


def _shown(values, err: float, axis: str) -> tuple[list[str], str | None]:
    """Bar labels and hover template of cosines: 4 decimals and plotly's own hover, or, for a table rounded to
    ``err``, 3 decimals and "± err" in the hover too."""
    if not err:
        return [f"{v:.4f}" for v in values], None
    return [f"{v:.3f}" for v in values], f"%{{{axis}}}: %{{text}} ± {err:.2f}<extra></extra>"


def pair_bars(labels: Sequence[str], values, *, title: str, y_title: str, note: str | None = None,
              err: float = 0.0) -> go.Figure:
    """One bar per word pair; the y axis always spans 0 to 1, so a similarity of 0.3 looks like 0.3 of the way.
    ``err``: how far the table's cosines may be off (e5's 4-bit rounding, 0.01), said in every bar's hover."""
    values = np.asarray(values, dtype=np.float64)
    fig = bar_chart(labels, values, title=title, y_title=y_title, note=note,
                    colors=[COLORWAY[0] if v >= 0 else COLORWAY[1] for v in values])
    text, hover = _shown(values, err, "x")
    fig.update_traces(text=text, textposition="outside", cliponaxis=False, hovertemplate=hover)
    fig.update_yaxes(range=[min(0.0, float(values.min(initial=0.0))) - 0.05, 1.05])
    return fig


def score_bars(tokens: Sequence[str], scores, *, title: str, x_title: str, note: str | None = None,
               err: float = 0.0) -> go.Figure:
    """Horizontal bars, best match on top: neighbours of a word or the answers of an analogy (``err`` as in
    ``pair_bars``)."""
    scores = np.asarray(scores, dtype=np.float64)
    fig = new_figure(title, note=note, x_title=x_title, height=max(260, 90 + 24 * len(tokens)))
    text, hover = _shown(scores, err, "y")
    fig.add_trace(go.Bar(x=f32(scores), y=list(tokens), orientation="h", marker_color=COLORWAY[0],
                         text=text, textposition="outside", cliponaxis=False, hovertemplate=hover))
    fig.update_yaxes(autorange="reversed", type="category")
    fig.update_xaxes(range=[min(0.0, float(scores.min(initial=0.0))), 1.0])
    return fig


def word_map(points, labels: Sequence[str], groups: Sequence[str] | None, *, title: str, axis_titles: Sequence[str],
             note: str | None = None) -> go.Figure:
    """The word list's PCA projection, coloured by group when the reader gave groups; ``axis_titles`` names the two
    principal components (translated)."""
    fig = scatter_2d(points, labels, groups=groups, title=title, note=note, height=540, x_title=axis_titles[0],
                     y_title=axis_titles[1])
    fig.update_layout(legend=LEGEND_BELOW, margin=dict(b=BELOW_MARGIN))
    return fig


def matrices_side_by_side(left, right, rows, *, title: str, subplot_titles: Sequence[str], x_title: str,
                          note: str | None = None, downsample_note: str | None = None) -> go.Figure:
    """Two cosine matrices over the same rows, on the same [-1, 1] colour scale (learned vs sinusoidal)."""
    labels = np.asarray(rows)
    panels = [similarity_heatmap(m, labels, title="", downsample_note=downsample_note) for m in (left, right)]
    fig = side_by_side(panels, title=title, subplot_titles=subplot_titles, note=note)
    fig.update_xaxes(title_text=x_title)
    # A subtitle (the downsampling note) needs room above the panel titles.
    fig.update_layout(height=500, coloraxis_colorbar=dict(title=dict(text="cos")), margin=dict(t=110 if note else 80))
    return fig


def single_matrix(matrix, rows, *, title: str, x_title: str, note: str | None = None,
                  downsample_note: str | None = None) -> go.Figure:
    fig = similarity_heatmap(matrix, np.asarray(rows), title=title, note=note, x_title=x_title, y_title=x_title,
                             downsample_note=downsample_note)
    fig.update_layout(height=520)
    return fig


def step_curves(steps, series: Mapping[str, np.ndarray], *, rough_steps, rough_values, rough_name: str, title: str,
                x_title: str, y_title: str, note: str | None = None) -> go.Figure:
    """cos(row t, row t+1) against t for each table, with the rough steps of the first one circled."""
    # cosines to 4 decimals, as the page's metrics and text quote them
    fig = line_chart(steps, series, title=title, x_title=x_title, y_title=y_title, note=note, y_format=".4f")
    if len(rough_steps):
        fig.add_trace(go.Scatter(
            x=f32(rough_steps), y=f32(rough_values), mode="markers", name=rough_name,
            marker=dict(size=11, color="rgba(0,0,0,0)", line=dict(color=ROUGH_COLOR, width=2)),
            hovertemplate="%{x} → %{x}+1: %{y:.4f}<extra></extra>",
        ))
    fig.update_yaxes(range=[min(0.0, float(np.min([np.min(v) for v in series.values()]))) - 0.05, 1.05])
    fig.update_layout(legend=LEGEND_BELOW, height=460, margin=dict(b=BELOW_MARGIN))
    return fig


def offset_curve(offsets, series: Mapping[str, np.ndarray], *, title: str, x_title: str, y_title: str,
                 note: str | None = None) -> go.Figure:
    """Mean cos(row p, row p+k) against the distance k (log axis: the near offsets matter most)."""
    fig = line_chart(offsets, series, title=title, x_title=x_title, y_title=y_title, note=note, log_x=True,
                     markers=True, y_format=".4f")
    fig.update_traces(marker=dict(size=4))
    fig.update_layout(legend=LEGEND_BELOW, height=460, margin=dict(b=BELOW_MARGIN))
    return fig


def rows_pca(points, rows, *, title: str, color_title: str, axis_titles: Sequence[str], note: str | None = None,
             path: int = PATH_POINTS) -> go.Figure:
    """Each row of a table as a point in its first two principal components, coloured by its row number.

    The first `path` rows are joined in order and numbered, so the reader can follow how the table moves from one
    row to the next (a steady turn around the centre is a sin/cos-like pair).
    """
    points, rows = np.asarray(points, dtype=np.float64), np.asarray(rows)
    fig = new_figure(title, note=note, x_title=axis_titles[0], y_title=axis_titles[1], height=540)
    fig.add_trace(go.Scatter(
        x=f32(points[:, 0]), y=f32(points[:, 1]), mode="markers", showlegend=False,
        customdata=rows, hovertemplate=f"{color_title} %{{customdata}}<extra></extra>",
        marker=dict(size=6, color=rows, colorscale="Viridis", colorbar=dict(title=dict(text=color_title))),
    ))
    head = slice(0, min(path, len(rows)))
    fig.add_trace(go.Scatter(
        x=f32(points[head, 0]), y=f32(points[head, 1]), mode="lines+markers+text", showlegend=False,
        text=[str(r) for r in rows[head]], textposition="top center", hoverinfo="skip",
        line=dict(color=ROUGH_COLOR, width=1.5), marker=dict(size=7, color=ROUGH_COLOR),
    ))
    fig.update_yaxes(scaleanchor="x", scaleratio=1)
    return fig
