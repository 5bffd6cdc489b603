"""Tests for embedviz.rope_scaling.

Three kinds of checks:
- numbers derived by hand in this file (small head_dims where every frequency can be written down), so the file
  means something without transformers;
- properties (linear == default / factor, llama3 keeps fast pairs and divides slow ones, YaRN's temperature, ...);
- transformers itself (its ROPE_INIT_FUNCTIONS and config classes), skipped when transformers is not installed.
"""
from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from embedviz.rope_scaling import (
    METHOD_DEFAULTS,
    METHODS,
    PHI3_MINI_128K,  # microsoft/Phi-3-mini-128k-instruct as published: input data, kept in one place
    ROPE_INIT_FUNCTIONS,
    build_scaling,
    classify_pairs,
    compute,
    dynamic_base,
    extension_settings,
    extension_view,
    from_config,
    parse_config_json,
    rotations_within,
    slow_pair_count,
    theta_for_context,
    wavelengths_from_inv_freq,
)

HEAD_DIMS = (64, 128, 96)
THETAS = (10_000.0, 500_000.0, 1_000_000.0)
RTOL = 1e-5  # transformers computes in float32, this module in float64


def default_inv_freq(dim: int, theta: float) -> np.ndarray:
    """Plain RoPE written out as a loop over pairs: w_i = theta^(-2i/d)."""
    return np.array([theta ** (-(2 * i) / dim) for i in range(dim // 2)])


# real-looking config.json dicts (the fields that matter for RoPE, values as published)

LLAMA_31_8B = {
    "model_type": "llama",
    "hidden_size": 4096,
    "num_attention_heads": 32,
    "num_key_value_heads": 8,
    "max_position_embeddings": 131072,
    "rope_theta": 500000.0,
    "rope_scaling": {
        "factor": 8.0,
        "low_freq_factor": 1.0,
        "high_freq_factor": 4.0,
        "original_max_position_embeddings": 8192,
        "rope_type": "llama3",
    },
}

QWEN3_06B_YARN = {  # Qwen3-0.6B with the YaRN block its model card recommends for 131072 tokens
    "model_type": "qwen3",
    "head_dim": 128,
    "hidden_size": 1024,
    "num_attention_heads": 16,
    "num_key_value_heads": 8,
    "max_position_embeddings": 40960,
    "rope_theta": 1000000,
    "rope_scaling": {"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 32768},
}

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
    assert math.floor(8 * math.log(1000 / (64 * math.pi)) / (2 * math.log(10_000))) == 0
    assert math.ceil(8 * math.log(1000 / (2 * math.pi)) / (2 * math.log(10_000))) == 3
    scaling = {"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 1000}
    inv_freq, attention_factor = compute(8, 10_000, scaling)
    np.testing.assert_allclose(inv_freq, [1.0, 0.1 * 0.75, 0.01 * 0.5, 0.001 / 4], rtol=1e-12)
    assert attention_factor == pytest.approx(0.1 * math.log(4) + 1)  # 1.1386...


def test_yarn_without_truncate_hand_numbers():
    # same as above but the ramp runs from 0.697 to 2.202 unrounded
    low = 8 * math.log(1000 / (64 * math.pi)) / (2 * math.log(10_000))
    high = 8 * math.log(1000 / (2 * math.pi)) / (2 * math.log(10_000))
    ramp = np.clip((np.arange(4) - low) / (high - low), 0, 1)
    w0 = np.array([1.0, 0.1, 0.01, 0.001])
    scaling = {"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 1000, "truncate": False}
    np.testing.assert_allclose(compute(8, 10_000, scaling)[0], w0 / 4 * ramp + w0 * (1 - ramp), rtol=1e-12)


def test_llama3_hand_numbers():
    # d=8, theta=10_000, trained on 100 positions, factor 8, low 1, high 4:
    # wavelengths 2 pi * (1, 10, 100, 1000) = 6.3, 62.8, 628, 6283; keep below 100/4 = 25, divide above 100/1 = 100
    scaling = {
        "rope_type": "llama3",
        "factor": 8.0,
        "low_freq_factor": 1.0,
        "high_freq_factor": 4.0,
        "original_max_position_embeddings": 100,
    }
    smooth = (100 / (2 * math.pi * 10) - 1) / (4 - 1)  # pair 1 sits between the two: 0.197
    inv_freq, attention_factor = compute(8, 10_000, scaling)
    np.testing.assert_allclose(
        inv_freq, [1.0, 0.1 * ((1 - smooth) / 8 + smooth), 0.01 / 8, 0.001 / 8], rtol=1e-12
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
    scaling = {
        "rope_type": "llama3",
        "factor": 8.0,
        "low_freq_factor": 1.0,
        "high_freq_factor": 4.0,
        "original_max_position_embeddings": 8192,
    }
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


@pytest.mark.parametrize("factor", [1.0, 2.0, 4.0, 16.0, 40.0])
def test_yarn_default_attention_factor(factor):
    scaling = {"rope_type": "yarn", "factor": factor, "original_max_position_embeddings": 4096}
    expected = 1.0 if factor == 1.0 else 0.1 * math.log(factor) + 1.0
    assert compute(128, 10_000, scaling)[1] == pytest.approx(expected, rel=1e-12)
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
    turns = rotations_within(default, 4096)
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
    assert list(ROPE_INIT_FUNCTIONS) == ["default", "linear", "dynamic", "yarn", "longrope", "llama3"]
    scaling = {"factor": 2.0, "original_max_position_embeddings": 64, "low_freq_factor": 1.0, "high_freq_factor": 4.0,
               "short_factor": [1.0] * 4, "long_factor": [2.0] * 4}
    for rope_type, fn in ROPE_INIT_FUNCTIONS.items():
        inv_freq, attention_factor = fn(8, 10_000.0, {**scaling, "rope_type": rope_type}, seq_len=None)
        assert inv_freq.shape == (4,) and attention_factor > 0


def test_scaling_dict_is_not_modified():
    scaling = {"type": "yarn", "factor": 4.0, "original_max_position_embeddings": 1000}
    copy = dict(scaling)
    compute(8, 10_000, scaling)
    assert scaling == copy


# validation messages


@pytest.mark.parametrize(
    ("head_dim", "theta", "scaling", "seq_len", "match"),
    [
        (7, 10_000, None, None, r"head_dim \(7\) must be even for RoPE"),
        (0, 10_000, None, None, r"head_dim \(0\) must be >= 2"),
        (64.0, 10_000, None, None, r"head_dim \(64\.0\) must be an integer"),
        (64, 1.0, None, None, r"theta \(1\) must be > 1"),
        (64, float("inf"), None, None, r"theta \(inf\) must be finite"),
        (64, 10_000, None, 0, r"seq_len \(0\) must be >= 1"),
        (64, 10_000, "linear", None, r"scaling must be a dict"),
        (64, 10_000, {"rope_type": "ntk"}, None,
         r"rope_type \('ntk'\) is unknown; known rope types: 'default', 'linear', 'dynamic', 'yarn', 'longrope', "
         r"'llama3'"),
        (64, 10_000, {"rope_type": None}, None, r"rope_type \(None\) is unknown; known rope types: 'default'"),
        (64, 10_000, {"rope_type": "linear"}, None, r"rope_type 'linear' is missing required key\(s\): 'factor'"),
        (64, 10_000, {"rope_type": "linear", "factor": 0.5}, None,
         r"factor \(0\.5\) must be a number >= 1 for rope_type 'linear'"),
        (64, 10_000, {"rope_type": "linear", "factor": "4"}, None, r"factor \('4'\) must be a finite number"),
        (64, 10_000, {"rope_type": "yarn", "factor": 4.0}, None,
         r"rope_type 'yarn' is missing required key\(s\): 'original_max_position_embeddings'"),
        (64, 10_000, {"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 4096,
                      "beta_fast": 1, "beta_slow": 32}, None,
         r"beta_fast \(1\) must be >= beta_slow \(32\) for rope_type 'yarn'"),
        (64, 10_000, {"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 4096,
                      "beta_fast": -2}, None, r"beta_fast \(-2\) must be > 0"),
        (64, 10_000, {"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 4096,
                      "attention_factor": -1.0}, None, r"attention_factor \(-1\) must be > 0"),
        (64, 10_000, {"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 4096.5}, None,
         r"original_max_position_embeddings \(4096\.5\) must be an integer"),
        (64, 10_000, {"rope_type": "llama3", "factor": 8.0, "original_max_position_embeddings": 8192}, None,
         r"missing required key\(s\): 'low_freq_factor', 'high_freq_factor'"),
        (64, 10_000, {"rope_type": "llama3", "factor": 8.0, "original_max_position_embeddings": 8192,
                      "low_freq_factor": 4.0, "high_freq_factor": 1.0}, None,
         r"high_freq_factor \(1\) must be greater than low_freq_factor \(4\) for rope_type 'llama3'"),
        (64, 10_000, {"rope_type": "llama3", "factor": 8.0, "original_max_position_embeddings": 8192,
                      "low_freq_factor": 2.0, "high_freq_factor": 2.0}, None,
         r"high_freq_factor \(2\) must be greater than low_freq_factor \(2\)"),
        (8, 10_000, {"rope_type": "longrope", "factor": 2.0, "original_max_position_embeddings": 64,
                     "short_factor": [1.0, 1.0, 1.0], "long_factor": [1.0] * 4}, None,
         r"short_factor has 3 entries, the rotary dimension \(8\) needs 4 \(one per pair\)"),
        (8, 10_000, {"rope_type": "longrope", "factor": 2.0, "original_max_position_embeddings": 64,
                     "short_factor": [1.0] * 4, "long_factor": [1.0] * 5}, None,
         r"long_factor has 5 entries, the rotary dimension \(8\) needs 4"),
        (8, 10_000, {"rope_type": "longrope", "factor": 2.0, "original_max_position_embeddings": 64,
                     "short_factor": [1.0] * 4, "long_factor": [1.0, 0.0, 1.0, 1.0]}, None,
         r"long_factor entries must all be > 0"),
        (8, 10_000, {"rope_type": "longrope", "original_max_position_embeddings": 64,
                     "short_factor": [1.0] * 4, "long_factor": [1.0] * 4}, None,
         r"'factor' \(transformers derives it as max_position_embeddings / original_max_position_embeddings"),
        (8, 10_000, {"rope_type": "dynamic", "factor": 2.0}, None,
         r"'original_max_position_embeddings' \(the trained length; transformers uses the config's "
         r"max_position_embeddings"),
        (8, 10_000, {"partial_rotary_factor": 1.5}, None, r"partial_rotary_factor \(1\.5\) must be in \(0, 1\]"),
        (8, 10_000, {"partial_rotary_factor": 0.0}, None, r"partial_rotary_factor \(0\) must be > 0"),
        (10, 10_000, {"partial_rotary_factor": 0.5}, None,
         r"int\(10 \* 0\.5\) = 5 must be even and >= 2"),
        (8, 10_000, {"rope_type": "linear", "factor": 2.0, "rope_theta": 500_000}, None,
         r"scaling\['rope_theta'\] \(500000\) disagrees with theta \(10000\)"),
    ],
)
def test_compute_errors(head_dim, theta, scaling, seq_len, match):
    with pytest.raises(ValueError, match=match):
        compute(head_dim, theta, scaling, seq_len=seq_len)


# from_config on real-looking configs (hand-derived expectations)


def test_from_config_llama31():
    out = from_config(LLAMA_31_8B)
    assert out == {
        "head_dim": 128,  # 4096 / 32
        "theta": 500_000.0,
        "scaling": {
            "factor": 8.0,
            "low_freq_factor": 1.0,
            "high_freq_factor": 4.0,
            "original_max_position_embeddings": 8192,
            "rope_type": "llama3",
        },
        "max_position_embeddings": 131072,
        "original_max_position_embeddings": 8192,
    }
    assert LLAMA_31_8B["rope_scaling"].get("rope_theta") is None  # the caller's dict is untouched


def test_from_config_qwen3_yarn():
    out = from_config(QWEN3_06B_YARN)
    assert (out["head_dim"], out["theta"], out["max_position_embeddings"]) == (128, 1_000_000.0, 40960)
    assert out["original_max_position_embeddings"] == 32768
    inv_freq, attention_factor = compute(out["head_dim"], out["theta"], out["scaling"])
    assert attention_factor == pytest.approx(0.1 * math.log(4) + 1)
    default = default_inv_freq(128, 1_000_000.0)
    assert inv_freq[0] == default[0] and inv_freq[-1] == pytest.approx(default[-1] / 4, rel=1e-12)


def test_from_config_phi3_longrope():
    out = from_config(PHI3_MINI_128K)
    assert out["head_dim"] == 96  # 3072 / 32
    assert out["original_max_position_embeddings"] == 4096
    scaling = out["scaling"]
    assert scaling["rope_type"] == "longrope" and "type" not in scaling
    assert scaling["factor"] == 32.0  # 131072 / 4096, derived as transformers does
    short, attention_factor = compute(96, 10_000, scaling)
    # sqrt(1 + ln 32 / ln 4096) = sqrt(1 + 5/12)
    assert attention_factor == pytest.approx(math.sqrt(17 / 12))
    np.testing.assert_allclose(short, default_inv_freq(96, 10_000) / PHI3_MINI_128K["rope_scaling"]["short_factor"])
    long, _ = compute(96, 10_000, scaling, seq_len=4097)
    np.testing.assert_allclose(long, default_inv_freq(96, 10_000) / PHI3_MINI_128K["rope_scaling"]["long_factor"])


def test_from_config_partial_rotary():
    out = from_config(GLM4_PARTIAL)
    assert out["scaling"] == {"partial_rotary_factor": 0.5, "rope_type": "default"}
    assert out["original_max_position_embeddings"] == out["max_position_embeddings"] == 32768
    inv_freq, _ = compute(out["head_dim"], out["theta"], out["scaling"])
    np.testing.assert_allclose(inv_freq, default_inv_freq(64, 10_000), rtol=1e-12)  # 64 of 128 dims rotate


def test_from_config_plain_and_v5_layouts():
    plain = {"hidden_size": 1024, "num_attention_heads": 16, "max_position_embeddings": 2048, "rope_theta": 10_000}
    assert from_config(plain)["scaling"] is None
    assert from_config({**plain, "rope_scaling": None})["scaling"] is None
    # transformers v5 writes rope_theta inside rope_parameters
    v5 = {**{k: v for k, v in LLAMA_31_8B.items() if k not in ("rope_scaling", "rope_theta")},
          "rope_parameters": {**LLAMA_31_8B["rope_scaling"], "rope_theta": 500000.0}}
    assert from_config(v5) == from_config(LLAMA_31_8B)
    v5_plain = {**plain, "rope_theta": None, "rope_parameters": {"rope_type": "default", "rope_theta": 1e6}}
    out = from_config(v5_plain)
    assert out["theta"] == 1e6 and out["scaling"] is None
    # per-layer rope_parameters (Gemma 3 style)
    per_layer = {**plain, "rope_parameters": {
        "full_attention": {"rope_type": "linear", "factor": 8.0, "rope_theta": 1e6},
        "sliding_attention": {"rope_type": "default", "rope_theta": 10_000.0},
    }}
    full = from_config(per_layer, layer_type="full_attention")
    assert full["theta"] == 1e6 and full["scaling"] == {"rope_type": "linear", "factor": 8.0}
    assert from_config(per_layer, layer_type="sliding_attention")["scaling"] is None


def test_from_config_dynamic_uses_max_position_embeddings():
    config = {"hidden_size": 512, "num_attention_heads": 8, "max_position_embeddings": 2048, "rope_theta": 10_000,
              "rope_scaling": {"type": "dynamic", "factor": 2.0}}
    out = from_config(config)
    assert out["scaling"] == {"factor": 2.0, "rope_type": "dynamic", "original_max_position_embeddings": 2048}
    # d=64, seq_len 4096: theta' = 10_000 * (2 * 2 - 1)^(64/62)
    inv_freq, _ = compute(out["head_dim"], out["theta"], out["scaling"], seq_len=4096)
    np.testing.assert_allclose(inv_freq, default_inv_freq(64, 10_000 * 3 ** (64 / 62)), rtol=1e-12)


def test_from_config_gpt_neox_names():
    config = {"hidden_size": 512, "num_attention_heads": 8, "max_position_embeddings": 2048,
              "rotary_emb_base": 10_000, "rotary_pct": 0.25}
    out = from_config(config)
    assert out["theta"] == 10_000.0 and out["scaling"] == {"partial_rotary_factor": 0.25, "rope_type": "default"}
    assert compute(out["head_dim"], out["theta"], out["scaling"])[0].shape == (8,)  # 64 * 0.25 / 2


@pytest.mark.parametrize(
    ("config", "kwargs", "match"),
    [
        ("config.json", {}, r"config must be a dict read from config\.json, got str"),
        ({"hidden_size": 512, "num_attention_heads": 8, "max_position_embeddings": 2048}, {},
         r"config has no 'rope_theta' \(neither top-level nor in rope_parameters\)"),
        ({"rope_theta": 1e4, "max_position_embeddings": 2048}, {},
         r"config has neither 'head_dim' nor both 'hidden_size' and 'num_attention_heads'"),
        ({"rope_theta": 1e4, "hidden_size": 512, "num_attention_heads": 8}, {},
         r"config has no 'max_position_embeddings'"),
        ({"rope_theta": 1e4, "hidden_size": 500, "num_attention_heads": 8, "max_position_embeddings": 2048}, {},
         r"hidden_size \(500\) must be divisible by num_attention_heads \(8\)"),
        ({"rope_theta": 1e4, "head_dim": 63, "max_position_embeddings": 2048}, {},
         r"head_dim \(63\) must be even for RoPE"),
        ({"rope_theta": 1e4, "head_dim": 64, "max_position_embeddings": 2048,
          "rope_scaling": {"rope_type": "llama3", "factor": 8.0}}, {},
         r"missing required key\(s\): 'low_freq_factor', 'high_freq_factor'"),
        ({"rope_theta": 1e4, "head_dim": 64, "max_position_embeddings": 2048,
          "rope_scaling": {"rope_type": "yarn", "factor": 0.5}}, {}, r"factor \(0\.5\) must be a number >= 1"),
        ({"rope_theta": 1e4, "head_dim": 64, "max_position_embeddings": 2048,
          "rope_parameters": {"full_attention": {"rope_type": "default"}, "sliding_attention": {}}}, {},
         r"rope_parameters is per layer type \(full_attention, sliding_attention\): pass layer_type= to pick one"),
        ({"rope_theta": 1e4, "head_dim": 64, "max_position_embeddings": 2048}, {"layer_type": "full_attention"},
         r"layer_type \('full_attention'\) is not in rope_parameters; it has: none"),
    ],
)
def test_from_config_errors(config, kwargs, match):
    with pytest.raises(ValueError, match=match):
        from_config(config, **kwargs)


# helpers for the context-extension page


def test_wavelengths_and_rotations_hand_numbers():
    inv_freq = np.array([1.0, 0.1, 0.01, 0.001])
    np.testing.assert_allclose(wavelengths_from_inv_freq(inv_freq), [6.283185, 62.83185, 628.3185, 6283.185], rtol=1e-6)
    # over 6283 positions the fastest pair turns 1000 times, the slowest just under once
    np.testing.assert_allclose(rotations_within(inv_freq, 6283), 6283 * inv_freq / (2 * math.pi), rtol=1e-12)
    assert rotations_within(inv_freq, 6283)[-1] == pytest.approx(0.99997, abs=1e-5)
    with pytest.raises(ValueError, match=r"inv_freq entries must all be > 0, got min 0"):
        wavelengths_from_inv_freq([1.0, 0.0])
    with pytest.raises(ValueError, match=r"context_length \(0\) must be >= 1"):
        rotations_within(inv_freq, 0)


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


@pytest.mark.parametrize("head_dim", HEAD_DIMS)
@pytest.mark.parametrize("context_length", [4096, 32768, 131072])
@pytest.mark.parametrize("max_turns", [0.5, 1.0, 3.0])
def test_theta_for_context_slowest_pair_makes_max_turns(head_dim, context_length, max_turns):
    theta = theta_for_context(head_dim, context_length, max_turns=max_turns)
    # theta >= (L / (2 pi * max_turns))^(d / (d - 2)), and the slowest pair then turns exactly max_turns times
    assert theta == pytest.approx((context_length / (2 * math.pi * max_turns)) ** (head_dim / (head_dim - 2)))
    inv_freq, _ = compute(head_dim, theta, None)
    assert rotations_within(inv_freq, context_length)[-1] == pytest.approx(max_turns, rel=1e-9)
    # a slightly smaller theta lets the slowest pair turn more than max_turns times
    smaller, _ = compute(head_dim, theta * 0.99, None)
    assert rotations_within(smaller, context_length)[-1] > max_turns


def test_theta_for_context_hand_numbers_and_errors():
    # d=4: theta = (L / (2 pi * turns))^2; L=2000, 2 turns -> (2000 / (4 pi))^2 = 25_330.3
    assert theta_for_context(4, 2000, max_turns=2.0) == pytest.approx((2000 / (4 * math.pi)) ** 2)
    assert theta_for_context(4, 2000, max_turns=2.0) == pytest.approx(25_330.3, abs=0.1)
    assert theta_for_context(64, 3) == 1.0  # 3 positions never complete a turn
    with pytest.raises(ValueError, match=r"head_dim \(2\) must be >= 4"):
        theta_for_context(2, 1000)
    with pytest.raises(ValueError, match=r"head_dim \(5\) must be even for RoPE"):
        theta_for_context(5, 1000)
    with pytest.raises(ValueError, match=r"max_turns \(0\) must be > 0"):
        theta_for_context(64, 1000, max_turns=0.0)
    with pytest.raises(ValueError, match=r"context_length \(-5\) must be >= 1"):
        theta_for_context(64, -5)


def test_theta_for_context_slow_pairs_hand_numbers_and_property():
    # d=8, k=2: theta = (L / 2 pi)^(8/4); L=2000 -> 318.31^2 = 101_321; then pairs 2 and 3 turn at most once
    theta = theta_for_context(8, 2000, slow_pairs=2)
    assert theta == pytest.approx((2000 / (2 * math.pi)) ** 2) and theta == pytest.approx(101_321.2, abs=0.1)
    turns = [2000 * theta ** (-(2 * j) / 8) / (2 * math.pi) for j in range(4)]  # loop over pairs
    assert turns[2] == pytest.approx(1.0) and turns[3] < 1.0 and turns[1] > 1.0
    assert theta_for_context(128, 8192, slow_pairs=1) == theta_for_context(128, 8192)
    # a bigger k always needs a bigger theta, and gives exactly k pairs under one turn (just above the bound)
    previous = 0.0
    for k in (1, 2, 8, 32, 63):
        theta = theta_for_context(128, 32768, slow_pairs=k)
        assert theta > previous
        previous = theta
        inv_freq = np.array([(theta * 1.001) ** (-(2 * j) / 128) for j in range(64)])
        assert slow_pair_count(inv_freq, 32768) == k
    with pytest.raises(ValueError, match=r"slow_pairs \(64\) must be in \[1, head_dim/2 - 1\] = \[1, 63\]"):
        theta_for_context(128, 32768, slow_pairs=64)
    with pytest.raises(ValueError, match=r"slow_pairs \(0\) must be >= 1"):
        theta_for_context(128, 32768, slow_pairs=0)


def test_slow_pair_count_real_models_by_hand():
    # pair i turns less than once in L tokens when 2 pi theta^(i/64) > L, i.e. i > 64 ln(L / 2 pi) / ln(theta)
    for theta, length, expected in ((500_000, 8192, 29), (1_000_000, 32768, 24), (10_000, 4096, 18)):
        first = 64 * math.log(length / (2 * math.pi)) / math.log(theta)
        assert 64 - math.ceil(first) == expected
        assert slow_pair_count(default_inv_freq(128, theta), length) == expected
    assert slow_pair_count([1.0, 0.1, 0.01, 0.001], 6283, max_turns=0.5) == 0
    assert slow_pair_count([1.0, 0.1, 0.01, 0.001], 6283, max_turns=2.0) == 1


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
    with pytest.raises(ValueError, match=r"missing required key\(s\): 'factor'"):
        dynamic_base(64, 10_000, {"rope_type": "dynamic", "original_max_position_embeddings": 10}, seq_len=10)


@pytest.mark.parametrize(
    ("text", "match"),
    [
        ("", r"config\.json is empty: paste a model's config\.json"),
        ("  \n", r"config\.json is empty"),
        ('{"rope_theta": 10000,', r"config\.json is not valid JSON: Expecting property name enclosed in double "
                                  r"quotes at line 1, column 22"),
        ('{"a": 1}\n{"b": 2}', r"config\.json is not valid JSON: Extra data at line 2, column 1"),
        ("[1, 2]", r"config\.json must hold a JSON object \{ \.\.\. \}, got a JSON array"),
        ('"rope"', r"got a JSON string"),
        ("4096", r"got a JSON number"),
        (" " * 1_000_001, r"config\.json has 1,000,001 characters"),
        (None, r"config\.json must be text, got NoneType"),
    ],
)
def test_parse_config_json_errors(text, match):
    with pytest.raises(ValueError, match=match):
        parse_config_json(text)


def test_parse_config_json_round_trip():
    import json

    assert parse_config_json(json.dumps(PHI3_MINI_128K, indent=2)) == PHI3_MINI_128K
    assert parse_config_json('{"rope_theta": 1e6}') == {"rope_theta": 1_000_000.0}


def test_extension_settings_of_scaled_configs():
    llama = extension_settings(LLAMA_31_8B)
    assert {k: llama[k] for k in ("head_dim", "theta", "method", "factor", "original", "target", "scaled")} == {
        "head_dim": 128, "theta": 500_000.0, "method": "llama3", "factor": 8.0, "original": 8192,
        "target": 131072, "scaled": True,
    }
    assert llama["params"]["low_freq_factor"] == 1.0 and llama["params"]["high_freq_factor"] == 4.0
    assert llama["short_factor"] is None and llama["partial_rotary_factor"] is None
    # Qwen3's card keeps max_position_embeddings 40,960 next to factor 4 over 32,768: the target is 4 x 32,768
    qwen = extension_settings(QWEN3_06B_YARN)
    assert (qwen["method"], qwen["factor"], qwen["original"], qwen["target"]) == ("yarn", 4.0, 32768, 131072)
    assert qwen["params"] == {**METHOD_DEFAULTS["yarn"], **METHOD_DEFAULTS["llama3"], "attention_factor": 0.0}
    phi = extension_settings(PHI3_MINI_128K)
    assert (phi["head_dim"], phi["method"], phi["factor"], phi["original"], phi["target"]) == (
        96, "longrope", 32.0, 4096, 131072)
    assert phi["long_factor"] == tuple(PHI3_MINI_128K["rope_scaling"]["long_factor"])
    assert phi["short_factor"] == tuple(PHI3_MINI_128K["rope_scaling"]["short_factor"])
    gpt_oss = {"head_dim": 64, "max_position_embeddings": 131072, "rope_theta": 150000, "rope_scaling": {
        "rope_type": "yarn", "factor": 32.0, "beta_fast": 32.0, "beta_slow": 1.0, "truncate": False,
        "original_max_position_embeddings": 4096}}
    out = extension_settings(gpt_oss)
    assert out["params"]["truncate"] is False and out["target"] == 131072
    deepseek = {"head_dim": 64, "max_position_embeddings": 163840, "rope_theta": 10000, "rope_scaling": {
        "type": "yarn", "factor": 40, "beta_fast": 32, "beta_slow": 1, "mscale": 1.0, "mscale_all_dim": 1.0,
        "original_max_position_embeddings": 4096}}
    out = extension_settings(deepseek)
    assert (out["params"]["mscale"], out["params"]["mscale_all_dim"], out["target"]) == (1.0, 1.0, 163840)


def test_extension_settings_of_unscaled_configs_suggest_yarn_to_128k():
    llama2 = {"hidden_size": 4096, "num_attention_heads": 32, "max_position_embeddings": 4096, "rope_theta": 10000}
    out = extension_settings(llama2)
    # the YaRN paper's LLaMA 2 128K model: s = 131072 / 4096 = 32
    assert (out["method"], out["factor"], out["original"], out["target"], out["scaled"]) == (
        "yarn", 32.0, 4096, 131072, False)
    long_native = {**llama2, "max_position_embeddings": 262144}
    assert extension_settings(long_native)["target"] == 4 * 262144
    glm = extension_settings(GLM4_PARTIAL)
    assert glm["partial_rotary_factor"] == 0.5 and glm["factor"] == 4.0
    assert (glm["head_dim"], glm["rotary_dim"]) == (128, 64)  # int(128 * 0.5) dimensions turn
    assert out["rotary_dim"] == out["head_dim"] == 128
    # per-layer rope_parameters: the full-attention layers are the ones a context extension is about
    gemma = {"head_dim": 256, "max_position_embeddings": 131072, "rope_parameters": {
        "sliding_attention": {"rope_type": "default", "rope_theta": 10_000.0},
        "full_attention": {"rope_type": "linear", "factor": 8.0, "rope_theta": 1_000_000.0}}}
    out = extension_settings(gemma)
    assert (out["method"], out["theta"], out["factor"]) == ("linear", 1_000_000.0, 8.0)
    assert extension_settings(gemma, layer_type="sliding_attention")["theta"] == 10_000.0


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
    with pytest.raises(ValueError, match=r"missing required key\(s\): 'short_factor', 'long_factor'"):
        compute(8, 10_000, build_scaling("longrope", factor=2.0, original_max_position_embeddings=64))
    with pytest.raises(ValueError, match=r"method \('ntk'\) must be one of 'linear', 'dynamic', 'yarn'"):
        build_scaling("ntk", factor=2.0, original_max_position_embeddings=64)
    assert set(METHODS) == set(METHOD_DEFAULTS) == set(ROPE_INIT_FUNCTIONS) - {"default"}


@pytest.mark.parametrize("config", [LLAMA_31_8B, QWEN3_06B_YARN, PHI3_MINI_128K],
                         ids=["llama-3.1-8b", "qwen3-0.6b-yarn", "phi-3-mini-128k"])
@pytest.mark.parametrize("seq_len", [None, 200_000])
def test_page_path_equals_from_config(config, seq_len):
    """config -> extension_settings -> build_scaling gives the model's own frequencies (from_config's)."""
    s = extension_settings(config)
    scaling = build_scaling(s["method"], factor=s["factor"], original_max_position_embeddings=s["original"],
                            params=s["params"], short_factor=s["short_factor"], long_factor=s["long_factor"])
    out = from_config(config)
    ours = compute(s["head_dim"], s["theta"], scaling, seq_len=seq_len)
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
    assert view.kinds == ["interpolated"] * 4 and view.length == 4000 and view.base is None
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
    scaling = build_scaling("llama3", factor=8.0, original_max_position_embeddings=8192, params=s["params"])
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


def test_extension_view_dynamic_and_longrope_use_seq_len():
    dynamic = {"rope_type": "dynamic", "factor": 4.0, "original_max_position_embeddings": 4096}
    view = extension_view(64, 10_000, dynamic, original=4096, target=16384, seq_len=8192)
    assert view.length == 8192 and view.base == pytest.approx(10_000 * (4 * 2 - 3) ** (64 / 62))
    np.testing.assert_allclose(view.inv_freq_after, default_inv_freq(64, view.base), rtol=1e-12)
    assert view.kinds[0] == "kept" and set(view.kinds[1:]) == {"blended"}
    phi = extension_settings(PHI3_MINI_128K)
    longrope = build_scaling("longrope", factor=32.0, original_max_position_embeddings=4096,
                             short_factor=phi["short_factor"], long_factor=phi["long_factor"])
    short = extension_view(96, 10_000, longrope, original=4096, target=131072, seq_len=4096)
    long = extension_view(96, 10_000, longrope, original=4096, target=131072, seq_len=131072)
    np.testing.assert_allclose(short.ratio, 1 / np.array(phi["short_factor"]), rtol=1e-12)
    np.testing.assert_allclose(long.ratio, 1 / np.array(phi["long_factor"]), rtol=1e-12)
    assert short.attention_factor == pytest.approx(math.sqrt(1 + math.log(32) / math.log(4096)))
    # partial rotary: before and after have the same number of pairs
    partial = extension_view(128, 10_000, {"rope_type": "linear", "factor": 2.0, "partial_rotary_factor": 0.5},
                             original=100, target=200)
    assert partial.inv_freq_before.shape == partial.inv_freq_after.shape == (32,)
    with pytest.raises(ValueError, match=r"target \(0\) must be >= 1"):
        extension_view(64, 10_000, dynamic, original=4096, target=0)


# against transformers itself


@pytest.fixture(scope="module")
def hf():
    """transformers' rope utilities, and a small config object that runs its own standardisation."""
    rope_utils = pytest.importorskip("transformers.modeling_rope_utils")

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
    transformers = pytest.importorskip("transformers")
    from transformers.modeling_rope_utils import ROPE_INIT_FUNCTIONS as HF_ROPE_INIT_FUNCTIONS

    transformers.logging.set_verbosity_error()  # the Qwen3 card's factor 4 on 40960 positions draws a warning
    return {
        "llama": transformers.LlamaConfig,
        "qwen3": transformers.Qwen3Config,
        "phi3": transformers.Phi3Config,
        "glm4": transformers.Glm4Config,
        "functions": HF_ROPE_INIT_FUNCTIONS,
    }


@pytest.mark.parametrize("config", [LLAMA_31_8B, QWEN3_06B_YARN, PHI3_MINI_128K, GLM4_PARTIAL],
                         ids=["llama-3.1-8b", "qwen3-0.6b-yarn", "phi-3-mini-128k", "glm4-partial"])
@pytest.mark.parametrize("seq_len", [None, 200_000])
def test_from_config_matches_transformers_config_classes(hf_config_classes, config, seq_len):
    """The whole path: config.json -> transformers' config class -> its rope function, versus from_config."""
    hf_config = hf_config_classes[config["model_type"]](**{k: v for k, v in config.items() if k != "model_type"})
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


@pytest.mark.parametrize("config", [LLAMA_31_8B, QWEN3_06B_YARN, PHI3_MINI_128K],
                         ids=["llama-3.1-8b", "qwen3-0.6b-yarn", "phi-3-mini-128k"])
def test_page_path_matches_transformers(hf_config_classes, config):
    """What the context-extension page computes from a pasted config is what transformers computes."""
    hf_config = hf_config_classes[config["model_type"]](**{k: v for k, v in config.items() if k != "model_type"})
    s = extension_settings(config)
    scaling = build_scaling(s["method"], factor=s["factor"], original_max_position_embeddings=s["original"],
                            params=s["params"], short_factor=s["short_factor"], long_factor=s["long_factor"])
    for seq_len in (None, s["target"]):
        ref, ref_attention = hf_config_classes["functions"][s["method"]](
            hf_config, **({} if seq_len is None else {"seq_len": seq_len}))
        view = extension_view(s["head_dim"], s["theta"], scaling, original=s["original"], target=s["target"],
                              seq_len=seq_len if s["method"] == "longrope" else None)
        np.testing.assert_allclose(view.inv_freq_after, ref.double().numpy(), rtol=RTOL)
        assert view.attention_factor == pytest.approx(ref_attention, rel=RTOL)
