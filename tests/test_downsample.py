"""Cell budget helpers: block means against a naive loop, strides, head/tail and log-spaced picks."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from embedviz.downsample import (
    CELL_BUDGET,
    block_mean,
    head_tail_indices,
    log_spaced_indices,
    stride_for,
    strided_indices,
)
from tests.input_errors import raises_input


def naive_block_mean(a, rs, cs):
    """Loop over output cells; each averages the input cells its block covers (fewer at ragged edges)."""
    R, C = -(-a.shape[0] // rs), -(-a.shape[1] // cs)
    out = np.empty((R, C))
    for i in range(R):
        for j in range(C):
            cells = [a[r, c] for r in range(i * rs, min((i + 1) * rs, a.shape[0]))
                     for c in range(j * cs, min((j + 1) * cs, a.shape[1]))]
            out[i, j] = sum(cells) / len(cells)
    return out


@settings(max_examples=50, deadline=None)
@given(rows=st.integers(1, 60), cols=st.integers(1, 60), max_rows=st.integers(1, 20), max_cols=st.integers(1, 20))
def test_block_mean_matches_naive_loop_and_keeps_budget(rows, cols, max_rows, max_cols):
    a = np.random.default_rng(rows * 100 + cols).normal(size=(rows, cols))
    out, rs, cs = block_mean(a, max_rows, max_cols)
    assert out.shape[0] <= max_rows and out.shape[1] <= max_cols
    assert out.shape == (-(-rows // rs), -(-cols // cs))
    np.testing.assert_allclose(out, naive_block_mean(a, rs, cs), atol=1e-12)


def test_block_mean_ragged_edges():
    # 5 x 3 into at most 2 x 2: steps 3 and 2; the last row block has 2 rows, the last column block 1 column
    a = np.arange(15, dtype=float).reshape(5, 3)
    out, rs, cs = block_mean(a, 2, 2)
    assert (rs, cs) == (3, 2)
    expected = [[np.mean([0, 1, 3, 4, 6, 7]), np.mean([2, 5, 8])], [np.mean([9, 10, 12, 13]), np.mean([11, 14])]]
    np.testing.assert_allclose(out, expected)


def test_block_mean_within_budget_is_unchanged():
    a = np.random.default_rng(0).normal(size=(10, 7))
    out, rs, cs = block_mean(a, 10, 7)
    assert (rs, cs) == (1, 1)
    np.testing.assert_array_equal(out, a)


def test_block_mean_real_size_fits_default_budget():
    out, rs, cs = block_mean(np.ones((4096, 1000)))
    assert out.shape == (-(-4096 // rs), -(-1000 // cs)) and max(out.shape) <= CELL_BUDGET
    np.testing.assert_allclose(out, 1.0)


def test_block_mean_validation():
    with pytest.raises(ValueError, match=r"block_mean needs a 2-D array, got shape \(3,\)"):
        block_mean(np.zeros(3))
    with raises_input("at_least", name="budget", value=0, limit=1):
        block_mean(np.zeros((3, 3)), 0, 3)


@pytest.mark.parametrize(("n", "budget", "step"), [(1, 384, 1), (384, 384, 1), (385, 384, 2), (131_072, 384, 342)])
def test_stride_for(n, budget, step):
    assert stride_for(n, budget) == step
    idx = strided_indices(n, budget)
    assert idx.size <= budget and idx[0] == 0
    np.testing.assert_array_equal(idx, list(range(0, n, step)))


def test_stride_is_the_smallest_that_fits():
    for n in range(1, 200):
        s = stride_for(n, 7)
        assert -(-n // s) <= 7 and (s == 1 or -(-n // (s - 1)) > 7)


def test_head_tail_indices():
    np.testing.assert_array_equal(head_tail_indices(10, 3, 2), [0, 1, 2, 8, 9])
    np.testing.assert_array_equal(head_tail_indices(5, 3, 2), [0, 1, 2, 3, 4])
    np.testing.assert_array_equal(head_tail_indices(5, 0, 1), [4])
    with raises_input("at_least", name="head", value=-1, limit=0):
        head_tail_indices(5, -1, 1)


@pytest.mark.parametrize(("n", "budget", "dense"), [(1, 10, 4), (10, 10, 4), (11, 10, 4), (131_072, 384, 64), (1000, 50, 0)])
def test_log_spaced_indices(n, budget, dense):
    idx = log_spaced_indices(n, budget, dense=dense)
    assert idx.size <= budget
    assert np.all(np.diff(idx) > 0) and idx[-1] == n - 1 and idx[0] >= 0
    if n <= budget:
        np.testing.assert_array_equal(idx, np.arange(n))
    else:
        np.testing.assert_array_equal(idx[: min(dense, budget // 2)], np.arange(min(dense, budget // 2)))
        # geometric beyond the dense part: ratios between neighbours stay bounded (no decade left empty)
        tail = idx[idx >= max(dense, 1)].astype(float)
        assert np.max(tail[1:] / tail[:-1]) < 2 * (n / max(dense, 1)) ** (1 / (budget - dense - 1)) + 1e-9


@pytest.mark.parametrize(("n", "count", "expected"), [(8, 4, [0, 2, 5, 7]), (3, 4, [0, 1, 2]), (1, 4, [0]), (128, 2, [0, 127])])
def test_spread_indices_keep_first_and_last(n, count, expected):
    from embedviz.downsample import spread_indices

    assert spread_indices(n, count).tolist() == expected


def test_figure_sizes_derived_from_the_budget_are_the_pinned_sizes():
    """Regression snapshot: the literals each view module used before the sizes became shares of CELL_BUDGET,
    except the two heatmaps a slider step redraws, lighter so that a step stays quick (HEATMAP_PAIRS 64 and
    ANGLE_HEATMAP_POSITIONS 128; that they show the same picture is checked in tests/app/test_page_rope.py
    and tests/app/test_page_sinusoidal.py)."""
    from embedviz import downsample

    sizes = {"CURVE_POINTS": 256, "SIMILARITY_POSITIONS": 256, "HEATMAP_PAIRS": 64, "ANGLE_HEATMAP_POSITIONS": 128,
             "COMPARE_CURVE_POINTS": 256, "COMPARE_MATRIX_POSITIONS": 96, "ALIBI_BIAS_POSITIONS": 64,
             "OFFSET_POINTS": 128, "DENSE_DISTANCES": 1_024}
    assert downsample.CELL_BUDGET == 352
    assert {name: getattr(downsample, name) for name in sizes} == sizes
