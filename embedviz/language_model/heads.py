"""Attention in a real model: where glassllm's 16 heads (4 layers x 4) look, against the decay RoPE's formula draws.

The RoPE page's decay curve is mean_i cos(d * w_i): the score of a query and a key that are equal in every pair, d
positions apart (lesson 003's "nearby tokens score higher"). A trained head's q and k are not equal: it learns what
to look at. So a head may follow the curve (its weight falls with distance), or not at all: a head that puts its
weight on the previous token, or one that looks far back, to the first tokens of the window (an "attention sink").
:func:`head_kinds` says which head does which, from the weights themselves.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from embedviz._validate import positive_int
from embedviz.language_model import extension, glass
from embedviz.rope import rotary

# what makes a head one kind or another (mean attention weights over the queries far enough into the window)
PREVIOUS = 0.4  # at least this much weight on the token just before: a previous-token head
SINK = 0.4  # at least this much on the window's first token: it parks its attention there (an "attention sink")
NEAR = 32  # "near": keys at most this many positions back
LOCAL = 0.7  # at least this share of its weight near: a local head, whose weight falls with distance
FAR = 0.5  # at least this share more than NEAR back: it looks far
FROM = 2 * NEAR  # the queries measured: those with more than NEAR keys behind them to choose from
PROFILE_REACH = 64  # the distances the rank correlation with the decay curve compares


def attention_weights(text_or_ids, context_length: int, rope_parameters: Mapping[str, Any] | None, *,
                      window: int = 0) -> np.ndarray:
    """The attention weights of one window of the text, shape (layers, heads, query, key) float32: row m of a head
    is how query m spreads its attention over keys 0..m (causal, each row sums to 1). ``window`` picks one of the
    windows :func:`extension.position_losses` reads (0: the first, at the start of the text)."""
    ids, plan = extension.plan_for(text_or_ids, context_length)
    window = positive_int("window", window, minimum=0, maximum=len(plan.starts) - 1)
    tokens = extension.windows_of(ids, plan)[window:window + 1, :-1]  # (1, context_length)
    return glass.forward(tokens, rope_parameters, attention=True).attention[:, 0]  # (layers, H, T, T)


def distance_profile(weights: np.ndarray) -> np.ndarray:
    """Mean weight a query puts on the key ``d`` positions back, for d = 0..T-1: (..., T) from (..., T, T).

    Averaged over the queries that have a key that far back (T - d of them), so distance 0 is every query's weight
    on itself and the last distance is one query's weight on the first token."""
    T = weights.shape[-1]
    out = np.empty(weights.shape[:-2] + (T,), dtype=np.float64)
    for d in range(T):
        out[..., d] = np.diagonal(weights, offset=-d, axis1=-2, axis2=-1).mean(axis=-1)
    return out


def synthetic_decay(distances, *, theta: float | None = None) -> np.ndarray:
    """The RoPE page's curve for this model's heads: mean_i cos(d w_i) at head_dim 32, its base 10,000."""
    model = glass.load()
    return rotary.decay_curve(model.head_dim, model.theta if theta is None else theta, distances)


def _rank(a: np.ndarray) -> np.ndarray:
    return np.argsort(np.argsort(a, kind="stable"), kind="stable").astype(np.float64)


def rank_correlation(a: np.ndarray, b: np.ndarray) -> float:
    """Spearman's rank correlation (no ties expected in these real-valued curves): 1 when b falls where a falls."""
    ra, rb = _rank(np.asarray(a)), _rank(np.asarray(b))
    ra, rb = ra - ra.mean(), rb - rb.mean()
    denominator = float(np.sqrt((ra @ ra) * (rb @ rb)))
    return float(ra @ rb / denominator) if denominator else 0.0


@dataclass(frozen=True)
class HeadKind:
    """What one head does, measured on one window."""

    layer: int
    head: int
    kind: str  # one of KINDS
    previous: float  # mean weight on the previous token
    near: float  # mean share of weight on the NEAR keys before the query (itself included)
    far: float  # mean share more than NEAR back (near + far = 1)
    sink: float  # mean weight on the window's first token
    follows: float  # rank correlation of its distance profile with the decay curve, distances 1..PROFILE_REACH


KINDS = ("previous", "sink", "local", "far", "mixed")


def head_kinds(weights: np.ndarray) -> list[HeadKind]:
    """Each head of (layers, heads, T, T) weights (T > FROM), sorted into one of KINDS, in that order of precedence,
    from the queries at FROM and later (earlier ones have few keys to spread over)."""
    L, H, T, _ = weights.shape
    if T <= FROM:
        raise ValueError(f"head kinds need windows longer than {FROM} positions, got {T}")
    profile = distance_profile(weights)  # (L, H, T)
    reach = min(PROFILE_REACH, T - 1)
    decay = synthetic_decay(np.arange(1, reach + 1))
    queries = np.arange(FROM, T)
    near_mask = (np.arange(T)[None, :] > queries[:, None] - NEAR - 1) & (np.arange(T)[None, :] <= queries[:, None])
    out = []
    for layer in range(L):
        for head in range(H):
            rows = weights[layer, head, FROM:]  # (T - FROM, T)
            near = float((rows * near_mask).sum(axis=1).mean())
            previous = float(profile[layer, head, 1])
            sink = float(rows[:, 0].mean())
            follows = rank_correlation(decay, profile[layer, head, 1:reach + 1])
            kind = ("previous" if previous >= PREVIOUS else "sink" if sink >= SINK else "local" if near >= LOCAL
                    else "far" if 1.0 - near >= FAR else "mixed")
            out.append(HeadKind(layer, head, kind, previous, near, 1.0 - near, sink, follows))
    return out
