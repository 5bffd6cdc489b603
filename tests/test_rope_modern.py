"""Tests for RoPE as current models ship it: proportional frequencies, partial rotation in rope.rotate().

References: naive loops over pairs written here, and transformers' own code (its ROPE_INIT_FUNCTIONS and the
GPT-NeoX / GLM apply_rotary_pos_emb, through tests/conftest.py's require_oracle, which never skips in CI).
"""
from __future__ import annotations

import math

import numpy as np
import pytest

from embedviz.rope.rotary import rotary_dim, rotate
from embedviz.rope.scaling import compute
from tests.conftest import require_oracle
from tests.input_errors import raises_input

RTOL = 1e-6


# proportional RoPE, by hand


def test_proportional_quarter_of_512_rotates_64_pairs():
    # Gemma 4 global layers: head_dim 512, partial_rotary_factor 0.25 -> 64 of 256 pairs rotate
    inv_freq, attention_factor = compute(512, 1_000_000.0, {"rope_type": "proportional", "partial_rotary_factor": 0.25})
    assert inv_freq.shape == (256,) and attention_factor == 1.0
    expected = [1_000_000.0 ** (-(2 * i) / 512) if i < 64 else 0.0 for i in range(256)]  # exponent over 512, not 128
    np.testing.assert_allclose(inv_freq, expected, rtol=1e-12)
    assert np.count_nonzero(inv_freq) == 64


def test_proportional_differs_from_partial():
    # partial RoPE (GLM) spreads its frequencies over the rotated dims: theta^(-2i/d), d = 128 here
    partial, _ = compute(512, 1e6, {"rope_type": "default", "partial_rotary_factor": 0.25})
    proportional, _ = compute(512, 1e6, {"rope_type": "proportional", "partial_rotary_factor": 0.25})
    assert partial.shape == (64,) and proportional.shape == (256,)
    assert partial[1] == pytest.approx(1e6 ** (-2 / 128)) and proportional[1] == pytest.approx(1e6 ** (-2 / 512))


def test_proportional_rejects_bad_factor():
    with raises_input("interval", name="partial_rotary_factor", value=1.5, low=0.0, high=1.0,
                      about="rope_type 'proportional'"):
        compute(128, 1e4, {"rope_type": "proportional", "partial_rotary_factor": 1.5})
    with raises_input("at_least", name="factor", value=0.5, limit=1, about="rope_type 'proportional'"):
        compute(128, 1e4, {"rope_type": "proportional", "factor": 0.5})


# partial rotation in rope.rotate()


def naive_partial_rotate(x, positions, theta, partial_rotary_factor, pairing):
    """Loop over tokens and pairs; dims past int(head_dim * factor) are copied unchanged."""
    T, head_dim = x.shape
    d = int(head_dim * partial_rotary_factor)
    out = x.copy()
    for t in range(T):
        for i in range(d // 2):
            a, b = (i, i + d // 2) if pairing == "half" else (2 * i, 2 * i + 1)
            angle = positions[t] * theta ** (-(2 * i) / d)
            out[t, a] = x[t, a] * math.cos(angle) - x[t, b] * math.sin(angle)
            out[t, b] = x[t, b] * math.cos(angle) + x[t, a] * math.sin(angle)
    return out


@pytest.mark.parametrize("pairing", ["half", "interleaved"])
@pytest.mark.parametrize("head_dim, factor", [(80, 0.4), (128, 0.5), (96, 0.25), (64, 1.0)])
def test_partial_rotate_matches_naive_loop(pairing, head_dim, factor):
    rng = np.random.default_rng(0)
    x = rng.normal(size=(7, head_dim))
    positions = np.array([0, 1, 2, 5, 17, 300, 4095])
    ours = rotate(x, positions, 10_000.0, pairing=pairing, partial_rotary_factor=factor)
    np.testing.assert_allclose(ours, naive_partial_rotate(x, positions, 10_000.0, factor, pairing), atol=1e-12)
    d = rotary_dim(head_dim, factor)
    np.testing.assert_array_equal(ours[:, d:], x[:, d:])  # the unrotated part passes through bit for bit
    np.testing.assert_allclose(np.linalg.norm(ours, axis=-1), np.linalg.norm(x, axis=-1))


def test_partial_rotate_errors_name_the_parameter():
    x = np.ones((2, 10))
    with raises_input("rotary_dim", head_dim=10, factor=0.3, dim=3):
        rotate(x, np.arange(2), partial_rotary_factor=0.3)
    with pytest.raises(ValueError, match=r"inv_freq has 5 entries, head_dim \(4\) needs 2"):
        rotate(x, np.arange(2), partial_rotary_factor=0.4, inv_freq=np.ones(5))


def _hf_cos_sin(inv_freq, positions):
    torch = require_oracle("torch")
    freqs = torch.tensor(positions, dtype=torch.float64)[:, None] * torch.tensor(inv_freq)[None, :]  # (T, d/2)
    emb = torch.cat((freqs, freqs), dim=-1)  # (T, d): transformers' rotary embedding output
    return emb.cos()[None], emb.sin()[None]  # (1, T, d)


@pytest.mark.parametrize("module, pairing, head_dim, factor", [
    ("transformers.models.gpt_neox.modeling_gpt_neox", "half", 96, 0.25),  # GPT-NeoX-20B: rotary_pct 0.25
    ("transformers.models.gpt_neox.modeling_gpt_neox", "half", 80, 0.4),  # Phi-2's 0.4 (Phi splits in attention)
    ("transformers.models.glm.modeling_glm", "interleaved", 128, 0.5),  # GLM-4: 0.5, interleaved pairs
])
def test_partial_rotate_matches_transformers(module, pairing, head_dim, factor):
    torch = require_oracle("torch")
    modeling = require_oracle(module)
    rng = np.random.default_rng(1)
    q = rng.normal(size=(1, 2, 6, head_dim))  # (B, heads, T, head_dim)
    positions = np.array([0, 3, 10, 100, 1000, 20000])
    d = rotary_dim(head_dim, factor)
    inv_freq = 10_000.0 ** (-np.arange(0, d, 2) / d)
    cos, sin = _hf_cos_sin(inv_freq, positions)
    q_t = torch.tensor(q)
    ref, _ = modeling.apply_rotary_pos_emb(q_t, q_t, cos, sin)
    ours = rotate(q, positions, 10_000.0, pairing=pairing, partial_rotary_factor=factor)
    np.testing.assert_allclose(ours, ref.numpy(), rtol=RTOL, atol=1e-12)
