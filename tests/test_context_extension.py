"""Tests for embedviz.rope.context_extension: per-pair classification, the page's view and settings. Expectations
are worked by hand (small heads) or written as per-pair loops. The theta calculator: tests/test_theta_calculator.py."""
from __future__ import annotations

import math

import numpy as np
import pytest

from embedviz import model_facts
from embedviz.rope.context_extension import (
    METHOD_DEFAULTS,
    LLAMA2_7B_PI_16K,
    METHODS,
    PHI3_MINI_128K,
    Overshoot,
    beyond_factor,
    build_scaling,
    classify_pairs,
    context_length_for,
    extension_settings,
    extension_view,
)
from embedviz.models.params import PRESETS
from embedviz.rope.config import from_config
from embedviz.rope.layers import published_config
from embedviz.rope.scaling import ROPE_INIT_FUNCTIONS, compute
from tests.test_rope_scaling import GLM4_PARTIAL, LLAMA_31_8B, QWEN3_06B_YARN, default_inv_freq
from tests.input_errors import raises_input

def test_classify_pairs():
    before = np.array([1.0, 0.1, 0.01, 0.001])
    assert classify_pairs(before, before) == ["kept"] * 4
    assert classify_pairs(before, before / 4) == ["interpolated"] * 4
    assert classify_pairs(before, before / 4, factor=4.0) == ["interpolated"] * 4
    # the hand-derived YaRN case above: pair 0 kept, 1 and 2 on the ramp, 3 divided by the full factor
    yarn, _ = compute(8, 10_000, {"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 1000})
    assert classify_pairs(before, yarn) == ["kept", "blended", "blended", "interpolated"]
    llama3 = {"rope_type": "llama3", "factor": 8.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0,
              "original_max_position_embeddings": 100}
    assert classify_pairs(before, compute(8, 10_000, llama3)[0]) == ["kept", "blended", "interpolated", "interpolated"]
    # rtol decides what counts as unchanged
    assert classify_pairs([1.0, 1.0], [1.0 + 1e-8, 1.0 / (1 + 1e-3)], factor=2.0) == ["kept", "blended"]
    assert classify_pairs([1.0, 1.0], [1.0 + 1e-8, 1.0 / (1 + 1e-3)], rtol=1e-2, factor=2.0) == ["kept", "kept"]
    with pytest.raises(ValueError, match=r"inv_freq_before \(4,\) and inv_freq_after \(3,\) must be 1-D"):
        classify_pairs(before, before[:3])


def test_extension_settings_of_scaled_configs():
    llama = extension_settings(LLAMA_31_8B)
    fields = ("head_dim", "theta", "method", "factor", "original", "target", "scaled")
    assert {k: getattr(llama, k) for k in fields} == {
        "head_dim": 128, "theta": 500_000.0, "method": "llama3", "factor": 8.0, "original": 8192,
        "target": 131072, "scaled": True,
    }
    assert llama.params["low_freq_factor"] == 1.0 and llama.params["high_freq_factor"] == 4.0
    assert llama.short_factor is None and llama.partial_rotary_factor is None
    # Qwen3's card keeps max_position_embeddings 40,960 next to factor 4 over 32,768: the target is 4 x 32,768
    qwen = extension_settings(QWEN3_06B_YARN)
    assert (qwen.method, qwen.factor, qwen.original, qwen.target) == ("yarn", 4.0, 32768, 131072)
    assert qwen.params == {**METHOD_DEFAULTS["yarn"], **METHOD_DEFAULTS["llama3"], "attention_factor": 0.0}
    phi = extension_settings(PHI3_MINI_128K)
    assert (phi.head_dim, phi.method, phi.factor, phi.original, phi.target) == (
        96, "longrope", 32.0, 4096, 131072)
    assert phi.long_factor == tuple(PHI3_MINI_128K["rope_scaling"]["long_factor"])
    assert phi.short_factor == tuple(PHI3_MINI_128K["rope_scaling"]["short_factor"])
    # on another method a malformed list is ignored, as transformers ignores it (a bare 6 once crashed the page),
    # and well-formed ones are kept: the page then offers LongRoPE on that config too
    phi_yarn = {**PHI3_MINI_128K, "rope_scaling": {**PHI3_MINI_128K["rope_scaling"], "type": "yarn"}}
    for stray in (6, "x", [[1]], [1.0, 2.0], [-1.0] * 48):
        linear = extension_settings({**LLAMA_31_8B, "rope_scaling": {"rope_type": "linear", "factor": 8.0,
                                                                     "short_factor": stray}})
        assert linear.method == "linear" and linear.short_factor is None, stray
        odd = extension_settings({**phi_yarn, "rope_scaling": {**phi_yarn["rope_scaling"], "short_factor": stray}})
        assert odd.method == "yarn" and odd.short_factor is None and odd.long_factor == phi.long_factor
    kept = extension_settings(phi_yarn)
    assert kept.method == "yarn" and (kept.short_factor, kept.long_factor) == (
        phi.short_factor, phi.long_factor)
    gpt_oss = {"head_dim": 64, "max_position_embeddings": 131072, "rope_theta": 150000, "rope_scaling": {
        "rope_type": "yarn", "factor": 32.0, "beta_fast": 32.0, "beta_slow": 1.0, "truncate": False,
        "original_max_position_embeddings": 4096}}
    out = extension_settings(gpt_oss)
    assert out.params["truncate"] is False and out.target == 131072
    published = model_facts.config("deepseek-v3.json")  # YaRN x40, mscale 1.0 / 1.0, RoPE on 64 dims
    deepseek = {"head_dim": 64, **{k: published[k] for k in ("max_position_embeddings", "rope_theta", "rope_scaling")}}
    out = extension_settings(deepseek)
    assert (out.params["mscale"], out.params["mscale_all_dim"], out.target) == (1.0, 1.0, 163840)


def test_the_page_opens_on_linear_pi_over_llama2s_trained_length():
    """The default view: LLaMA-2-7B's own numbers (the preset), its 4,096 trained positions x 4 by linear PI."""
    p = PRESETS["LLaMA-2-7B"]
    s = extension_settings(LLAMA2_7B_PI_16K)
    fields = ("head_dim", "theta", "method", "factor", "original", "target", "scaled")
    assert {k: getattr(s, k) for k in fields} == {
        "head_dim": p.head_dim, "theta": p.rope_theta, "method": "linear", "factor": 4.0,
        "original": p.pretrained_length, "target": 4 * p.pretrained_length, "scaled": True}
    assert (s.original, s.target) == (4096, 16384)  # the Llama 2 paper's 4k; PI's 4x
    scaling = build_scaling("linear", factor=4.0, original_max_position_embeddings=4096)
    v = extension_view(128, 10_000.0, scaling, original=4096, target=16384)
    # PI divides every frequency by s, pair by pair
    np.testing.assert_allclose(v.inv_freq_after, [10_000 ** (-(2 * i) / 128) / 4 for i in range(64)], rtol=1e-12)
    assert v.kinds == ["interpolated"] * 64 and v.attention_factor == 1.0
    # the pairs that never closed a turn in 4,096 tokens (wavelength 2 pi 10000^(2i/128) > 4096): i = 46..63
    never = [i for i in range(64) if 2 * math.pi * 10_000 ** (2 * i / 128) > 4096]
    assert never == list(range(46, 64))
    assert np.flatnonzero(v.unseen_unscaled).tolist() == never and not v.unseen_scaled.any()
    assert v.overshoot_unscaled == pytest.approx(4.0) and v.overshoot_scaled == pytest.approx(1.0)


@pytest.mark.parametrize(("name", "expected"), [("LLaMA-2-7B", 18), ("Qwen3-0.6B", 24), ("Mistral-7B-v0.1", 14)])
def test_unseen_pairs_of_the_presets_against_a_loop(name, expected):
    """Without scaling, past its trained length a preset shows new angles to the pairs that never closed a turn
    in training: wavelength 2 pi theta^(2i/d) longer than the trained length (a plain loop over the pairs)."""
    p = PRESETS[name]
    d, theta, trained = p.head_dim, p.rope_theta, p.pretrained_length
    never = sum(1 for i in range(d // 2) if 2 * math.pi * theta ** (2 * i / d) > trained)
    scaling = build_scaling("linear", factor=4.0, original_max_position_embeddings=trained)
    v = extension_view(d, theta, scaling, original=trained, target=4 * trained)
    assert int(v.unseen_unscaled.sum()) == never == expected


def test_methods_run_simple_to_complex():
    """linear (one division) < dynamic (a new base) < yarn (a ramp and a temperature) < llama3 (YaRN's groups by
    wavelength) < longrope (a searched factor per pair)."""
    assert METHODS == ("linear", "dynamic", "yarn", "llama3", "longrope")


def test_extension_settings_of_unscaled_configs_suggest_yarn_to_128k():
    llama2 = {"hidden_size": 4096, "num_attention_heads": 32, "max_position_embeddings": 4096, "rope_theta": 10000}
    out = extension_settings(llama2)
    # the YaRN paper's LLaMA 2 128K model: s = 131072 / 4096 = 32
    assert (out.method, out.factor, out.original, out.target, out.scaled) == (
        "yarn", 32.0, 4096, 131072, False)
    long_native = {**llama2, "max_position_embeddings": 262144}
    assert extension_settings(long_native).target == 4 * 262144
    glm = extension_settings(GLM4_PARTIAL)
    assert glm.partial_rotary_factor == 0.5 and glm.factor == 4.0
    assert (glm.head_dim, glm.rotary_dim) == (128, 64)  # int(128 * 0.5) dimensions turn
    assert out.rotary_dim == out.head_dim == 128
    # per-layer rope_parameters: the full-attention layers are the ones a context extension is about
    gemma = {"head_dim": 256, "max_position_embeddings": 131072,  # Gemma 3's: local 10,000, global linear x8 of 1e6
             "rope_parameters": model_facts.config("gemma-3-12b-it.v5.json")["rope_parameters"]}
    out = extension_settings(gemma)
    assert (out.method, out.theta, out.factor) == ("linear", 1_000_000.0, 8.0)
    assert extension_settings(gemma, layer_type="sliding_attention").theta == 10_000.0


def test_build_scaling():
    params = {**METHOD_DEFAULTS["yarn"], "low_freq_factor": 2.0, "beta_fast": 16.0}
    assert build_scaling("yarn", factor=4.0, original_max_position_embeddings=1000, params=params) == {
        "rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 1000, "beta_fast": 16.0,
        "beta_slow": 1.0, "truncate": True,  # zeros ("not set") left out, llama3's key ignored
    }
    assert build_scaling("llama3", factor=8.0, original_max_position_embeddings=8192) == {
        "rope_type": "llama3", "factor": 8.0, "original_max_position_embeddings": 8192, "low_freq_factor": 1.0,
        "high_freq_factor": 4.0,
    }
    longrope = build_scaling("longrope", factor=2.0, original_max_position_embeddings=64, short_factor=(1.0, 2.0),
                             long_factor=(3.0, 4.0), params={"attention_factor": 1.5}, partial_rotary_factor=0.5)
    assert longrope["short_factor"] == [1.0, 2.0] and longrope["attention_factor"] == 1.5
    assert compute(8, 10_000, longrope, seq_len=65)[0] == pytest.approx([1 / 3, 0.01 / 4])
    with raises_input("missing", name="scaling", keys="'short_factor', 'long_factor'", about="rope_type 'longrope'"):
        compute(8, 10_000, build_scaling("longrope", factor=2.0, original_max_position_embeddings=64))
    with raises_input("one_of", name="method", value="ntk", allowed="'linear', 'dynamic', 'yarn', 'llama3', 'longrope'"):
        build_scaling("ntk", factor=2.0, original_max_position_embeddings=64)
    # proportional is a layout of the pairs (Gemma 4), not a way to stretch the context: no method of the page
    assert set(METHODS) == set(METHOD_DEFAULTS) == set(ROPE_INIT_FUNCTIONS) - {"default", "proportional"}


@pytest.mark.parametrize("config", [LLAMA_31_8B, QWEN3_06B_YARN, PHI3_MINI_128K, LLAMA2_7B_PI_16K],
                         ids=["llama-3.1-8b", "qwen3-0.6b-yarn", "phi-3-mini-128k", "llama-2-7b-pi-16k"])
@pytest.mark.parametrize("seq_len", [None, 200_000])
def test_page_path_equals_from_config(config, seq_len):
    """config -> extension_settings -> build_scaling gives the model's own frequencies (from_config's)."""
    s = extension_settings(config)
    scaling = build_scaling(s.method, factor=s.factor, original_max_position_embeddings=s.original,
                            params=s.params, short_factor=s.short_factor, long_factor=s.long_factor)
    out = from_config(config)
    ours = compute(s.head_dim, s.theta, scaling, seq_len=seq_len)
    ref = compute(out["head_dim"], out["theta"], out["scaling"], seq_len=seq_len)
    np.testing.assert_array_equal(ours[0], ref[0])
    assert ours[1] == ref[1]


def test_extension_view_hand_example():
    # d=8, theta 10_000, trained on 1000, linear x4: w = 1, .1, .01, .001; only pair 3 (0.16 turns) never closed
    # its circle in training. At 4000 tokens without scaling it reaches angle 4 > 1: unseen; with w/4 it reaches
    # exactly the trained angle 1; at 8000 even the interpolated pair goes 2x past it.
    scaling = {"rope_type": "linear", "factor": 4.0}
    view = extension_view(8, 10_000, scaling, original=1000, target=4000)
    w = np.array([1.0, 0.1, 0.01, 0.001])
    np.testing.assert_allclose(view.inv_freq_before, w, rtol=1e-12)
    np.testing.assert_allclose(view.inv_freq_after, w / 4, rtol=1e-12)
    np.testing.assert_allclose(view.wavelen_after, 2 * math.pi * 4 / w, rtol=1e-12)
    np.testing.assert_allclose(view.ratio, 0.25)
    assert view.kinds == ["interpolated"] * 4 and view.context_length == 4000 and view.base is None
    np.testing.assert_allclose(view.turns_trained, 1000 * w / (2 * math.pi))
    np.testing.assert_allclose(view.turns_scaled, view.turns_trained)  # 4000 * w / 4 == 1000 * w
    assert view.unseen_unscaled.tolist() == [False, False, False, True]
    assert view.unseen_scaled.tolist() == [False] * 4
    assert (view.overshoot_unscaled, view.overshoot_scaled) == (pytest.approx(4.0), 1.0)
    longer = extension_view(8, 10_000, scaling, original=1000, target=8000)
    assert longer.unseen_scaled.tolist() == [False, False, False, True]
    assert (longer.overshoot_unscaled, longer.overshoot_scaled) == (pytest.approx(8.0), pytest.approx(2.0))
    # every pair closed its circle in training: nothing can overshoot
    closed = extension_view(4, 10_000, scaling, original=100_000, target=10**6)
    assert (closed.overshoot_unscaled, closed.overshoot_scaled) == (1.0, 1.0) and not closed.unseen_unscaled.any()


def test_extension_view_against_loops_for_llama31():
    s = extension_settings(LLAMA_31_8B)
    scaling = build_scaling("llama3", factor=8.0, original_max_position_embeddings=8192, params=s.params)
    view = extension_view(128, 500_000, scaling, original=8192, target=131072)
    after, _ = compute(128, 500_000, scaling)
    for i in range(64):  # per pair, written out
        before_i = 500_000 ** (-(2 * i) / 128)
        assert view.inv_freq_before[i] == pytest.approx(before_i, rel=1e-12)
        assert view.turns_unscaled[i] == pytest.approx(131072 * before_i / (2 * math.pi), rel=1e-12)
        assert view.turns_scaled[i] == pytest.approx(131072 * after[i] / (2 * math.pi), rel=1e-12)
        never_closed = 8192 * before_i < 2 * math.pi
        assert view.unseen_scaled[i] == (never_closed and 131072 * after[i] > 8192 * before_i)
    # 131072 = 16 x 8192 but the factor is 8: the 29 interpolated pairs still reach 2x their trained angle
    assert view.kinds.count("interpolated") == 29 and int(view.unseen_scaled.sum()) == 29
    assert view.overshoot_unscaled == pytest.approx(16.0) and view.overshoot_scaled == pytest.approx(2.0)
    d = view.distances
    assert d[0] == 1 and d[-1] == 131072 and np.all(np.diff(d) > 0) and d.size <= 767
    np.testing.assert_array_equal(d[:255], np.arange(1, 256))  # every distance the curve wiggles at
    for j in (0, 10, len(d) // 2, len(d) - 1):
        assert view.decay_before[j] == pytest.approx(np.mean([math.cos(d[j] * w) for w in view.inv_freq_before]))
        assert view.decay_after[j] == pytest.approx(np.mean([math.cos(d[j] * w) for w in after]))


def test_extension_view_dynamic_and_longrope_use_the_current_context_length():
    dynamic = {"rope_type": "dynamic", "factor": 4.0, "original_max_position_embeddings": 4096}
    view = extension_view(64, 10_000, dynamic, original=4096, target=16384, context_length=8192)
    assert view.context_length == 8192 and view.base == pytest.approx(10_000 * (4 * 2 - 3) ** (64 / 62))
    np.testing.assert_allclose(view.inv_freq_after, default_inv_freq(64, view.base), rtol=1e-12)
    assert view.kinds[0] == "kept" and set(view.kinds[1:]) == {"blended"}
    phi = extension_settings(PHI3_MINI_128K)
    longrope = build_scaling("longrope", factor=32.0, original_max_position_embeddings=4096,
                             short_factor=phi.short_factor, long_factor=phi.long_factor)
    short = extension_view(96, 10_000, longrope, original=4096, target=131072, context_length=4096)
    long = extension_view(96, 10_000, longrope, original=4096, target=131072, context_length=131072)
    np.testing.assert_allclose(short.ratio, 1 / np.array(phi.short_factor), rtol=1e-12)
    np.testing.assert_allclose(long.ratio, 1 / np.array(phi.long_factor), rtol=1e-12)
    assert short.attention_factor == pytest.approx(math.sqrt(1 + math.log(32) / math.log(4096)))
    # partial rotary: before and after have the same number of pairs
    partial = extension_view(128, 10_000, {"rope_type": "linear", "factor": 2.0, "partial_rotary_factor": 0.5},
                             original=100, target=200)
    assert partial.inv_freq_before.shape == partial.inv_freq_after.shape == (32,)
    with raises_input("at_least", name="target", value=0, limit=1):
        extension_view(64, 10_000, dynamic, original=4096, target=0)


def test_context_length_for_and_beyond_factor():
    assert context_length_for("dynamic", 4096, 2.0) == 8192 and context_length_for("longrope", 4096, 0.5) == 2048
    assert context_length_for("yarn", 4096, 2.0) is None and context_length_for("dynamic", 1, 0.25) == 1
    # Llama 3.1: 8192 x 8 = 65,536 covered; a 131,072 target goes 2x past it; dynamic / longrope have no fixed stretch
    assert beyond_factor("llama3", 8192, 131072, 8.0) == Overshoot(covered=65536, times=2.0)
    assert beyond_factor("llama3", 8192, 65536, 8.0) is None
    assert beyond_factor("dynamic", 8192, 131072, 8.0) is None


def test_a_multimodal_config_reads_its_per_layer_rope_parameters_from_text_config():
    """Gemma 4's config wrapped as a multimodal one ({"text_config": ...}) reads as the bare one; before, the
    per-layer check looked at the top level and asked the reader for a layer_type= they cannot give."""
    gemma4 = published_config("Gemma 4 E2B (proportional global layers)")
    assert extension_settings({"text_config": gemma4}) == extension_settings(gemma4)
