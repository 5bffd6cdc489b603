"""Keep figures inside one payload budget: strided indices, block means or log-spaced samples, and the note.

A heatmap of 131072 positions x 4096 dimensions would be 2 GB of JSON; the browser gets at most CELL_BUDGET x
CELL_BUDGET cells. Every other figure size below is a share of that one budget, so changing CELL_BUDGET scales them
all together.
"""
from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from embedviz._validate import positive_int

CELL_BUDGET = 352  # per axis: 352 x 352 float32 cells is ~0.9 MB of chart JSON (base64, plotly escapes "/"),
# under the 1 MB payload cap. The one budget: the sizes below are shares of it, in elevenths (32 cells each).
_SHARE = CELL_BUDGET // 11
CURVE_POINTS = 8 * _SHARE  # 256 points per curve: a smooth line on a log axis, cheap at D = 4096
SIMILARITY_POSITIONS = 8 * _SHARE  # 256 per axis of a cosine matrix (65k cells, computed at any D)
# The two heatmaps a slider step redraws (Sinusoidal's encoding, RoPE's angles) keep near 32k cells (~130-170 KB),
# the size the browser redraws within a rerun's step budget (benchmarks/README.md); both show the same picture:
HEATMAP_PAIRS = 2 * _SHARE  # 64 (sin, cos) pairs = 128 rows next to CELL_BUDGET positions: in a ~340 px tall plot
# 320 rows were ~1 px each, 128 are ~3 px; every pair_step-th pair keeps the fast-to-slow gradient down the rows
ANGLE_HEATMAP_POSITIONS = 4 * _SHARE  # 128 columns of RoPE's angle heatmap x head_dim <= 256 rows: the default
# window (256) is every 2nd position; the fastest pair turns 1 rad per position, 2 rad per column < pi: no aliasing
COMPARE_CURVE_POINTS = 8 * _SHARE  # 256 positions per scheme on the adjacent-similarity curve
COMPARE_MATRIX_POSITIONS = 3 * _SHARE  # 96 per similarity panel: four panels side by side share the budget
ALIBI_BIAS_POSITIONS = 2 * _SHARE  # 64 per ALiBi head panel, up to four panels
OFFSET_POINTS = 4 * _SHARE  # 128 offsets on a similarity-vs-distance curve of a real table
DENSE_DISTANCES = 32 * _SHARE  # 1,024: RoPE's decay curve keeps every distance below this (it wiggles there)
DENSE_POINTS = 2 * _SHARE  # 64: a log-spaced curve keeps every index below this (the distance curves' wiggles)


def stride_for(n: int, budget: int = CELL_BUDGET) -> int:
    """The smallest step that keeps ceil(n / step) <= budget."""
    n = positive_int("n", n)
    budget = positive_int("budget", budget)
    return -(-n // budget)


def strided_indices(n: int, budget: int = CELL_BUDGET) -> np.ndarray:
    """Every step-th index of range(n), at most ``budget`` of them."""
    return np.arange(0, n, stride_for(n, budget))


def block_mean(a, max_rows: int = CELL_BUDGET, max_cols: int = CELL_BUDGET) -> tuple[np.ndarray, int, int]:
    """Average non-overlapping blocks so the result fits (max_rows, max_cols); returns (array, row_step, col_step).

    Edge blocks that are only partly filled are averaged over the cells they have (NaNs ignored).
    """
    a = np.asarray(a, dtype=np.float64)
    if a.ndim != 2:
        raise ValueError(f"block_mean needs a 2-D array, got shape {a.shape}")
    rs, cs = stride_for(a.shape[0], max_rows), stride_for(a.shape[1], max_cols)
    if rs == 1 and cs == 1:
        return a, 1, 1
    R, C = -(-a.shape[0] // rs), -(-a.shape[1] // cs)
    padded = np.full((R * rs, C * cs), np.nan)
    padded[: a.shape[0], : a.shape[1]] = a
    blocks = padded.reshape(R, rs, C, cs)  # (R, rs, C, cs)
    with np.errstate(invalid="ignore"):
        counts = np.sum(~np.isnan(blocks), axis=(1, 3))
        sums = np.nansum(blocks, axis=(1, 3))
        out = np.where(counts > 0, sums / np.maximum(counts, 1), np.nan)
    return out, rs, cs


def head_tail_indices(n: int, head: int, tail: int) -> np.ndarray:
    """First ``head`` and last ``tail`` indices of range(n) (all of them if that covers everything), sorted, unique.

    For long tables (2048 dimension pairs) where the interesting rows are at both ends: fastest and slowest.
    """
    n = positive_int("n", n)
    head = positive_int("head", head, minimum=0)
    tail = positive_int("tail", tail, minimum=0)
    if head + tail >= n:
        return np.arange(n)
    return np.concatenate([np.arange(head), np.arange(n - tail, n)])


def log_spaced_indices(n: int, budget: int = CURVE_POINTS, *, dense: int = DENSE_POINTS) -> np.ndarray:
    """At most ``budget`` sorted unique integers from range(n): every one below ``dense``, then geometric steps.

    Made for curves on a log axis (distance vs gap up to 131072): the wiggles of small gaps keep every point, the
    slow tail is sampled evenly per decade, and the last index n - 1 is always included.
    """
    n = positive_int("n", n)
    budget = positive_int("budget", budget, minimum=2)
    dense = positive_int("dense", dense, minimum=0)
    if n <= budget:
        return np.arange(n)
    dense = min(dense, budget // 2)
    head = np.arange(dense)
    rest = np.geomspace(max(dense, 1), n - 1, budget - dense)
    return np.unique(np.concatenate([head, np.round(rest).astype(np.int64)]))  # geomspace ends at n - 1


def spread_indices(n: int, count: int) -> np.ndarray:
    """``count`` indices spread evenly over range(n), first and last included (all of them if n <= count).

    For a few panels out of many (ALiBi heads 1 and H and some between).
    """
    n, count = positive_int("n", n), positive_int("count", count)
    return np.unique(np.linspace(0, n - 1, min(n, count)).round().astype(np.int64))


def log_options(lo: float, hi: float, *, extra: Sequence[float] = ()) -> list[float]:
    """1-2-5 steps per decade from lo to hi, plus ``extra`` values (presets), sorted: a log-scale slider's stops.

    Each stop is built from its decade exponent (``float(f"{m}e{k}")``) so 0.01 is 0.01, not 0.010000000000000002.
    """
    if not 0 < lo <= hi:
        raise ValueError(f"log_options needs 0 < lo <= hi, got lo={lo}, hi={hi}")
    out = {float(v) for v in extra if lo <= v <= hi}
    for k in range(math.floor(math.log10(lo)), math.floor(math.log10(hi)) + 1):
        out.update(v for v in (float(f"{m}e{k}") for m in (1, 2, 5)) if lo <= v <= hi)
    return sorted(out)
