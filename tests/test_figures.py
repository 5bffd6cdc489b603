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


def test_a_reference_line_label_sits_on_its_line_on_a_log_axis():
    """plotly reads an annotation's y as log10 on a log axis (a shape's y as the data value): the label of the
    4,096 line must be at 10**y == 4,096, not at 10**4096 (add_hline(annotation_text=...) put it there)."""
    from embedviz.figures.modern_rope import wavelength_curves

    fig = wavelength_curves({"a": np.array([1.0, 10.0, 1e5])}, {"a": "red"}, title="t", x_title="x", y_title="y",
                            lines=[(4096, "trained 4,096")])
    assert fig.layout.yaxis.type == "log"
    (shape,) = fig.layout.shapes
    assert shape.y0 == shape.y1 == 4096
    (label,) = [a for a in fig.layout.annotations if a.text == "trained 4,096"]
    assert label.yref == "y" and 10 ** label.y == pytest.approx(4096)


def test_a_scale_key_replaces_the_colour_bar_and_its_words_are_the_colour_scales():
    """A heatmap a slider step redraws may say its fixed -1..1 scale in words (subtitle) instead of a colour
    bar; the words the app uses (common.scale_key) must be what plotly draws: RdBu_r is blue at -1, white at 0,
    red at +1 (sampled from plotly's own scale)."""
    from plotly.colors import sample_colorscale, unlabel_rgb

    from embedviz.app.i18n import catalog

    key = catalog()["common.scale_key"]["en"]
    fig = figures.heatmap(np.eye(3), title="t", note="n", zmin=-1.0, zmax=1.0, scale_key=key)
    assert fig.data[0].showscale is False and fig.layout.title.subtitle.text == f"n · {key}"
    assert figures.heatmap(np.eye(3), title="t").data[0].showscale is not False  # no key: the colour bar stays
    blue, white, red = (unlabel_rgb(c) for c in sample_colorscale(figures.DIVERGING, [0.0, 0.5, 1.0]))
    assert key == "colour: blue −1, white 0, red +1"
    assert blue[2] > 2 * blue[0] and red[0] > 2 * red[2] and min(white) > 230


def test_a_constant_curve_is_sent_as_its_two_ends():
    """The PI bound is one value over s: two points draw the same line; the other curve keeps every point."""
    from embedviz.figures.modern_rope import two_curves

    s = np.linspace(0, 8192, 1_500)
    wiggle = 2 + np.sin(s / 300)
    fig = two_curves(s, ("flat", np.full(s.shape, 0.25)), ("wiggle", wiggle), title="t", x_title="s", y_title="b")
    flat, curve = fig.data
    assert list(flat.x) == [0.0, 8192.0] and list(flat.y) == [0.25, 0.25]
    np.testing.assert_allclose(np.asarray(curve.y, dtype=np.float64), wiggle, rtol=1e-6)
    assert len(curve.x) == 1_500


def test_lookup_figure_without_colour_bar_still_shows_the_table_the_picked_rows_and_their_values():
    """The d_model step redraws this figure, so it carries no colour bar; what it teaches stays: the whole
    table, a box on each picked row, a block that is the table's rows at the ids (naive loop), values in the hover,
    and the colour scale in words (blue negative, white 0, red positive: plotly's RdBu_r on a range symmetric about 0)."""
    from plotly.colors import sample_colorscale, unlabel_rgb

    from embedviz.app.i18n import catalog
    from embedviz.figures.tokens import lookup_figure

    rng = np.random.default_rng(3)
    table, ids = rng.normal(size=(256, 8)), np.array([72, 101, 108, 108, 111])
    block = np.stack([table[i] for i in ids])  # the lookup, by hand
    fig = lookup_figure(table, ids, block, [f"{k}: {i}" for k, i in enumerate(ids)], title="t", table_title="W",
                        block_title="W[ids]", x_title="dim", id_title="id", colour_key="KEY")
    assert fig.layout.coloraxis.showscale is False and fig.layout.title.subtitle.text.endswith("KEY")
    key = catalog()["common.scale_key_signed"]["en"]
    assert key == "colour: blue negative, white 0, red positive" and fig.layout.coloraxis.colorscale
    blue, white, red = (unlabel_rgb(c) for c in sample_colorscale(figures.DIVERGING, [0.0, 0.5, 1.0]))
    assert blue[2] > 2 * blue[0] and red[0] > 2 * red[2] and min(white) > 230  # low end blue, middle white, top red
    np.testing.assert_allclose(_z(fig), table, atol=1e-6)  # float32 on the wire
    np.testing.assert_allclose(np.asarray(fig.data[1].z, dtype=np.float64), block, atol=1e-6)
    assert sorted(round(s.y0 + 0.5) for s in fig.layout.shapes) == sorted(set(ids.tolist()))
    assert all("%{z:.4f}" in tr.hovertemplate for tr in fig.data)
    assert (fig.layout.coloraxis.cmin, fig.layout.coloraxis.cmax) == (-np.abs(table).max(), np.abs(table).max())


def test_difference_heatmap_without_colour_bar_keeps_white_at_zero_and_the_value_in_the_hover():
    """The colour key in the subtitle says what plotly's Reds draws: white at 0, deeper red for a larger |Δ|."""
    from plotly.colors import unlabel_rgb

    from embedviz.app.i18n import catalog
    from embedviz.figures.sinusoidal import difference_heatmap

    diff = np.array([[0.0, 0.5], [2.0, 1e-15]])
    key = catalog()["why.diff_scale"]["en"]
    fig = difference_heatmap(diff, ["0: a", "1: b"], title="t", x_title="dim", colour_key=key)
    trace = fig.data[0]
    assert trace.showscale is False and fig.layout.title.subtitle.text.endswith(key)
    assert key == "colour: white 0, deeper red = larger |Δ|"
    stops = dict(trace.colorscale)  # plotly's Reds as the trace carries it: (position, 'rgb(...)') pairs
    zero, half, top = (unlabel_rgb(stops[x]) for x in (0.0, 0.5, 1.0))
    assert min(zero) >= 235 and sum(top) < sum(half) < sum(zero) and top[0] > 2 * top[1]  # white -> deeper red
    assert (trace.zmin, trace.zmax) == (0.0, 2.0)  # a fixed scale from 0, so rounding noise stays white
    assert "|Δ| %{z" in trace.hovertemplate and "dim %{x}" in trace.hovertemplate
    np.testing.assert_array_equal(_z(fig), diff.astype(np.float32))


# `figures.merged` builds a figure's layout at once instead of through update_layout calls: nested settings must merge
# as plotly merges them. The reference is plotly's own update of a Layout, on random nested settings of the kinds
# builders use. Lists (shapes, annotations) are the one difference, by design: a builder gives the whole list.
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as hst  # noqa: E402

_AXIS = hst.fixed_dictionaries({}, optional={
    "title": hst.fixed_dictionaries({}, optional={"text": hst.text(max_size=5)}),
    "type": hst.sampled_from(["log", "linear", "category"]),
    "showgrid": hst.booleans(),
    "autorange": hst.sampled_from([True, "reversed"]),
})
_LAYOUT = hst.fixed_dictionaries({}, optional={
    "xaxis": _AXIS, "yaxis": _AXIS, "xaxis2": _AXIS,
    "height": hst.integers(100, 900),
    "margin": hst.fixed_dictionaries({}, optional={"t": hst.integers(0, 200), "b": hst.integers(0, 200)}),
    "title": hst.fixed_dictionaries({}, optional={"text": hst.text(max_size=5), "x": hst.floats(0, 1)}),
})


@pytest.mark.slow  # 150 examples through plotly's own update_layout
@settings(max_examples=150, deadline=None)
@given(_LAYOUT, _LAYOUT)
def test_merged_layout_is_what_plotly_update_layout_gives(base, extra):
    expected = go.Layout(base)
    expected.update(extra)
    assert go.Layout(figures.merged(base, extra)).to_plotly_json() == expected.to_plotly_json()


def test_merged_takes_a_list_whole():
    line = {"type": "line", "x0": 0.5}
    assert figures.merged({"shapes": [line], "height": 3}, {"shapes": []}) == {"shapes": [], "height": 3}
    assert figures.merged({"title": {"text": "a"}}, {"title": "b"}) == {"title": "b"}  # a plain value replaces


def test_a_figure_built_at_once_keeps_the_base_settings_and_adds_the_builders():
    fig = figures.new_figure("t", x_title="x", height=300, data=[go.Scatter(x=[1, 2], y=[3, 4])],
                             layout={"xaxis": {"type": "log"}, "margin": {"t": 9}})
    assert fig.layout.xaxis.title.text == "x" and fig.layout.xaxis.type == "log"  # merged, not replaced
    assert fig.layout.height == 300 and fig.layout.margin.t == 9 and len(fig.data) == 1
    assert fig.layout.template.layout.font.family == figures.pio.templates[figures.TEMPLATE].layout.font.family


def test_the_turns_chart_draws_a_pair_that_turns_a_millionth_of_a_time_where_it_is():
    """At theta 1e10 a slow pair turns ~1e-7 times in training and ~4e-7 times unscaled: a fixed 1e-6 floor drew
    both at 1e-6, one on the other, hiding that the second is an angle never seen. Only a frequency-0 pair (0 turns,
    which a log axis cannot show) sits at the smallest count drawn."""
    from embedviz.figures.context_extension import turns_chart

    fig = turns_chart({"training": np.array([10.0, 1.9e-7, 0.0]), "unscaled": np.array([40.0, 7.7e-7, 0.0])},
                      title="t", x_title="x", y_title="y", one_turn_label="1")
    training, unscaled = (list(map(float, trace.y)) for trace in fig.data[:2])
    assert training[:2] == pytest.approx([10.0, 1.9e-7], rel=1e-6) and unscaled[:2] == pytest.approx([40.0, 7.7e-7], rel=1e-6)
    assert training[2] == unscaled[2] == pytest.approx(1.9e-7, rel=1e-6)  # the 0 turns, at the smallest count drawn


def test_a_readers_words_leave_as_text_plotly_shows_literally():
    """plotly.js reads <a href>, <span style>, <b> and entities in every text it draws; what goes to the browser
    has none left outside the app's own templates, and decoding the entities (what plotly does, here Python's
    html module) gives back exactly what the reader wrote."""
    import html

    words = ["<a href='//127.0.0.2/x'>g</a>", "<b>cat</b>", "R&amp;D", "a < b > c"]
    fig = figures.scatter_2d(np.arange(8.0).reshape(4, 2), words, groups=words, title=f"map of {words[0]}",
                             note="x & y")
    fig.update_traces(hovertemplate="%{text}<br>%{x:.2f}<extra></extra>")
    spec = fig.to_dict()
    shown = figures.shown_as_text(spec)

    def strings(node, path=()):
        if isinstance(node, str):
            yield path, node
        elif isinstance(node, dict):
            for k, v in node.items():
                yield from strings(v, (*path, k))
        elif isinstance(node, (list, tuple, np.ndarray)):
            for v in list(node):
                yield from strings(v, path)

    drawn = [(p, s) for p, s in strings(shown) if not any(k.endswith("template") for k in p)]
    assert drawn and not [s for _, s in drawn if "<" in s or ">" in s]
    assert [html.unescape(s) for s in shown["data"][0]["text"] + [t["name"] for t in shown["data"]]] == \
        [words[0], words[0], words[1], words[2], words[3]]
    assert html.unescape(shown["layout"]["title"]["text"]) == f"map of {words[0]}"
    assert [t["hovertemplate"] for t in shown["data"]] == ["%{text}<br>%{x:.2f}<extra></extra>"] * 4  # kept
    assert shown["data"][0]["x"] is spec["data"][0]["x"]  # numbers are not copied
    go.Figure(shown)  # still a valid figure


def test_hovers_quote_numbers_as_the_lessons_text_does():
    """Lesson 002's wavelengths of the 8-dimensional encoding are "6.3, 63, 628, 6283" (tour text, the seed's
    table); the wavelength chart's hover says the same, not plotly's ",.0f" "6"."""
    from embedviz.rope import rotary
    from embedviz.figures import real_model as real_figs
    from embedviz.figures import rope as rope_figs

    wavelen = rotary.wavelengths(rotary.inverse_frequencies(8, 10_000.0))
    fig = rope_figs.wavelength_chart(wavelen, np.zeros(4, bool), 4096, title="t", x_title="i", y_title="w",
                                     legend=["a", "b"], context_label="c", hover="%{customdata}")
    assert list(fig.data[0].customdata) == ["6.3", "63", "628", "6,283"]
    assert figures.quoted(35_333.2) == "35,333" and figures.quoted(2 * np.pi) == "6.3"
    # the learned table's curve: its whole name (no 15-character cut) and cos to 4 decimals, as the metrics say
    name = "learned (MiniLM) <b>"
    fig = real_figs.step_curves(np.arange(4), {name: np.array([0.9, 0.8373969, 0.7, 0.6])}, rough_steps=[],
                                rough_values=[], rough_name="r", title="t", x_title="position t", y_title="cos")
    hover = fig.data[0].hovertemplate
    assert hover.startswith("learned (MiniLM) &lt;b&gt;<br>") and "%{y:.4f}" in hover
    assert hover.endswith("<extra></extra>")  # no second, cut copy of the name beside it
