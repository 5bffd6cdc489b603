"""ALiBi: slopes against BLOOM's and the paper's formulas, bias shape / sign / causal mask, relative-only penalties."""
from __future__ import annotations

import math

import numpy as np
import pytest

from embedviz.positions import alibi
from tests.conftest import require_oracle
from tests.input_errors import raises_input

# references written independently of embedviz.positions.alibi


def bloom_slopes(num_heads: int) -> list[float]:
    """transformers' BLOOM ``build_alibi_tensor`` itself (float32 slopes): its bias at key position 1 is the slope.

    A missing oracle fails in CI (tests.conftest.require_oracle); transformers is in requirements-test.txt.
    """
    import torch

    build_alibi_tensor = require_oracle("transformers.models.bloom.modeling_bloom").build_alibi_tensor
    bias = build_alibi_tensor(torch.ones(1, 2), num_heads, torch.float64)  # (H, 1, 2): slope_h * key position
    return bias[:, 0, 1].tolist()


def paper_slopes(n: int) -> list[float]:
    """The ALiBi paper's ``get_slopes`` (ofirpress/attention_with_linear_biases), recursive form."""

    def power_of_2(n):
        start = 2 ** (-(2 ** -(math.log2(n) - 3)))
        return [start * start**i for i in range(n)]

    if math.log2(n).is_integer():
        return power_of_2(n)
    closest = 2 ** math.floor(math.log2(n))
    return power_of_2(closest) + paper_slopes(2 * closest)[0::2][: n - closest]


# slopes


def test_eight_heads_are_one_half_to_one_256th():
    assert alibi.alibi_slopes(8).tolist() == [1 / 2**i for i in range(1, 9)]


@pytest.mark.parametrize("num_heads", [1, 2, 3, 5, 6, 8, 12, 16, 24, 40, 64, 96, 112])
def test_slopes_match_bloom_and_the_paper(num_heads):
    got = alibi.alibi_slopes(num_heads)
    assert got.shape == (num_heads,)
    assert np.allclose(got, bloom_slopes(num_heads), rtol=1e-6)  # BLOOM computes them in float32
    assert np.allclose(got, paper_slopes(num_heads), rtol=1e-12)


def test_twelve_and_six_and_one_heads_by_hand():
    # 12: eight heads 2^-1..2^-8, then the odd powers of 2^-0.5: 2^-0.5, 2^-1.5, 2^-2.5, 2^-3.5
    assert np.allclose(alibi.alibi_slopes(12), [2.0**-i for i in range(1, 9)] + [2.0 ** -(i + 0.5) for i in range(4)])
    # 6: four heads 2^-2, 2^-4, 2^-6, 2^-8, then 2^-1, 2^-3 from the 8-head sequence
    assert np.allclose(alibi.alibi_slopes(6), [1 / 4, 1 / 16, 1 / 64, 1 / 256, 1 / 2, 1 / 8])
    assert alibi.alibi_slopes(1).tolist() == [1 / 256]


@pytest.mark.parametrize("num_heads", [1, 2, 4, 8, 16, 32, 64, 128])
def test_powers_of_two_give_a_geometric_sequence(num_heads):
    s = alibi.alibi_slopes(num_heads)
    ratio = s[1:] / s[:-1]
    assert np.allclose(ratio, s[0])  # start = ratio = 2^(-8/H)
    assert math.isclose(s[0], 2 ** (-8 / num_heads))
    assert math.isclose(s[-1], 2.0**-8)


# bias


def test_bias_against_a_naive_loop():
    H, T = 6, 7
    slopes = paper_slopes(H)
    for causal in (True, False):
        b = alibi.alibi_bias(H, T, causal=causal)
        assert b.shape == (H, T, T)
        for h in range(H):
            for i in range(T):
                for j in range(T):
                    if causal and j > i:
                        assert math.isnan(b[h, i, j])
                    else:
                        assert b[h, i, j] == -slopes[h] * abs(i - j)


def test_bias_sign_and_diagonal():
    b = alibi.alibi_bias(8, 32)
    lower = ~np.isnan(b)
    assert np.all(b[lower] <= 0)  # a penalty, never a bonus
    assert np.all(np.diagonal(b, axis1=1, axis2=2) == 0)
    assert not np.any(np.signbit(np.diagonal(b, axis1=1, axis2=2)))  # 0.0, not -0.0, in tables
    assert np.isnan(b[:, np.triu_indices(32, 1)[0], np.triu_indices(32, 1)[1]]).all()
    sym = alibi.alibi_bias(8, 32, causal=False)
    assert np.allclose(sym, np.swapaxes(sym, 1, 2))


def test_softmax_equals_blooms_key_position_bias():
    # BLOOM adds +slope * key_position; per query row that differs from -slope * (i - j) by a constant,
    # which softmax ignores, so the attention weights are identical.
    H, T = 4, 9
    scores = np.random.default_rng(0).normal(size=(H, T, T))
    slopes = np.array(bloom_slopes(H))
    mask = np.triu(np.ones((T, T), bool), 1)

    def softmax(z):
        z = np.where(mask, -np.inf, z)
        e = np.exp(z - z.max(axis=-1, keepdims=True))
        return e / e.sum(axis=-1, keepdims=True)

    ours = softmax(scores + np.nan_to_num(alibi.alibi_bias(H, T), nan=0.0))
    bloom = softmax(scores + slopes[:, None, None] * np.arange(T)[None, None, :])
    assert np.allclose(ours, bloom)


def test_bias_at_equals_the_full_tensor_at_those_positions():
    full = alibi.alibi_bias(12, 64)
    q, k, heads = np.array([0, 5, 63]), np.array([0, 4, 5, 40]), [0, 7, 11]
    part = alibi.bias_at(12, q, k, heads=heads)
    assert part.shape == (3, 3, 4)
    assert np.array_equal(part, full[np.ix_(heads, q, k)], equal_nan=True)


def test_bias_is_relative_only():
    # the same distances far past any training length give the same penalties
    near = alibi.bias_at(8, [5], [3, 0])
    far = alibi.bias_at(8, [100_005], [100_003, 100_000])
    assert np.array_equal(near, far)
    assert np.allclose(alibi.relative_bias(8, [2, 5])[:, :, None], near[:, 0, :, None])
    assert np.allclose(alibi.relative_bias(8, [0, 1, 10]), -np.outer(bloom_slopes(8), [0, 1, 10]))


@pytest.mark.parametrize(
    ("call", "code", "params"),
    [
        (lambda: alibi.alibi_slopes(0), "at_least", {"name": "num_heads", "value": 0, "limit": 1}),
        (lambda: alibi.alibi_slopes(2.0), "integer", {"name": "num_heads", "value": 2.0}),
        (lambda: alibi.alibi_slopes(2048), "at_most", {"name": "num_heads", "value": 2048, "limit": 1024}),
        (lambda: alibi.alibi_bias(8, 0), "at_least", {"name": "context_length", "value": 0, "limit": 1}),
        (lambda: alibi.alibi_bias(8, 10_000), "at_most", {"name": "context_length", "value": 10_000, "limit": 8192}),
        (lambda: alibi.bias_at(8, [np.nan], [0]), "non_finite", {"name": "query_positions"}),
    ],
)
def test_input_errors(call, code, params):
    with raises_input(code, **params):
        call()


@pytest.mark.parametrize(
    "call, message",
    [  # the app picks heads and distances itself: a caller's slip, in plain English
        (lambda: alibi.bias_at(8, [0], [0], heads=[8]), r"heads \(\[8\]\) must lie in \[0, num_heads\) = \[0, 8\)"),
        (lambda: alibi.bias_at(8, [0], [0], heads=[0.5]), r"heads must be a 1-D list of head indices"),
        (lambda: alibi.relative_bias(8, [-1]), r"distances must be >= 0"),
    ],
)
def test_caller_errors(call, message):
    with pytest.raises(ValueError, match=message):
        call()
