"""Keep figures inside a cell budget: strided indices or block means, with a note saying what was done.

A heatmap of 131072 positions x 4096 dimensions would be 2 GB of JSON; the browser gets at most CELL_BUDGET x CELL_BUDGET cells.
"""
from __future__ import annotations

import numpy as np

from embedviz._validate import positive_int

CELL_BUDGET = 352  # per axis: 352 x 352 float32 cells is ~0.9 MB of chart JSON (base64, plotly escapes "/"),
# under the 1 MB payload cap


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


def log_spaced_indices(n: int, budget: int = CELL_BUDGET, *, dense: int = 64) -> np.ndarray:
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
