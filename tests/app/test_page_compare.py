"""The "Compare encodings" page and its cached helpers: parameter counts, curves, past-the-end, ALiBi, properties."""
import json

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from embedviz.app import compare_view as view
from embedviz.app.i18n import catalog
from embedviz.lessons.widget_keys import Compare as K
from tests.app import pagetest as pt

TABS = ("params", "adjacent", "matrix", "past", "alibi", "props")  # the page's bound tabs, in order


ADJACENT, SLOPES = pt.words("cmp.adjacent_title"), pt.words("cmp.slopes_title")  # a chart found by its title
PARAMS = pt.text("cmp.col_params")  # the parameter table's column

def label(tab: str, lang: str = "en") -> str:
    return catalog()[f"cmp.tab_{tab}"][lang]


def page(tab: str = "params", *, lang: str = "en", session: dict | None = None, **query) -> AppTest:
    """The page with one tab open (bound tabs are lazy: only the open tab's section runs)."""
    return pt.page("compare", lang=lang, session={K.TAB: label(tab, lang), **(session or {})}, **query)


def every_tab(**session) -> list[dict]:
    """The page at these widget values, opened once on each tab: the charts of all tabs, in page order."""
    charts = []
    for tab in TABS:
        at = page(tab, session=session).run()
        pt.ok(at)
        charts += pt.specs(at)
    return charts


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


def test_defaults_run_with_four_charts_one_section_per_tab(default_run):
    assert not default_run.error
    assert not default_run.get("plotly_chart")  # the first tab is the parameter table: nothing else is drawn
    charts = every_tab()
    assert len(charts) == 4
    for chart in charts:
        assert chart["layout"]["title"]["text"].strip()
        assert len(json.dumps(chart)) < 1_000_000


def test_each_tab_draws_its_own_section_only():
    sections = {"adjacent": ["cmp.adjacent_title"], "matrix": ["cmp.matrix_title"],
                "alibi": ["cmp.bias_title", "cmp.slopes_title"], "params": [], "past": [], "props": []}
    for tab, titles in sections.items():
        at = page(tab).run()
        pt.ok(at)
        shown = [chart["layout"]["title"]["text"] for chart in pt.specs(at)]
        assert len(shown) == len(titles) and all(pt.shows(text, key) for key, text in zip(titles, shown)), (tab, shown)


def test_alibi_is_not_drawn_as_a_vector_at_cos_1():
    """ALiBi adds no position vector: a flat ALiBi line at cos = 1 would read as "ALiBi cannot tell neighbours
    apart". The vector plots show sinusoidal, learned, RoPE and none, with the core's numbers."""
    from embedviz import encodings

    at = page("adjacent").run()
    pt.ok(at)
    traces = {trace["name"]: pt.values(trace["y"]) for trace in pt.chart(at, ADJACENT)["data"]}
    assert list(traces) == ["sinusoidal", "learned", "RoPE", "none"]
    x = pt.values(pt.chart(at, ADJACENT)["data"][0]["x"]).astype(int)
    for scheme, name in (("sinusoidal", "sinusoidal"), ("learned", "learned"), ("rope", "RoPE"), ("none", "none")):
        np.testing.assert_allclose(traces[name], encodings.adjacent_cosines(scheme, x, 64), atol=1e-6)
    assert any(pt.shows(m.value, "cmp.adjacent_intro") for m in at.markdown)
    at = page("matrix").run()
    titles = [a["text"] for a in pt.specs(at)[0]["layout"]["annotations"]]
    assert not any("ALiBi" in title for title in titles) and "none" in titles


def test_parameter_table_learned_is_L_times_D(default_run):
    table = _table(default_run, PARAMS)
    counts = dict(zip(table["scheme"], table[PARAMS]))
    assert counts == {"sinusoidal": "0", "learned": f"{1_024 * 64:,}", "RoPE": "0", "ALiBi": "0", "none": "0"}


def test_learned_past_the_end_shows_the_modules_own_message():
    from embedviz.input_layer.embeddings import LearnedPositionalEmbedding

    with pytest.raises(ValueError) as info:
        LearnedPositionalEmbedding(1_024, 64)(1_025)
    default_run = page("past").run()
    warnings = [w.value for w in default_run.warning]
    assert len(warnings) == 1 and str(info.value) in warnings[0]
    assert not default_run.exception  # a message, not a traceback


def test_properties_table_follows_text_003():
    table = _table(page("props").run(), "extrapolates").set_index("scheme")
    marks = table.map(lambda cell: cell[0])
    # defined at any position but not generalising past the trained length: ◐, every other property ✓
    assert (marks.loc[["sinusoidal", "RoPE"], "extrapolates"] == "◐").all()
    assert (marks.loc[["sinusoidal", "RoPE"]].drop(columns="extrapolates") == "✓").all().all()
    assert marks.loc["learned", "extrapolates"] == "✗"  # "学习式编码输在可外推"
    # ALiBi's loss holds past L but, by Press et al.'s own analysis, it may not use the tokens beyond L: the same ◐
    assert marks.loc["ALiBi", "extrapolates"] == "◐" and marks.loc["ALiBi", "relative"] == "✓"
    assert marks.loc["none", "unique"] == "✗"
    assert all(len(cell) > 3 for cell in table.to_numpy().ravel())  # every mark has its reason


def test_slope_label():
    assert [view.slope_label(s) for s in (0.5, 0.00390625, 2**-0.5)] == ["1/2", "1/256", "0.707"]


@pytest.mark.parametrize(
    "kind, key, value",
    [
        ("slider", K.D_MODEL, 2),
        ("slider", K.D_MODEL, 4_096),
        ("select_slider", K.LENGTH, 16),
        ("select_slider", K.LENGTH, 131_072),
        ("slider", K.HEADS, 1),
        ("slider", K.HEADS, 128),
        ("number_input", K.K, 1_000_000),
    ],
)
def test_controls_at_extremes(kind, key, value):
    at = pt.page("compare").run()
    getattr(at, kind)(key=key).set_value(value).run()
    pt.ok(at)
    charts = every_tab(**{key: value})
    assert len(charts) == 4
    for chart in charts:
        assert len(json.dumps(chart)) < 1_000_000


def test_widgets_change_the_figures():
    at = page("adjacent").run()
    adjacent = pt.trace_json(pt.chart(at, ADJACENT))
    at.slider(key=K.D_MODEL).set_value(256).run()
    assert pt.trace_json(pt.chart(at, ADJACENT)) != adjacent
    at = page("alibi").run()
    slopes = pt.trace_json(pt.chart(at, SLOPES))
    at.slider(key=K.HEADS).set_value(12).run()
    assert pt.trace_json(pt.chart(at, SLOPES)) != slopes


def test_query_params_round_trip_and_bloom_slopes():
    at = pt.page("compare")
    at.query_params[K.D_MODEL] = "128"
    at.query_params[K.LENGTH] = "4,096"  # a bound select_slider keeps its displayed label in the URL
    at.query_params[K.HEADS] = "12"
    at.query_params[K.TAB] = label("alibi")
    at.run()
    assert not at.exception
    assert at.slider(key=K.D_MODEL).value == 128
    assert at.select_slider(key=K.LENGTH).value == 4_096
    assert at.slider(key=K.HEADS).value == 12
    bars = pt.chart(at, SLOPES)["data"][0]
    y = bars["y"]
    if isinstance(y, dict):  # plotly sends numpy arrays as base64 typed arrays
        import base64

        y = np.frombuffer(base64.b64decode(y["bdata"]), dtype=y["dtype"])
    # BLOOM, 12 heads: 2^-1 .. 2^-8, then 2^-0.5, 2^-1.5, 2^-2.5, 2^-3.5
    expected = [2.0**-i for i in range(1, 9)] + [2.0 ** -(i + 0.5) for i in range(4)]
    assert np.allclose(y, expected, rtol=1e-6)
    at = page("params", **{K.D_MODEL: "128", K.LENGTH: "4,096"}).run()
    table = _table(at, PARAMS)
    assert dict(zip(table["scheme"], table[PARAMS]))["learned"] == f"{4_096 * 128:,}"


def test_chinese():
    at = page("past", lang="zh").run()
    assert not at.exception
    assert pt.is_chinese(at.title[0].value)
    assert at.title[0].value == pt.text("cmp.title", "zh")
    assert "LearnedPositionalEmbedding" in at.warning[0].value
