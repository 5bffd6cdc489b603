"""Rotary position embedding, RoPE (Su et al. 2021, "RoFormer", arXiv:2104.09864).

RoPE does not add a vector to the input. It rotates each (query, key) pair of dimensions by the angle m * w_i, where
m is the token's position and w_i = theta^(-2i/d) the pair's inverse frequency. A dot product of two rotated vectors
depends on the angle between them, (m - n) * w_i, so attention scores depend only on the offset m - n.

Two pairings of dimensions exist and are the same up to a permutation:
- "half" (GPT-NeoX, Llama, Qwen): dimension i pairs with i + d/2;
- "interleaved" (GPT-J, the RoFormer paper): dimension 2i pairs with 2i + 1.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import numpy as np

from embedviz._validate import even_int, finite_array, finite_float, one_of, positive_int
from embedviz.errors import InputError

DEFAULT_THETA = 10_000.0  # the RoPE paper's base (Su et al. 2021, RoFormer), carried over from the Transformer's sinusoids
Pairing = Literal["half", "interleaved"]
PAIRINGS: tuple[str, ...] = ("half", "interleaved")


def _check_pairing(pairing) -> str:
    return one_of("pairing", pairing, PAIRINGS)


def _check(head_dim, theta) -> tuple[int, float]:
    head_dim = even_int("head_dim", head_dim, about="RoPE")
    theta = finite_float("theta", theta, greater_than=1.0)
    return head_dim, theta


def inverse_frequencies(head_dim: int, theta: float = DEFAULT_THETA) -> np.ndarray:
    """Per-pair inverse frequencies of plain RoPE, w_i = theta^(-2i/d), shape (head_dim/2,), float64.

    Hugging Face's ``_compute_default_rope_parameters``; its attention factor is always 1. The scaled variants
    (linear, dynamic, yarn, longrope, llama3) build on this in :mod:`embedviz.rope.scaling`.
    """
    head_dim, theta = _check(head_dim, theta)
    return 1.0 / theta ** (np.arange(0, head_dim, 2, dtype=np.float64) / head_dim)


def wavelengths(inv_freq) -> np.ndarray:
    """Positions each pair needs for one full turn: 2*pi / inv_freq, shape (d/2,), float64."""
    inv_freq = finite_array("inv_freq", inv_freq, positive=True).astype(np.float64)
    return 2.0 * np.pi / inv_freq


def rotation_angles(positions, inv_freq) -> np.ndarray:
    """Angle m * w_i of every position and pair, shape (T, head_dim/2), float64."""
    positions = finite_array("positions", positions).astype(np.float64).reshape(-1)
    return positions[:, None] * np.asarray(inv_freq, dtype=np.float64)[None, :]


def rotary_dim(head_dim: int, partial_rotary_factor: float | None = None) -> int:
    """d = int(head_dim * partial_rotary_factor), as transformers truncates it: the rotated leading dimensions.

    GPT-NeoX rotates 0.25 of each head, Phi-2 0.4, GLM 0.5; the remaining head_dim - d dimensions carry no position.
    """
    head_dim = even_int("head_dim", head_dim, about="RoPE")
    if partial_rotary_factor is None:
        return head_dim
    partial_rotary_factor = finite_float("partial_rotary_factor", partial_rotary_factor, greater_than=0.0, at_most=1.0)
    dim = int(head_dim * partial_rotary_factor)
    if dim < 2 or dim % 2:
        raise InputError("rotary_dim", head_dim=head_dim, factor=partial_rotary_factor, dim=dim)
    return dim


def rotate(
    x,
    positions,
    theta: float = DEFAULT_THETA,
    *,
    pairing: Pairing = "half",
    inv_freq: np.ndarray | None = None,
    partial_rotary_factor: float | None = None,
) -> np.ndarray:
    """Apply RoPE to ``x`` of shape (..., T, head_dim) at ``positions`` of shape (T,).

    ``inv_freq`` overrides the plain frequencies (for scaled variants). The result has x's shape; norms are kept.
    ``partial_rotary_factor`` < 1 rotates only the first d = int(head_dim * factor) dimensions (pairs formed inside
    them, either pairing) and passes the rest through unchanged, as GPT-NeoX, Phi and GLM do; inv_freq then has d/2
    entries.
    """
    _check_pairing(pairing)
    x = finite_array("x", x).astype(np.float64)
    if x.ndim < 2:
        raise ValueError(f"x must have shape (..., T, head_dim), got shape {x.shape}")
    if partial_rotary_factor is not None:
        dim = rotary_dim(x.shape[-1], partial_rotary_factor)
        if dim < x.shape[-1]:  # rotate the leading d dims, keep the rest: (..., T, d) + (..., T, head_dim - d)
            rotated = rotate(x[..., :dim], positions, theta, pairing=pairing, inv_freq=inv_freq)
            return np.concatenate([rotated, x[..., dim:]], axis=-1)
    T, head_dim = x.shape[-2:]
    head_dim, theta = _check(head_dim, theta)
    if inv_freq is None:
        inv_freq = inverse_frequencies(head_dim, theta)
    if len(inv_freq) != head_dim // 2:
        raise ValueError(f"inv_freq has {len(inv_freq)} entries, head_dim ({head_dim}) needs {head_dim // 2}")
    positions = np.asarray(positions)
    if positions.shape != (T,):
        raise ValueError(f"positions must have shape (T,) = ({T},), got {positions.shape}")
    angles = rotation_angles(positions, inv_freq)  # (T, d/2)
    cos, sin = np.cos(angles), np.sin(angles)
    if pairing == "half":
        x1, x2 = x[..., : head_dim // 2], x[..., head_dim // 2 :]  # (..., T, d/2) each
        return np.concatenate([x1 * cos - x2 * sin, x2 * cos + x1 * sin], axis=-1)
    x1, x2 = x[..., 0::2], x[..., 1::2]  # interleaved: (..., T, d/2) each
    out = np.empty_like(x)
    out[..., 0::2] = x1 * cos - x2 * sin
    out[..., 1::2] = x2 * cos + x1 * sin
    return out


def half_to_interleaved(head_dim: int) -> np.ndarray:
    """Permutation P with rotate(x[..., P], pairing="interleaved") == rotate(x, pairing="half")[..., P].

    Half-split pairs (i, i + d/2) become neighbours (2i, 2i+1): P = [0, d/2, 1, d/2 + 1, ...].
    """
    head_dim = even_int("head_dim", head_dim, about="RoPE")
    half = head_dim // 2
    return np.stack([np.arange(half), np.arange(half) + half], axis=1).reshape(-1)


def decay_curve(head_dim: int, theta: float = DEFAULT_THETA, distances=(0,)) -> np.ndarray:
    """Mean over pairs of cos(distance * w_i) for plain RoPE: the score of two unit vectors aligned in every pair
    (lesson 003), shape (N,) for N distances.

    At D=128, theta=10000 it falls 1.000, 0.970 (d=1), 0.737 (5), ..., 0.278 (400): nearby tokens score higher.
    A scaled RoPE's curve: :func:`decay_of_frequencies` with its inv_freq.
    """
    return decay_of_frequencies(inverse_frequencies(head_dim, theta), distances)


def decay_of_frequencies(inv_freq, distances) -> np.ndarray:
    """mean_i cos(distance * inv_freq[i]) for any per-pair frequencies (plain or scaled), shape (N,)."""
    inv_freq = finite_array("inv_freq", inv_freq).astype(np.float64).reshape(-1)
    distances = finite_array("distances", distances).astype(np.float64).reshape(-1)
    return np.cos(distances[:, None] * inv_freq[None, :]).mean(axis=1)  # (N, d/2) -> (N,)


@dataclass(frozen=True)
class ScoreSpread:
    """Scores of many random (q, k) at each distance: their mean and standard deviation, shape (N,) each."""

    mean: np.ndarray
    std: np.ndarray

    @property
    def low(self) -> np.ndarray:
        return self.mean - self.std

    @property
    def high(self) -> np.ndarray:
        return self.mean + self.std


def random_score_stats(
    head_dim: int, theta: float = DEFAULT_THETA, distances=(0,), *, samples: int = 512, seed: int = 0
) -> ScoreSpread:
    """Mean and standard deviation of <R(d) q, k> over ``samples`` independent random unit vectors q, k.

    The counterpart of :func:`decay_curve` (q = k aligned in every pair): with q and k drawn independently the
    expected score is 0 at every distance, since E[q] = 0, so "nearby tokens score higher" is a statement about
    aligned q, k only (RoFormer, section 3.4.3, bounds the score from above; the bound falls with distance).
    Each pair (a, b) contributes cos(d w_i) (q_a k_a + q_b k_b) + sin(d w_i) (q_a k_b - q_b k_a) (the rotation
    of :func:`rotate`), so no vector is rotated here. Mean and std have shape (len(distances),).
    """
    head_dim, theta = _check(head_dim, theta)
    samples = positive_int("samples", samples)
    distances = finite_array("distances", distances).astype(np.float64).reshape(-1)
    q, k = np.random.default_rng(seed).normal(size=(2, samples, head_dim))
    q /= np.linalg.norm(q, axis=-1, keepdims=True)  # unit vectors: the score is a cosine, like decay_curve
    k /= np.linalg.norm(k, axis=-1, keepdims=True)
    half = head_dim // 2
    qa, qb, ka, kb = q[:, :half], q[:, half:], k[:, :half], k[:, half:]  # (S, d/2) each, half-split pairs
    angles = rotation_angles(distances, inverse_frequencies(head_dim, theta))  # (N, d/2)
    scores = (qa * ka + qb * kb) @ np.cos(angles).T + (qa * kb - qb * ka) @ np.sin(angles).T  # (S, N)
    return ScoreSpread(scores.mean(axis=0), scores.std(axis=0))


def rotate_2d(vector, position: float, omega: float = 1.0) -> np.ndarray:
    """Rotate one 2-D vector by position * omega (the single-pair picture of RoPE)."""
    x, y = _vector_2d("vector", vector)
    angle = finite_float("position", position) * finite_float("omega", omega)
    return np.array([x * np.cos(angle) - y * np.sin(angle), x * np.sin(angle) + y * np.cos(angle)])


def score_2d(q, k, m: float, n: float, omega: float = 1.0) -> float:
    """<R(m) q, R(n) k>: lesson 003's demo, q=(1,0), k=(0.8,0.6): score(5,3) = score(50,48) = 0.2127."""
    return float(rotate_2d(q, m, omega) @ rotate_2d(k, n, omega))


def _vector_2d(name: str, vector) -> np.ndarray:
    vector = finite_array(name, vector).astype(np.float64)
    if vector.shape != (2,):
        raise ValueError(f"{name} must be a 2-D vector of shape (2,), got shape {vector.shape}")
    return vector


# views of RoPE for the page: one pair in the plane, per-pair angles, wavelengths, pairings


@dataclass(frozen=True)
class PairDemo:
    """One frequency pair of q and k, rotated at (m, n), shifted by s to (m + s, n + s), and with k moved to 0.

    q_m, k_n, q_ms, k_ns are 2-D vectors; score = <q_m, k_n>, score_shifted = <q_ms, k_ns> (equal: only m - n
    counts) and score_other = <R(m) q, R(0) k>, the same q against a key at another offset (m instead of m - n).
    """

    omega: float
    q_m: np.ndarray
    k_n: np.ndarray
    q_ms: np.ndarray
    k_ns: np.ndarray
    score: float
    score_shifted: float
    score_other: float


def pair_demo(q, k, m: float, n: float, *, shift: float, omega: float = 1.0) -> PairDemo:
    """Lesson 003's 2-D demo for any pair: with q=(1,0), k=(0.8,0.6), m=5, n=3, shift=45, omega=1 the scores are
    0.2127 (positions 5, 3), 0.2127 (50, 48) and -0.3484 (5, 0)."""
    q, k = _vector_2d("q", q), _vector_2d("k", k)
    m, n, shift = finite_float("m", m), finite_float("n", n), finite_float("shift", shift)
    omega = finite_float("omega", omega)
    q_m, k_n = rotate_2d(q, m, omega), rotate_2d(k, n, omega)
    q_ms, k_ns = rotate_2d(q, m + shift, omega), rotate_2d(k, n + shift, omega)
    return PairDemo(
        omega=omega,
        q_m=q_m,
        k_n=k_n,
        q_ms=q_ms,
        k_ns=k_ns,
        score=float(q_m @ k_n),
        score_shifted=float(q_ms @ k_ns),
        score_other=float(q_m @ rotate_2d(k, 0.0, omega)),
    )


def rotation_cos(positions, head_dim: int, theta: float = DEFAULT_THETA) -> np.ndarray:
    """cos(m * w_i) for every position m and pair i, shape (T, head_dim/2): the "clock hands" of RoPE.

    Like the sinusoidal table, fast pairs (small i) flicker from one position to the next, slow pairs barely move.
    """
    return np.cos(rotation_angles(positions, inverse_frequencies(head_dim, theta)))


def pair_of_dimension(head_dim: int, *, pairing: Pairing = "half") -> np.ndarray:
    """Which pair i each of the head_dim dimensions belongs to, shape (head_dim,).

    half: dims i and i + d/2 share pair i -> [0, 1, ..., d/2-1, 0, 1, ..., d/2-1];
    interleaved: dims 2i and 2i+1 share pair i -> [0, 0, 1, 1, ...].
    """
    head_dim = even_int("head_dim", head_dim, about="RoPE")
    _check_pairing(pairing)
    half = head_dim // 2
    if pairing == "half":
        return np.tile(np.arange(half), 2)
    return np.repeat(np.arange(half), 2)


def pair_dimensions(head_dim: int, *, pairing: Pairing = "half") -> np.ndarray:
    """The two dimensions of every pair, shape (head_dim/2, 2): half (i, i + d/2), interleaved (2i, 2i + 1)."""
    head_dim = even_int("head_dim", head_dim, about="RoPE")
    _check_pairing(pairing)
    i = np.arange(head_dim // 2)
    if pairing == "half":
        return np.stack([i, i + head_dim // 2], axis=1)
    return np.stack([2 * i, 2 * i + 1], axis=1)


def dimension_cos(positions, head_dim: int, theta: float = DEFAULT_THETA, *, pairing: Pairing = "half") -> np.ndarray:
    """cos of the angle each *dimension* is rotated by at each position, shape (T, head_dim).

    Both dimensions of a pair turn by the same angle; the pairing decides which columns those are.
    """
    return rotation_cos(positions, head_dim, theta)[:, pair_of_dimension(head_dim, pairing=pairing)]


def turns_within(inv_freq, context_length: int) -> np.ndarray:
    """Full turns each pair makes over ``context_length`` positions, L * w_i / (2*pi), shape (d/2,).

    A pair with fewer than one turn never repeats an angle inside the context (wavelength > L): it is the pair that
    tells far-apart positions apart, and the one that sees unfamiliar angles first when the context grows.
    """
    context_length = positive_int("context_length", context_length)
    return context_length / wavelengths(inv_freq)


def scores_vs_offset(q, k, offsets, theta: float = DEFAULT_THETA, *, pairing: Pairing = "half", start: int = 0):
    """<RoPE(q, start + d), RoPE(k, start)> for every offset d, shape (len(offsets),).

    q and k have shape (head_dim,). The result does not depend on ``start``: only the offset d = m - n counts.
    """
    q = finite_array("q", q).astype(np.float64)
    k = finite_array("k", k).astype(np.float64)
    if q.ndim != 1 or q.shape != k.shape:
        raise ValueError(f"q {q.shape} and k {k.shape} must be vectors of the same shape (head_dim,)")
    offsets = finite_array("offsets", offsets).astype(np.float64).reshape(-1)
    start = finite_float("start", start)
    q_rot = rotate(np.broadcast_to(q, (offsets.size, q.size)), start + offsets, theta, pairing=pairing)  # (N, d)
    k_rot = rotate(k[None, :], np.array([start]), theta, pairing=pairing)  # (1, d)
    return q_rot @ k_rot[0]
