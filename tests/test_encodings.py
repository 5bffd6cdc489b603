"""embedviz.encodings: the five schemes' position vectors, their neighbours' similarity, and past the end."""
import math

import numpy as np
import pytest

from embedviz import encodings
from tests.input_errors import raises_input


def test_past_the_end_is_relative_for_rope_and_alibi():
    past = encodings.past_the_end(64, 1_024, 5, 8)
    assert past.last == 1_028
    assert math.isclose(past.rope_far, past.rope_near, abs_tol=1e-9)
    assert past.alibi_far == past.alibi_near == -0.5  # head 1 of 8 has slope 1/2
    assert math.isclose(past.sin_adjacent_far, past.sin_adjacent_start, abs_tol=1e-5)
    w = 10_000 ** (-2 * np.arange(32) / 64)
    assert np.allclose(past.sin_values, [math.sin(1_028), math.cos(1_028), math.sin(1_028 * w[1]),
                                         math.cos(1_028 * w[1])], atol=1e-6)


def test_adjacent_curves():
    p = np.arange(1_023)
    c = {s: encodings.adjacent_cosines(s, p, 64) for s in encodings.SCHEMES}
    # sinusoidal: the same at every position, mean_i cos(w_i); RoPE's rotated all-ones vector gives the same
    expected = np.mean(np.cos(10_000 ** (-2 * np.arange(32) / 64)))
    assert np.allclose(c["sinusoidal"], expected, atol=1e-5)
    assert np.allclose(c["rope"], expected, atol=1e-9)
    assert np.all(c["none"] == 1.0) and np.all(c["alibi"] == 1.0)
    # a random N(0, 0.02^2) table: neighbours are nearly orthogonal, spread ~ 1/sqrt(D)
    assert abs(c["learned"].mean()) < 0.05 and 0.05 < c["learned"].std() < 0.25


def test_learned_rows_are_a_fixed_random_table():
    a = encodings.position_vectors("learned", [0, 5, 9], 4_096)
    b = encodings.position_vectors("learned", [9, 100], 4_096)
    assert np.array_equal(a[2], b[0])  # row 9 does not depend on which other rows are asked for
    assert abs(a.std() - 0.02) < 0.001
    assert not np.allclose(a[0], a[1])


def test_unknown_scheme_names_the_choices():
    with raises_input("one_of", name="scheme", value="xpos", allowed="'sinusoidal', 'learned', 'rope', 'alibi', 'none'"):
        encodings.position_vectors("xpos", [0], 8)


def test_every_scheme_has_a_properties_row():
    assert set(encodings.MEETS) == set(encodings.SCHEMES)
    assert all(len(row) == len(encodings.PROPERTIES) for row in encodings.MEETS.values())
