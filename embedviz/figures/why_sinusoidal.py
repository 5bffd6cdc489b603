"""Figures of the "Why sine and cosine" page: naive position schemes' values and steps, the binary counter beside the
smooth one."""
from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from embedviz.figures import BELOW_MARGIN, LEGEND_BELOW, heatmap, line_chart, side_by_side


def values_figure(positions, series: Mapping[str, np.ndarray], *, title: str, x_title: str, y_title: str,
                  note: str | None = None, marker: int | None = None, marker_name: str = ""):
    """Each series' value at each position, with a dotted line at the chosen position."""
    fig = line_chart(positions, series, title=title, x_title=x_title, y_title=y_title, note=note)
    fig.update_layout(legend=LEGEND_BELOW, margin=dict(b=BELOW_MARGIN))
    if marker is not None:
        fig.add_vline(x=marker, line_dash="dot", line_color="#555", annotation_text=marker_name)
    return fig


def counter_figure(binary, smooth, positions, *, title: str, subplot_titles: Sequence[str], x_title: str,
                   y_title: str, note: str | None = None, downsample_note: str | None = None):
    """Binary code beside the smooth counter (bit / dimension down, position across): the same stripes, soft."""
    panels = [
        heatmap(np.asarray(z).T, x=np.asarray(positions), y=[str(b) for b in range(np.asarray(z).shape[1])],
                title="", zmin=0.0, zmax=1.0, colorscale="Blues", x_title=x_title, y_title=y_title,
                downsample_note=downsample_note)
        for z in (binary, smooth)
    ]
    fig = side_by_side(panels, title=title, subplot_titles=subplot_titles, note=note, spacing=0.06)
    fig.update_xaxes(title_text=x_title)
    fig.update_yaxes(title_text=y_title, type="category", col=1)
    fig.update_yaxes(type="category", col=2)
    fig.update_layout(margin=dict(t=120))  # room for the subtitle above the panel titles
    return fig


def steps_figure(positions, steps: Mapping[str, np.ndarray], *, title: str, x_title: str, y_title: str,
                 note: str | None = None):
    """Distance from each position to the next, one line per scheme."""
    fig = line_chart(positions, steps, title=title, x_title=x_title, y_title=y_title, note=note, markers=True)
    fig.update_layout(legend=LEGEND_BELOW, margin=dict(b=BELOW_MARGIN))
    return fig
