"""ALiBi, Attention with Linear Biases (Press et al. 2021, "Train Short, Test Long", arXiv:2108.12409).

No position vectors at all: each head subtracts slope_h * distance from its attention scores, so far tokens are
penalised linearly. Slopes form a geometric sequence, so some heads look far and some look near (BLOOM, MPT).
"""
from __future__ import annotations

import math

import numpy as np

from embedviz._validate import finite_array, positive_int


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


def alibi_bias(num_heads: int, context_length: int, *, causal: bool = True) -> np.ndarray:
    """Bias added to scores, shape (H, T, T): bias[h, i, j] = -slope_h * (i - j).

    With ``causal`` the future (j > i) is NaN: a decoder masks it anyway, and NaN leaves it blank in a heatmap.
    Without it the penalty is symmetric, -slope_h * |i - j| (encoder style).
    """
    context_length = positive_int("context_length", context_length, maximum=8192)
    pos = np.arange(context_length)
    return bias_at(num_heads, pos, pos, causal=causal)


def bias_at(num_heads: int, query_positions, key_positions, *, heads=None, causal: bool = True) -> np.ndarray:
    """The bias of chosen heads at chosen (query, key) positions only, shape (len(heads), Q, K).

    bias[h, a, b] = -slope_h * |query_positions[a] - key_positions[b]|, NaN where the key is in the future (causal).
    Lets a page show strided positions of a 131072-token context without the (H, T, T) tensor.
    ``heads`` (indices into 0..H-1) defaults to all heads.
    """
    slopes = alibi_slopes(num_heads)
    if heads is not None:
        heads = np.asarray(heads)
        if heads.ndim != 1 or not np.issubdtype(heads.dtype, np.integer):
            raise ValueError(f"heads must be a 1-D list of head indices, got {heads!r}")
        if heads.size and (heads.min() < 0 or heads.max() >= num_heads):
            raise ValueError(f"heads ({heads.tolist()}) must lie in [0, num_heads) = [0, {num_heads})")
        slopes = slopes[heads]
    q = finite_array("query_positions", query_positions).astype(np.float64).reshape(-1)
    k = finite_array("key_positions", key_positions).astype(np.float64).reshape(-1)
    distance = np.abs(q[:, None] - k[None, :])  # (Q, K)
    bias = 0.0 - slopes[:, None, None] * distance[None]  # (h, Q, K): farther keys lose more, linearly (0 - x: no -0.0)
    if causal:
        bias[:, q[:, None] < k[None, :]] = np.nan
    return bias


def relative_bias(num_heads: int, distances) -> np.ndarray:
    """-slope_h * distance for every head and distance, shape (H, len(distances)).

    It holds the distance only, never the absolute position: the same penalty at positions (5, 3) and (50_005, 50_003),
    which is why ALiBi keeps working past the training length ("Train Short, Test Long").
    """
    slopes = alibi_slopes(num_heads)
    distances = finite_array("distances", distances).astype(np.float64).reshape(-1)
    if np.any(distances < 0):
        raise ValueError(f"distances must be >= 0 (query minus key position), got min {distances.min():g}")
    return 0.0 - slopes[:, None] * distances[None, :]  # (H, K)
