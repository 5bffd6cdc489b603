"""The RoPE page: text 003's numbers on screen, every control at its extremes, URL state, presets, language."""
import json
import re

import pytest
from streamlit.testing.v1 import AppTest

from embedviz.app.i18n import catalog
from tests.app import pagetest as pt


@pytest.fixture(scope="module")
def default_run() -> AppTest:
    at = pt.page("rope").run()
    assert not at.exception, at.exception
    return at


def test_defaults_show_text_003_numbers(default_run):
    at = default_run
    assert not at.error
    assert len(at.get("plotly_chart")) == 7  # 6, plus aligned vs independent q, k (issue 12)
    assert [m.value for m in at.metric] == ["0.2127", "0.2127", "-0.3484"]
    assert [m.label for m in at.metric] == ["score(5, 3)", "score(50, 48)", "score(5, 0)"]
    table = at.dataframe[0].value
    assert list(table.iloc[:, 1]) == ["1.000", "0.970", "0.737", "0.669", "0.608", "0.546", "0.477", "0.306", "0.278"]


def test_every_chart_has_a_title_and_stays_small(default_run):
    for chart in pt.specs(default_run):
        assert chart["layout"]["title"]["text"].strip()
        assert len(json.dumps(chart)) < 1_000_000


def test_decay_chart_overlays_reference_thetas(default_run):
    names = [tr["name"] for tr in pt.chart(default_run, "vs distance")["data"] if tr.get("name")]
    assert names == ["θ = 10,000 (chosen)", "θ = 500,000", "θ = 1,000,000"]


def test_wavelength_note_counts_slow_pairs(default_run):
    # D=128, theta 10000, 4096 tokens: pairs with 2*pi*10000^(2i/128) > 4096 are i >= 46, i.e. 18 of 64
    subtitle = pt.chart(default_run, "Wavelength")["layout"]["title"]["subtitle"]["text"]
    assert subtitle.startswith("18 of 64 pairs never complete")


@pytest.mark.parametrize(
    "kind, key, value",
    [
        ("slider", "rope_hd", 2),
        ("slider", "rope_hd", 256),
        ("select_slider", "rope_theta", 100.0),
        ("select_slider", "rope_theta", 1e7),
        ("select_slider", "rope_len", 16),
        ("select_slider", "rope_len", 131_072),
        ("select_slider", "rope_win", 32),
        ("select_slider", "rope_win", 131_072),
        ("slider", "rope_i", 63),
        ("number_input", "rope_m", 1_000_000),
        ("number_input", "rope_n", 1_000_000),
        ("number_input", "rope_s", 1_000_000),
    ],
)
def test_controls_at_extremes(kind, key, value):
    at = pt.page("rope").run()
    getattr(at, kind)(key=key).set_value(value).run()
    assert not at.exception, at.exception
    assert not at.error, [e.value for e in at.error]
    assert len(at.get("plotly_chart")) == 7  # 6, plus aligned vs independent q, k (issue 12)
    for chart in pt.specs(at):
        assert len(json.dumps(chart)) < 1_000_000


def test_everything_at_its_maximum_at_once():
    at = pt.page("rope").run()
    at.slider(key="rope_hd").set_value(256)
    at.select_slider(key="rope_theta").set_value(1e7)
    at.select_slider(key="rope_len").set_value(131_072)
    at.select_slider(key="rope_win").set_value(131_072)
    at.run()
    assert not at.exception and not at.error
    heat = pt.chart(at, "cos(m·ω_i)")
    # 131072 positions strided to at most 256 columns: every 512th, and the subtitle says so
    expected = catalog()["common.showing_every"]["en"].format(step=512)
    assert expected in heat["layout"]["title"]["subtitle"]["text"]


def test_changing_theta_changes_the_decay_and_wavelengths():
    at = pt.page("rope").run()
    decay_before, wave_before = pt.trace_json(pt.chart(at, "vs distance")), pt.trace_json(pt.chart(at, "Wavelength"))
    at.select_slider(key="rope_theta").set_value(1_000_000.0).run()
    assert pt.trace_json(pt.chart(at, "vs distance")) != decay_before
    assert pt.trace_json(pt.chart(at, "Wavelength")) != wave_before


def test_pairing_reorders_the_heatmap_rows():
    at = pt.page("rope").run()
    before = pt.chart(at, "cos(m·ω_i)")
    at.segmented_control(key="rope_pairing").set_value("interleaved").run()
    after = pt.chart(at, "cos(m·ω_i)")
    assert pt.trace_json(after) != pt.trace_json(before)
    # the scores of the two pairings agree after the permutation (the caption reports rounding only)
    caption = [c.value for c in at.caption if "Largest difference" in c.value][0]
    assert float(re.search(r"permutation: ([0-9.e+-]+)", caption).group(1)) < 1e-9


def test_shift_does_not_change_the_score_but_the_offset_does():
    at = pt.page("rope").run()
    at.number_input(key="rope_s").set_value(100_000).run()
    assert at.metric[0].value == at.metric[1].value == "0.2127"
    at.number_input(key="rope_n").set_value(4).run()
    assert at.metric[0].value == at.metric[1].value != "0.2127"


def test_query_params_round_trip():
    at = pt.page("rope")
    at.query_params["rope_hd"] = "64"
    at.query_params["rope_theta"] = "500,000"  # a bound select_slider keeps its displayed label in the URL
    at.query_params["rope_m"] = "7"
    at.run()
    assert not at.exception
    assert at.slider(key="rope_hd").value == 64
    assert at.select_slider(key="rope_theta").value == 500_000.0
    assert at.number_input(key="rope_m").value == 7
    assert at.metric[0].label == "score(7, 3)"


def test_preset_sets_head_dim_theta_and_length_and_editing_returns_to_custom():
    at = pt.page("rope").run()
    at.selectbox(key="rope_preset").set_value("Qwen3-0.6B").run()
    assert not at.exception
    assert at.slider(key="rope_hd").value == 128
    assert at.select_slider(key="rope_theta").value == 1_000_000.0
    assert at.select_slider(key="rope_len").value == 40_960
    assert any("max_position_embeddings 40,960" in c.value for c in at.caption)
    at.select_slider(key="rope_theta").set_value(10_000.0).run()
    assert at.selectbox(key="rope_preset").value == "custom"


def test_scaled_preset_says_so():
    at = pt.page("rope").run()
    at.selectbox(key="rope_preset").set_value("Llama-3.1-8B").run()
    assert not at.exception
    assert at.select_slider(key="rope_len").value == 131_072
    assert any("rope_scaling (llama3)" in c.value for c in at.caption)


def test_chinese():
    at = pt.page("rope", lang="zh").run()
    assert not at.exception
    assert pt.is_chinese(at.title[0].value)
    assert at.title[0].value != pt.page("rope").run().title[0].value
    assert [m.value for m in at.metric] == ["0.2127", "0.2127", "-0.3484"]
