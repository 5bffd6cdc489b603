"""RoPE: lesson 003's numbers, naive per-pair references for both pairings, and the relative-position property."""
from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from embedviz.rope import rotary
from tests.input_errors import raises_input

# helpers: references written independently of embedviz.rope.rotary


def naive_rotate(x: np.ndarray, positions, theta: float, pairing: str) -> np.ndarray:
    """One 2x2 rotation per (position, pair), in plain python loops."""
    T, d = x.shape
    out = np.zeros_like(x, dtype=np.float64)
    for t in range(T):
        for i in range(d // 2):
            w = theta ** (-(2 * i) / d)
            a = positions[t] * w
            j, k = (i, i + d // 2) if pairing == "half" else (2 * i, 2 * i + 1)
            out[t, j] = x[t, j] * math.cos(a) - x[t, k] * math.sin(a)
            out[t, k] = x[t, j] * math.sin(a) + x[t, k] * math.cos(a)
    return out


def hf_rotate_half_reference(x: np.ndarray, positions, theta: float) -> np.ndarray:
    """Hugging Face Llama's formula: x * cos + rotate_half(x) * sin, cos/sin of cat(freqs, freqs)."""
    d = x.shape[-1]
    inv_freq = 1.0 / theta ** (np.arange(0, d, 2) / d)
    emb = np.concatenate([np.outer(positions, inv_freq)] * 2, axis=-1)  # (T, d)
    rotated_half = np.concatenate([-x[..., d // 2 :], x[..., : d // 2]], axis=-1)
    return x * np.cos(emb) + rotated_half * np.sin(emb)


def gptj_rotate_every_two_reference(x: np.ndarray, positions, theta: float) -> np.ndarray:
    """GPT-J's formula: x * repeat_interleave(cos) + rotate_every_two(x) * repeat_interleave(sin)."""
    d = x.shape[-1]
    inv_freq = 1.0 / theta ** (np.arange(0, d, 2) / d)
    ang = np.repeat(np.outer(positions, inv_freq), 2, axis=-1)  # (T, d)
    every_two = np.stack([-x[..., 1::2], x[..., 0::2]], axis=-1).reshape(x.shape)
    return x * np.cos(ang) + every_two * np.sin(ang)


# lesson 003: the 2-D demo and the decay table


def test_text_003_two_d_demo():
    q, k = (1.0, 0.0), (0.8, 0.6)
    assert round(rotary.score_2d(q, k, 5, 3), 4) == 0.2127
    assert round(rotary.score_2d(q, k, 50, 48), 4) == 0.2127
    assert round(rotary.score_2d(q, k, 5, 0), 4) == -0.3484


def test_pair_demo_defaults_reproduce_text_003():
    demo = rotary.pair_demo((1, 0), (0.8, 0.6), 5, 3, shift=45, omega=1.0)
    assert (round(demo.score, 4), round(demo.score_shifted, 4), round(demo.score_other, 4)) == (0.2127, 0.2127, -0.3484)
    # the arrows are the rotated vectors: q at 5 radians, k at atan2(0.6, 0.8) + 3
    assert np.allclose(demo.q_m, [math.cos(5), math.sin(5)])
    k_angle = math.atan2(0.6, 0.8) + 3
    assert np.allclose(demo.k_n, [math.cos(k_angle), math.sin(k_angle)])
    assert np.isclose(demo.score, demo.q_m @ demo.k_n)


@pytest.mark.parametrize(
    "distance, expected",
    [
        (0, 1.000), (1, 0.970), (5, 0.737), (10, 0.669), (20, 0.608),
        (50, 0.546), (100, 0.477), (200, 0.306), (400, 0.278),
    ],
)
def test_decay_curve_matches_text_003(distance, expected):
    value = rotary.decay_curve(128, 10_000, [distance])[0]
    assert f"{value:.3f}" == f"{expected:.3f}"


def test_decay_curve_is_the_score_of_all_ones_vectors():
    # mean_i cos(d w_i) is <R(d) 1, R(0) 1> / head_dim: every pair of the all-ones vector is (1, 1), dot 2 cos(d w_i)
    d = 64
    ones = np.ones(d)
    offsets = np.arange(0, 300, 7)
    scores = rotary.scores_vs_offset(ones, ones, offsets, 10_000) / d
    assert np.allclose(scores, rotary.decay_curve(d, 10_000, offsets))


def test_larger_theta_decays_more_slowly():
    distances = [1, 10, 100]
    assert np.all(rotary.decay_curve(128, 1_000_000, distances) > rotary.decay_curve(128, 10_000, distances))


# frequencies


@pytest.mark.parametrize("head_dim, theta", [(2, 10_000.0), (8, 10_000.0), (128, 500_000.0), (64, 1e6), (256, 100.0)])
def test_inverse_frequencies_equal_theta_power(head_dim, theta):
    inv_freq = rotary.inverse_frequencies(head_dim, theta)
    expected = [theta ** (-(2 * i) / head_dim) for i in range(head_dim // 2)]
    assert inv_freq.shape == (head_dim // 2,) and inv_freq.dtype == np.float64
    assert np.allclose(inv_freq, expected, rtol=1e-12)


def test_wavelengths_and_turns():
    # D=8, theta 10000: w = 1, 0.1, 0.01, 0.001 (lesson 000's table), wavelengths 6.3, 63, 628, 6283
    inv_freq = rotary.inverse_frequencies(8, 10_000)
    np.testing.assert_allclose(rotary.wavelengths(inv_freq), [6.283185, 62.83185, 628.3185, 6283.185], rtol=1e-6)
    # over 1000 positions: 1000 / 6.283 = 159.15 turns for the fastest pair, 0.159 for the slowest (by hand)
    np.testing.assert_allclose(rotary.turns_within(inv_freq, 1_000), [159.1549, 15.91549, 1.591549, 0.1591549],
                               rtol=1e-6)
    # at D=128, theta 10000, a 4096-token context: the slowest pairs never finish a turn
    slow = rotary.turns_within(rotary.inverse_frequencies(128, 10_000), 4_096) < 1
    assert slow[-1] and not slow[0]
    assert np.all(np.diff(slow.astype(int)) >= 0)  # once a pair is too slow, every later pair is too


def test_decay_of_frequencies_takes_any_frequencies():
    # halving every frequency is the same as halving every distance
    inv_freq = rotary.inverse_frequencies(64, 10_000)
    np.testing.assert_allclose(rotary.decay_of_frequencies(inv_freq / 2, [2, 10, 400]),
                               rotary.decay_curve(64, 10_000, [1, 5, 200]), rtol=1e-12)


def test_rope_does_not_import_scaling():
    # scaling builds on plain RoPE, never the other way round (and from_config lives in rope_config)
    import ast
    from pathlib import Path

    tree = ast.parse(Path(rotary.__file__).read_text())
    imported = {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
    imported |= {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module}
    assert not any("rope_scaling" in name or "rope_config" in name for name in imported), imported
    assert not hasattr(rotary, "from_config")


# rotate against the references


@pytest.mark.parametrize("pairing", ["half", "interleaved"])
@pytest.mark.parametrize("head_dim, theta", [(2, 10_000.0), (8, 10_000.0), (16, 500_000.0)])
def test_rotate_matches_naive_loop(pairing, head_dim, theta):
    rng = np.random.default_rng(head_dim)
    x = rng.normal(size=(7, head_dim))
    positions = np.array([0, 1, 2, 5, 100, 4_095, 131_071])
    got = rotary.rotate(x, positions, theta, pairing=pairing)
    assert np.allclose(got, naive_rotate(x, positions, theta, pairing), atol=1e-9)


def test_rotate_matches_llama_and_gptj_formulas():
    rng = np.random.default_rng(1)
    x = rng.normal(size=(2, 3, 10, 32))  # (B, H, T, head_dim): leading dims broadcast
    pos = np.arange(10) * 37
    assert np.allclose(rotary.rotate(x, pos, 10_000), hf_rotate_half_reference(x, pos, 10_000))
    assert np.allclose(
        rotary.rotate(x, pos, 10_000, pairing="interleaved"), gptj_rotate_every_two_reference(x, pos, 10_000)
    )


def test_rotate_with_explicit_inv_freq():
    x = np.random.default_rng(2).normal(size=(4, 8))
    pos = np.arange(4)
    inv_freq = rotary.inverse_frequencies(8, 10_000) / 2
    # halving every frequency is the same as halving every position
    assert np.allclose(rotary.rotate(x, pos, inv_freq=inv_freq), rotary.rotate(x, pos / 2))


@pytest.mark.parametrize("pairing", ["half", "interleaved"])
def test_rotate_keeps_norms_and_position_zero(pairing):
    x = np.random.default_rng(3).normal(size=(50, 64))
    pos = np.arange(50) * 1_000
    out = rotary.rotate(x, pos, 10_000, pairing=pairing)
    assert np.allclose(np.linalg.norm(out, axis=-1), np.linalg.norm(x, axis=-1))
    assert np.allclose(rotary.rotate(x[:1], [0], pairing=pairing), x[:1])


def test_pairings_agree_up_to_the_permutation():
    d = 12
    P = rotary.half_to_interleaved(d)
    assert P.tolist() == [0, 6, 1, 7, 2, 8, 3, 9, 4, 10, 5, 11]
    assert sorted(P.tolist()) == list(range(d))
    x = np.random.default_rng(4).normal(size=(9, d))
    pos = np.arange(9) * 11
    half = rotary.rotate(x, pos, pairing="half")
    inter = rotary.rotate(x[:, P], pos, pairing="interleaved")
    assert np.allclose(inter, half[:, P])
    # without the permutation the two are different rotations of the same numbers
    assert not np.allclose(rotary.rotate(x, pos, pairing="interleaved"), half)


def test_pair_of_dimension():
    assert rotary.pair_of_dimension(8).tolist() == [0, 1, 2, 3, 0, 1, 2, 3]
    assert rotary.pair_of_dimension(8, pairing="interleaved").tolist() == [0, 0, 1, 1, 2, 2, 3, 3]
    # the permutation maps one layout onto the other
    P = rotary.half_to_interleaved(8)
    assert (rotary.pair_of_dimension(8)[P] == rotary.pair_of_dimension(8, pairing="interleaved")).all()


def test_pair_dimensions_inverts_pair_of_dimension():
    assert rotary.pair_dimensions(6).tolist() == [[0, 3], [1, 4], [2, 5]]
    assert rotary.pair_dimensions(6, pairing="interleaved").tolist() == [[0, 1], [2, 3], [4, 5]]
    for pairing in ("half", "interleaved"):
        dims = rotary.pair_dimensions(64, pairing=pairing)
        owner = rotary.pair_of_dimension(64, pairing=pairing)
        assert sorted(dims.ravel().tolist()) == list(range(64))
        assert all((owner[dims[i]] == i).all() for i in range(32))


def test_rotation_cos_and_dimension_cos():
    pos = np.array([0, 3, 1_000])
    c = rotary.rotation_cos(pos, 6, 100.0)
    expected = [[math.cos(p * 100.0 ** (-(2 * i) / 6)) for i in range(3)] for p in pos]
    assert np.allclose(c, expected)
    for pairing in ("half", "interleaved"):
        dc = rotary.dimension_cos(pos, 6, 100.0, pairing=pairing)
        # a rotation by a moves e_j to cos(a) e_j + sin(a) e_k: the diagonal of the rotation is that cos
        ref = np.stack([np.diag(naive_rotate(np.eye(6), [p] * 6, 100.0, pairing)) for p in pos])
        assert np.allclose(dc, ref)


# the relative-position property


@settings(max_examples=40, deadline=None)
@given(
    m=st.integers(0, 200_000),
    n=st.integers(0, 200_000),
    shift=st.integers(-50_000, 50_000),
    half_dim=st.integers(1, 16),
    log_theta=st.floats(2.0, 7.0),
    pairing=st.sampled_from(["half", "interleaved"]),
    seed=st.integers(0, 1_000),
)
def test_scores_depend_only_on_the_offset(m, n, shift, half_dim, log_theta, pairing, seed):
    d, theta = 2 * half_dim, 10.0**log_theta
    q, k = np.random.default_rng(seed).normal(size=(2, d))

    def score(a, b):
        q_a = rotary.rotate(q[None], [a], theta, pairing=pairing)[0]
        return q_a @ rotary.rotate(k[None], [b], theta, pairing=pairing)[0]

    assert math.isclose(score(m, n), score(m + shift, n + shift), rel_tol=1e-7, abs_tol=1e-7)


@pytest.mark.parametrize("pairing", ["half", "interleaved"])
def test_scores_vs_offset_is_independent_of_start(pairing):
    q, k = np.random.default_rng(5).normal(size=(2, 32))
    offsets = np.arange(-20, 200, 3)
    a = rotary.scores_vs_offset(q, k, offsets, 10_000, pairing=pairing, start=0)
    b = rotary.scores_vs_offset(q, k, offsets, 10_000, pairing=pairing, start=9_973)
    direct = [naive_rotate(q[None], [d + 0.0], 10_000, pairing)[0] @ k for d in offsets[:5]]
    assert np.allclose(a, b, atol=1e-9)
    assert np.allclose(a[:5], direct)


def test_pair_demo_shift_invariance_for_any_pair():
    w = rotary.inverse_frequencies(128, 10_000)[40]
    demo = rotary.pair_demo((0.3, -1.2), (2.0, 0.5), 1_234, 17, shift=100_000, omega=w)
    assert math.isclose(demo.score, demo.score_shifted, abs_tol=1e-9)
    assert math.isclose(np.linalg.norm(demo.q_ms), math.hypot(0.3, -1.2))


# validation: every message names the parameter and the value


@pytest.mark.parametrize(
    ("call", "code", "params"),
    [
        (lambda: rotary.rotate(np.zeros((3, 7)), np.arange(3)), "even",
         {"name": "head_dim", "value": 7, "about": "RoPE"}),
        (lambda: rotary.inverse_frequencies(7), "even", {"name": "head_dim", "value": 7, "about": "RoPE"}),
        (lambda: rotary.inverse_frequencies(0), "at_least", {"name": "head_dim", "value": 0, "limit": 2}),
        (lambda: rotary.inverse_frequencies(8.0), "integer", {"name": "head_dim", "value": 8.0, "kind": "float"}),
        (lambda: rotary.inverse_frequencies(8, 1.0), "above", {"name": "theta", "value": 1.0, "limit": 1}),
        (lambda: rotary.inverse_frequencies(8, 0.5), "above", {"name": "theta", "value": 0.5, "limit": 1}),
        (lambda: rotary.inverse_frequencies(8, float("nan")), "finite", {"name": "theta", "value": float("nan")}),
        (lambda: rotary.rotate(np.zeros((3, 8)), np.arange(3), float("inf")), "finite",
         {"name": "theta", "value": float("inf")}),
        (lambda: rotary.rotate(np.full((2, 4), np.nan), [0, 1]), "non_finite", {"name": "x"}),
        (lambda: rotary.rotate(np.zeros((2, 4)), [0, np.nan]), "non_finite", {"name": "positions"}),
        (lambda: rotary.rotate(np.zeros((3, 4)), [0, 1, 2], pairing="gptj"), "one_of",
         {"name": "pairing", "value": "gptj", "allowed": "'half', 'interleaved'"}),
        (lambda: rotary.pair_of_dimension(8, pairing="neox"), "one_of",
         {"name": "pairing", "value": "neox", "allowed": "'half', 'interleaved'"}),
        (lambda: rotary.turns_within([1.0, 0.1], 0), "at_least", {"name": "context_length", "value": 0, "limit": 1}),
        (lambda: rotary.wavelengths([1.0, 0.0]), "positive_entries", {"name": "inv_freq", "min": 0.0}),
        (lambda: rotary.decay_of_frequencies([1.0, np.nan], [1]), "non_finite", {"name": "inv_freq"}),
        (lambda: rotary.decay_curve(8, 10_000, [1, np.inf]), "non_finite", {"name": "distances"}),
        (lambda: rotary.pair_demo((1, 0), (1, 0), 1, 2, shift=np.nan), "finite",
         {"name": "shift", "value": float("nan")}),
    ],
)
def test_validation_messages(call, code, params):
    with raises_input(code, **params):
        call()


@pytest.mark.parametrize(
    "call, message",
    [  # arrays the app shapes itself: a caller's slip, in plain English
        (lambda: rotary.rotate(np.zeros(4), [0]), r"x must have shape \(\.\.\., T, head_dim\), got shape \(4,\)"),
        (lambda: rotary.rotate(np.zeros((3, 4)), [0, 1]), r"positions must have shape \(T,\) = \(3,\), got \(2,\)"),
        (lambda: rotary.rotate(np.zeros((1, 8)), [0], inv_freq=np.ones(3)), r"inv_freq has 3 entries, head_dim \(8\)"),
        (lambda: rotary.rotate_2d((1, 0, 0), 1), r"vector must be a 2-D vector of shape \(2,\), got shape \(3,\)"),
        (lambda: rotary.scores_vs_offset(np.ones(4), np.ones(6), [0]), r"q \(4,\) and k \(6,\) must be vectors"),
    ],
)
def test_caller_errors(call, message):
    with pytest.raises(ValueError, match=message):
        call()


# what the decay curves do and do not show


def test_decay_curves_of_500k_and_1m_cross():
    # a larger theta is higher at short distances and lower further out: the curves cross, so "a larger theta makes
    # the score fall later" is not what they show
    d = np.arange(1, 4_097)
    diff = rotary.decay_curve(128, 500_000.0, d) - rotary.decay_curve(128, 1_000_000.0, d)
    assert diff[0] < 0  # d = 1: 1M is higher
    assert diff[99] > 0 and diff[-1] > 0  # d = 100 and d = 4,096: 500K is higher
    assert np.any(np.diff(np.sign(diff)) != 0)


def test_pair_zero_turns_one_radian_for_every_theta():
    for theta in (100.0, 10_000.0, 500_000.0, 1e7):
        assert rotary.inverse_frequencies(128, theta)[0] == 1.0


def test_decay_at_theta_10k_is_not_monotone_and_goes_negative_inside_4096():
    curve = rotary.decay_curve(128, 10_000.0, np.arange(0, 4_097))
    assert np.any(np.diff(curve[:40]) > 0)  # rises again (after d = 11)
    assert curve[12] > curve[11]
    assert curve.min() < -0.12 and 4_000 < int(np.argmin(curve)) <= 4_096


def test_independent_q_k_score_zero_on_average_at_every_distance():
    distances = [0, 1, 5, 50, 500, 5_000]
    samples = 2_000
    spread = rotary.random_score_stats(64, 10_000.0, distances, samples=samples, seed=3)
    # the mean of `samples` independent scores is 0 up to a few standard errors, at every distance
    assert np.all(np.abs(spread.mean) < 5 * spread.std / np.sqrt(samples))
    # the spread of one unit pair's score is about 1/sqrt(head_dim), not 0
    assert np.allclose(spread.std, 1 / np.sqrt(64), rtol=0.15)
    np.testing.assert_allclose(spread.high - spread.low, 2 * spread.std)


def test_random_score_stats_against_rotating_each_pair():
    # the same draws, scored by actually rotating q (rope.rotate through scores_vs_offset), one pair at a time
    distances, samples, seed = [0, 3, 17, 400], 5, 7
    q, k = np.random.default_rng(seed).normal(size=(2, samples, 16))
    q /= np.linalg.norm(q, axis=-1, keepdims=True)
    k /= np.linalg.norm(k, axis=-1, keepdims=True)
    naive = np.array([rotary.scores_vs_offset(q[s], k[s], distances, 500.0) for s in range(samples)])
    spread = rotary.random_score_stats(16, 500.0, distances, samples=samples, seed=seed)
    np.testing.assert_allclose(spread.mean, naive.mean(axis=0), atol=1e-12)
    np.testing.assert_allclose(spread.std, naive.std(axis=0), atol=1e-12)
