"""The Context-extension page driven through streamlit's AppTest.

Numbers the page shows are the core's for the page's settings (:func:`core_view`); the core's numbers themselves
are checked against transformers, the papers' formulas and per-pair loops in tests/test_context_extension.py and
tests/test_rope_scaling.py.
The page opens on position interpolation; the tests about YaRN choose its Qwen3 preset themselves. One section per
tab: a test opens the tab that holds what it checks.
"""
from __future__ import annotations

import json

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from embedviz.app import context_extension_view as view
from embedviz.app.i18n import catalog
from embedviz.rope import context_extension, theta_calculator
from embedviz.rope.context_extension import PHI3_MINI_128K, ExtensionView
from embedviz.models.params import PRESETS
from embedviz.lessons.widget_keys import Context as K
from tests.app import pagetest as pt
from tests.test_rope_scaling import LLAMA_31_8B, QWEN3_06B_YARN

PAGE = "context_extension"
YARN = view.YARN_SOURCE
TABS = {code: catalog()[f"ctx.tab_{code}"]["en"] for code in view.TAB_CODES}
CHART_TABS = ("pairs", "ratio", "turns", "decay")  # wavelength, ratio, turns, decay: one chart each


def _open_tab(at: AppTest, code: str) -> AppTest:
    at.session_state[K.TAB] = TABS[code]
    return at.run()


def _all_specs(at: AppTest) -> list[dict]:
    """The four charts in page order, each tab opened in turn (then back to the first tab)."""
    out = []
    for code in CHART_TABS:
        _open_tab(at, code)
        pt.ok(at)
        assert len(pt.chart_json(at)) == 1, code  # one section, one chart per tab
        out += pt.specs(at)
    _open_tab(at, "pairs")
    return out


def _trace_data(spec: dict) -> list[tuple[str, np.ndarray, np.ndarray]]:
    return [(trace.get("name", ""), pt.values(trace["x"]), pt.values(trace["y"])) for trace in spec["data"]]


def _after_wavelengths(spec: dict) -> np.ndarray:
    """The coloured points of the wavelength chart, put back in pair order: (P,)."""
    points = {}
    for _, x, y in _trace_data(spec)[1:]:
        points.update(zip(x.astype(int).tolist(), y.tolist()))
    return np.array([points[i] for i in range(len(points))])


def core_view(config: dict, *, method: str | None = None, factor: float | None = None,
              ratio: float | None = None) -> ExtensionView:
    """What the core computes for a source's settings, with the method, factor or length ratio a test set on the
    page in place of the source's own: the numbers the page must show."""
    s = context_extension.extension_settings(config)
    method = method or s.method
    scaling = context_extension.build_scaling(
        method, factor=s.factor if factor is None else factor, original_max_position_embeddings=s.original,
        params=s.params, short_factor=s.short_factor, long_factor=s.long_factor,
        partial_rotary_factor=s.partial_rotary_factor)
    ratio = view.nearest_ratio(s.target / s.original) if ratio is None else ratio  # the page's default
    context_length = context_extension.context_length_for(method, s.original, ratio)
    return context_extension.extension_view(s.head_dim, s.theta, scaling, original=s.original, target=s.target,
                                            context_length=context_length)


def _kinds(core: ExtensionView) -> str:
    """The kept / blended / interpolated counts as the page's metric says them."""
    return " / ".join(str(core.kinds.count(kind)) for kind in ("kept", "blended", "interpolated"))


def _use_config(at: AppTest, config: dict) -> AppTest:
    at.selectbox(key=K.SOURCE).set_value(view.CONFIG).run()
    at.text_area(key=K.CONFIG).set_value(json.dumps(config, indent=2)).run()
    return at


# defaults


def test_default_view_is_position_interpolation_on_llama2():
    """The page opens on the simplest method: linear PI, LLaMA-2-7B's trained length x 4 (numbers from the preset)."""
    at = pt.page(PAGE).run()
    pt.ok(at)
    assert at.title[0].value == pt.text("ctx.title")
    assert at.selectbox(key=K.SOURCE).value == view.PI_SOURCE == view.SOURCES[0]
    assert at.segmented_control(key=K.METHOD).value == "linear"
    # simple -> complex; LongRoPE needs a config's lists
    assert at.segmented_control(key=K.METHOD).options == ["linear", "dynamic", "yarn", "llama3"]
    p = PRESETS["LLaMA-2-7B"]
    got = {key: at.number_input(key=key).value for key in (K.FACTOR, K.ORIGINAL, K.TARGET, K.THETA)}
    assert got == {K.FACTOR: 4.0, K.ORIGINAL: p.pretrained_length, K.TARGET: 4 * p.pretrained_length,
                   K.THETA: p.rope_theta} == {K.FACTOR: 4.0, K.ORIGINAL: 4096, K.TARGET: 16384,
                                                  K.THETA: 10_000.0}
    assert at.slider(key=K.HEAD_DIM).value == p.head_dim == 128
    assert not any("(was " in c.value for c in at.caption)  # the default is the source's own view
    assert len(pt.chart_json(at)) == 1  # the first tab: which pairs the method stretches
    assert not at.latex  # the method's text and formulas wait in their own tab
    core = core_view(view.preset_config(view.PI_SOURCE))
    # 18 pairs never closed a turn in 4,096 tokens; x4 brings each of them to 4x its largest trained angle, PI
    # (every w / 4 over 4 x 4,096) to exactly 1x
    assert pt.metric(at, pt.text("ctx.unseen_without")) == f"{int(core.unseen_unscaled.sum())} / 64" == "18 / 64"
    assert pt.metric(at, pt.text("ctx.unseen_with", method=pt.text("ctx.name_linear"))) == \
        f"{int(core.unseen_scaled.sum())} / 64" == "0 / 64"
    assert pt.metric(at, pt.text("ctx.kinds")) == _kinds(core) == "0 / 0 / 64"
    overshoot = catalog()["ctx.overshoot"]["en"].format(
        unscaled=f"{core.overshoot_unscaled:.3g}", scaled=f"{core.overshoot_scaled:.3g}", method="linear")
    assert any(overshoot in c.value for c in at.caption)
    # the wavelength chart: every pair's wavelength after the stretch, pair by pair
    np.testing.assert_allclose(_after_wavelengths(pt.specs(at)[0]), core.wavelen_after, rtol=1e-6)
    assert "linear" in pt.titles(at)[0]
    _open_tab(at, "method")
    pt.ok(at)
    assert any(s.value == pt.text("ctx.m_linear_title") for s in at.header)
    assert any("\\frac{\\omega_i}{s}" in latex.value for latex in at.latex)  # w_i' = w_i / s
    assert pt.metric(at, pt.text("ctx.attention")) == "1.0000"
    assert any("linear leaves attention alone" in c.value for c in at.caption)


def test_yarn_preset_on_qwen3_to_128k():
    at = pt.page(PAGE, **{K.SOURCE: YARN}).run()
    pt.ok(at)
    assert at.segmented_control(key=K.METHOD).value == "yarn"
    assert "longrope" not in at.segmented_control(key=K.METHOD).options
    assert catalog()["ctx.no_longrope"]["en"] in [c.value for c in at.caption]
    core = core_view(view.preset_config(YARN))
    # Qwen3's theta 1e6, 32K: 24 pairs never close a turn; YaRN (4 x 32K = 128K exactly) shows none a new angle
    assert pt.metric(at, pt.text("ctx.unseen_without")) == f"{int(core.unseen_unscaled.sum())} / 64" == "24 / 64"
    assert pt.metric(at, pt.text("ctx.unseen_with", method=pt.text("ctx.name_yarn"))) == \
        f"{int(core.unseen_scaled.sum())} / 64" == "0 / 64"
    # YaRN's ramp: 24 pairs kept, 16 blended, 24 interpolated (the ramp's ends by hand in tests/test_rope_scaling.py)
    assert pt.metric(at, pt.text("ctx.kinds")) == _kinds(core) == "24 / 16 / 24"
    d, blended = 128, core.kinds.count("blended")
    # the notice's details: "16 of 64" is this count, in both languages
    for lang, words in (("en", f"{blended} of {d // 2} pairs"), ("zh", f"{d // 2} 对里有 {blended} 对")):
        assert words in catalog()["ctx.notice_more"][lang]
    assert any(f"{blended} of {d // 2}" in block.value for block in at.markdown)  # under the notice, in Details
    for spec in _all_specs(at):
        assert spec["layout"]["title"]["text"]
        assert len(json.dumps(spec)) < 1_000_000
    # YaRN's temperature for s = 4 (0.1 ln 4 + 1), on q and on k; the logits get its square
    _open_tab(at, "method")
    pt.ok(at)
    assert pt.metric(at, pt.text("ctx.attention")) == f"{core.attention_factor:.4f}" == "1.1386"
    assert any("1.1386² = 1.2965" in c.value for c in at.caption)
    assert any("0.1\\ln 4 + 1 = 1.1386" in latex.value for latex in at.latex)


# every source with every method it offers


@pytest.mark.parametrize("source", view.SOURCES)
def test_every_source_and_method_runs(source):
    at = pt.page(PAGE).run()
    at.selectbox(key=K.SOURCE).set_value(source).run()
    pt.ok(at)
    options = at.segmented_control(key=K.METHOD).options
    assert ("longrope" in options) == (source == view.CONFIG)  # the example config is Phi-3's
    for code in ("pairs", "method", "ratio"):  # the two charts whose titles name the method, and its text
        _open_tab(at, code)
        for method in options:
            at.segmented_control(key=K.METHOD).set_value(method).run()
            pt.ok(at)
            if code == "method":  # its own words and formula, no chart
                assert not pt.chart_json(at) and at.header[0].value and at.latex[0].value, method
                continue
            assert len(pt.chart_json(at)) == 1, (code, method)
            assert method in pt.titles(at)[0], (code, pt.titles(at))
    assert len(_all_specs(at)) == len(CHART_TABS)


def test_preset_fills_the_settings_and_unscaled_ones_get_a_suggestion():
    at = pt.page(PAGE).run()
    at.selectbox(key=K.SOURCE).set_value("Llama-3.1-8B").run()
    pt.ok(at)
    got = {key: at.number_input(key=key).value for key in (K.FACTOR, K.ORIGINAL, K.TARGET, K.THETA)}
    assert got == {K.FACTOR: 8.0, K.ORIGINAL: 8192, K.TARGET: 131072, K.THETA: 500_000.0}
    assert at.segmented_control(key=K.METHOD).value == "llama3"
    # keep below 8192/4 = 2048 tokens per turn, divide above 8192: 29 kept, 6 blended, 29 interpolated (by hand
    # in tests/test_rope_scaling.py); 131072 is 16 x 8192 but the factor is 8, and the page says so
    assert pt.metric(at, pt.text("ctx.kinds")) == "29 / 6 / 29"
    assert any("65,536" in w.value for w in at.warning)
    # without scaling the slowest pairs go 131072 / 8192 = 16x past their trained angle, with llama3 2x
    assert any(catalog()["ctx.overshoot"]["en"].format(unscaled=16, scaled=2, method="llama3") in c.value
               for c in at.caption)
    at.selectbox(key=K.SOURCE).set_value("LLaMA-2-7B").run()
    pt.ok(at)
    # the YaRN paper's LLaMA 2 at 128K: factor 131072 / 4096 = 32
    assert at.number_input(key=K.FACTOR).value == 32.0
    assert any(pt.shows(c.value, "ctx.suggested") for c in at.caption)


# a pasted config gives the preset's numbers


@pytest.mark.parametrize(("config", "preset"), [(LLAMA_31_8B, "Llama-3.1-8B"),
                                                (QWEN3_06B_YARN, "Qwen3-0.6B (YaRN 128K)")],
                         ids=["llama-3.1", "qwen3-yarn"])
def test_pasted_config_reproduces_the_preset(config, preset):
    at = pt.page(PAGE).run()
    at.selectbox(key=K.SOURCE).set_value(preset).run()
    from_preset = [_trace_data(spec) for spec in _all_specs(at)]
    metrics = [m.value for m in at.metric]
    _use_config(at, config)
    pt.ok(at)
    assert [m.value for m in at.metric] == metrics
    for ours, theirs in zip((_trace_data(spec) for spec in _all_specs(at)), from_preset, strict=True):
        for (name, x, y), (name_p, x_p, y_p) in zip(ours, theirs, strict=True):
            assert name == name_p
            np.testing.assert_array_equal(x, x_p)
            np.testing.assert_array_equal(y, y_p)


def test_pasted_phi3_config_is_longrope_with_its_long_factors():
    at = _use_config(pt.page(PAGE).run(), PHI3_MINI_128K)
    pt.ok(at)
    assert at.segmented_control(key=K.METHOD).value == "longrope"
    assert at.slider(key=K.HEAD_DIM).value == 96  # 3072 / 32
    assert at.select_slider(key=K.RATIO).value == 32.0  # 131072 / 4096
    # at 32 x 4096 tokens LongRoPE divides each w_i by its long_factor
    long = core_view(PHI3_MINI_128K, ratio=32.0)
    short = core_view(PHI3_MINI_128K, ratio=1.0)
    assert not np.allclose(long.wavelen_after, short.wavelen_after)  # two different lists
    np.testing.assert_allclose(_after_wavelengths(pt.specs(at)[0]), long.wavelen_after, rtol=1e-6)  # float32
    _open_tab(at, "method")
    assert pt.metric(at, pt.text("ctx.attention")) == f"{long.attention_factor:.4f}"
    _open_tab(at, "pairs")
    # within the trained length it switches to short_factor
    at.select_slider(key=K.RATIO).set_value(1.0).run()
    np.testing.assert_allclose(_after_wavelengths(pt.specs(at)[0]), short.wavelen_after, rtol=1e-6)
    # another head size cannot use 48 factors: a message, not a traceback
    at.slider(key=K.HEAD_DIM).set_value(128).run()
    pt.ok(at, errors_allowed=True)
    assert [e.value for e in at.error] == [pt.refusal("pair_factors_count", key="short_factor", n=48, dim=128, half=64)]


def test_uploaded_config_replaces_the_text():
    at = pt.page(PAGE).run()
    at.selectbox(key=K.SOURCE).set_value(view.CONFIG).run()
    at.get("file_uploader")[0].upload("config.json", json.dumps(LLAMA_31_8B).encode(), "application/json")
    at.run()
    pt.ok(at)
    assert json.loads(at.text_area(key=K.CONFIG).value) == LLAMA_31_8B
    assert at.segmented_control(key=K.METHOD).value == "llama3"
    at.get("file_uploader")[0].upload("bad.json", b"\xff\xfe{", "application/json")
    at.run()
    pt.ok(at, errors_allowed=True)
    bad = pytest.raises(UnicodeDecodeError, b"\xff\xfe{".decode, "utf-8").value
    assert [e.value for e in at.error] == [pt.refusal("not_utf8", file="bad.json", reason=bad.reason, byte=bad.start)]


@pytest.mark.parametrize(("text", "code", "params"), [
    ('{"rope_theta": 10000,', "config_json",  # json's own words for what it expected
     {"detail": "Expecting property name enclosed in double quotes", "line": 1, "column": 22}),
    ("[1, 2, 3]", "config_not_object", {"kind": "array"}),
    ("", "config_empty", {}),
    ('{"rope_theta": 10000, "max_position_embeddings": 4096}', "config_no_head", {}),
    ('{"head_dim": 128, "rope_theta": 10000}', "missing", {"name": "config", "keys": "'max_position_embeddings'"}),
    ('{"head_dim": 2048, "rope_theta": 10000, "max_position_embeddings": 4096}', "page_range",
     {"name": "head_dim", "value": 2048, "low": 4, "high": 512}),
])
def test_bad_config_shows_the_message(text, code, params):
    at = pt.page(PAGE).run()
    at.selectbox(key=K.SOURCE).set_value(view.CONFIG).run()
    at.text_area(key=K.CONFIG).set_value(text).run()
    pt.ok(at, errors_allowed=True)
    assert [e.value for e in at.error] == [pt.refusal(code, **params)]
    assert not pt.chart_json(at)


# widgets change what is drawn


def test_factor_changes_every_figure():
    at = pt.page(PAGE, **{K.SOURCE: YARN}).run()
    before = _all_specs(at)
    at.number_input(key=K.FACTOR).set_value(8.0).run()
    pt.ok(at)
    after = _all_specs(at)
    for old, new in zip(before, after, strict=True):
        assert json.dumps(old["data"]) != json.dumps(new["data"]), old["layout"]["title"]["text"]
    _open_tab(at, "method")
    core = core_view(view.preset_config(YARN), factor=8.0)
    assert pt.metric(at, pt.text("ctx.attention")) == f"{core.attention_factor:.4f}"
    # the page remembers where the view came from and offers to go back
    assert any("factor (was 4)" in c.value for c in at.caption)
    at.button(key=K.RESET).click().run()
    assert at.number_input(key=K.FACTOR).value == 4.0
    assert not any("(was " in c.value for c in at.caption)


def test_pi_factor_divides_every_frequency():
    """Linear PI at the default: the factor from the widget reaches the core, which divides every w_i by it."""
    at = pt.page(PAGE).run()
    for s in (2.0, 8.0):
        at.number_input(key=K.FACTOR).set_value(s).run()
        pt.ok(at)
        core = core_view(view.preset_config(view.PI_SOURCE), factor=s)
        np.testing.assert_allclose(_after_wavelengths(pt.specs(at)[0]), core.wavelen_after, rtol=1e-6)
        assert any("factor (was 4)" in c.value for c in at.caption)
    _open_tab(at, "ratio")
    [points] = [y for name, _, y in _trace_data(pt.specs(at)[0]) if name == "interpolated (÷ s)"]
    assert points.shape == (64,)
    np.testing.assert_allclose(points, core.ratio, rtol=1e-6)


def test_dynamic_base_follows_the_sequence_length():
    at = pt.page(PAGE, **{K.SOURCE: YARN}).run()
    at.segmented_control(key=K.METHOD).set_value("dynamic").run()
    pt.ok(at)
    bases = []
    for ratio in (1.0, 4.0, 64.0):
        at.select_slider(key=K.RATIO).set_value(ratio).run()
        core = core_view(view.preset_config(YARN), method="dynamic", ratio=ratio)
        assert pt.metric(at, pt.text("ctx.base")) == f"{round(core.base):,}"
        assert any(f"{core.context_length:,} tokens" in c.value for c in at.caption)
        bases.append(core.base)
    assert bases[0] == 1e6 < bases[1] < bases[2]  # theta itself up to the trained length, then larger


def test_calculator_shows_the_cores_theta_and_real_models():
    at = pt.page(PAGE, **{K.SOURCE: YARN, K.TAB: TABS["calc"]}).run()
    pt.ok(at)
    assert not pt.chart_json(at)  # the calculator's tab: a table, no chart
    # the core's theta_for_context (its formula checked in tests/test_theta_calculator.py), L = 131072, d = 128
    theta = theta_calculator.theta_for_context(128, 131_072)
    assert pt.metric(at, pt.text("ctx.calc_theta", k=1)) == f"{round(theta):,}"
    table = at.table[0].value
    llama = table[table.iloc[:, 0].str.startswith("Llama 3")].iloc[0].tolist()
    assert llama[1:5] == [128, "8,192", "500,000", f"{round(theta_calculator.theta_for_context(128, 8_192)):,}"]
    assert llama[-1] == "29 / 64"
    at.slider(key=K.K).set_value(8).run()
    theta = theta_calculator.theta_for_context(128, 131_072, slow_pairs=8)
    assert pt.metric(at, pt.text("ctx.calc_theta", k=8)) == f"{round(theta):,}"
    at.slider(key=K.HEAD_DIM).set_value(8).run()  # 4 pairs: k is at most 3
    pt.ok(at)
    assert any("d = 8 has only 4 pairs, so k is 3" in c.value for c in at.caption)


WIDGET_EXTREMES = [
    ("number_input", K.FACTOR, view.FACTOR),
    ("number_input", K.ORIGINAL, view.LENGTH),
    ("number_input", K.TARGET, view.LENGTH),
    ("slider", K.HEAD_DIM, view.HEAD_DIM),
    ("number_input", K.THETA, view.THETA),
]


def _reset(at: AppTest) -> None:
    """Back to the source's values (the button shows only when something differs)."""
    if any(button.key == K.RESET for button in at.button):
        at.button(key=K.RESET).click().run()


def test_every_widget_at_its_extremes():
    at = pt.page(PAGE, **{K.SOURCE: YARN}).run()  # YaRN: the method with the most parameters
    for kind, key, (lo, hi) in WIDGET_EXTREMES:
        for value in (lo, hi):
            getattr(at, kind)(key=key).set_value(value).run()
            pt.ok(at)
            assert len(_all_specs(at)) == len(CHART_TABS), (key, value)  # every chart at every extreme
        _reset(at)
    _open_tab(at, "calc")
    for value in (1, 32):  # the calculator's k: its own tab, its own fragment
        at.slider(key=K.K).set_value(value).run()
        pt.ok(at)
        assert at.table
    _open_tab(at, "pairs")
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
    at.segmented_control(key=K.METHOD).set_value("llama3").run()
    at.number_input(key=K.LOW_FREQ_FACTOR).set_value(64.0).run()
    pt.ok(at, errors_allowed=True)
    assert [e.value for e in at.error] == [pt.refusal("llama3_order", high=4.0, low=64.0)]
    at.segmented_control(key=K.METHOD).set_value("dynamic").run()
    for ratio in (view.RATIOS[0], view.RATIOS[-1]):
        at.select_slider(key=K.RATIO).set_value(ratio).run()
        pt.ok(at)


# the URL and the language


def test_query_params_reopen_the_view():
    # a shared link carries the values that differ from the widgets' defaults (the PI view's): target too
    at = pt.page(PAGE, **{K.SOURCE: "Llama-3.1-8B", K.METHOD: "llama3", K.FACTOR: "8", K.ORIGINAL: "8192",
                          K.TARGET: "131072", K.THETA: "500000", K.HEAD_DIM: "128", K.K: "4"}).run()
    pt.ok(at)
    assert at.selectbox(key=K.SOURCE).value == "Llama-3.1-8B"
    assert at.segmented_control(key=K.METHOD).value == "llama3"
    assert at.number_input(key=K.FACTOR).value == 8.0
    assert at.number_input(key=K.ORIGINAL).value == 8192
    assert pt.metric(at, pt.text("ctx.kinds")) == "29 / 6 / 29"
    assert not any("(was " in c.value for c in at.caption)  # the link's values are the preset's: no changes
    _open_tab(at, "calc")
    assert at.slider(key=K.K).value == 4


@pytest.mark.parametrize("code", view.TAB_CODES)
def test_a_link_opens_its_tab(code):
    """?ctx_tab= names the open tab; only that section runs (the others send nothing)."""
    at = pt.page(PAGE, **{K.TAB: TABS[code]}).run()
    pt.ok(at)
    charts = pt.titles(at)
    assert len(charts) == (0 if code in ("method", "calc") else 1)
    assert any("Calculator" in h.value for h in at.header) == (code == "calc")
    assert bool(at.get("slider") and any(s.key == K.K for s in at.slider)) == (code == "calc")
    assert bool(at.metric) == (code in ("pairs", "method", "calc"))
    assert bool(at.latex) == (code in ("method", "calc"))


def test_a_url_naming_only_the_source_gets_its_values():
    at = pt.page(PAGE, **{K.SOURCE: "Llama-3.1-8B"}).run()
    pt.ok(at)
    assert at.number_input(key=K.FACTOR).value == 8.0
    assert at.segmented_control(key=K.METHOD).value == "llama3"
    at = pt.page(PAGE, **{K.SOURCE: view.CONFIG}).run()  # the example config: Phi-3's LongRoPE
    assert at.segmented_control(key=K.METHOD).value == "longrope"
    assert not any("(was " in c.value for c in at.caption)


def test_query_params_keep_a_changed_view():
    at = pt.page(PAGE, **{K.FACTOR: "2.5", K.METHOD: "linear"}).run()
    pt.ok(at)
    assert at.number_input(key=K.FACTOR).value == 2.5
    assert at.segmented_control(key=K.METHOD).value == "linear"
    assert any("factor (was 4)" in c.value for c in at.caption)


def test_chinese():
    at = pt.page(PAGE, lang="zh").run()
    pt.ok(at)
    assert pt.is_chinese(at.title[0].value)
    assert at.title[0].value.startswith("上下文扩展")
    assert [tab.label for tab in at.tabs] == [catalog()[f"ctx.tab_{code}"]["zh"] for code in view.TAB_CODES]
    _open_tab(at, "method")  # an English tab label in the session: the Chinese page opens the same tab
    pt.ok(at)
    assert pt.metric(at, pt.text("ctx.attention", "zh")) == "1.0000"  # linear PI leaves attention alone
    assert any("位置插值" in block.value for block in at.markdown)
    at = pt.page(PAGE, lang="zh", **{K.SOURCE: YARN}).run()
    pt.ok(at)
    assert any("Qwen3" in block.value and "YaRN" in block.value for block in at.markdown)
    blended = pt.metric(at, pt.text("ctx.kinds", "zh")).split(" / ")[1]  # the core's count, 16
    assert any(f"64 对里有 {blended} 对" in block.value for block in at.markdown)  # the notice's details
    _open_tab(at, "method")
    assert pt.metric(at, pt.text("ctx.attention", "zh")) == "1.1386"


@pytest.mark.parametrize("name", ["Qwen3-0.6B", "Mistral-7B-v0.1"])
def test_trained_length_in_chinese(name):
    """The trained length, not max_position_embeddings (Qwen3-0.6B 32,768; Mistral-7B 8,192)."""
    at = pt.page(PAGE, lang="zh", **{K.SOURCE: name}).run()
    pt.ok(at)
    trained = PRESETS[name].pretrained_length
    assert trained == {"Qwen3-0.6B": 32_768, "Mistral-7B-v0.1": 8_192}[name] != PRESETS[name].max_context_length
    assert any(f"预训练上下文 {trained:,} 个 token" in c.value for c in at.caption)
    assert at.number_input(key=K.ORIGINAL).value == trained


def test_a_tab_chosen_in_one_language_opens_in_the_other():
    at = pt.page(PAGE, lang="zh", **{K.TAB: TABS["decay"]}).run()  # an English link opened by a Chinese reader
    pt.ok(at)
    assert catalog()["ctx.decay_title"]["zh"].split("{")[0] in pt.titles(at)[0]


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("mscale", [[1], "abc"])
def test_a_yarn_temperature_that_is_not_a_number_is_said_in_the_readers_language(mscale, lang):
    """mscale alone (transformers reads it only beside mscale_all_dim, so compute does not): a list was a
    TypeError traceback, a string Python's English words under the "only in English" lead-in."""
    config = {**QWEN3_06B_YARN, "rope_scaling": {**QWEN3_06B_YARN["rope_scaling"], "mscale": mscale}}
    at = _use_config(pt.page(PAGE, lang=lang).run(), config)
    pt.ok(at, errors_allowed=True)
    assert at.error and all("mscale" in e.value and not pt.english_only(e.value) for e in at.error)
    assert pt.is_chinese(at.error[0].value) == (lang == "zh")


_PARTIAL_YARN = {"head_dim": 128, "hidden_size": 4096, "num_attention_heads": 32, "num_hidden_layers": 2,
                 "partial_rotary_factor": 0.5, "max_position_embeddings": 16_384, "rope_theta": 10_000.0,
                 "rope_scaling": {"rope_type": "yarn", "factor": 4, "original_max_position_embeddings": 4_096}}


def test_a_partial_rotation_scales_the_rotated_part_of_the_logits_and_sizes_theta_for_the_rotated_pairs():
    """transformers multiplies cos and sin by the attention factor, and they touch the 64 rotated dimensions only;
    the calculator's d is those 64 (the slowest of their pairs must turn at most once within the target)."""
    at = _use_config(pt.page(PAGE).run(), _PARTIAL_YARN)
    _open_tab(at, "method")
    pt.ok(at)
    assert any("The rotated 64 of the 128 dimensions of q and k" in c.value for c in at.caption)
    _open_tab(at, "calc")
    theta = float(pt.metric(at, pt.text("ctx.calc_one")).replace(",", ""))
    assert theta == round(theta_calculator.theta_for_context(64, 16_384)) != round(
        theta_calculator.theta_for_context(128, 16_384))


def test_a_partial_rotary_factor_of_one_is_not_called_partial():
    at = _use_config(pt.page(PAGE).run(), {**_PARTIAL_YARN, "partial_rotary_factor": 1.0})
    pt.ok(at)
    assert not any("Only 128 of the 128" in c.value for c in at.caption)


def test_dynamic_ntk_at_a_longer_current_length_is_not_told_there_is_nothing_to_extend():
    """The analysis follows the current length (4 x the trained 4,096), not the target (the trained length)."""
    at = pt.page(PAGE).run()
    at.segmented_control(key=K.METHOD).set_value("dynamic").run()
    at.number_input(key=K.TARGET).set_value(4_096).run()
    at.select_slider(key=K.RATIO).set_value(4.0).run()
    pt.ok(at)
    assert any("16,384 tokens" in c.value for c in at.caption)
    assert not any(pt.shows(w.value, "ctx.not_longer") for w in at.warning)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_deepseeks_logits_are_said_to_grow_by_its_own_softmax_scale(lang):
    """DeepSeek-V3: mscale = mscale_all_dim = 1, so attention_factor is 1 and "every logit × 1.0000" told half the
    story; its attention multiplies the softmax scale by mscale² (transformers' DeepseekV3Attention, against which
    tests/test_rope_layers.py checks the core's mla_softmax_scale)."""
    from embedviz.rope.layers import mla_softmax_scale
    from tests.test_rope_layers import load

    config = load("deepseek-v3.json")
    logit = mla_softmax_scale(config).logit_factor
    at = _open_tab(_use_config(pt.page(PAGE, lang=lang).run(), config), "method")
    pt.ok(at)
    assert any(f"{logit:.4f}" in c.value and "40" in c.value and "MLA" in c.value for c in at.caption)
    assert f"{logit:.4f}" == "1.8739"


def test_an_unscaled_model_with_a_short_window_gets_a_suggestion_the_page_can_show():
    """max_position_embeddings 64 with no scaling: 128K would be a factor of 2,048, past the factor slider, and the
    page refused its own suggestion ("factor (2048) is outside what this page can show"). It suggests YaRN x32."""
    config = {"head_dim": 64, "hidden_size": 512, "num_attention_heads": 8, "num_hidden_layers": 2,
              "max_position_embeddings": 64, "rope_theta": 10_000.0}
    at = _use_config(pt.page(PAGE).run(), config)
    pt.ok(at)
    assert any("YaRN to 2,048 tokens" in c.value for c in at.caption)
    assert at.number_input(key=K.FACTOR).value == 32


def test_the_calculator_of_a_head_with_one_rotating_pair_says_why_it_cannot_size_theta():
    """head_dim 8 at partial 0.25: 2 dimensions rotate, one pair, too few for the bound: a message, not a traceback."""
    at = _use_config(pt.page(PAGE, lang="zh").run(), {**_PARTIAL_YARN, "head_dim": 8, "partial_rotary_factor": 0.25})
    _open_tab(at, "calc")
    pt.ok(at, errors_allowed=True)
    assert len(at.error) == 1 and not pt.english_only(at.error[0].value) and pt.is_chinese(at.error[0].value)


def test_longrope_at_its_short_length_with_a_long_target_is_not_told_there_is_nothing_to_extend():
    """Phi-3's target is 131,072 against 4,096 trained; at a current length of 1x LongRoPE uses its short factors,
    and the target is still longer than the trained length."""
    at = _use_config(pt.page(PAGE).run(), PHI3_MINI_128K)
    at.select_slider(key=K.RATIO).set_value(1.0).run()
    pt.ok(at)
    assert at.number_input(key=K.TARGET).value == 131_072
    assert not any(pt.shows(w.value, "ctx.not_longer") for w in at.warning)


def test_deepseeks_attention_factor_is_said_to_scale_its_64_rotated_of_192_dimensions():
    """MLA: q.k spans qk_nope_head_dim 128 + qk_rope_head_dim 64; cos and sin, which attention_factor scales,
    touch the 64 only (here mscale 2 over mscale_all_dim 1, so attention_factor is not 1)."""
    from tests.test_rope_layers import load

    config = load("deepseek-v3.json")
    config["rope_scaling"] = {**config["rope_scaling"], "mscale": 2.0}
    at = _open_tab(_use_config(pt.page(PAGE).run(), config), "method")
    pt.ok(at)
    assert any("The rotated 64 of the 192 dimensions of q and k" in c.value for c in at.caption)
