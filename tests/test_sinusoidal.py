"""Sinusoidal encoding: lesson 003's numbers, a naive float64 loop as the reference, and the properties it teaches."""
from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from embedviz.positions.sinusoidal import (
    MAX_POSITIONS,
    distance_levels,
    distance_vs_gap,
    frequencies,
    rotate_encoding,
    rotation_check,
    rotation_matrix,
    sinusoidal_rows,
    sinusoidal_table,
    wavelengths,
)
from tests.input_errors import raises_input


# independent references: lesson 003's own code (plain python floats), written out again here


def sinusoidal_pe(pos, d_model=8, base=10000):
    """Lesson 003's ``sinusoidal_pe`` with the base as a parameter: sin on even i, cos on odd i."""
    return [
        math.sin(pos / base ** (i / d_model)) if i % 2 == 0 else math.cos(pos / base ** ((i - 1) / d_model))
        for i in range(d_model)
    ]


def dist(a, b):
    return math.sqrt(sum((x - y) ** 2 for x, y in zip(a, b)))


def reference_rows(positions, d_model, base=10_000.0):
    """float64 numpy reference, the formula written per column (no angle-addition tricks)."""
    positions = np.asarray(positions, dtype=np.float64)[:, None]
    i = np.arange(d_model)
    angle = positions / base ** ((i - i % 2) / d_model)  # (P, D): columns 2j and 2j+1 share w_j
    return np.where(i % 2 == 0, np.sin(angle), np.cos(angle))


# snapshots from lesson 003 (inputs stated beside each)


def test_text003_position_1_d8_base_10000():
    # D=8, base 10000, p=1 -> [0.84, 0.54, 0.1, 1.0, 0.01, 1.0, 0.0, 1.0] (rounded to 2 places)
    assert np.round(sinusoidal_table(2, 8)[1].astype(np.float64), 2).tolist() == [0.84, 0.54, 0.1, 1.0, 0.01, 1.0, 0.0, 1.0]


def test_text003_positions_0_to_3_d8():
    # D=8: the text prints positions 0..3; position 0 is [0, 1, 0, 1, ...] (sin 0, cos 0)
    expected = [
        [0.0, 1.0, 0.0, 1.0, 0.0, 1.0, 0.0, 1.0],
        [0.84, 0.54, 0.1, 1.0, 0.01, 1.0, 0.0, 1.0],
        [0.91, -0.42, 0.2, 0.98, 0.02, 1.0, 0.0, 1.0],
        [0.14, -0.99, 0.3, 0.96, 0.03, 1.0, 0.0, 1.0],
    ]
    assert (np.round(sinusoidal_table(4, 8).astype(np.float64), 2) + 0.0).tolist() == expected  # + 0.0 turns -0.0 into 0.0


def test_text003_frequencies_and_wavelengths_d8():
    # D=8, base 10000: omega = 1, 0.1, 0.01, 0.001; wavelength 2*pi/omega = 6.3, 63, 628, 6283 positions
    np.testing.assert_allclose(frequencies(8), [1.0, 0.1, 0.01, 0.001], rtol=1e-12)
    wl = wavelengths(8)
    assert round(wl[0], 1) == 6.3
    assert [round(v) for v in wl[1:]] == [63, 628, 6283]


def test_text003_distance_from_position_0_d8():
    # D=8, base 10000, dist(PE(0), PE(k)) for k = 1..10, 100, 1000, rounded to 2 places
    gaps = list(range(1, 11)) + [100, 1000]
    expected = [0.96, 1.69, 2.02, 1.86, 1.3, 0.66, 0.98, 1.7, 2.14, 2.15, 2.21, 2.4]
    assert np.round(distance_vs_gap(8, gaps)[0], 2).tolist() == expected
    # the same numbers from rows of the float32 table itself
    table = sinusoidal_table(1001, 8).astype(np.float64)
    from_table = np.linalg.norm(table[gaps] - table[0], axis=1)
    assert np.round(from_table, 2).tolist() == expected


def test_text003_same_gap_same_distance_from_start_0_and_100():
    # D=8, base 10000, gaps 1, 5, 100 from start 0 and from start 100: 0.9641, 1.2962, 2.2097 (4 places)
    d = distance_vs_gap(8, [1, 5, 100], starts=[0, 100])
    assert np.round(d, 4).tolist() == [[0.9641, 1.2962, 2.2097]] * 2


def test_naive_reference_reproduces_text_numbers_too():
    # guards the reference itself: lesson 003's loop gives its printed numbers
    assert [round(dist(sinusoidal_pe(0), sinusoidal_pe(k)), 2) for k in (1, 5, 1000)] == [0.96, 1.3, 2.4]


# the table against the naive loop


@pytest.mark.parametrize("d_model", [1, 2, 3, 7, 8, 9, 64, 65])
@pytest.mark.parametrize("num_positions", [1, 2, 17, 300])
@pytest.mark.parametrize("base", [100.0, 10_000.0, 1e6])
def test_table_matches_naive_loop(num_positions, d_model, base):
    table = sinusoidal_table(num_positions, d_model, base)
    naive = np.array([sinusoidal_pe(p, d_model, base) for p in range(num_positions)])
    assert table.shape == (num_positions, d_model)
    assert table.dtype == np.float32 and table.flags.c_contiguous
    np.testing.assert_allclose(table, naive, atol=1e-6, rtol=0)


def test_odd_d_model_ends_in_a_sine():
    # D=5: columns sin w0, cos w0, sin w1, cos w1, sin w2 -> the last column is sin(p * 10000^(-4/5))
    table = sinusoidal_table(50, 5)
    np.testing.assert_allclose(table[:, -1], np.sin(np.arange(50) * 10_000 ** (-4 / 5)), atol=1e-6)
    assert table[0, -1] == 0.0


def test_large_positions_within_1e_5_of_float64():
    # D=1024 up to position 131072 (strided rows plus the last ones): the float32 angle trick stays accurate
    L, D = 131_072, 1024
    table = sinusoidal_table(L, D)
    rows = np.r_[np.arange(0, L, 997), np.arange(L - 300, L)]
    err = np.abs(table[rows].astype(np.float64) - reference_rows(rows, D)).max()
    assert err <= 1e-5
    # why the trick: the plain float32 way (angle = p * w in float32) is off by far more at these positions
    p32 = rows.astype(np.float32)[:, None] * frequencies(D).astype(np.float32)  # (P, D/2) angles, rounded
    naive32 = np.empty((rows.size, D), dtype=np.float32)
    naive32[:, 0::2], naive32[:, 1::2] = np.sin(p32), np.cos(p32)
    assert np.abs(naive32 - reference_rows(rows, D)).max() > 1e-3


def test_ragged_last_block_large_table():
    # L = 70001 is not a multiple of the block (256): the tail rows are as exact as the rest
    L, D = 70_001, 16
    table = sinusoidal_table(L, D)
    rows = np.r_[np.arange(0, L, 613), np.arange(L - 260, L)]
    np.testing.assert_allclose(table[rows], reference_rows(rows, D), atol=1e-6, rtol=0)


@pytest.mark.parametrize("num_positions", [1, 255, 256, 257, 65_536])
def test_table_is_its_own_prefix(num_positions):
    # a longer table starts with the shorter one: no position depends on the table length
    long = sinusoidal_table(num_positions + 100, 6)
    np.testing.assert_allclose(sinusoidal_table(num_positions, 6), long[:num_positions], atol=2e-7, rtol=0)


def test_rows_match_table_and_pick_columns():
    table = sinusoidal_table(1000, 12, 500.0)
    positions = [0, 3, 999]
    np.testing.assert_allclose(sinusoidal_rows(positions, 12, 500.0), table[positions], atol=1e-6)
    dims = [0, 1, 7, 11]
    picked = sinusoidal_rows(positions, 12, 500.0, dims=dims, dtype=np.float64)
    np.testing.assert_allclose(picked, reference_rows(positions, 12, 500.0)[:, dims], atol=1e-12)
    assert picked.dtype == np.float64 and picked.shape == (3, 4)
    # non-integer positions work too (the formula is defined for any real p)
    np.testing.assert_allclose(sinusoidal_rows([2.5], 4, dtype=np.float64)[0], sinusoidal_pe(2.5, 4), atol=1e-12)


# properties


@settings(max_examples=60, deadline=None)
@given(
    p=st.integers(0, 200_000),
    k=st.integers(-5_000, 5_000),
    half=st.integers(1, 48),
    base=st.sampled_from([100.0, 10_000.0, 500_000.0, 1e7]),
)
def test_rotation_property(p, k, half, base):
    # PE(p + k) = R(k) PE(p) with R(k) depending only on k (lesson 003: a rotation of each pair by k w_i)
    D = 2 * half
    pe_p, pe_pk = reference_rows([p, p + k], D, base)
    R = rotation_matrix(k, D, base)
    np.testing.assert_allclose(R @ pe_p, pe_pk, atol=1e-9)
    np.testing.assert_allclose(rotate_encoding(pe_p, k, base), R @ pe_p, atol=1e-12)
    # R(k) is orthogonal: a rotation keeps lengths
    np.testing.assert_allclose(R @ R.T, np.eye(D), atol=1e-12)


def test_rotation_turns_the_way_ropes_does():
    """The Sinusoidal page's sign note: its R(k) on (sin, cos) and RoPE's rotation of (cos, sin) turn the point by
    the same +k*w, both landing on position p + k."""
    from embedviz.rope import rotary

    p, k, omega = 5, 3, 1.0  # pair 0 of any D has w = 1
    pe = sinusoidal_rows([p], 8, dtype=np.float64)[0]
    ours = rotate_encoding(pe, k)[:2]  # (sin, cos) of p + k
    ropes = rotary.rotate_2d((pe[1], pe[0]), k, omega)  # RoPE turns (a, b) = (cos, sin) by +k*w
    np.testing.assert_allclose([ropes[1], ropes[0]], ours, atol=1e-12)
    np.testing.assert_allclose(ours, [math.sin(8.0), math.cos(8.0)], atol=1e-12)
    # pair 1 of D = 8, with both matrices written out
    d, base, i = 8, 10_000.0, 1
    w = base ** (-2 * i / d)
    pe = sinusoidal_rows([p, p + k], d, base, dtype=np.float64)  # (2, d): pair i is (sin, cos)
    sin_p, cos_p = pe[0, 2 * i], pe[0, 2 * i + 1]
    # the Sinusoidal page's R(k) = [[cos, sin], [-sin, cos]] on (sin, cos)
    by_sin_page = (math.cos(k * w) * sin_p + math.sin(k * w) * cos_p, -math.sin(k * w) * sin_p + math.cos(k * w) * cos_p)
    np.testing.assert_allclose(by_sin_page, pe[1, 2 * i: 2 * i + 2], atol=1e-12)
    # RoPE's R(k) = [[cos, -sin], [sin, cos]] on the same angle written (cos, sin): the same point at p + k
    np.testing.assert_allclose(rotary.rotate_2d((cos_p, sin_p), k, w), (pe[1, 2 * i + 1], pe[1, 2 * i]), atol=1e-12)


def test_rotation_check_reports_both_ways_and_tiny_error():
    check = rotation_check(5, 3, 8)
    np.testing.assert_allclose(check.direct, sinusoidal_pe(8, 8), atol=1e-12)
    np.testing.assert_allclose(check.start, sinusoidal_pe(5, 8), atol=1e-12)
    np.testing.assert_allclose(check.rotated, check.direct, atol=1e-12)
    assert check.max_error < 1e-12
    assert rotation_check(131_071, 1000, 4096).max_error < 1e-8


def test_rotation_of_a_batch_is_rowwise():
    pe = reference_rows(np.arange(10), 16)
    expected = pe @ rotation_matrix(7, 16).T
    np.testing.assert_allclose(rotate_encoding(pe, 7), expected, atol=1e-12)


@settings(max_examples=60, deadline=None)
@given(
    s1=st.integers(0, 10**6),
    s2=st.integers(0, 10**6),
    k=st.integers(0, 10**5),
    half=st.integers(1, 32),
)
def test_distance_depends_only_on_the_gap(s1, s2, k, half):
    D = 2 * half
    d = distance_vs_gap(D, [k], starts=[s1, s2])[:, 0]
    assert d[0] == pytest.approx(d[1], abs=1e-8)
    # and it is the Euclidean distance of the naive encodings
    naive = dist(sinusoidal_pe(s1, D), sinusoidal_pe(s1 + k, D))
    assert d[0] == pytest.approx(naive, abs=1e-8)
    # the closed form of lesson 003: each pair adds 2(1 - cos(w k))
    assert d[0] ** 2 == pytest.approx(np.sum(2 - 2 * np.cos(k * frequencies(D))), abs=1e-8)


def test_odd_d_model_distance_depends_on_start():
    # the lone last sine breaks the pure-gap property (why the rotation and the page use even D)
    d = distance_vs_gap(9, [3000], starts=[0, 5000])[:, 0]
    assert abs(d[0] - d[1]) > 1e-3


@pytest.mark.parametrize("d_model", [2, 8, 64])
def test_distance_bounded_and_hovers_around_sqrt_d(d_model):
    typical, bound = distance_levels(d_model)
    assert bound == pytest.approx(math.sqrt(2 * d_model))
    gaps = np.random.default_rng(1).integers(0, 10**8, 20_000)
    d = distance_vs_gap(d_model, gaps)[0]
    assert d.max() <= bound + 1e-12
    assert math.sqrt(np.mean(d**2)) == pytest.approx(typical, rel=0.03)


def test_distance_rises_then_saturates_d8():
    # lesson 003: up to 2.02 at gap 3, back to 1.30 at gap 5, only 2.4 at gap 1000: not "farther = larger"
    d = distance_vs_gap(8, [1, 3, 5, 1000])[0]
    assert d[0] < d[1] and d[2] < d[1] and d[3] < distance_levels(8)[1]


def test_unique_fingerprints():
    # no two positions of a real-size table share an encoding (bounded does not mean colliding)
    table = sinusoidal_table(4096, 64).astype(np.float64)
    sq = (table**2).sum(1)
    d2 = sq[:, None] + sq[None, :] - 2 * table @ table.T
    np.fill_diagonal(d2, np.inf)
    assert d2.min() > 1e-3


# validation: every message names the parameter, the value and what is allowed


@pytest.mark.parametrize(
    ("kwargs", "code", "params"),
    [
        (dict(d_model=0), "at_least", {"limit": 1}),
        (dict(d_model=-4), "at_least", {"limit": 1}),
        (dict(d_model=7.5), "integer", {"kind": "float"}),
        (dict(d_model=True), "integer", {"kind": "bool"}),
        (dict(base=1.0), "above", {"limit": 1}),
        (dict(base=0.5), "above", {"limit": 1}),
        (dict(base=float("nan")), "finite", {}),
        (dict(base=float("inf")), "finite", {}),
        (dict(context_length=MAX_POSITIONS + 1), "at_most", {"limit": MAX_POSITIONS}),
        (dict(context_length=0), "at_least", {"limit": 1}),
    ],
)
def test_table_validation(kwargs, code, params):
    args = dict(context_length=4, d_model=8, base=10_000.0) | kwargs
    [(name, value)] = kwargs.items()  # the refusal names the one argument that is wrong, and its value
    with raises_input(code, name=name, value=value, **params):
        sinusoidal_table(**args)


@pytest.mark.parametrize("fn", [frequencies, wavelengths])
def test_frequency_validation(fn):
    with raises_input("at_least", name="d_model", value=0, limit=1):
        fn(0)
    with raises_input("above", name="base", value=1, limit=1):
        fn(8, 1)


def test_rotation_and_rows_validation():
    with raises_input("even", name="d_model", value=7):
        rotation_matrix(1, 7)
    with raises_input("even", name="d_model", value=5):
        rotate_encoding(np.zeros(5), 1)
    with raises_input("finite", name="offset", value=float("nan")):
        rotation_check(0, float("nan"), 8)
    with raises_input("non_finite", name="positions"):
        sinusoidal_rows([0, float("inf")], 8)
    with pytest.raises(ValueError, match=r"dims must be integer column indices in \[0, 7\]"):
        sinusoidal_rows([0], 8, dims=[8])
    with raises_input("non_finite", name="gaps"):
        distance_vs_gap(8, [float("nan")])


@pytest.mark.parametrize(
    ("pairs", "d_model", "expected"), [([0, 2], 8, [0, 1, 4, 5]), ([0, 1, 2], 5, [0, 1, 2, 3, 4]), ([], 4, [])]
)
def test_pair_dims_are_each_pairs_sin_then_cos_column(pairs, d_model, expected):
    from embedviz.positions.sinusoidal import pair_dims

    assert pair_dims(pairs, d_model).tolist() == expected
