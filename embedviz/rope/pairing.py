"""RoPE's two pairings side by side: GPT-J's interleaved (2i, 2i+1) and GPT-NeoX / Llama's half-split (i, i + d/2).

They rotate different dimensions together, so the same raw q, k give different scores; permute q and k with
``rope.half_to_interleaved`` first and the scores are the same (lesson 003: equivalent up to a permutation).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from embedviz.rope import rotary
from embedviz._validate import positive_int


@dataclass(frozen=True)
class PairingComparison:
    """Scores vs offset (N,) of one random (q, k) under each pairing, and how far apart the equivalent two are."""

    offsets: np.ndarray  # 0..max_offset
    half: np.ndarray  # half-split on q, k
    permuted: np.ndarray  # interleaved on q[P], k[P]: equal to ``half``
    raw: np.ndarray  # interleaved on the raw q, k: a different curve
    max_diff: float  # max |half - permuted|, rounding only


def compare_pairings(head_dim: int, theta: float, max_offset: int, *, seed: int = 0) -> PairingComparison:
    """Scores of one seeded N(0, 1) pair (q, k) of shape (head_dim,) for offsets 0..max_offset under both pairings."""
    q, k = np.random.default_rng(seed).normal(size=(2, head_dim))  # (2, head_dim)
    P = rotary.half_to_interleaved(head_dim)
    offsets = np.arange(0, positive_int("max_offset", max_offset, minimum=0) + 1)
    half = rotary.scores_vs_offset(q, k, offsets, theta, pairing="half")
    permuted = rotary.scores_vs_offset(q[P], k[P], offsets, theta, pairing="interleaved")
    raw = rotary.scores_vs_offset(q, k, offsets, theta, pairing="interleaved")
    return PairingComparison(offsets, half, permuted, raw, float(np.abs(half - permuted).max()))
