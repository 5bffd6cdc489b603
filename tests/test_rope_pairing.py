"""embedviz.rope.pairing: half-split and interleaved RoPE agree after the permutation, and only then."""
import numpy as np
import pytest

from embedviz.rope import pairing as rope_pairing
from tests.input_errors import raises_input


def test_permuted_interleaved_equals_half_split_and_raw_does_not():
    c = rope_pairing.compare_pairings(64, 10_000.0, 50, seed=1)
    np.testing.assert_array_equal(c.offsets, np.arange(51))
    assert c.max_diff < 1e-9 and np.allclose(c.half, c.permuted, atol=1e-9)
    assert np.abs(c.half - c.raw).max() > 0.1


def test_offset_zero_is_the_plain_dot_product():
    c = rope_pairing.compare_pairings(8, 10_000.0, 3, seed=0)
    q, k = np.random.default_rng(0).normal(size=(2, 8))
    assert c.half[0] == pytest.approx(float(sum(a * b for a, b in zip(q, k))))
    assert c.raw[0] == pytest.approx(c.half[0])


def test_negative_max_offset_is_refused():
    with raises_input("at_least", name="max_offset", value=-1, limit=0):
        rope_pairing.compare_pairings(8, 10_000.0, -1)
