"""The "Compare encodings" page and its cached helpers: parameter counts, curves, past-the-end, ALiBi, properties."""
import json

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from embedviz.app import compare_view as view
from tests.app import pagetest as pt


def _table(at: AppTest, header: str):
    for df in [*at.dataframe, *at.table]:
        if header in df.value.columns:
            return df.value
    raise AssertionError(f"no table with a column {header!r}")


@pytest.fixture(scope="module")
def default_run() -> AppTest:
    at = pt.page("compare").run()
    assert not at.exception, at.exception
    return at


def test_defaults_run_with_four_charts(default_run):
    assert not default_run.error
    charts = pt.specs(default_run)
    assert len(charts) == 4
    for chart in charts:
        assert chart["layout"]["title"]["text"].strip()
        assert len(json.dumps(chart)) < 1_000_000


def test_parameter_table_learned_is_L_times_D(default_run):
    table = _table(default_run, "position parameters")
    counts = dict(zip(table["scheme"], table["position parameters"]))
    assert counts == {"sinusoidal": "0", "learned": f"{1_024 * 64:,}", "RoPE": "0", "ALiBi": "0", "none": "0"}


def test_learned_past_the_end_shows_the_modules_own_message(default_run):
    from embedviz.embeddings import LearnedPositionalEmbedding

    with pytest.raises(ValueError) as info:
        LearnedPositionalEmbedding(1_024, 64)(1_025)
    warnings = [w.value for w in default_run.warning]
    assert len(warnings) == 1 and str(info.value) in warnings[0]
    assert not default_run.exception  # a message, not a traceback


def test_properties_table_follows_text_003(default_run):
    table = _table(default_run, "extrapolates").set_index("scheme")
    marks = table.map(lambda cell: cell[0])
    assert (marks.loc["sinusoidal"] == "✓").all() and (marks.loc["RoPE"] == "✓").all()
    assert marks.loc["learned", "extrapolates"] == "✗"  # "学习式编码输在可外推"
    assert marks.loc["ALiBi", "extrapolates"] == "✓" and marks.loc["ALiBi", "relative"] == "✓"
    assert marks.loc["none", "unique"] == "✗"
    assert all(len(cell) > 3 for cell in table.to_numpy().ravel())  # every mark has its reason


def test_slope_label():
    assert [view.slope_label(s) for s in (0.5, 0.00390625, 2**-0.5)] == ["1/2", "1/256", "0.707"]


@pytest.mark.parametrize(
    "kind, key, value",
    [
        ("slider", "cmp_d", 2),
        ("slider", "cmp_d", 4_096),
        ("select_slider", "cmp_len", 16),
        ("select_slider", "cmp_len", 131_072),
        ("slider", "cmp_heads", 1),
        ("slider", "cmp_heads", 128),
        ("number_input", "cmp_k", 1_000_000),
    ],
)
def test_controls_at_extremes(kind, key, value):
    at = pt.page("compare").run()
    getattr(at, kind)(key=key).set_value(value).run()
    assert not at.exception, at.exception
    assert not at.error, [e.value for e in at.error]
    assert len(at.get("plotly_chart")) == 4
    for chart in pt.specs(at):
        assert len(json.dumps(chart)) < 1_000_000


def test_widgets_change_the_figures():
    at = pt.page("compare").run()
    adjacent, slopes = pt.trace_json(pt.chart(at, "position p + 1")), pt.trace_json(pt.chart(at, "Slopes"))
    at.slider(key="cmp_d").set_value(256).run()
    assert pt.trace_json(pt.chart(at, "position p + 1")) != adjacent
    at.slider(key="cmp_heads").set_value(12).run()
    assert pt.trace_json(pt.chart(at, "Slopes")) != slopes


def test_query_params_round_trip_and_bloom_slopes():
    at = pt.page("compare")
    at.query_params["cmp_d"] = "128"
    at.query_params["cmp_len"] = "4,096"  # a bound select_slider keeps its displayed label in the URL
    at.query_params["cmp_heads"] = "12"
    at.run()
    assert not at.exception
    assert at.slider(key="cmp_d").value == 128
    assert at.select_slider(key="cmp_len").value == 4_096
    assert at.slider(key="cmp_heads").value == 12
    table = _table(at, "position parameters")
    assert dict(zip(table["scheme"], table["position parameters"]))["learned"] == f"{4_096 * 128:,}"
    bars = pt.chart(at, "Slopes")["data"][0]
    y = bars["y"]
    if isinstance(y, dict):  # plotly sends numpy arrays as base64 typed arrays
        import base64

        y = np.frombuffer(base64.b64decode(y["bdata"]), dtype=y["dtype"])
    # BLOOM, 12 heads: 2^-1 .. 2^-8, then 2^-0.5, 2^-1.5, 2^-2.5, 2^-3.5
    expected = [2.0**-i for i in range(1, 9)] + [2.0 ** -(i + 0.5) for i in range(4)]
    assert np.allclose(y, expected, rtol=1e-6)


def test_chinese():
    at = pt.page("compare", lang="zh").run()
    assert not at.exception
    assert pt.is_chinese(at.title[0].value)
    assert at.title[0].value != "Compare positional encodings"
    assert "LearnedPositionalEmbedding" in at.warning[0].value
