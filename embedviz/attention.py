"""Minimal softmax self-attention, to show why a transformer needs positions (text 003).

Without positions attention is permutation-equivariant: shuffle the input tokens and the outputs are shuffled the
same way, value for value. "Dog bites man" and "man bites dog" would look the same to it.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from embedviz._validate import finite_array


def softmax(scores: np.ndarray, axis: int = -1) -> np.ndarray:
    # subtracting the max does not change the result and keeps exp from overflowing
    e = np.exp(scores - scores.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def random_projections(d_model: int, *, seed: int = 0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Wq, Wk, Wv of shape (D, D) drawn as text 003 does: rng = default_rng(seed), three normal matrices."""
    rng = np.random.default_rng(seed)
    return tuple(rng.normal(size=(d_model, d_model)) for _ in range(3))  # type: ignore[return-value]


def self_attention(x, Wq, Wk, Wv) -> np.ndarray:
    """softmax(Q K^T / sqrt(d)) V for x of shape (T, D), no mask, no positions; returns (T, D)."""
    x = finite_array("x", x).astype(np.float64)
    q, k, v = x @ Wq, x @ Wk, x @ Wv  # (T, D) each
    scores = q @ k.T / np.sqrt(x.shape[-1])  # (T, T)
    return softmax(scores) @ v


@dataclass(frozen=True)
class PermutationDemo:
    """Outputs for the original and the shuffled sequence, and how far apart they are once re-aligned."""

    outputs: np.ndarray  # (T, D) attention(x)
    shuffled_outputs: np.ndarray  # (T, D) attention(x[perm])
    perm: np.ndarray  # (T,)
    max_difference: float  # max |attention(x) - attention(x[perm])[argsort(perm)]|


def permutation_demo(x, perm, *, positions=None, seed: int = 0) -> PermutationDemo:
    """Run attention on x and on x[perm]; with ``positions`` (T, D) added first (the position stays with the slot).

    Without positions the re-aligned outputs agree to ~1e-15. With positions added, a token that moved now carries a
    different position vector, so its output changes: the difference becomes large.
    """
    x = finite_array("x", x).astype(np.float64)
    if x.ndim != 2:
        raise ValueError(f"x must have shape (T, D), got {x.shape}")
    T, D = x.shape
    perm = np.asarray(perm)
    if sorted(perm.tolist()) != list(range(T)):
        raise ValueError(f"perm ({perm.tolist()}) must be a permutation of 0..{T - 1}")
    Wq, Wk, Wv = random_projections(D, seed=seed)
    pos = np.zeros_like(x) if positions is None else finite_array("positions", positions).astype(np.float64)
    if pos.shape != x.shape:
        raise ValueError(f"positions must have shape {x.shape}, got {pos.shape}")
    out = self_attention(x + pos, Wq, Wk, Wv)
    out_shuffled = self_attention(x[perm] + pos, Wq, Wk, Wv)
    inv = np.argsort(perm)
    return PermutationDemo(out, out_shuffled, perm, float(np.abs(out - out_shuffled[inv]).max()))
