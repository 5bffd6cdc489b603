"""Figures for the "Why position" and "Sinusoidal" pages: arrays and translated strings in, go.Figure out."""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go

from embedviz.figures import BELOW_MARGIN, LEGEND_BELOW, LIGHT_GREY, f32, heatmap, line_chart, new_figure, side_by_side

DASHES = ("solid", "dash", "dot", "dashdot")
# The distance figure's layout rules. Its live copy (embedviz/app/live) redraws it in the browser and gets them in
# its data from here, so the rule is written once.
LOG_GAPS_PAST = 50  # gaps reaching past this go on a log axis: the short gaps, where the curve rises, get room
HEADROOM = 1.08  # the y axis ends this far above the bound, so the bound's line and label stay inside the plot


def encoding_heatmap(z, positions, dims, *, title: str, x_title: str, y_title: str, scale_key: str,
                     note: str | None = None, downsample_note: str | None = None):
    """The encoding as position (x) by dimension (y), like lesson 003's imshow(pe.T): fast stripes at the top.

    ``scale_key`` (the fixed -1..1 scale in words) ends the subtitle instead of a colour bar: a slider step redraws
    this chart, and the colour bar was its costliest part."""
    return heatmap(z, x=np.asarray(positions), y=[str(d) for d in dims], title=title, x_title=x_title,
                   y_title=y_title, note=note, zmin=-1.0, zmax=1.0, colorbar_title="PE",
                   downsample_note=downsample_note, scale_key=scale_key,
                   yaxis=dict(type="category", nticks=min(len(dims), 16)))


def distance_figure(
    gaps,
    distances,
    start_names: Sequence[str],
    *,
    typical: float,
    bound: float,
    typical_name: str,
    bound_name: str,
    title: str,
    x_title: str,
    y_title: str,
    note: str | None = None,
):
    """One curve per start position (they coincide, so later ones are dashed on top) and the two levels."""
    series = dict(zip(start_names, distances))
    dashes = {name: DASHES[i % len(DASHES)] for i, name in enumerate(start_names)}
    fig = line_chart(gaps, series, title=title, x_title=x_title, y_title=y_title, note=note, dashes=dashes,
                     log_x=bool(np.max(gaps) > LOG_GAPS_PAST))
    for level, name, dash in ((typical, typical_name, "dot"), (bound, bound_name, "dash")):
        fig.add_hline(y=level, line=dict(color="#888", dash=dash, width=1), annotation_text=name,
                      annotation_position="top left")
    # the labels stand off the axis: on a log x axis from gap 1, the y axis's "0" met the x axis's "1" in the corner
    fig.update_yaxes(rangemode="tozero", range=[0, bound * HEADROOM], ticklabelstandoff=10)
    fig.update_layout(legend=LEGEND_BELOW, margin=dict(b=BELOW_MARGIN), height=480)
    return fig


def rotation_figure(start, direct, rotated, names: Sequence[str], *, title: str, x_title: str, y_title: str,
                    note: str | None = None):
    """PE(p) faint, PE(p + k) as open circles, R(k) PE(p) as crosses: a cross inside each circle means they agree."""
    dims = f32(np.arange(len(direct)))
    size = 4 if len(direct) > 128 else 10
    fig = new_figure(title, note=note, x_title=x_title, y_title=y_title)
    fig.add_trace(go.Scatter(x=dims, y=f32(start), name=names[0], mode="markers",
                             marker=dict(color=LIGHT_GREY, size=max(size - 4, 3))))
    fig.add_trace(go.Scatter(x=dims, y=f32(direct), name=names[1], mode="markers",
                             marker=dict(symbol="circle-open", size=size + 4, line=dict(width=2))))
    fig.add_trace(go.Scatter(x=dims, y=f32(rotated), name=names[2], mode="markers",
                             marker=dict(symbol="x-thin-open", size=size, line=dict(width=2))))
    fig.update_layout(legend=LEGEND_BELOW, margin=dict(b=BELOW_MARGIN), height=460)
    return fig


def outputs_side_by_side(before, after, labels_before, labels_after, *, title: str, subplot_titles: Sequence[str],
                         x_title: str, note: str | None = None, downsample_note: str | None = None):
    """Attention outputs (T, D) for the sentence and its shuffle, rows labelled by token, one shared colour scale."""
    panels = [heatmap(z, y=list(labels), title="", x_title=x_title, downsample_note=downsample_note) for z, labels in
              ((before, labels_before), (after, labels_after))]
    fig = side_by_side(panels, title=title, subplot_titles=subplot_titles, note=note)
    fig.update_layout(margin=dict(t=120), height=max(360, 140 + 34 * len(labels_before)))  # room for the subtitle
    # a wider gap than side_by_side's so the right panel's token labels do not sit on the left heatmap
    for axis, annotation, domain in zip(("xaxis", "xaxis2"), fig.layout.annotations, ((0.0, 0.42), (0.58, 1.0))):
        fig.layout[axis].domain = domain
        annotation.x = sum(domain) / 2
    fig.update_yaxes(type="category")
    fig.update_xaxes(title_text=x_title)
    return fig


ROW_PX = 26  # a labelled heatmap row: a 20 px label's box and a little room


def difference_heatmap(diff, labels, *, title: str, x_title: str, colour_key: str, note: str | None = None,
                       downsample_note: str | None = None):
    """|output before - re-aligned output after| per token and dimension, white at 0 on a fixed scale of at least 1
    (so ~1e-15 of rounding stays white instead of being stretched to full colour). ``colour_key`` says the scale in
    the reader's words at the end of the subtitle, in place of a colour bar."""
    diff = np.asarray(diff, dtype=np.float64)
    labels = list(labels)
    # a row tall enough for its label at a presenter's 20 px font (the title, subtitle and x axis take ~180 px), and
    # every row labelled: left to itself plotly dropped every other token's label once they crowded
    fig = heatmap(diff, y=labels, title=title, x_title=x_title, note=note, colorscale="Reds",
                  zmin=0.0, zmax=max(1.0, float(diff.max())), height=max(300, 182 + ROW_PX * len(labels)),
                  downsample_note=downsample_note, scale_key=colour_key,
                  yaxis=dict(tickmode="array", tickvals=labels, ticktext=labels))
    # no colour bar (the subtitle's colour key says white = no difference; the values are in the hover): a colour
    # bar is a costly part of every redraw when the seed or d_model slider moves
    fig.update_traces(hovertemplate=f"%{{y}}<br>{x_title} %{{x}}<br>|Δ| %{{z:.3g}}<extra></extra>")
    fig.update_yaxes(type="category")
    return fig
