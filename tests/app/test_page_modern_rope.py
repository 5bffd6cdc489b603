"""AppTest of the "RoPE in today's models" page: each preset shows its layer strip, partial rotation, NoPE layers,
M-RoPE bands and the theory; a pasted config is read; a bad config is a translated message.

Each section is a tab bound to ?mod_tab= (only the open tab runs): a test opens the tab holding what it checks."""
from __future__ import annotations

import json

import numpy as np
import pytest

from embedviz.rope import layers as rope_layers, theory as rope_theory
from embedviz.app.i18n import catalog
from embedviz.app.modern_rope_view import SCAN_LENGTHS, TAB_CODES
from embedviz.rope.layers import PUBLISHED, published_config
from embedviz.lessons.widget_keys import ModernRope as K
from tests.app.pagetest import chart_json, english_only, fields, is_chinese, ok, page, shows, text, values
from tests.conftest import require_oracle

NAMES = list(PUBLISHED)


def tab(code: str, lang: str = "en") -> str:
    return catalog()[f"mod.tab_{code}"][lang]


def run(tab_code: str | None = None, session: dict | None = None, lang: str | None = None, **kwargs):
    """The page, with tab ``tab_code`` open (the first, the layer strip, when None)."""
    state = {**(session or {}), **({K.TAB: tab(tab_code, lang or "en")} if tab_code else {})}
    at = page("modern_rope", timeout=120, session=state, lang=lang, **kwargs)
    at.run()
    return at


def titles(at) -> list[str]:
    return [json.loads(spec)["layout"]["title"]["text"] for spec in chart_json(at)]


def figure(at, key: str) -> dict:
    """The one chart whose title is the catalog's ``key``."""
    (found,) = [json.loads(s) for s in chart_json(at) if text(key) in json.loads(s)["layout"]["title"]["text"]]
    return found


def markdown(at) -> str:
    return " ".join(m.value for m in at.markdown)


def setting_captions(at) -> list[str]:
    """The captions that say which of several RoPE settings the theory's numbers are for."""
    return [c.value for c in at.caption if shows(c.value, "mod.theory_setting")]


@pytest.mark.parametrize("name, expected", [
    (NAMES[0], ["sliding_attention", "full_attention"]),  # Gemma 3: two settings on the strip
    (NAMES[1], ["proportional"]),  # Gemma 4
    (NAMES[2], ["nope"]),  # Llama 4
])
def test_presets_show_their_layer_strip(name, expected):
    at = run(**{K.SOURCE: name})
    ok(at)
    strip = json.loads(chart_json(at)[0])
    legend = " ".join(trace["name"] for trace in strip["data"])
    for word in expected:
        assert word in legend, (word, legend)


def test_llama4_says_what_a_nope_layer_sees():
    at = run(**{K.SOURCE: NAMES[2]})
    ok(at)
    shown = markdown(at)
    assert text("mod.nope_text") in shown and fields(shown, "mod.temp_text") == {"attn_scale": "0.1",
                                                                                "floor_scale": "8,192"}
    assert any(text("mod.temp_title") in title for title in titles(at))


def test_qwen_vl_shows_mrope_bands():
    at = run("mrope", **{K.SOURCE: NAMES[3]})
    ok(at)
    band = figure(at, "mod.mrope_title")
    assert [trace["name"] for trace in band["data"]] == [text(f"mod.axis_{axis}") for axis in "thw"]


def test_partial_rotation_and_mla():
    at = run("head", **{K.SOURCE: NAMES[4]})  # DeepSeek-V3
    ok(at)
    assert [fields(c.value, "mod.mla")["rope"] for c in at.caption if fields(c.value, "mod.mla")] == ["64"]
    at = run("head", **{K.SOURCE: NAMES[5]})  # Phi-2: 32 of 80 dims turn
    ok(at)
    head = figure(at, "mod.head_title")
    assert any(text("mod.unrotated") in trace["name"] for trace in head["data"])


def test_theory_is_shown_with_its_papers():
    at = run("theory", **{K.SOURCE: NAMES[7]})  # Llama 3.1, base bound for 1,024 positions
    ok(at)
    shown = markdown(at)
    # each paper's text: critical dimension (Liu et al.), base bound (Men et al.), interpolation (Chen et al.)
    assert fields(shown, "mod.critical") and shows(shown, "mod.pi_text")
    assert fields(shown, "mod.base_bound")["bound"] == "4.3e+03"  # the scan for 1,024 positions (the paper: 4.3e3)


def test_pasted_config_is_read():
    config = published_config(NAMES[0])
    at = run(**{K.SOURCE: "config.json"}, session={K.CONFIG: json.dumps(config)})
    ok(at)
    assert fields(titles(at)[0], "mod.strip_title") == {"layers": "48"}
    bad = run(**{K.SOURCE: "config.json"}, session={K.CONFIG: json.dumps({**config["text_config"], "rope_scaling":
                                                                        {"rope_type": "nonsense"}})})
    ok(bad, errors_allowed=True)
    assert bad.error and fields(bad.error[0].value, "err.rope_type_unknown")["value"] == "'nonsense'"


def test_chinese():
    for code in TAB_CODES:
        at = run(code, **{K.SOURCE: NAMES[2] if code != "mrope" else NAMES[3]}, lang="zh")
        ok(at)
        assert is_chinese(at.title[0].value) and all(is_chinese(title) for title in titles(at)), code


def test_one_section_per_tab():
    charts = {code: len(run(code, **{K.SOURCE: NAMES[2]}).get("plotly_chart")) for code in TAB_CODES}
    # Llama 4: strip + NoPE temperature; decay; head layout; no M-RoPE (a pointer instead); wavelengths + PI bounds
    assert charts == {"layers": 2, "decay": 1, "head": 1, "mrope": 0, "vision": 1, "theory": 2}
    at = run("mrope", **{K.SOURCE: NAMES[2]})
    assert at.info and fields(at.info[0].value, "mod.no_mrope")["name"].startswith("Qwen2.5-VL")


@pytest.mark.parametrize("name", NAMES)
def test_every_published_model_gets_its_base_bound_at_every_scan_length(name):
    """The scan-length slider never meets the scan's CPU budget for a published model: the bound shown is the
    scan's (rope_theory.base_lower_bound's grid, re-checked in tests/test_rope_theory.py)."""
    at = run("theory", **{K.SOURCE: name})
    ok(at)
    plan = rope_layers.layer_plan(published_config(name))
    dim = rope_layers.exponent_dim(next(s for s in plan.settings if s.inv_freq is not None))
    for length in SCAN_LENGTHS:
        at.select_slider(key=K.SCAN_LENGTH).set_value(length).run()
        ok(at)
        assert not at.info, at.info[0].value
        bound = fields(markdown(at), "mod.base_bound")
        assert (bound["length"], bound["head_dim"], bound["which"], bound["bound"]) == (
            f"{length:,}", f"{dim}", text("mod.d_rotated"), f"{rope_theory.base_bound(length, dim).base:.3g}")
        wave = figure(at, "mod.wave_title")
        assert text("mod.scan_line", length=f"{length:,}") in [note["text"] for note in wave["layout"]["annotations"]]


def test_llama_4k_bound_is_the_papers():
    at = run("theory", session={K.SCAN_LENGTH: 4_096}, **{K.SOURCE: NAMES[7]})  # Llama 3.1: d = 128
    ok(at)
    assert fields(markdown(at), "mod.base_bound")["bound"] == "2.7e+04"  # Men et al. 2024: 4K -> 2.7e4


@pytest.mark.parametrize("name", [NAMES[5], NAMES[6]])  # Phi-2 (32 of 80 dims turn), GPT-NeoX-20B (24 of 96)
def test_unrotated_pairs_keep_the_sum_nonnegative_for_any_base(name):
    """The rotated-dimensions tab says each unrotated pair adds cos 0 = 1, so the sum over the head stays >= 0
    (the claim, for these two configs: tests/test_rope_theory.py)."""
    at = run("head", **{K.SOURCE: name})
    ok(at)
    assert text("mod.partial_text") in [md.value for md in at.markdown]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_pasted_head_too_small_for_any_base_bound_says_so_and_keeps_the_charts(lang):
    """head_dim 4 (two pairs): no base up to the scan's ceiling keeps B(m) >= 0 for 1,024 positions; the page says
    so in the reader's language instead of a traceback, and still draws the wavelengths and PI's bounds."""
    config = {"rope_theta": 10_000.0, "max_position_embeddings": 4_096, "head_dim": 4, "num_attention_heads": 32,
              "hidden_size": 4_096, "num_hidden_layers": 2}
    with pytest.raises(ValueError) as raised:  # what the core says (the page must catch it)
        rope_theory.base_bound(1_024, 4)
    assert raised.value.code == "no_base" and raised.value.params["length"] == 1_024
    at = run("theory", session={K.CONFIG: json.dumps(config)}, lang=lang, **{K.SOURCE: "config.json"})
    ok(at, errors_allowed=True)
    assert len(at.error) == 1 and fields(at.error[0].value, "err.no_base", lang)["length"] == "1,024"
    assert not english_only(at.error[0].value)  # a kind the catalog knows
    assert len(at.get("plotly_chart")) == 2


_NOPE_BASE = {"model_type": "llama4_text", "rope_theta": 10_000.0, "max_position_embeddings": 4_096, "head_dim": 64,
              "num_hidden_layers": 4}


@pytest.mark.parametrize("nope", [{"no_rope_layers": [0, 0, 0, 0]}, {"no_rope_layer_interval": 1}])
def test_a_model_whose_every_layer_is_nope_is_drawn_and_said_in_each_tab(nope):
    """Nothing turns: the layer strip and the temperature are drawn, every other tab says why it is empty."""
    config = {**_NOPE_BASE, **nope}
    assert all(s.inv_freq is None for s in rope_layers.layer_plan(config).settings)  # the core: no RoPE setting
    for code in TAB_CODES:
        at = run(code, session={K.CONFIG: json.dumps(config)}, **{K.SOURCE: "config.json"})
        ok(at)
        if code == "vision":  # the vision encoders' 2-D RoPE does not depend on the text model chosen
            assert len(at.get("plotly_chart")) == 1 and not at.info
            continue
        if code == "layers":
            assert len(at.get("plotly_chart")) == 2 and fields(titles(at)[0], "mod.strip_title") == {"layers": "4"}
            shown = markdown(at)  # the temperature chart is explained (the default floor_scale 8192) ...
            assert fields(shown, "mod.temp_text") == {"attn_scale": "0.1", "floor_scale": "8,192"}
            assert not shows(shown, "mod.nope_text")  # ... without the sentence about RoPE layers it does not have
        else:
            assert not at.get("plotly_chart")
        assert [i.value for i in at.info] == [catalog()["mod.all_nope_temp"]["en"]], code


@pytest.mark.parametrize("floor_scale, last, ends", [(0.5, 64, (1.16094379124341, 1.487519732320115)),
                                                     (1e18, 10**15, (1.0, 1.0))])
def test_a_pasted_floor_scale_far_from_llama4s_still_draws_the_temperature(floor_scale, last, ends):
    """Llama 4's temperature 1 + 0.1 ln(1 + floor((m + 1) / floor_scale)), read off the chart at its two ends (worked
    out by hand): for 0.5, 1 + 0.1 ln 5 at m = 1 and 1 + 0.1 ln 131 at m = 64, the least reach; for 1e18, 1 up to
    1e15 positions, the most (past any context, inside int64)."""
    config = {**_NOPE_BASE, "no_rope_layers": [1, 0, 1, 0], "floor_scale": floor_scale, "attn_scale": 0.1}
    at = run("layers", session={K.CONFIG: json.dumps(config)}, **{K.SOURCE: "config.json"})
    ok(at)
    curve = json.loads(chart_json(at)[1])["data"][0]
    m, scale = values(curve["x"]).astype(float), values(curve["y"]).astype(float)
    assert m.max() == pytest.approx(last, rel=1e-6)  # positions are sent as float32
    assert [scale[0], scale[-1]] == pytest.approx(list(ends), rel=1e-6)  # values are sent as float32


def test_the_theory_says_which_setting_its_numbers_are_for():
    """Gemma 3 has two RoPE settings (sliding layers theta 10,000, global ones 1,000,000): the theory tab's numbers
    are the first's, and it says so; a model with one setting needs no such line."""
    at = run("theory", **{K.SOURCE: NAMES[0]})
    ok(at)
    assert setting_captions(at) == [text("mod.theory_setting", n=2, name="sliding_attention", theta="10,000")]
    assert fields(markdown(at), "mod.critical_reach")["theta"] == "10,000"
    assert not setting_captions(run("theory", **{K.SOURCE: NAMES[7]}))


def _theory_text(config: dict, lang: str = "en") -> str:
    at = run("theory", session={K.CONFIG: json.dumps(config)}, lang=lang, **{K.SOURCE: "config.json"})
    ok(at)
    return " ".join(m.value for m in at.markdown)


_PASTED = {"max_position_embeddings": 4_096, "head_dim": 128, "num_attention_heads": 32, "hidden_size": 4_096,
           "num_hidden_layers": 2}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_pasted_theta_barely_above_one_does_not_claim_interpolation_is_hundreds_of_times_safer(lang):
    """ln θ is tiny at θ = 1.0001, so d/(32 ln θ) is huge: PI's extrapolation bound is then a tenth of it, and the
    page says so instead of "at least 0 times more"."""
    ratio = rope_theory.training_theory(128, 1.0001, 4_096).ratio
    assert ratio < 1  # the core: the "extrapolation" bound is the tighter one here
    shown = _theory_text({**_PASTED, "rope_theta": 1.0001}, lang)
    assert fields(shown, "mod.pi_text_loose", lang)["ratio"] == f"{ratio:.2g}"
    assert not shows(shown, "mod.pi_text", lang)
    # and every pair turns within 4,096 positions at this theta: no "the other 0 never finish a turn"
    assert rope_theory.critical_dimension(128, 1.0001, 4_096) == 128
    assert fields(shown, "mod.critical_all", lang)["turning"] == "128" and not shows(shown, "mod.critical", lang)
    default = run("theory", lang=lang)
    assert catalog()["mod.pi_text"][lang].split("(")[0] in " ".join(m.value for m in default.markdown)


def test_a_ratio_under_ten_is_cut_not_rounded_up():
    """θ = 1.5: the extrapolation bound is at least 6.5... times the other; "at least 7" would be false."""
    ratio = rope_theory.training_theory(128, 1.5, 4_096).ratio
    assert ratio > 1 and ratio < 10
    shown = fields(_theory_text({**_PASTED, "rope_theta": 1.5}), "mod.pi_text")["ratio"]
    assert float(shown) <= ratio < float(shown) + 0.1


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_proportional_rope_counts_only_its_turning_pairs_as_turning(lang):
    """Proportional RoPE (Gemma 4's global layers) keeps θ^(−2i/d) over the whole 256-dim head but gives the pairs
    past partial_rotary_factor 0.25 frequency 0: 64 dims turn, all within 131,072 positions at θ = 1,000, and the
    other 192 never turn, so they neither "turn at least once" nor "meet new angles"."""
    config = {**_PASTED, "head_dim": 256, "max_position_embeddings": 131_072, "rope_parameters": {
        "rope_type": "proportional", "partial_rotary_factor": 0.25, "rope_theta": 1_000.0}}
    assert rope_theory.critical_dimension(256, 1_000.0, 131_072) == 256  # every pair, had they all a frequency
    shown = _theory_text(config, lang)
    assert fields(shown, "mod.critical_all", lang)["turning"] == "64" and not shows(shown, "mod.critical", lang)
    assert fields(shown, "mod.critical_still", lang) == {"still": "192", "still_pairs": "96", "pairs": "128"}
    # the core: 32 pairs with a frequency, the other 96 at 0 (the slowest, at the end of the pair order)
    (setting,) = rope_layers.layer_plan(config).settings
    assert int((setting.inv_freq > 0).sum()) == 32 and not setting.inv_freq[32:].any()


def test_m_rope_on_a_proportional_rope_draws_the_turning_pairs_only():
    """Proportional RoPE leaves half of these 8 pairs at frequency 0: they have no wavelength and follow no axis
    (8 axes against 4 wavelengths: the axes follow the turning pairs only)."""
    config = {"num_hidden_layers": 2, "head_dim": 16, "max_position_embeddings": 4_096, "rope_parameters": {
        "rope_type": "proportional", "partial_rotary_factor": 0.5, "rope_theta": 1e4, "mrope_section": [4, 2, 2]}}
    at = run("mrope", session={K.CONFIG: json.dumps(config)}, **{K.SOURCE: "config.json"})
    ok(at)
    bars = [values(trace["x"]).tolist() for trace in json.loads(chart_json(at)[0])["data"]]
    assert sum(bars, []) == [0, 1, 2, 3]  # the 4 pairs that turn; the section's first 4 are time's


@pytest.mark.parametrize("extra", [{"model_type": "smollm3"}, {"model_type": "llama4_text", "attn_scale": 0}])
def test_nope_layers_without_llama4s_temperature_draw_none(extra):
    """SmolLM3 has NoPE layers but no query temperature (Llama4TextConfig alone defaults it on), and a scale of 0
    multiplies by 1 everywhere: no temperature chart or text, and an all-NoPE model's order is the mask's alone."""
    some = {**_NOPE_BASE, **extra, "no_rope_layers": [1, 1, 1, 0]}
    assert rope_layers.layer_plan(some).nope_temperature is None
    at = run("layers", session={K.CONFIG: json.dumps(some)}, **{K.SOURCE: "config.json"})
    ok(at)
    assert len(at.get("plotly_chart")) == 1 and not shows(markdown(at), "mod.temp_text")
    every = {**_NOPE_BASE, **extra, "no_rope_layers": [0, 0, 0, 0]}
    at = run("layers", session={K.CONFIG: json.dumps(every)}, **{K.SOURCE: "config.json"})
    assert [i.value for i in at.info] == [catalog()["mod.all_nope"]["en"]]


def test_layer_types_that_share_one_rope_are_one_setting_in_the_theory():
    """GPT-OSS: sliding and full layers, one YaRN rope_scaling for both; the theory does not speak of "2 RoPE
    settings" and "its first" (Gemma 3, whose two layer types differ, does: checked above)."""
    config = {"num_hidden_layers": 4, "head_dim": 64, "max_position_embeddings": 131_072, "rope_theta": 150_000,
              "layer_types": ["sliding_attention", "full_attention"] * 2,
              "rope_scaling": {"rope_type": "yarn", "factor": 32, "beta_fast": 32, "beta_slow": 1,
                               "original_max_position_embeddings": 4_096}}
    plan = rope_layers.layer_plan(config)
    assert len(plan.settings) == 2 and plan.distinct_ropes() == 1
    np.testing.assert_array_equal(plan.settings[0].inv_freq, plan.settings[1].inv_freq)
    at = run("theory", session={K.CONFIG: json.dumps(config)}, **{K.SOURCE: "config.json"})
    ok(at)
    assert not setting_captions(at)


def test_conv_layers_are_drawn_as_layers_without_attention_and_the_theory_reads_the_attention_layers():
    """LFM2: 4 convolution layers and 2 attention layers; a convolution is not labelled "64/64 dims turn"."""
    config = {"num_hidden_layers": 6, "hidden_size": 2048, "num_attention_heads": 32, "max_position_embeddings": 128_000,
              "rope_theta": 1e6, "layer_types": ["conv", "conv", "full_attention"] * 2}
    at = run("layers", session={K.CONFIG: json.dumps(config)}, **{K.SOURCE: "config.json"})
    ok(at)
    names = [trace.get("name", "") for trace in json.loads(chart_json(at)[0])["data"]]
    assert text("mod.no_attention_label", name="conv", layers=text("mod.layer_count", n=4)) in names
    labels = [fields(name, "mod.setting_label") for name in names]
    assert [(s["name"], s["rope_type"]) for s in labels if s] == [("full_attention", "default")]
    theory = run("theory", session={K.CONFIG: json.dumps(config)}, **{K.SOURCE: "config.json"})
    ok(theory)
    assert not setting_captions(theory)
    critical = fields(markdown(theory), "mod.critical")  # 64 = 2048 / 32 heads, of the attention layers
    assert (critical["head_dim"], critical["theta"]) == ("64", "1,000,000")


def test_an_interleaved_m_rope_is_drawn_interleaved():
    """Qwen3-VL's mrope_interleaved: height on pairs 1, 4, 7, ..., width on 2, 5, 8, ... (not
    Qwen2.5-VL's three consecutive blocks)."""
    config = {"head_dim": 128, "max_position_embeddings": 4_096, "num_hidden_layers": 2, "rope_theta": 1e4,
              "rope_scaling": {"rope_type": "default", "mrope_section": [24, 20, 20], "mrope_interleaved": True}}
    at = run("mrope", session={K.CONFIG: json.dumps(config)}, **{K.SOURCE: "config.json"})
    ok(at)
    pairs = [values(trace["x"]).astype(int).tolist() for trace in json.loads(chart_json(at)[0])["data"]]
    time, height, width = pairs
    assert height[:3] == [1, 4, 7] and width[:3] == [2, 5, 8] and time[:4] == [0, 3, 6, 9]
    assert (len(time), len(height), len(width)) == (24, 20, 20)


def _proportional(factor: float) -> dict:
    return {**_PASTED, "head_dim": 64, "rope_parameters": {"rope_type": "proportional",
                                                         "partial_rotary_factor": factor, "rope_theta": 1e4}}


def test_a_proportional_rope_with_more_still_pairs_than_turning_ones_has_no_base_bound():
    """Gemma 4's global layers: 8 of 32 pairs turn. Each still pair adds cos 0 = 1 to Σ cos(m·ωᵢ) at every m, so
    the sum is at least 24 - 8 > 0 whatever the base: the scan over a head whose every pair turns (d = 64) does
    not apply."""
    config = _proportional(0.25)
    (setting,) = rope_layers.layer_plan(config).settings
    turning = int((setting.inv_freq > 0).sum())
    assert (turning, len(setting.inv_freq) - turning) == (8, 24)
    shown = _theory_text(config)
    assert fields(shown, "mod.base_bound_any") == {"still": "24", "pairs": "32", "turning": "8", "theta": "10,000"}
    assert not shows(shown, "mod.base_bound")


def test_a_proportional_rope_with_fewer_still_pairs_says_the_full_head_bound_is_an_upper_bound():
    """24 of 32 pairs turn, 8 stay still: the page scans the full head and says what that number is for it."""
    bound = fields(_theory_text(_proportional(0.75)), "mod.base_bound")
    assert (bound["head_dim"], bound["which"]) == ("64", text("mod.d_whole_head"))
    at = run("theory", session={K.CONFIG: json.dumps(_proportional(0.75))}, **{K.SOURCE: "config.json"})
    assert [fields(c.value, "mod.base_bound_prop") for c in at.caption] == [{"pairs": "32", "turning": "24"}]


def test_a_setting_on_one_layer_says_1_layer():
    config = {"num_hidden_layers": 2, "head_dim": 64, "max_position_embeddings": 4_096, "rope_theta": 1e4,
              "layer_types": ["conv", "full_attention"]}
    at = run("layers", session={K.CONFIG: json.dumps(config)}, **{K.SOURCE: "config.json"})
    ok(at)
    names = [trace.get("name", "") for trace in json.loads(chart_json(at)[0])["data"]]
    one = f"({text('mod.layer_count_one')})"
    assert any(n.endswith(one) for n in names) and not any(text("mod.layer_count", n=1) in n for n in names)


def test_a_model_with_no_rope_layer_but_conv_layers_is_not_called_all_nope():
    config = {"num_hidden_layers": 3, "head_dim": 64, "max_position_embeddings": 4_096, "rope_theta": 1e4,
              "layer_types": ["conv"] * 3}
    at = run("layers", session={K.CONFIG: json.dumps(config)}, **{K.SOURCE: "config.json"})
    ok(at)
    assert [i.value for i in at.info] == [catalog()["mod.no_rope"]["en"]]


def _fill(key: str, lang: str = "en", **values) -> str:
    return catalog()[key][lang].format(**values)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_gemma3_theory_uses_the_sliding_window_not_max_position_embeddings(lang):
    """Gemma 3's sliding layers attend within 1,024 tokens: only 142 of 256 dims turn there (the core's
    critical dimension at that length), and 131,072 is never called a trained length."""
    at = run("theory", **{K.SOURCE: NAMES[0]}, lang=lang)
    ok(at)
    shown = markdown(at)
    critical = rope_theory.critical_dimension(256, 10_000, 1_024)
    assert critical == 142
    window = _fill("mod.len_sliding", lang, n="1,024")
    assert _fill("mod.critical_reach", lang, head_dim=256, theta="10,000", length=window, critical=critical,
                 turning=256, rest=256 - critical, train="1,024") in shown
    assert _fill("mod.len_trained", lang, n="131,072") not in shown


def test_llama4_scout_theory_uses_its_chunks():
    at = run("theory", **{K.SOURCE: NAMES[2]})
    ok(at)
    shown = markdown(at)
    assert _fill("mod.len_chunked", n="8,192") in shown
    assert not shows(shown, "mod.critical")  # a chunked layer never meets an offset past its chunk


def test_the_strip_shows_each_layers_reach():
    at = run(**{K.SOURCE: NAMES[0]})  # Gemma 3: 40 sliding 1,024 layers and 8 whole-context ones
    ok(at)
    strip = json.loads(chart_json(at)[0])
    names = [trace["name"] for trace in strip["data"]]
    assert _fill("mod.reach_sliding", span="1,024") in names and _fill("mod.reach_full") in names
    at = run(**{K.SOURCE: NAMES[2]})  # Llama 4 Scout: its RoPE layers are chunked
    strip = json.loads(chart_json(at)[0])
    assert _fill("mod.reach_chunked", span="8,192") in [trace["name"] for trace in strip["data"]]


def test_an_unreadable_family_gets_a_translated_message():
    config = {**published_config(NAMES[7]), "model_type": "jetmoe"}
    at = run(**{K.SOURCE: "config.json"}, session={K.CONFIG: json.dumps(config)}, lang="zh")
    ok(at, errors_allowed=True)
    assert at.error and "jetmoe" in at.error[0].value and is_chinese(at.error[0].value)


def test_vision_tab_draws_the_cores_patch_similarity_from_the_url():
    from embedviz.rope.vision import DEFAULTS, patch_similarity
    at = run("vision", **{K.VISION_LAYOUT: catalog()["mod.vision_pixtral"]["en"], K.VISION_GRID: "8",
                          K.VISION_ROW: "2", K.VISION_COL: "7"})
    ok(at)
    spec = next(json.loads(s) for s in chart_json(at) if json.loads(s)["data"][0]["type"] == "heatmap")
    head_dim, theta = DEFAULTS["pixtral"]
    expected = patch_similarity(8, 2, 7, head_dim=head_dim, theta=theta, layout="pixtral")
    np.testing.assert_allclose(np.array(values(spec["data"][0]["z"]), dtype=float).reshape(8, 8), expected, atol=1e-6)
    assert catalog()["mod.vision_title"]["en"].format(row=2, col=7, grid=8) == spec["layout"]["title"]["text"]


def test_vision_sliders_at_their_last_value_pick_the_grids_last_patch():
    """The row and column sliders count from 0 like the core; at their last value, on the smallest grid and the
    largest, the map is drawn for the grid's last patch and nothing is refused."""
    from embedviz.app.modern_rope_view import VISION_GRIDS
    at = run("vision")
    for grid in (VISION_GRIDS[0], VISION_GRIDS[-1]):
        at.select_slider(key=K.VISION_GRID).set_value(grid)
        for key in (K.VISION_ROW, K.VISION_COL):
            at.slider(key=key).set_value(int(at.slider(key=key).max))
        at.run()
        ok(at)
        assert text("mod.vision_title", row=grid - 1, col=grid - 1, grid=grid) in titles(at), grid


def test_gpt_oss_sinks_and_cohere2_nope_layers_show_in_the_strip():
    transformers = require_oracle("transformers")  # the configs as transformers 5.24 writes them
    gpt_oss = transformers.GptOssConfig(num_hidden_layers=4).to_dict()
    at = run(**{K.SOURCE: "config.json"}, session={K.CONFIG: json.dumps(gpt_oss)})
    ok(at)
    names = [trace["name"] for trace in json.loads(chart_json(at)[0])["data"]]
    assert _fill("mod.reach_sliding", span="128") + _fill("mod.reach_sinks") in names
    assert _fill("mod.reach_full") + _fill("mod.reach_sinks") in names
    cohere2 = transformers.Cohere2Config(num_hidden_layers=8).to_dict()
    at = run(**{K.SOURCE: "config.json"}, session={K.CONFIG: json.dumps(cohere2)})
    ok(at)
    strip = json.loads(chart_json(at)[0])["data"]
    nope = next(trace for trace in strip if trace["name"].startswith("nope"))
    assert values(nope["x"]).tolist() == [3, 7]  # its full-attention layers run no RoPE
