"""The Context-extension page driven through streamlit's AppTest.

Numbers the page shows are checked against formulas written out here (YaRN's 0.1 ln s + 1, LongRoPE's
sqrt(1 + ln s / ln L), dynamic NTK's base, the one-turn theta, per-pair loops) and against the presets' own runs.
"""
from __future__ import annotations

import json
import math

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from embedviz.app import context_view as view
from embedviz.context_extension import PHI3_MINI_128K
from tests.app import pagetest as pt
from tests.test_rope_scaling import LLAMA_31_8B, QWEN3_06B_YARN

PAGE = "context_extension"
CHARTS = 4  # wavelength, ratio, turns, decay


def _trace_data(spec: dict) -> list[tuple[str, np.ndarray, np.ndarray]]:
    return [(trace.get("name", ""), pt.values(trace["x"]), pt.values(trace["y"])) for trace in spec["data"]]


def _after_wavelengths(spec: dict) -> np.ndarray:
    """The coloured points of the wavelength chart, put back in pair order: (P,)."""
    points = {}
    for _, x, y in _trace_data(spec)[1:]:
        points.update(zip(x.astype(int).tolist(), y.tolist()))
    return np.array([points[i] for i in range(len(points))])


def _use_config(at: AppTest, config: dict) -> AppTest:
    at.selectbox(key="ctx_src").set_value(view.CONFIG).run()
    at.text_area(key="ctx_cfg").set_value(json.dumps(config, indent=2)).run()
    return at


# defaults


def test_default_view_is_qwen3_yarn_to_128k():
    at = pt.page(PAGE).run()
    pt.ok(at)
    assert at.title[0].value.startswith("Context extension")
    assert len(at.get("plotly_chart")) == CHARTS
    assert at.segmented_control(key="ctx_method").value == "yarn"
    assert "longrope" not in at.segmented_control(key="ctx_method").options
    assert any("LongRoPE is not offered" in c.value for c in at.caption)
    # YaRN's temperature for s = 4, written out: 0.1 ln 4 + 1
    assert pt.metric(at, "attention factor") == f"{0.1 * math.log(4) + 1:.4f}" == "1.1386"
    # Qwen3's theta 1e6, 32K: pair i never closes a turn when 2 pi 1e6^(i/64) > 32768 -> i >= 40: 24 pairs;
    # YaRN (4 x 32K = 128K exactly) shows none of them a new angle
    assert pt.metric(at, "pairs meeting unseen angles") == "24 / 64"
    assert pt.metric(at, "… with yarn") == "0 / 64"
    assert any("0.1\\ln 4 + 1 = 1.1386" in latex.value for latex in at.latex)
    for spec in pt.specs(at):
        assert spec["layout"]["title"]["text"]
        assert len(json.dumps(spec)) < 1_000_000


# every source with every method it offers


@pytest.mark.parametrize("source", view.SOURCES)
def test_every_source_and_method_runs(source):
    at = pt.page(PAGE).run()
    at.selectbox(key="ctx_src").set_value(source).run()
    pt.ok(at)
    options = at.segmented_control(key="ctx_method").options
    assert ("longrope" in options) == (source == view.CONFIG)  # the example config is Phi-3's
    for method in options:
        at.segmented_control(key="ctx_method").set_value(method).run()
        pt.ok(at)
        assert len(at.get("plotly_chart")) == CHARTS, method
        assert at.subheader[0].value, method
        titles = [spec["layout"]["title"]["text"] for spec in pt.specs(at)]
        assert method in titles[0] and method in titles[1], titles


def test_preset_fills_the_settings_and_unscaled_ones_get_a_suggestion():
    at = pt.page(PAGE).run()
    at.selectbox(key="ctx_src").set_value("Llama-3.1-8B").run()
    pt.ok(at)
    got = {key: at.number_input(key=key).value for key in ("ctx_factor", "ctx_orig", "ctx_target", "ctx_theta")}
    assert got == {"ctx_factor": 8.0, "ctx_orig": 8192, "ctx_target": 131072, "ctx_theta": 500_000.0}
    assert at.segmented_control(key="ctx_method").value == "llama3"
    # keep below 8192/4 = 2048 tokens per turn, divide above 8192: 29 kept, 6 blended, 29 interpolated (by hand
    # in tests/test_rope_scaling.py); 131072 is 16 x 8192 but the factor is 8, and the page says so
    assert pt.metric(at, "kept / blended / interpolated") == "29 / 6 / 29"
    assert any("65,536" in w.value for w in at.warning)
    # without scaling the slowest pairs go 131072 / 8192 = 16x past their trained angle, with llama3 2x
    assert any("reaches 16× its largest trained angle without scaling, 2× with llama3" in c.value
               for c in at.caption)
    at.selectbox(key="ctx_src").set_value("LLaMA-2-7B").run()
    pt.ok(at)
    # the YaRN paper's LLaMA 2 at 128K: factor 131072 / 4096 = 32
    assert at.number_input(key="ctx_factor").value == 32.0
    assert any("ships without rope_scaling" in c.value for c in at.caption)


# a pasted config gives the preset's numbers


@pytest.mark.parametrize(("config", "preset"), [(LLAMA_31_8B, "Llama-3.1-8B"),
                                                (QWEN3_06B_YARN, "Qwen3-0.6B (YaRN 128K)")],
                         ids=["llama-3.1", "qwen3-yarn"])
def test_pasted_config_reproduces_the_preset(config, preset):
    at = pt.page(PAGE).run()
    at.selectbox(key="ctx_src").set_value(preset).run()
    from_preset = [_trace_data(spec) for spec in pt.specs(at)]
    metrics = [m.value for m in at.metric]
    _use_config(at, config)
    pt.ok(at)
    assert [m.value for m in at.metric] == metrics
    for ours, theirs in zip((_trace_data(spec) for spec in pt.specs(at)), from_preset, strict=True):
        for (name, x, y), (name_p, x_p, y_p) in zip(ours, theirs, strict=True):
            assert name == name_p
            np.testing.assert_array_equal(x, x_p)
            np.testing.assert_array_equal(y, y_p)


def test_pasted_phi3_config_is_longrope_with_its_long_factors():
    at = _use_config(pt.page(PAGE).run(), PHI3_MINI_128K)
    pt.ok(at)
    assert at.segmented_control(key="ctx_method").value == "longrope"
    assert at.slider(key="ctx_hd").value == 96  # 3072 / 32
    assert at.select_slider(key="ctx_ratio").value == 32.0  # 131072 / 4096
    # at 32 x 4096 tokens LongRoPE uses long_factor: w_i = 10000^(-2i/96) / long_factor[i], one pair at a time
    long_factor = PHI3_MINI_128K["rope_scaling"]["long_factor"]
    expected = [2 * math.pi / (10_000 ** (-(2 * i) / 96) / long_factor[i]) for i in range(48)]
    np.testing.assert_allclose(_after_wavelengths(pt.specs(at)[0]), expected, rtol=1e-6)  # float32 in the chart
    assert pt.metric(at, "attention factor") == f"{math.sqrt(1 + math.log(32) / math.log(4096)):.4f}"
    # within the trained length it switches to short_factor
    at.select_slider(key="ctx_ratio").set_value(1.0).run()
    short_factor = PHI3_MINI_128K["rope_scaling"]["short_factor"]
    expected = [2 * math.pi / (10_000 ** (-(2 * i) / 96) / short_factor[i]) for i in range(48)]
    np.testing.assert_allclose(_after_wavelengths(pt.specs(at)[0]), expected, rtol=1e-6)
    # another head size cannot use 48 factors: a message, not a traceback
    at.slider(key="ctx_hd").set_value(128).run()
    pt.ok(at, errors_allowed=True)
    assert "short_factor has 48 entries, the rotary dimension (128) needs 64" in at.error[0].value


def test_uploaded_config_replaces_the_text():
    at = pt.page(PAGE).run()
    at.selectbox(key="ctx_src").set_value(view.CONFIG).run()
    at.get("file_uploader")[0].upload("config.json", json.dumps(LLAMA_31_8B).encode(), "application/json")
    at.run()
    pt.ok(at)
    assert json.loads(at.text_area(key="ctx_cfg").value) == LLAMA_31_8B
    assert at.segmented_control(key="ctx_method").value == "llama3"
    at.get("file_uploader")[0].upload("bad.json", b"\xff\xfe{", "application/json")
    at.run()
    pt.ok(at, errors_allowed=True)
    assert "bad.json is not UTF-8 text" in at.error[0].value


@pytest.mark.parametrize(("text", "message"), [
    ('{"rope_theta": 10000,', "config.json is not valid JSON: Expecting property name enclosed in double quotes"),
    ("[1, 2, 3]", "config.json must hold a JSON object"),
    ("", "config.json is empty"),
    ('{"rope_theta": 10000, "max_position_embeddings": 4096}',
     "config has neither 'head_dim' nor both 'hidden_size' and 'num_attention_heads'"),
    ('{"head_dim": 128, "rope_theta": 10000}', "config has no 'max_position_embeddings'"),
    ('{"head_dim": 2048, "rope_theta": 10000, "max_position_embeddings": 4096}',
     "head_dim (2048) is outside what this page can show (4 to 512)"),
])
def test_bad_config_shows_the_message(text, message):
    at = pt.page(PAGE).run()
    at.selectbox(key="ctx_src").set_value(view.CONFIG).run()
    at.text_area(key="ctx_cfg").set_value(text).run()
    pt.ok(at, errors_allowed=True)
    assert at.error and message in at.error[0].value, [e.value for e in at.error]
    assert not at.get("plotly_chart")


# widgets change what is drawn


def test_factor_changes_every_figure():
    at = pt.page(PAGE).run()
    before = pt.specs(at)
    at.number_input(key="ctx_factor").set_value(8.0).run()
    pt.ok(at)
    after = pt.specs(at)
    for old, new in zip(before, after, strict=True):
        assert json.dumps(old["data"]) != json.dumps(new["data"]), old["layout"]["title"]["text"]
    assert pt.metric(at, "attention factor") == f"{0.1 * math.log(8) + 1:.4f}"
    # the page remembers where the view came from and offers to go back
    assert any("factor 8 (was 4)" in c.value for c in at.caption)
    at.button(key="ctx_reset").click().run()
    assert at.number_input(key="ctx_factor").value == 4.0
    assert not any("(was " in c.value for c in at.caption)


def test_dynamic_base_follows_the_sequence_length():
    at = pt.page(PAGE).run()
    at.segmented_control(key="ctx_method").set_value("dynamic").run()
    pt.ok(at)
    for ratio in (1.0, 4.0, 64.0):
        at.select_slider(key="ctx_ratio").set_value(ratio).run()
        # theta' = theta (s L / L_train - (s - 1))^(d / (d - 2)), theta itself up to the trained length
        expected = 1e6 * max(1.0, 4 * ratio - 3) ** (128 / 126)
        assert pt.metric(at, "effective base") == f"{round(expected):,}"
        assert any(f"{round(ratio * 32768):,} tokens" in c.value for c in at.caption)


def test_calculator_against_the_formula_and_real_models():
    at = pt.page(PAGE).run()
    # (L / 2 pi)^(d / (d - 2k)) with L = 131072, d = 128, k = 1
    assert pt.metric(at, "rope_theta ≥ (k = 1)") == f"{round((131072 / (2 * math.pi)) ** (128 / 126)):,}"
    table = at.dataframe[0].value
    llama = table[table.iloc[:, 0].str.startswith("Llama 3")].iloc[0].tolist()
    assert llama[1:5] == [128, "8,192", "500,000", f"{round((8192 / (2 * math.pi)) ** (128 / 126)):,}"]
    assert llama[-1] == "29 / 64"
    at.slider(key="ctx_k").set_value(8).run()
    assert pt.metric(at, "rope_theta ≥ (k = 8)") == f"{round((131072 / (2 * math.pi)) ** (128 / 112)):,}"
    at.slider(key="ctx_hd").set_value(8).run()  # 4 pairs: k is at most 3
    pt.ok(at)
    assert any("head_dim 8 has only 4 pairs, so k is 3" in c.value for c in at.caption)


WIDGET_EXTREMES = [
    ("number_input", "ctx_factor", view.FACTOR),
    ("number_input", "ctx_orig", view.LENGTH),
    ("number_input", "ctx_target", view.LENGTH),
    ("slider", "ctx_hd", view.HEAD_DIM),
    ("number_input", "ctx_theta", view.THETA),
    ("slider", "ctx_k", (1, 32)),
]


def _reset(at: AppTest) -> None:
    """Back to the source's values (the button shows only when something differs)."""
    if any(button.key == "ctx_reset" for button in at.button):
        at.button(key="ctx_reset").click().run()


def test_every_widget_at_its_extremes():
    at = pt.page(PAGE).run()
    for kind, key, (lo, hi) in WIDGET_EXTREMES:
        for value in (lo, hi):
            getattr(at, kind)(key=key).set_value(value).run()
            pt.ok(at)
            assert len(at.get("plotly_chart")) == CHARTS, (key, value)
        _reset(at)
    for name in view.method_params("yarn"):
        key, lo, hi, _ = view.PARAM_SPECS[name]
        if name == "truncate":
            at.toggle(key=key).set_value(False).run()
            pt.ok(at)
            continue
        for value in (lo, hi):
            at.number_input(key=key).set_value(value).run()
            pt.ok(at, errors_allowed=name in ("beta_fast", "beta_slow"))  # beta_fast < beta_slow is refused
        _reset(at)
    at.segmented_control(key="ctx_method").set_value("llama3").run()
    at.number_input(key="ctx_lo").set_value(64.0).run()
    pt.ok(at, errors_allowed=True)
    assert "high_freq_factor (4) must be greater than low_freq_factor (64)" in at.error[0].value
    at.segmented_control(key="ctx_method").set_value("dynamic").run()
    for ratio in (view.RATIOS[0], view.RATIOS[-1]):
        at.select_slider(key="ctx_ratio").set_value(ratio).run()
        pt.ok(at)


# the URL and the language


def test_query_params_reopen_the_view():
    at = pt.page(PAGE, ctx_src="Llama-3.1-8B", ctx_method="llama3", ctx_factor="8", ctx_orig="8192",
                 ctx_theta="500000", ctx_hd="128", ctx_k="4").run()
    pt.ok(at)
    assert at.selectbox(key="ctx_src").value == "Llama-3.1-8B"
    assert at.segmented_control(key="ctx_method").value == "llama3"
    assert at.number_input(key="ctx_factor").value == 8.0
    assert at.number_input(key="ctx_orig").value == 8192
    assert at.slider(key="ctx_k").value == 4
    assert pt.metric(at, "kept / blended / interpolated") == "29 / 6 / 29"
    assert not any("(was " in c.value for c in at.caption)  # the link's values are the preset's: no changes


def test_a_url_naming_only_the_source_gets_its_values():
    at = pt.page(PAGE, ctx_src="Llama-3.1-8B").run()
    pt.ok(at)
    assert at.number_input(key="ctx_factor").value == 8.0
    assert at.segmented_control(key="ctx_method").value == "llama3"
    at = pt.page(PAGE, ctx_src=view.CONFIG).run()  # the example config: Phi-3's LongRoPE
    assert at.segmented_control(key="ctx_method").value == "longrope"
    assert not any("(was " in c.value for c in at.caption)


def test_query_params_keep_a_changed_view():
    at = pt.page(PAGE, ctx_factor="2.5", ctx_method="linear").run()
    pt.ok(at)
    assert at.number_input(key="ctx_factor").value == 2.5
    assert at.segmented_control(key="ctx_method").value == "linear"
    assert any("factor 2.5 (was 4)" in c.value for c in at.caption)


def test_chinese():
    at = pt.page(PAGE, lang="zh").run()
    pt.ok(at)
    assert pt.is_chinese(at.title[0].value)
    assert at.title[0].value.startswith("上下文扩展")
    assert pt.metric(at, "注意力系数") == "1.1386"
    assert any("Qwen3" in block.value and "YaRN" in block.value for block in at.markdown)
