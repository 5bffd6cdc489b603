"""Keep figures inside a cell budget: strided indices or block means, with a note saying what was done.

A heatmap of 131072 positions x 4096 dimensions would be 2 GB of JSON; the browser gets at most CELL_BUDGET x CELL_BUDGET cells.
"""
from __future__ import annotations

import numpy as np

from embedviz._validate import positive_int

CELL_BUDGET = 384  # per axis: 384 x 384 float32 cells is ~0.8 MB of chart JSON, under the 1 MB payload cap


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
