"""Tests for embedviz.rope.scaling: the registry of rope_type -> inverse frequencies, equal to transformers.

Three kinds of checks:
- numbers derived by hand in this file (small head_dims where every frequency can be written down), and literal
  numbers taken once from transformers 5.24.0's own functions (inputs stated beside them), so the file means
  something without transformers;
- properties (linear == default / factor, llama3 keeps fast pairs and divides slow ones, ...);
- transformers itself (its ROPE_INIT_FUNCTIONS and config classes). Without transformers those tests skip on a
  user's machine and FAIL in CI or with EMBEDVIZ_REQUIRE_ORACLE=1 (tests/conftest.py: require_oracle).
"""
from __future__ import annotations

import copy
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from embedviz import model_facts
from embedviz.rope.context_extension import (
    LLAMA2_7B_PI_16K,  # the context page's first view: LLaMA-2-7B x 4 by linear PI
    PHI3_MINI_128K,  # microsoft/Phi-3-mini-128k-instruct as published: input data, kept in one place
    build_scaling,
    classify_pairs,
    extension_settings,
    extension_view,
)
from embedviz.models.params import PRESETS
from embedviz.rope.rotary import turns_within
from embedviz.rope.config import from_config
from embedviz.rope.scaling import (
    LATEX,
    ROPE_INIT_FUNCTIONS,
    RopeFrequencies,
    attention_factor_latex,
    compute,
    dynamic_base,
)
from tests.conftest import require_oracle
from tests.input_errors import raises_input

HEAD_DIMS = (64, 128, 96)
THETAS = (10_000.0, 500_000.0, 1_000_000.0)
RTOL = 1e-5  # transformers computes in float32, this module in float64


def default_inv_freq(dim: int, theta: float) -> np.ndarray:
    """Plain RoPE written out as a loop over pairs: w_i = theta^(-2i/d)."""
    return np.array([theta ** (-(2 * i) / dim) for i in range(dim // 2)])


# real-looking config.json dicts (the fields that matter for RoPE, values as published)

LLAMA_31_8B = model_facts.config("llama-3.1-8b.json")  # theta 500,000, llama3 x8 from 8,192 to 131,072

# Qwen3-0.6B with the YaRN block its model card recommends for 131072 tokens (its max_position_embeddings stays 40,960)
QWEN3_06B_YARN = {**model_facts.config("qwen3-0.6b.json"),
                  "rope_scaling": dict(PRESETS["Qwen3-0.6B (YaRN 128K)"].rope_scaling)}

GLM4_PARTIAL = {  # GLM-4-9B-0414 style: rotary embedding on half of each head
    "model_type": "glm4",
    "head_dim": 128,
    "hidden_size": 4096,
    "num_attention_heads": 32,
    "max_position_embeddings": 32768,
    "partial_rotary_factor": 0.5,
    "rope_theta": 10000.0,
}


# fixed numbers derived by hand


def test_default_hand_numbers():
    # d=8, theta=10_000: w_i = 10_000^(-i/4) = 1, 0.1, 0.01, 0.001 (the sinusoidal lesson's table)
    inv_freq, attention_factor = compute(8, 10_000, None)
    np.testing.assert_allclose(inv_freq, [1.0, 0.1, 0.01, 0.001], rtol=1e-12)
    assert inv_freq.dtype == np.float64
    assert attention_factor == 1.0
    np.testing.assert_allclose(compute(8, 10_000, {"rope_type": "default"})[0], [1.0, 0.1, 0.01, 0.001], rtol=1e-12)


def test_linear_hand_numbers():
    inv_freq, attention_factor = compute(8, 10_000, {"rope_type": "linear", "factor": 4.0})
    np.testing.assert_allclose(inv_freq, [0.25, 0.025, 0.0025, 0.00025], rtol=1e-12)
    assert attention_factor == 1.0


def test_dynamic_hand_numbers():
    scaling = {"rope_type": "dynamic", "factor": 2.0, "original_max_position_embeddings": 1000}
    # d=4, seq_len 2000: theta' = 10_000 * (2 * 2000/1000 - 1)^(4/2) = 10_000 * 9 = 90_000, w_1 = 90_000^(-1/2)
    inv_freq, attention_factor = compute(4, 10_000, scaling, seq_len=2000)
    np.testing.assert_allclose(inv_freq, [1.0, 1 / 300], rtol=1e-12)
    assert attention_factor == 1.0
    # at or below the trained length nothing moves
    for seq_len in (None, 1, 500, 1000):
        np.testing.assert_allclose(compute(4, 10_000, scaling, seq_len=seq_len)[0], [1.0, 0.01], rtol=1e-12)


def test_yarn_hand_numbers():
    # d=8, theta=10_000, factor 4, trained on 1000 positions.
    # correction dim for beta_fast=32: 8 ln(1000 / (64 pi)) / (2 ln 10_000) = 0.697 -> floor 0
    # correction dim for beta_slow=1:  8 ln(1000 / (2 pi)) / (2 ln 10_000)  = 2.202 -> ceil 3
    # ramp over pairs 0..3 = 0, 1/3, 2/3, 1; w = (w0 / 4) * ramp + w0 * (1 - ramp), w0 = 1, 0.1, 0.01, 0.001
    scaling = {"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 1000}
    inv_freq, attention_factor = compute(8, 10_000, scaling)
    np.testing.assert_allclose(inv_freq, [1.0, 0.075, 0.005, 0.00025], rtol=1e-12)
    # transformers 5.24.0, _compute_yarn_parameters on the same inputs: attention_factor 1.138629436111989
    assert attention_factor == pytest.approx(1.138629436111989, rel=1e-12)

def test_yarn_without_truncate_hand_numbers():
    # as above with truncate=False: the ramp runs from 0.697 to 2.202 unrounded. Expected values: transformers
    # 5.24.0's _compute_yarn_parameters with head_dim 8, rope_theta 10_000, factor 4, original 1000,
    # truncate False (float32, hence rtol 1e-6)
    scaling = {"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 1000, "truncate": False}
    np.testing.assert_allclose(compute(8, 10_000, scaling).inv_freq,
                               [1.0, 0.08488541096448898, 0.003505647648125887, 0.0002500000118743628], rtol=1e-6)


def test_llama3_hand_numbers():
    # d=8, theta=10_000, trained on 100 positions, factor 8, low 1, high 4:
    # wavelengths 2 pi * (1, 10, 100, 1000) = 6.3, 62.8, 628, 6283; keep below 100/4 = 25, divide above 100/1 = 100,
    # pair 1 (62.8) is blended. Expected values: transformers 5.24.0's _compute_llama3_parameters on these inputs
    # (float32, hence rtol 1e-6)
    scaling = {
        "rope_type": "llama3",
        "factor": 8.0,
        "low_freq_factor": 1.0,
        "high_freq_factor": 4.0,
        "original_max_position_embeddings": 100,
    }
    inv_freq, attention_factor = compute(8, 10_000, scaling)
    np.testing.assert_allclose(
        inv_freq, [1.0, 0.02975352481007576, 0.0012499999720603228, 0.0001250000059371814], rtol=1e-6
    )
    assert attention_factor == 1.0

def test_longrope_hand_numbers():
    scaling = {
        "rope_type": "longrope",
        "factor": 16.0,
        "short_factor": [1.0, 2.0],
        "long_factor": [3.0, 4.0],
        "original_max_position_embeddings": 1000,
    }
    expected_attention = math.sqrt(1 + math.log(16) / math.log(1000))  # 1.1838
    for seq_len in (None, 10, 1000):  # short factors up to and including the trained length
        inv_freq, attention_factor = compute(4, 10_000, scaling, seq_len=seq_len)
        np.testing.assert_allclose(inv_freq, [1.0, 0.01 / 2], rtol=1e-12)
        assert attention_factor == pytest.approx(expected_attention)
    inv_freq, _ = compute(4, 10_000, scaling, seq_len=1001)
    np.testing.assert_allclose(inv_freq, [1 / 3, 0.01 / 4], rtol=1e-12)
    assert compute(4, 10_000, {**scaling, "attention_factor": 0.5})[1] == 0.5


def test_partial_rotary_hand_numbers():
    # head_dim 8 at partial 0.5 rotates 4 dimensions: w = 10_000^(-0/4), 10_000^(-2/4)
    np.testing.assert_allclose(
        compute(8, 10_000, {"rope_type": "default", "partial_rotary_factor": 0.5})[0], [1.0, 0.01], rtol=1e-12
    )
    np.testing.assert_allclose(
        compute(8, 10_000, {"rope_type": "linear", "factor": 2.0, "partial_rotary_factor": 0.5})[0],
        [0.5, 0.005],
        rtol=1e-12,
    )
    # transformers truncates: int(80 * 0.4) = 32 rotary dims, as in Phi-2
    assert compute(80, 10_000, {"partial_rotary_factor": 0.4})[0].shape == (16,)


# properties


@pytest.mark.parametrize("head_dim", HEAD_DIMS)
@pytest.mark.parametrize("theta", THETAS)
def test_default_matches_loop_and_linear_is_default_over_factor(head_dim, theta):
    default, _ = compute(head_dim, theta, None)
    np.testing.assert_allclose(default, default_inv_freq(head_dim, theta), rtol=1e-12)
    for factor in (1.0, 2.0, 8.0, 32.0):
        linear, _ = compute(head_dim, theta, {"rope_type": "linear", "factor": factor})
        np.testing.assert_allclose(linear, default / factor, rtol=1e-12)


@pytest.mark.parametrize("head_dim", HEAD_DIMS)
@pytest.mark.parametrize("theta", THETAS)
def test_llama3_keeps_fast_pairs_and_divides_slow_ones(head_dim, theta):
    scaling = LLAMA_31_8B["rope_scaling"]  # factor 8, low / high freq factors 1 / 4, from 8,192
    default, _ = compute(head_dim, theta, None)
    inv_freq, _ = compute(head_dim, theta, scaling)
    wavelen = 2 * math.pi / default
    fast, slow = wavelen < 8192 / 4, wavelen > 8192 / 1
    assert fast.any() and slow.any()
    np.testing.assert_array_equal(inv_freq[fast], default[fast])
    np.testing.assert_allclose(inv_freq[slow], default[slow] / 8, rtol=1e-12)
    middle = ~fast & ~slow
    assert np.all(inv_freq[middle] <= default[middle]) and np.all(inv_freq[middle] >= default[middle] / 8)


def test_llama31_pair_counts_by_hand():
    # head_dim 128, theta 500_000: pair i has wavelength 2 pi * 500_000^(i/64).
    # kept while < 8192/4 = 2048:  i < 64 ln(2048 / 2 pi) / ln 500_000 = 28.2  -> pairs 0..28  (29)
    # divided once > 8192/1:        i > 64 ln(8192 / 2 pi) / ln 500_000 = 34.98 -> pairs 35..63 (29)
    assert 64 * math.log(2048 / (2 * math.pi)) / math.log(500_000) == pytest.approx(28.22, abs=0.01)
    assert 64 * math.log(8192 / (2 * math.pi)) / math.log(500_000) == pytest.approx(34.98, abs=0.01)
    out = from_config(LLAMA_31_8B)
    before, _ = compute(out["head_dim"], out["theta"], None)
    after, _ = compute(out["head_dim"], out["theta"], out["scaling"])
    kinds = classify_pairs(before, after)
    assert kinds == ["kept"] * 29 + ["blended"] * 6 + ["interpolated"] * 29


def test_qwen3_yarn_pair_counts_by_hand():
    # head_dim 128, theta 1e6, trained on 32,768, YaRN x4 (beta_fast 32, beta_slow 1). The ramp's ends are the
    # pairs that turn beta times in training, d ln(L / (beta 2 pi)) / (2 ln theta), floored and ceiled:
    # 23.60 -> 23 and 39.65 -> 40; pairs 0..23 kept (24), 24..39 blended (16), 40..63 interpolated (24)
    d, theta, trained = 128, 1e6, 32_768
    low = math.floor(d * math.log(trained / (32 * 2 * math.pi)) / (2 * math.log(theta)))
    high = math.ceil(d * math.log(trained / (1 * 2 * math.pi)) / (2 * math.log(theta)))
    kept, blended = low + 1, high - low - 1
    assert (kept, blended, d // 2 - kept - blended) == (24, 16, 24)
    out = from_config(QWEN3_06B_YARN)
    before, _ = compute(out["head_dim"], out["theta"], None)
    after, _ = compute(out["head_dim"], out["theta"], out["scaling"])
    assert classify_pairs(before, after) == ["kept"] * kept + ["blended"] * blended + ["interpolated"] * 24


# transformers 5.24.0, _compute_yarn_parameters, head_dim 128, theta 10_000, original 4096, no mscale: the
# attention factor for each factor (1.0 at factor 1: no stretch, no temperature)
YARN_ATTENTION = {1.0: 1.0, 2.0: 1.0693147180559945, 4.0: 1.138629436111989, 16.0: 1.2772588722239782,
                  40.0: 1.3688879454113936}


@pytest.mark.parametrize("factor", sorted(YARN_ATTENTION))
def test_yarn_default_attention_factor(factor):
    scaling = {"rope_type": "yarn", "factor": factor, "original_max_position_embeddings": 4096}
    assert compute(128, 10_000, scaling).attention_factor == pytest.approx(YARN_ATTENTION[factor], rel=1e-12)
    # DeepSeek style: mscale / mscale_all_dim ratio; equal values cancel to 1
    deepseek = {**scaling, "mscale": 0.707, "mscale_all_dim": 0.707}
    assert compute(128, 10_000, deepseek)[1] == pytest.approx(1.0)
    assert compute(128, 10_000, {**scaling, "attention_factor": 1.25})[1] == 1.25


@pytest.mark.parametrize("head_dim", HEAD_DIMS)
@pytest.mark.parametrize("theta", THETAS)
def test_yarn_fast_pairs_kept_slow_pairs_interpolated(head_dim, theta):
    scaling = {"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 4096}
    default, _ = compute(head_dim, theta, None)
    inv_freq, _ = compute(head_dim, theta, scaling)
    turns = turns_within(default, 4096)
    assert (turns > 32 * 1.5).any() and (turns < 0.5).any()
    # a pair turning more than beta_fast = 32 times in the trained length is kept (it never sees a new angle)
    np.testing.assert_array_equal(inv_freq[turns > 32 * 1.5], default[turns > 32 * 1.5])
    # a pair turning less than beta_slow = 1 time is interpolated
    np.testing.assert_allclose(inv_freq[turns < 0.5], default[turns < 0.5] / 4, rtol=1e-12)
    assert np.all(np.diff(default / inv_freq) >= -1e-12)  # the stretch grows monotonically from fast to slow pairs


@pytest.mark.parametrize("head_dim", HEAD_DIMS)
def test_dynamic_stretches_the_slowest_pair_by_the_ntk_ratio(head_dim):
    # the exponent d/(d-2) is chosen so that the slowest pair slows by exactly factor * L / L_train - (factor - 1)
    scaling = {"rope_type": "dynamic", "factor": 4.0, "original_max_position_embeddings": 4096}
    default, _ = compute(head_dim, 10_000, None)
    for seq_len in (8192, 16384, 100_000):
        inv_freq, _ = compute(head_dim, 10_000, scaling, seq_len=seq_len)
        assert inv_freq[0] == 1.0
        assert default[-1] / inv_freq[-1] == pytest.approx(4.0 * seq_len / 4096 - 3.0, rel=1e-9)
    np.testing.assert_array_equal(compute(head_dim, 10_000, scaling, seq_len=4095)[0], default)


@settings(max_examples=60, deadline=None)
@given(
    head_dim=st.integers(2, 128).map(lambda n: 2 * n),
    theta=st.floats(2.0, 1e7),
    factor=st.floats(1.0, 64.0),
    original=st.integers(16, 100_000),
    seq_len=st.integers(1, 1_000_000),
)
def test_every_stretch_lies_between_kept_and_fully_interpolated(head_dim, theta, factor, original, seq_len):
    """linear, yarn and llama3 slow each pair by a ratio in [1, factor], never speeding one up."""
    default, _ = compute(head_dim, theta, None)
    for scaling in (
        {"rope_type": "linear", "factor": factor},
        {"rope_type": "yarn", "factor": factor, "original_max_position_embeddings": original},
        {"rope_type": "llama3", "factor": factor, "low_freq_factor": 1.0, "high_freq_factor": 4.0,
         "original_max_position_embeddings": original},
    ):
        inv_freq, attention_factor = compute(head_dim, theta, scaling, seq_len=seq_len)
        ratio = default / inv_freq
        assert np.all(ratio >= 1 - 1e-12) and np.all(ratio <= factor * (1 + 1e-12)), scaling["rope_type"]
        assert attention_factor >= 1.0
    # dynamic: the first pair never moves, the others slow by at most the slowest pair's NTK ratio
    dynamic = {"rope_type": "dynamic", "factor": factor, "original_max_position_embeddings": original}
    ratio = default / compute(head_dim, theta, dynamic, seq_len=seq_len)[0]
    ntk = max(1.0, factor * seq_len / original - (factor - 1))
    assert ratio[0] == 1.0 and np.all(ratio >= 1 - 1e-12) and np.all(ratio <= ntk * (1 + 1e-9))


def test_old_type_key_and_su_alias():
    longrope = {
        "rope_type": "longrope",
        "factor": 32.0,
        "short_factor": [1.0, 1.5],
        "long_factor": [2.0, 8.0],
        "original_max_position_embeddings": 4096,
    }
    expected = compute(4, 10_000, longrope, seq_len=5000)
    for old in ({"type": "longrope"}, {"type": "su"}, {"rope_type": "su"}):
        scaling = {key: value for key, value in longrope.items() if key != "rope_type"} | old
        got = compute(4, 10_000, scaling, seq_len=5000)
        np.testing.assert_array_equal(got[0], expected[0])
        assert got[1] == expected[1]
    np.testing.assert_array_equal(compute(8, 500, {"type": "linear", "factor": 2})[0], compute(8, 500, None)[0] / 2)


def test_registry_has_one_signature():
    assert list(ROPE_INIT_FUNCTIONS) == ["default", "linear", "dynamic", "yarn", "longrope", "llama3", "proportional"]
    scaling = {"factor": 2.0, "original_max_position_embeddings": 64, "low_freq_factor": 1.0, "high_freq_factor": 4.0,
               "short_factor": [1.0] * 4, "long_factor": [2.0] * 4}
    for rope_type, fn in ROPE_INIT_FUNCTIONS.items():
        inv_freq, attention_factor = fn(8, 10_000.0, {**scaling, "rope_type": rope_type}, seq_len=None)
        assert inv_freq.shape == (4,) and attention_factor > 0


def test_compute_returns_a_named_result():
    out = compute(8, 10_000, {"rope_type": "linear", "factor": 2.0})
    assert isinstance(out, RopeFrequencies)
    np.testing.assert_allclose(out.inv_freq, [0.5, 0.05, 0.005, 0.0005], rtol=1e-12)
    assert out.attention_factor == 1.0


def test_every_method_has_its_latex():
    assert list(LATEX) == list(ROPE_INIT_FUNCTIONS)  # keyed like the registry, one formula per method
    assert all(r"\omega" in formula for formula in LATEX.values())


def test_attention_factor_latex_names_the_rule_that_applies():
    assert attention_factor_latex("linear", factor=4.0, original=4096, params={}, value=1.0) is None
    assert attention_factor_latex("llama3", factor=8.0, original=8192, params={}, value=1.0) is None
    yarn = attention_factor_latex("yarn", factor=4.0, original=32768, params={}, value=1.138629436111989)
    assert yarn.endswith(r"0.1\ln 4 + 1 = 1.1386")
    deepseek = attention_factor_latex("yarn", factor=40.0, original=4096, params={"mscale": 1.0,
                                      "mscale_all_dim": 0.707}, value=1.2)
    assert r"m_{all}" in deepseek and r"0.707 \ln 40" in deepseek
    longrope = attention_factor_latex("longrope", factor=32.0, original=4096, params={}, value=1.1902)
    assert r"\ln 4096" in longrope and longrope.endswith("1.1902")
    assert "given" in attention_factor_latex("yarn", factor=4.0, original=64, params={"attention_factor": 2.0},
                                             value=2.0)
    assert attention_factor_latex("yarn", factor=1.0, original=64, params={}, value=1.0).endswith(r"(s \le 1)")


def test_scaling_dict_is_not_modified():
    scaling = {"type": "yarn", "factor": 4.0, "original_max_position_embeddings": 1000}
    copy = dict(scaling)
    compute(8, 10_000, scaling)
    assert scaling == copy


# validation messages


@pytest.mark.parametrize(
    ("head_dim", "theta", "scaling", "seq_len", "code", "params"),
    [
        (7, 10_000, None, None, "even", {"name": "head_dim", "value": 7, "about": "RoPE"}),
        (0, 10_000, None, None, "at_least", {"name": "head_dim", "value": 0, "limit": 2}),
        (64.0, 10_000, None, None, "integer", {"name": "head_dim", "value": 64.0, "kind": "float"}),
        (64, 1.0, None, None, "above", {"name": "theta", "value": 1.0, "limit": 1.0}),
        (64, float("inf"), None, None, "finite", {"name": "theta"}),
        (64, 10_000, None, 0, "at_least", {"name": "seq_len", "value": 0, "limit": 1}),
        (64, 10_000, "linear", None, None, r"scaling must be a dict"),
        (64, 10_000, {"rope_type": "ntk"}, None,
         "rope_type_unknown",
         {"value": "ntk", "known": "'default', 'linear', 'dynamic', 'yarn', 'longrope', 'llama3', 'proportional'"}),
        (64, 10_000, {"rope_type": None}, None, "rope_type_unknown", {"value": None}),
        (64, 10_000, {"rope_type": "linear"}, None,
         "missing", {"name": "scaling", "keys": "'factor'", "about": "rope_type 'linear'"}),
        (64, 10_000, {"rope_type": "linear", "factor": 0.5}, None,
         "at_least", {"name": "factor", "value": 0.5, "limit": 1, "about": "rope_type 'linear'"}),
        (64, 10_000, {"rope_type": "linear", "factor": "4"}, None,
         "number", {"name": "factor", "value": "4", "about": "rope_type 'linear'"}),
        (64, 10_000, {"rope_type": "yarn", "factor": 4.0}, None,
         "missing", {"about": "rope_type 'yarn'"}),
        (64, 10_000, {"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 4096,
                      "beta_fast": 1, "beta_slow": 32}, None,
         "beta_order", {"fast": 1.0, "slow": 32.0}),
        (64, 10_000, {"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 4096,
                      "beta_fast": -2}, None, "above", {"name": "beta_fast", "value": -2.0, "limit": 0, "about": "rope_type 'yarn'"}),
        (64, 10_000, {"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 4096,
                      "attention_factor": -1.0}, None, "above", {"name": "attention_factor", "value": -1.0, "about": "rope_type 'yarn'"}),
        (64, 10_000, {"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 4096.5}, None,
         "integer", {"name": "original_max_position_embeddings", "value": 4096.5}),
        (64, 10_000, {"rope_type": "llama3", "factor": 8.0, "original_max_position_embeddings": 8192}, None,
         "missing", {"keys": "'low_freq_factor', 'high_freq_factor'"}),
        (64, 10_000, {"rope_type": "llama3", "factor": 8.0, "original_max_position_embeddings": 8192,
                      "low_freq_factor": 4.0, "high_freq_factor": 1.0}, None,
         "llama3_order", {"high": 1.0, "low": 4.0}),
        (64, 10_000, {"rope_type": "llama3", "factor": 8.0, "original_max_position_embeddings": 8192,
                      "low_freq_factor": 2.0, "high_freq_factor": 2.0}, None,
         "llama3_order", {"high": 2.0, "low": 2.0}),
        (8, 10_000, {"rope_type": "longrope", "factor": 2.0, "original_max_position_embeddings": 64,
                     "short_factor": [1.0, 1.0, 1.0], "long_factor": [1.0] * 4}, None,
         "pair_factors_count", {"key": "short_factor", "n": 3, "dim": 8, "half": 4}),
        (8, 10_000, {"rope_type": "longrope", "factor": 2.0, "original_max_position_embeddings": 64,
                     "short_factor": [1.0] * 4, "long_factor": [1.0] * 5}, None,
         "pair_factors_count", {"key": "long_factor", "n": 5}),
        (8, 10_000, {"rope_type": "longrope", "factor": 2.0, "original_max_position_embeddings": 64,
                     "short_factor": [1.0] * 4, "long_factor": [1.0, 0.0, 1.0, 1.0]}, None,
         "positive_entries", {"name": "long_factor", "min": 0.0}),
        (8, 10_000, {"rope_type": "longrope", "original_max_position_embeddings": 64,
                     "short_factor": [1.0] * 4, "long_factor": [1.0] * 4}, None,
         "missing", {"about": "rope_type 'longrope'"}),
        (8, 10_000, {"rope_type": "dynamic", "factor": 2.0}, None,
         "missing", {"about": "rope_type 'dynamic'"}),
        (8, 10_000, {"partial_rotary_factor": 1.5}, None,
         "interval", {"name": "partial_rotary_factor", "value": 1.5, "low": 0.0, "high": 1.0}),
        (8, 10_000, {"partial_rotary_factor": 0.0}, None,
         "interval", {"name": "partial_rotary_factor", "value": 0.0, "low": 0.0, "high": 1.0}),
        (10, 10_000, {"partial_rotary_factor": 0.5}, None,
         "rotary_dim", {"head_dim": 10, "factor": 0.5, "dim": 5}),
        (8, 10_000, {"rope_type": "linear", "factor": 2.0, "rope_theta": 500_000}, None,
         None, r"scaling\['rope_theta'\] \(500000\) disagrees with theta \(10000\)"),
    ],
)
def test_compute_errors(head_dim, theta, scaling, seq_len, code, params):
    if code is None:  # a caller's mistake, not a reader's: plain English (params holds the message's pattern)
        with pytest.raises(ValueError, match=params):
            compute(head_dim, theta, scaling, seq_len=seq_len)
        return
    with raises_input(code, **params):
        compute(head_dim, theta, scaling, seq_len=seq_len)

def test_dynamic_base():
    scaling = {"rope_type": "dynamic", "factor": 2.0, "original_max_position_embeddings": 1000}
    assert dynamic_base(4, 10_000, scaling, seq_len=2000) == pytest.approx(90_000)  # the hand case above
    for seq_len in (None, 10, 1000):
        assert dynamic_base(4, 10_000, scaling, seq_len=seq_len) == 10_000
    # compute() at seq_len is plain RoPE with that base, partial rotary included (d = 64 of 128)
    partial = {**scaling, "partial_rotary_factor": 0.5}
    base = dynamic_base(128, 500_000, partial, seq_len=7000)
    assert base == pytest.approx(500_000 * (2 * 7 - 1) ** (64 / 62))
    np.testing.assert_allclose(compute(128, 500_000, partial, seq_len=7000)[0], default_inv_freq(64, base),
                               rtol=1e-12)
    with pytest.raises(ValueError, match=r"dynamic_base needs a scaling dict with rope_type 'dynamic'"):
        dynamic_base(64, 10_000, {"rope_type": "linear", "factor": 2.0}, seq_len=10)
    with raises_input("missing", keys="'factor'", about="rope_type 'dynamic'"):
        dynamic_base(64, 10_000, {"rope_type": "dynamic", "original_max_position_embeddings": 10}, seq_len=10)



# against transformers itself


@pytest.fixture(scope="module")
def hf():
    """transformers' rope utilities, and a small config object that runs its own standardisation."""
    rope_utils = require_oracle("transformers.modeling_rope_utils")

    class SmallConfig(rope_utils.RotaryEmbeddingConfigMixin):
        def __init__(self, head_dim, max_position_embeddings, rope_parameters):
            self.head_dim = head_dim
            self.hidden_size = head_dim * 4
            self.num_attention_heads = 4
            self.max_position_embeddings = max_position_embeddings
            self.rope_parameters = rope_parameters

    def reference(head_dim, theta, scaling, *, max_position_embeddings=4096, seq_len=None):
        params = {**scaling, "rope_theta": theta}
        rope_type = params.get("rope_type", params.get("type", "default"))
        if rope_type == "default":
            # transformers keeps "default" in each model class (compute_default_rope_parameters); its formula is
            # the linear one with factor 1 (same int(head_dim * partial_rotary_factor), same arange / dim)
            params = {**params, "rope_type": "linear", "factor": 1.0}
            params.pop("type", None)
            rope_type = "linear"
        config = SmallConfig(head_dim, max_position_embeddings, params)
        kwargs = {} if seq_len is None else {"seq_len": seq_len}
        inv_freq, attention_factor = rope_utils.ROPE_INIT_FUNCTIONS[rope_type](config, **kwargs)
        return inv_freq.double().numpy(), float(attention_factor)

    return reference


def _cases(head_dim):
    pairs = head_dim // 2
    return [
        ("default", {"rope_type": "default"}, None),
        ("linear", {"rope_type": "linear", "factor": 4.0}, None),
        ("yarn", {"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 1024}, None),
        ("yarn-gpt-oss", {"rope_type": "yarn", "factor": 32.0, "original_max_position_embeddings": 4096,
                          "beta_fast": 32.0, "beta_slow": 1.0, "truncate": False}, None),
        ("yarn-betas", {"rope_type": "yarn", "factor": 16.0, "original_max_position_embeddings": 2048,
                        "beta_fast": 8, "beta_slow": 2}, None),
        ("yarn-deepseek", {"rope_type": "yarn", "factor": 40.0, "original_max_position_embeddings": 4096,
                           "mscale": 1.0, "mscale_all_dim": 0.707}, None),
        ("llama3", {"rope_type": "llama3", "factor": 8.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0,
                    "original_max_position_embeddings": 1024}, None),
        ("longrope-short", {"rope_type": "longrope", "factor": 8.0, "original_max_position_embeddings": 512,
                            "short_factor": list(np.linspace(1.0, 2.0, pairs)),
                            "long_factor": list(np.geomspace(1.0, 40.0, pairs))}, 512),
        ("longrope-long", {"rope_type": "longrope", "factor": 8.0, "original_max_position_embeddings": 512,
                           "short_factor": list(np.linspace(1.0, 2.0, pairs)),
                           "long_factor": list(np.geomspace(1.0, 40.0, pairs))}, 513),
        ("old-type-key", {"type": "linear", "factor": 2.0}, None),
        ("partial-default", {"rope_type": "default", "partial_rotary_factor": 0.5}, None),
        ("partial-linear", {"rope_type": "linear", "factor": 2.0, "partial_rotary_factor": 0.25}, None),
        ("partial-yarn", {"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 1024,
                          "partial_rotary_factor": 0.5}, None),
        ("partial-llama3", {"rope_type": "llama3", "factor": 8.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0,
                            "original_max_position_embeddings": 1024, "partial_rotary_factor": 0.5}, None),
        # proportional (Gemma 4 global layers): head_dim/2 entries, the unrotated pairs at frequency 0
        ("proportional-quarter", {"rope_type": "proportional", "partial_rotary_factor": 0.25}, None),
        ("proportional-whole", {"rope_type": "proportional"}, None),
        ("proportional-odd", {"rope_type": "proportional", "partial_rotary_factor": 0.3, "factor": 8.0}, None),
    ]


@pytest.mark.parametrize("head_dim", HEAD_DIMS)
@pytest.mark.parametrize("theta", THETAS)
def test_matches_transformers(hf, head_dim, theta):
    for name, scaling, seq_len in _cases(head_dim):
        ours, ours_attention = compute(head_dim, theta, scaling, seq_len=seq_len)
        ref, ref_attention = hf(head_dim, theta, scaling, seq_len=seq_len)
        assert ours.shape == ref.shape, name
        np.testing.assert_allclose(ours, ref, rtol=RTOL, err_msg=name)
        assert ours_attention == pytest.approx(ref_attention, rel=RTOL), name


@pytest.mark.parametrize("head_dim", HEAD_DIMS)
@pytest.mark.parametrize("theta", THETAS)
@pytest.mark.parametrize("seq_len", [None, 100, 4096, 4097, 10_000, 131_072])
@pytest.mark.parametrize("partial_rotary_factor", [1.0, 0.5])
def test_dynamic_matches_transformers_below_and_above_trained_length(
    hf, head_dim, theta, seq_len, partial_rotary_factor
):
    # transformers' trained length for dynamic NTK is max_position_embeddings (4096 here)
    scaling = {"rope_type": "dynamic", "factor": 4.0, "partial_rotary_factor": partial_rotary_factor}
    ours, ours_attention = compute(
        head_dim, theta, {**scaling, "original_max_position_embeddings": 4096}, seq_len=seq_len
    )
    ref, ref_attention = hf(head_dim, theta, scaling, max_position_embeddings=4096, seq_len=seq_len)
    np.testing.assert_allclose(ours, ref, rtol=RTOL)
    assert ours_attention == ref_attention == 1.0
    if seq_len is None or seq_len <= 4096:
        np.testing.assert_allclose(ours, compute(head_dim, theta, {"partial_rotary_factor": partial_rotary_factor})[0])


@pytest.fixture(scope="module")
def hf_config_classes():
    transformers = require_oracle("transformers")
    from transformers.modeling_rope_utils import ROPE_INIT_FUNCTIONS as HF_ROPE_INIT_FUNCTIONS

    transformers.logging.set_verbosity_error()  # the Qwen3 card's factor 4 on 40960 positions draws a warning
    return {
        "llama": transformers.LlamaConfig,
        "qwen3": transformers.Qwen3Config,
        "phi3": transformers.Phi3Config,
        "glm4": transformers.Glm4Config,
        "functions": HF_ROPE_INIT_FUNCTIONS,
    }


def _fields(config: dict) -> dict:
    """A deep copy of the config's fields for a transformers config class (it writes rope_theta into the
    rope_scaling dict it is given; the shared test configs must stay as published)."""
    return copy.deepcopy({k: v for k, v in config.items() if k != "model_type"})


@pytest.mark.parametrize("config", [LLAMA_31_8B, QWEN3_06B_YARN, PHI3_MINI_128K, GLM4_PARTIAL, LLAMA2_7B_PI_16K],
                         ids=["llama-3.1-8b", "qwen3-0.6b-yarn", "phi-3-mini-128k", "glm4-partial",
                              "llama-2-7b-pi-16k"])
@pytest.mark.parametrize("seq_len", [None, 200_000])
def test_from_config_matches_transformers_config_classes(hf_config_classes, config, seq_len):
    """The whole path: config.json -> transformers' config class -> its rope function, versus from_config."""
    hf_config = hf_config_classes[config["model_type"]](**_fields(config))
    rope_type = hf_config.rope_parameters["rope_type"]
    if rope_type == "default":  # see the `hf` fixture: default is linear with factor 1
        hf_config.rope_parameters["factor"] = 1.0
        rope_type = "linear"
    kwargs = {} if seq_len is None else {"seq_len": seq_len}
    ref, ref_attention = hf_config_classes["functions"][rope_type](hf_config, **kwargs)

    out = from_config(config)
    # as transformers' rope functions read it (Phi3Config has no head_dim attribute)
    hf_head_dim = getattr(hf_config, "head_dim", None) or hf_config.hidden_size // hf_config.num_attention_heads
    assert out["head_dim"] == hf_head_dim
    assert out["theta"] == hf_config.rope_parameters["rope_theta"]
    assert out["max_position_embeddings"] == hf_config.max_position_embeddings
    ours, ours_attention = compute(out["head_dim"], out["theta"], out["scaling"], seq_len=seq_len)
    np.testing.assert_allclose(ours, ref.double().numpy(), rtol=RTOL)
    assert ours_attention == pytest.approx(ref_attention, rel=RTOL)


@pytest.mark.parametrize("config", [LLAMA_31_8B, QWEN3_06B_YARN, PHI3_MINI_128K, LLAMA2_7B_PI_16K],
                         ids=["llama-3.1-8b", "qwen3-0.6b-yarn", "phi-3-mini-128k", "llama-2-7b-pi-16k"])
def test_page_path_matches_transformers(hf_config_classes, config):
    """What the context-extension page computes from a pasted config is what transformers computes."""
    hf_config = hf_config_classes[config["model_type"]](**_fields(config))
    s = extension_settings(config)
    scaling = build_scaling(s.method, factor=s.factor, original_max_position_embeddings=s.original,
                            params=s.params, short_factor=s.short_factor, long_factor=s.long_factor)
    for seq_len in (None, s.target):
        ref, ref_attention = hf_config_classes["functions"][s.method](
            hf_config, **({} if seq_len is None else {"seq_len": seq_len}))
        view = extension_view(s.head_dim, s.theta, scaling, original=s.original, target=s.target,
                              context_length=seq_len if s.method == "longrope" else None)
        np.testing.assert_allclose(view.inv_freq_after, ref.double().numpy(), rtol=RTOL)
        assert view.attention_factor == pytest.approx(ref_attention, rel=RTOL)
