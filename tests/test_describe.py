"""A chart's text alternative says what the drawing holds: its title, axes and each series' range."""
from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from embedviz.figures import new_figure
from embedviz.figures.describe import MAX_SERIES, text_alternative
from embedviz.rope.rotary import decay_curve


def test_a_curve_is_described_by_its_title_axes_and_range():
    distances = [0, 1, 5, 10, 20, 50, 100, 200, 400]
    decay = decay_curve(128, 10_000.0, distances)  # lesson 003: 1.000 ... 0.278
    fig = new_figure("Long-term decay", note="D = 128")
    fig.add_trace(go.Scatter(x=distances, y=decay, name="base 10,000"))
    fig.update_xaxes(title="distance")
    fig.update_yaxes(title="mean cos")
    text = text_alternative(fig)
    assert text.startswith("Long-term decay. D = 128. mean cos against distance. base 10,000: 9 points, 0.278")
    assert text.endswith(" to 1.")  # lesson 003's curve: from 1.000 at distance 0 down to 0.278 at 400


def test_a_heatmap_says_its_size_and_cell_range_and_tags_are_dropped():
    fig = new_figure("PE <b>table</b><br>every cell", note=None)
    fig.add_trace(go.Heatmap(z=np.array([[-1.0, 0.5, np.nan], [0.25, 2.0, 1.0]], dtype=np.float32), name="PE"))
    assert text_alternative(fig) == "PE table every cell. PE: 2 × 3 cells, -1 to 2."


def test_many_series_are_counted_not_listed_and_words_are_the_callers():
    fig = new_figure("curves")
    for n in range(MAX_SERIES + 2):
        fig.add_trace(go.Scatter(x=[0, 1], y=[n, n + 1]))
    zh = {"series": "{name}：{n} 个点，{low} 到 {high}", "unnamed": "系列 {n}", "more": "另有 {n} 个系列",
          "sep": "。", "end": "。"}
    text = text_alternative(fig, zh)
    assert text.startswith("curves。系列 1：2 个点，0 到 1。") and text.endswith("另有 2 个系列。")
    assert text.count("个点") == MAX_SERIES
