"""embedviz.dot_product against plain loops, math.cos and lesson 002's statements."""
from __future__ import annotations

import math

import numpy as np
import pytest

from embedviz import dot_product as dp
from tests.input_errors import raises_input


@pytest.mark.parametrize(("r1", "a1", "r2", "a2"), [(1, 0, 1, 0), (1, 0, 2, 60), (3, 10, 0.5, 100), (2, 45, 2, 225)])
def test_dot_is_sum_of_products_and_lengths_times_cosine(r1, a1, r2, a2):
    u, v = dp.polar_vector(r1, a1), dp.polar_vector(r2, a2)
    out = dp.compare_vectors(u, v)
    assert out.dot == pytest.approx(sum(x * y for x, y in zip(u, v)))  # plain loop
    angle = abs(a1 - a2) % 360
    angle = min(angle, 360 - angle)
    assert out.angle_deg == pytest.approx(angle, abs=1e-6)
    assert out.cos == pytest.approx(math.cos(math.radians(angle)))
    assert out.dot == pytest.approx(r1 * r2 * math.cos(math.radians(angle)))  # |u||v| cos(theta)
    assert out.lengths_times_cos == pytest.approx(out.dot)
    assert (out.norm_u, out.norm_v) == (pytest.approx(r1), pytest.approx(r2))


def test_lesson_002_sign_rules():
    assert dp.compare_vectors([1, 0], [3, 0]).dot > 0  # same direction: large positive
    assert dp.compare_vectors([1, 0], [-3, 0]).dot < 0  # opposite: large negative
    assert dp.compare_vectors([1, 0], [0, 3]).dot == 0  # right angle: zero
    # the dot grows with length, the cosine does not
    assert dp.compare_vectors([1, 1], [2, 2]).cos == pytest.approx(dp.compare_vectors([1, 1], [20, 20]).cos)
    assert dp.compare_vectors([1, 1], [20, 20]).dot == 10 * dp.compare_vectors([1, 1], [2, 2]).dot


def test_bands():
    assert [dp.similarity_band(c) for c in (1.0, 0.4, 0.39, 0.15, 0.0, -0.15, -0.16, -1.0)] == [
        "close", "close", "related", "related", "unrelated", "unrelated", "opposite", "opposite"]
    assert dp.grade_guesses(["close", "opposite"], ["close", "unrelated"]) == [True, False]


def test_prediction_pairs_are_single_tokens_of_the_bundled_model(minilm):
    m = minilm
    W = m.token_embeddings.astype(np.float64)

    def plain_cos(a: str, b: str) -> float:  # the definition, not the library's function
        x, y = W[m.token_id(a)], W[m.token_id(b)]
        return float(x @ y / np.linalg.norm(x) / np.linalg.norm(y))

    cos = {pair: plain_cos(*pair) for pair in dp.PREDICTION_PAIRS}
    # lesson 002: trained cat and dog score high, cat and Tuesday nearly orthogonal
    assert dp.similarity_band(cos[("cat", "dog")]) == "close"
    assert dp.similarity_band(cos[("cat", "tuesday")]) == "unrelated"


@pytest.mark.parametrize(
    ("call", "match"),
    [
        (lambda: dp.compare_vectors([1, 0], [1, 0, 0]), r"same width"),
        (lambda: dp.similarity_band(1.5), r"cos \(1.5\) must be in \[-1, 1\]"),
    ],
)
def test_errors(call, match):
    with pytest.raises(ValueError, match=match):
        call()


@pytest.mark.parametrize(
    ("call", "code", "params"),
    [
        (lambda: dp.polar_vector(-1, 0), "at_least", {"name": "length", "value": -1, "limit": 0}),
        (lambda: dp.grade_guesses(["close"], ["big"]), "one_of", {"name": "band", "value": "big"}),
    ],
)
def test_input_errors(call, code, params):
    with raises_input(code, **params):
        call()
