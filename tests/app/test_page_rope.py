"""The RoPE page: lesson 003's numbers on screen, every control at its extremes, URL state, presets, language.

Each section is a tab bound to ?rope_tab= (only the open tab runs), so a test opens the tab that holds what it
checks; the shared controls are checked on every tab.
"""
import json
import re

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from embedviz.app.i18n import catalog
from embedviz.app.rope_view import TAB_CODES
from embedviz.rope import rotary
from embedviz.lessons.widget_keys import Rope as K
from tests.app import pagetest as pt

# the charts each tab draws at the defaults, one section per tab: seven in all
CHARTS = {"angles": 1, "pair": 1, "decay": 1, "random": 1, "wave": 1, "pairing": 2, "lesson": 0}


def tab(code: str, lang: str = "en") -> str:
    return catalog()[f"rope.tab_{code}"][lang]


def on(code: str, lang: str | None = None, **query) -> AppTest:
    """The page with tab ``code`` open, run."""
    at = pt.page("rope", lang=lang, session={K.TAB: tab(code, lang or "en")}, **query).run()
    pt.ok(at)
    return at


def every_tab(at: AppTest) -> dict[str, AppTest]:
    """Open each tab in turn on the same session (the other widgets keep their values)."""
    out = {}
    for code in TAB_CODES:
        at.session_state[K.TAB] = tab(code)
        at.run()
        pt.ok(at)
        out[code] = [json.loads(text) for text in pt.chart_json(at)]
    return out


@pytest.fixture(scope="module")
def tabs_run() -> dict:
    return every_tab(pt.page("rope").run())


def test_defaults_show_lesson_003_numbers():
    at = on("pair")
    assert [m.value for m in at.metric] == ["0.2127", "0.2127", "-0.3484"]
    assert [m.label for m in at.metric] == [pt.text("rope.score", m=m, n=n) for m, n in ((5, 3), (50, 48), (5, 0))]
    table = on("decay").dataframe[0].value
    assert list(table.iloc[:, 1]) == ["1.000", "0.970", "0.737", "0.669", "0.608", "0.546", "0.477", "0.306", "0.278"]


def test_one_section_per_tab_and_only_the_open_tab_runs(tabs_run):
    assert {code: len(charts) for code, charts in tabs_run.items()} == CHARTS
    first = pt.page("rope").run()  # no tab chosen: the first one, the rotation angles
    assert pt.titles(first) == [tabs_run["angles"][0]["layout"]["title"]["text"]]


def test_every_chart_has_a_title_and_stays_small(tabs_run):
    for charts in tabs_run.values():
        for chart in charts:
            assert chart["layout"]["title"]["text"].strip()
            assert len(json.dumps(chart)) < 1_000_000


def test_decay_chart_overlays_reference_thetas():
    names = [tr["name"] for tr in pt.chart(on("decay"), "vs distance")["data"] if tr.get("name")]
    assert names == ["θ = 10,000 (chosen)", "θ = 500,000", "θ = 1,000,000"]


def test_wavelength_note_counts_slow_pairs():
    # D=128, theta 10000, 4096 tokens: pairs with 2*pi*10000^(2i/128) > 4096 are i >= 46, i.e. 18 of 64
    subtitle = pt.chart(on("wave"), "Wavelength")["layout"]["title"]["subtitle"]["text"]
    assert subtitle.startswith("18 of 64 pairs never complete")


def test_a_tab_chosen_in_one_language_stays_open_in_the_other():
    at = on("decay")
    at.session_state["lang"] = "zh"
    at.run()
    pt.ok(at)
    assert at.session_state[K.TAB] == tab("decay", "zh") and at.dataframe  # the decay table, in Chinese
    assert pt.is_chinese(at.dataframe[0].value.columns[0])


SHARED = [("slider", K.HEAD_DIM, 2), ("slider", K.HEAD_DIM, 256), ("select_slider", "rope_theta", 100.0),
          ("select_slider", "rope_theta", 1e7), ("select_slider", K.LENGTH, 16),
          ("select_slider", K.LENGTH, 131_072)]


@pytest.mark.parametrize("kind, key, value", SHARED)
def test_shared_controls_at_extremes_on_every_tab(kind, key, value):
    at = pt.page("rope").run()
    getattr(at, kind)(key=key).set_value(value).run()
    pt.ok(at)
    charts = every_tab(at)
    assert {code: len(c) for code, c in charts.items()} == CHARTS
    for chart in (c for cs in charts.values() for c in cs):
        assert len(json.dumps(chart)) < 1_000_000


@pytest.mark.parametrize(
    "code, kind, key, value",
    [
        ("angles", "select_slider", K.WINDOW, 32),
        ("angles", "select_slider", K.WINDOW, 131_072),
        ("pair", "slider", K.PAIR, 63),
        ("pair", "number_input", K.M, 1_000_000),
        ("pair", "number_input", K.N, 1_000_000),
        ("pair", "number_input", K.SHIFT, 1_000_000),
    ],
)
def test_section_controls_at_extremes(code, kind, key, value):
    at = on(code)
    getattr(at, kind)(key=key).set_value(value).run()
    pt.ok(at)
    assert len(pt.chart_json(at)) == CHARTS[code]  # live figures included
    for chart in pt.specs(at):
        assert len(json.dumps(chart)) < 1_000_000


def test_everything_at_its_maximum_at_once():
    at = pt.page("rope").run()
    at.slider(key=K.HEAD_DIM).set_value(256)
    at.select_slider(key=K.THETA).set_value(1e7)
    at.select_slider(key=K.LENGTH).set_value(131_072)
    at.select_slider(key=K.WINDOW).set_value(131_072)
    at.run()
    pt.ok(at)
    heat = pt.chart(at, "cos(m·ω_i)")
    # 131072 positions strided to at most 128 columns: every 1024th, and the subtitle says so
    expected = catalog()["common.showing_every"]["en"].format(step=1024)
    assert expected in heat["layout"]["title"]["subtitle"]["text"]
    assert {code: len(c) for code, c in every_tab(at).items()} == CHARTS


def test_changing_theta_changes_the_decay_and_wavelengths():
    for code, title in (("decay", "vs distance"), ("wave", "Wavelength")):
        at = on(code)
        before = pt.trace_json(pt.chart(at, title))
        at.select_slider(key=K.THETA).set_value(1_000_000.0).run()
        pt.ok(at)
        assert pt.trace_json(pt.chart(at, title)) != before


def test_pairing_reorders_the_heatmap_rows():
    at = pt.page("rope").run()
    before = pt.chart(at, "cos(m·ω_i)")
    at.segmented_control(key=K.PAIRING).set_value("interleaved").run()
    after = pt.chart(at, "cos(m·ω_i)")
    assert pt.trace_json(after) != pt.trace_json(before)
    # the scores of the two pairings agree after the permutation (the caption reports rounding only)
    at.session_state[K.TAB] = tab("pairing")
    at.run()
    caption = [c.value for c in at.caption if pt.words("rope.max_diff") in c.value][0]
    assert float(re.search(r"permutation: ([0-9.e+-]+)", caption).group(1)) < 1e-9


def test_shift_does_not_change_the_score_but_the_offset_does():
    at = on("pair")
    at.number_input(key=K.SHIFT).set_value(100_000).run()
    assert at.metric[0].value == at.metric[1].value == "0.2127"
    at.number_input(key=K.N).set_value(4).run()
    assert at.metric[0].value == at.metric[1].value != "0.2127"


def test_the_third_score_is_called_different_only_when_its_offset_is():
    """The third metric is the score at (m, 0), offset m: a different score than at (m, n) unless n = 0."""
    at = on("pair")
    at.number_input(key=K.N).set_value(0).run()
    assert at.metric[0].value == at.metric[2].value and at.metric[2].proto.help == catalog()[
        "rope.score_help_same"]["en"].format(d=at.number_input(key=K.M).value)
    at.number_input(key=K.N).set_value(2).run()
    assert at.metric[0].value != at.metric[2].value and "different" in at.metric[2].proto.help


def test_query_params_round_trip():
    at = pt.page("rope")
    at.query_params[K.HEAD_DIM] = "64"
    at.query_params[K.THETA] = "500,000"  # a bound select_slider keeps its displayed label in the URL
    at.query_params[K.M] = "7"
    at.query_params[K.TAB] = tab("pair")  # a shared link opens its tab
    at.run()
    assert not at.exception
    assert at.slider(key=K.HEAD_DIM).value == 64
    assert at.select_slider(key=K.THETA).value == 500_000.0
    assert at.number_input(key=K.M).value == 7
    assert at.metric[0].label == "score(7, 3)"


def test_preset_sets_head_dim_theta_and_length_and_editing_returns_to_custom():
    at = pt.page("rope").run()
    at.selectbox(key=K.PRESET).set_value("Qwen3-0.6B").run()
    assert not at.exception
    assert at.slider(key=K.HEAD_DIM).value == 128
    assert at.select_slider(key=K.THETA).value == 1_000_000.0
    assert at.select_slider(key=K.LENGTH).value == 40_960
    assert any(pt.shows(c.value, "rope.preset_caption") and "40,960" in c.value for c in at.caption)
    at.select_slider(key=K.THETA).set_value(10_000.0).run()
    assert at.selectbox(key=K.PRESET).value == "custom"


def test_scaled_preset_says_so():
    at = pt.page("rope").run()
    at.selectbox(key=K.PRESET).set_value("Llama-3.1-8B").run()
    assert not at.exception
    assert at.select_slider(key=K.LENGTH).value == 131_072
    assert any("rope_scaling (llama3)" in c.value for c in at.caption)


def test_chinese():
    at = on("pair", lang="zh")
    assert pt.is_chinese(at.title[0].value)
    assert at.title[0].value != pt.page("rope").run().title[0].value
    assert [m.value for m in at.metric] == ["0.2127", "0.2127", "-0.3484"]


def _heat(**session) -> tuple[dict, np.ndarray, np.ndarray]:
    """The angle heatmap as sent, its positions (x) and its cells (rows = dimensions)."""
    at = pt.page("rope", session=session).run()
    pt.ok(at)
    figure = pt.chart(at, "cos(m·ω_i)")
    trace = figure["data"][0]
    x = pt.values(trace["x"]).astype(np.float64)
    z = pt.values(trace["z"]).astype(np.float64).reshape(len(trace["y"]), x.size)
    return figure, x, z


@pytest.mark.parametrize("pairing", ["half", "interleaved"])
def test_heatmap_hover_names_each_rows_pair_and_the_cell_value(pairing):
    """The pair comes from the row's label (one per row), not a per-cell array; the hover still shows the
    dimension, its pair and cos(m ω_i): the core's for this pairing, head_dim and theta (tests/test_rope.py checks
    those against a naive rotation)."""
    head_dim, theta = 64, 500_000.0
    figure, x, z = _heat(**{K.PAIRING: pairing, K.HEAD_DIM: head_dim}, rope_theta=theta)
    trace = figure["data"][0]
    assert "customdata" not in trace
    assert "%{y}" in trace["hovertemplate"] and "%{z:.3f}" in trace["hovertemplate"]
    pair = rotary.pair_of_dimension(head_dim, pairing=pairing)
    assert trace["y"] == [pt.text("rope.heat_row", d=d, i=int(pair[d])) for d in range(head_dim)]
    np.testing.assert_allclose(z, rotary.dimension_cos(x, head_dim, theta, pairing=pairing).T, atol=1e-6)
    # the axis still reads by dimension number
    axis = figure["layout"]["yaxis"]
    assert axis["ticktext"][:3] == ["0", "4", "8"] and axis["tickvals"][:2] == [trace["y"][0], trace["y"][4]]


def test_heatmap_hover_in_chinese_names_the_pair():
    at = pt.page("rope", lang="zh").run()
    pt.ok(at)
    rows = [f for f in pt.specs(at) if f["data"] and f["data"][0]["type"] == "heatmap"][0]["data"][0]["y"]
    assert rows[65] == "维度 65（第 1 对）"  # head_dim 128, half pairing: dims 1 and 65 are pair 1


def test_strided_heatmap_shows_every_sign_change_of_every_row():
    """The default window (256 positions) is drawn at every 2nd position (ANGLE_HEATMAP_POSITIONS): the fastest
    pair turns 1 rad per position, 2 rad per column < pi, so no row aliases: each row changes sign exactly as often
    as the same row drawn at every position."""
    _, x, z = _heat()
    assert x[1] - x[0] == 2 and x[-1] == 254
    every = rotary.dimension_cos(np.arange(int(x[-1]) + 1), 128, 10_000.0)  # (255, 128) at every position
    for d in range(128):
        full = every[:, d]
        changes = sum((a > 0) != (b > 0) for a, b in zip(full, full[1:]))
        shown = sum((a > 0) != (b > 0) for a, b in zip(z[d], z[d][1:]))
        assert shown == changes, d
