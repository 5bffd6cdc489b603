"""embedviz.positions.why_sinusoidal against independent references: int bit operations, plain loops, lesson 003's
words."""
from __future__ import annotations

import math

import numpy as np
import pytest

from embedviz.positions import why_sinusoidal
from tests.input_errors import raises_input


def test_binary_code_equals_python_bit_ops():
    positions = [0, 1, 2, 3, 7, 8, 9, 255, 256, 1000, 4095]
    code = why_sinusoidal.binary_code(np.array(positions), 12)
    for row, p in zip(code, positions):
        expected = [int(c) for c in reversed(format(p, "012b"))]  # Python's own binary string, least bit first
        assert row.astype(int).tolist() == expected


def test_binary_codes_repeat_after_two_to_the_d():
    code = why_sinusoidal.binary_code(np.arange(40), 4)
    np.testing.assert_array_equal(code[:16], code[16:32])  # 16 = 2^4: position p and p + 16 collide
    assert why_sinusoidal.compare_schemes(40, 4).collide == (0, 16)
    assert why_sinusoidal.compare_schemes(16, 4).collide is None


def test_raw_index_maximum_grows_with_length():
    maxima = [why_sinusoidal.compare_schemes(L, 8).schemes["raw"].max_abs for L in (10, 100, 1000, 4096)]
    assert maxima == [9, 99, 999, 4095]
    assert why_sinusoidal.compare_schemes(4096, 8).raw_vs_embedding == pytest.approx(4095 / 0.02)


def test_index_over_length_means_different_positions_at_different_lengths():
    # lesson 003: 0.5 is word 5 of 10 and word 500 of 1,000
    assert why_sinusoidal.normalized_value(5, 10) == why_sinusoidal.normalized_value(500, 1000) == 0.5
    assert why_sinusoidal.position_with_value(0.5, 10) == 5 and why_sinusoidal.position_with_value(0.5, 1000) == 500
    assert why_sinusoidal.normalized_value(5, 10) != why_sinusoidal.normalized_value(5, 1000)
    assert why_sinusoidal.normalized_index(1000).max() < 1.0


def test_on_axis_leaves_positions_past_the_end_empty():
    curve = why_sinusoidal.on_axis(why_sinusoidal.normalized_index(4), np.array([0, 2, 4, 6]))
    assert curve[:2].tolist() == [0.0, 0.5] and np.isnan(curve[2:]).all()  # a length-4 sequence has no position 4


def test_binary_neighbour_steps_are_sqrt_of_flipped_bits_sinusoidal_steps_constant():
    steps = why_sinusoidal.adjacent_steps(why_sinusoidal.binary_code(np.arange(33), 8))
    flipped = [bin(p ^ (p + 1)).count("1") for p in range(32)]  # bits that change from p to p + 1
    np.testing.assert_allclose(steps, np.sqrt(flipped))
    assert steps[7] == 2.0 and steps[8] == 1.0  # 7 -> 8 flips four bits, 8 -> 9 one
    s = why_sinusoidal.compare_schemes(256, 8)
    assert s.schemes["sinusoidal"].step_min == pytest.approx(0.9641, abs=5e-5)  # lesson 003: gap 1 -> 0.9641
    assert s.schemes["sinusoidal"].step_max - s.schemes["sinusoidal"].step_min < 1e-5
    assert s.schemes["binary"].step_max == pytest.approx(math.sqrt(8))  # 127 -> 128 flips all eight bits


def test_smooth_counter_matches_bits_where_the_wave_peaks_and_troughs():
    p = np.arange(64)
    smooth, bits = why_sinusoidal.smooth_counter(p, 6), why_sinusoidal.binary_code(p, 6)
    for b in range(6):
        period = 2 ** (b + 1)
        assert why_sinusoidal.bit_periods(6)[b] == period
        trough, peak = p % period == 0, p % period == 2**b  # bit b is 0 at the first, 1 at the second
        np.testing.assert_allclose(smooth[trough, b], 0.0, atol=1e-12)
        np.testing.assert_allclose(smooth[peak, b], 1.0, atol=1e-12)
        assert bits[peak, b].min() == 1 and bits[trough, b].max() == 0
    assert np.all((smooth >= 0) & (smooth <= 1))


def test_distinct_counts():
    s = why_sinusoidal.compare_schemes(1000, 8)
    assert s.schemes["raw"].distinct == s.schemes["normalized"].distinct == s.schemes["sinusoidal"].distinct == 1000
    assert s.schemes["binary"].distinct == 0  # 1000 positions, 256 codes: every code is used at least twice


@pytest.mark.parametrize(
    ("call", "code", "params"),
    [
        (lambda: why_sinusoidal.raw_index(0), "at_least", {"name": "context_length", "value": 0, "limit": 1}),
        (lambda: why_sinusoidal.normalized_value(10, 10), "at_most", {"name": "position", "value": 10, "limit": 9}),
        (lambda: why_sinusoidal.binary_code(np.array([1]), 63), "at_most",
         {"name": "num_bits", "value": 63, "limit": 62}),
        (lambda: why_sinusoidal.compare_schemes(10, 7), "even", {"name": "d_model", "value": 7}),
    ],
)
def test_errors_name_the_parameter(call, code, params):
    with raises_input(code, **params):
        call()


@pytest.mark.parametrize(
    ("call", "match"),
    [  # values the core computed itself: a caller's slip, in plain English
        (lambda: why_sinusoidal.position_with_value(1.0, 10), r"value \(1\) must be in \[0, 1\)"),
        (lambda: why_sinusoidal.binary_code(np.array([-1]), 4), r"positions must be a 1-D array of integers >= 0"),
        (lambda: why_sinusoidal.adjacent_steps([1.0]), r"at least 2 rows"),
    ],
)
def test_caller_errors(call, match):
    with pytest.raises(ValueError, match=match):
        call()
