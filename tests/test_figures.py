"""Figure builders: pure, templated, inside the cell budget, and honest about downsampling."""
import json

import numpy as np
import plotly.graph_objects as go
import pytest

from embedviz import figures
from embedviz.downsample import CELL_BUDGET


def _z(fig) -> np.ndarray:
    return np.asarray(fig.data[0].z, dtype=np.float64)


def test_small_heatmap_is_sent_as_is():
    z = np.arange(12.0).reshape(3, 4)
    fig = figures.heatmap(z, title="small")
    assert isinstance(fig, go.Figure)
    np.testing.assert_array_equal(_z(fig), z)
    assert fig.layout.template.layout.font.family == figures.pio.templates[figures.TEMPLATE].layout.font.family
    assert not fig.layout.title.subtitle.text


def test_large_heatmap_is_block_averaged_and_says_so():
    rng = np.random.default_rng(0)
    z = rng.normal(size=(5000, 900))
    fig = figures.heatmap(z, title="big", y=list(range(5000)), downsample_note="按 {rs}×{cs} 的块取平均")
    got = _z(fig)
    assert got.shape[0] <= CELL_BUDGET and got.shape[1] <= CELL_BUDGET
    rs, cs = -(-5000 // CELL_BUDGET), -(-900 // CELL_BUDGET)
    assert got[0, 0] == pytest.approx(z[:rs, :cs].mean(), rel=1e-5)
    assert fig.layout.title.subtitle.text == f"按 {rs}×{cs} 的块取平均"  # the caller's words, not the figure code's
    assert len(fig.data[0].y) == got.shape[0]
    assert len(fig.to_json()) < 1_000_000


def test_heatmap_payload_is_float32():
    fig = figures.heatmap(np.ones((10, 10)), title="t")
    assert np.asarray(fig.data[0].z).dtype == np.float32


def test_similarity_heatmap_uses_a_fixed_scale():
    fig = figures.similarity_heatmap(np.eye(3), ["a", "b", "c"], title="cos")
    assert (fig.data[0].zmin, fig.data[0].zmax) == (-1.0, 1.0)


def test_line_chart_has_one_trace_per_series_and_log_axes():
    fig = figures.line_chart([1, 2, 3], {"a": [1, 2, 3], "b": [3, 2, 1]}, title="t", log_x=True)
    assert [tr.name for tr in fig.data] == ["a", "b"]
    assert fig.layout.xaxis.type == "log"


def test_scatter_groups_become_traces():
    pts = np.arange(8.0).reshape(4, 2)
    fig = figures.scatter_2d(pts, ["a", "b", "A", "B"], groups=["lower", "lower", "upper", "upper"], title="t")
    assert [tr.name for tr in fig.data] == ["lower", "upper"]
    assert list(fig.data[1].text) == ["A", "B"]


def test_side_by_side_shares_one_colour_axis():
    a = figures.similarity_heatmap(np.eye(2), ["x", "y"], title="")
    b = figures.similarity_heatmap(-np.eye(2), ["x", "y"], title="")
    fig = figures.side_by_side([a, b], title="before / after", subplot_titles=["before", "after"])
    assert len(fig.data) == 2
    assert {tr.coloraxis for tr in fig.data} == {"coloraxis"}
    assert (fig.layout.coloraxis.cmin, fig.layout.coloraxis.cmax) == (-1.0, 1.0)
    json.loads(fig.to_json())  # serialisable


def test_an_averaged_heatmap_without_the_callers_note_refuses_rather_than_speak_english():
    with pytest.raises(ValueError, match="downsample_note"):
        figures.heatmap(np.ones((CELL_BUDGET + 1, 2)), title="big")
    figures.heatmap(np.ones((CELL_BUDGET, 2)), title="fits")  # within the budget no note is needed


def _builders():
    import importlib
    import inspect
    import pkgutil

    modules = [figures] + [importlib.import_module(f"embedviz.figures.{m.name}") for m in pkgutil.iter_modules(figures.__path__)]
    for module in modules:
        for name, fn in inspect.getmembers(module, inspect.isfunction):
            if fn.__module__ == module.__name__ and not name.startswith("_"):
                yield f"{module.__name__}.{name}", inspect.signature(fn)


def test_no_figure_builder_has_words_of_its_own():
    """Titles, names, notes, labels and hovers come from the caller (translated); a default there would be English."""
    words = ("title", "name", "note", "label", "hover", "legend")
    found = [
        f"{builder}({p.name}={p.default!r})"
        for builder, sig in _builders() for p in sig.parameters.values()
        if any(w in p.name for w in words) and isinstance(p.default, str) and any(c.isalpha() for c in p.default)
    ]
    assert not found, found


def test_lookup_figure_without_colour_bar_still_shows_the_table_the_picked_rows_and_their_values():
    """Issue 14: the d_model step redraws this figure, so it carries no colour bar; what it teaches stays: the whole
    table, a box on each picked row, a block that is the table's rows at the ids (naive loop), values in the hover."""
    from embedviz.figures.tokens import lookup_figure

    rng = np.random.default_rng(3)
    table, ids = rng.normal(size=(256, 8)), np.array([72, 101, 108, 108, 111])
    block = np.stack([table[i] for i in ids])  # the lookup, by hand
    fig = lookup_figure(table, ids, block, [f"{k}: {i}" for k, i in enumerate(ids)], title="t", table_title="W",
                        block_title="W[ids]", x_title="dim", id_title="id")
    assert fig.layout.coloraxis.showscale is False
    np.testing.assert_allclose(_z(fig), table, atol=1e-6)  # float32 on the wire
    np.testing.assert_allclose(np.asarray(fig.data[1].z, dtype=np.float64), block, atol=1e-6)
    assert sorted(round(s.y0 + 0.5) for s in fig.layout.shapes) == sorted(set(ids.tolist()))
    assert all("%{z:.4f}" in tr.hovertemplate for tr in fig.data)
    assert (fig.layout.coloraxis.cmin, fig.layout.coloraxis.cmax) == (-np.abs(table).max(), np.abs(table).max())


def test_difference_heatmap_without_colour_bar_keeps_white_at_zero_and_the_value_in_the_hover():
    from embedviz.figures.sinusoidal import difference_heatmap

    diff = np.array([[0.0, 0.5], [2.0, 1e-15]])
    fig = difference_heatmap(diff, ["0: a", "1: b"], title="t", x_title="dim")
    trace = fig.data[0]
    assert trace.showscale is False
    assert (trace.zmin, trace.zmax) == (0.0, 2.0)  # a fixed scale from 0, so rounding noise stays white
    assert "|Δ| %{z" in trace.hovertemplate and "dim %{x}" in trace.hovertemplate
    np.testing.assert_array_equal(_z(fig), diff.astype(np.float32))
