"""ALiBi, Attention with Linear Biases (Press et al. 2021, "Train Short, Test Long", arXiv:2108.12409).

No position vectors at all: each head subtracts slope_h * distance from its attention scores, so far tokens are
penalised linearly. Slopes form a geometric sequence, so some heads look far and some look near (BLOOM, MPT).
"""
from __future__ import annotations

import math

import numpy as np

from embedviz._validate import positive_int


def alibi_slopes(num_heads: int) -> np.ndarray:
    """Per-head slopes, shape (H,), exactly as BLOOM's ``build_alibi_tensor``.

    For H a power of two: 2^(-8/H), 2^(-16/H), ..., 2^(-8). Otherwise the slopes of the closest smaller power of two
    n, followed by every other slope of 2n (odd powers), so the sequence stays geometric-like.
    """
    num_heads = positive_int("num_heads", num_heads, maximum=1024)
    closest = 2 ** math.floor(math.log2(num_heads))
    base = 2.0 ** (-(2.0 ** -(math.log2(closest) - 3)))
    slopes = base ** np.arange(1, closest + 1, dtype=np.float64)
    if closest != num_heads:
        extra_base = 2.0 ** (-(2.0 ** -(math.log2(2 * closest) - 3)))
        remaining = min(closest, num_heads - closest)
        extra = extra_base ** np.arange(1, 1 + 2 * remaining, 2, dtype=np.float64)
        slopes = np.concatenate([slopes, extra])
    return slopes


def alibi_bias(num_heads: int, seq_len: int, *, causal: bool = True) -> np.ndarray:
    """Bias added to scores, shape (H, T, T): bias[h, i, j] = -slope_h * (i - j).

    With ``causal`` the future (j > i) is NaN: a decoder masks it anyway, and NaN leaves it blank in a heatmap.
    Without it the penalty is symmetric, -slope_h * |i - j| (encoder style).
    """
    seq_len = positive_int("seq_len", seq_len, maximum=8192)
    slopes = alibi_slopes(num_heads)
    pos = np.arange(seq_len)
    distance = np.abs(pos[:, None] - pos[None, :]).astype(np.float64)  # (T, T)
    bias = -slopes[:, None, None] * distance[None]  # (H, T, T)
    if causal:
        bias[:, pos[:, None] < pos[None, :]] = np.nan
    return bias
