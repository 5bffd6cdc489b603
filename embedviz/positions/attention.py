"""Minimal softmax self-attention, to show why a transformer needs positions (lesson 003).

Without positions attention is permutation-equivariant: shuffle the input tokens and the outputs are shuffled the
same way, value for value. "Dog bites man" and "man bites dog" (狗咬人 / 人咬狗) would look the same to it.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal, get_args

import numpy as np

from embedviz._validate import finite_array, finite_float, one_of, positive_int
from embedviz.errors import InputError
from embedviz.random_init import normal_rows
from embedviz.positions.sinusoidal import sinusoidal_table

MAX_TOKENS = 64  # the demo's heatmaps label every row; a few dozen tokens is plenty to see the effect

SplitMode = Literal["words", "chars"]
ShuffleMode = Literal["reverse", "random", "typed"]
PositionKind = Literal["none", "sinusoidal", "learned"]
POSITION_KINDS: tuple[str, ...] = ("none", "sinusoidal", "learned")

# helper functions


def softmax(scores: np.ndarray, axis: int = -1) -> np.ndarray:
    # subtracting the max does not change the result and keeps exp from overflowing
    e = np.exp(scores - scores.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def random_projections(
    d_model: int, *, seed: int = 0, rng: np.random.Generator | None = None
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Wq, Wk, Wv of shape (D, D), standard normal, drawn in that order as lesson 003 does.

    With ``rng`` the matrices come from that generator (so later draws, like the text's x, continue the same
    sequence); otherwise from a fresh ``default_rng(seed)``.
    """
    d_model = positive_int("d_model", d_model)
    rng = np.random.default_rng(seed) if rng is None else rng
    return tuple(rng.normal(size=(d_model, d_model)) for _ in range(3))  # type: ignore[return-value]


def text003_setup(*, num_tokens: int = 4, d_model: int = 8, seed: int = 0):
    """(x, (Wq, Wk, Wv)) drawn exactly as lesson 003: one ``default_rng(seed)``, the three matrices, then x (T, D)."""
    num_tokens = positive_int("num_tokens", num_tokens)
    rng = np.random.default_rng(seed)
    projections = random_projections(d_model, rng=rng)
    x = rng.normal(size=(num_tokens, d_model))  # drawn after the matrices, from the same generator
    return x, projections


def logit_scale(attention_factor: float) -> float:
    """How much every logit q.k grows when q and k are each multiplied by ``attention_factor``: its square.

    RoPE scaling multiplies cos and sin, so the rotated q and k, by attention_factor; YaRN (Peng et al. 2023, eq. 22)
    writes it as sqrt(1/t) = 0.1 ln s + 1 on both, i.e. the logits are divided by the temperature t. Qwen3 at s = 4:
    q and k each x 1.1386, the logits x 1.2965.
    """
    factor = finite_float("attention_factor", attention_factor, greater_than=0.0)
    return factor * factor


def self_attention(x, Wq, Wk, Wv, *, causal: bool = False) -> np.ndarray:
    """softmax(Q K^T / sqrt(d)) V for x of shape (T, D), no positions; returns (T, D).

    ``causal``: token i attends only to keys j <= i, as in a decoder (GPT, Llama, Qwen). The mask itself depends on
    the slot, so a causal model is no longer permutation-equivariant: token i sees a prefix of i + 1 tokens, and
    shuffling changes which tokens are in each prefix. That is why decoder-only models can infer position even
    without any positional encoding (Haviv et al. 2022, "Transformer Language Models without Positional
    Encodings Still Learn Positional Information").
    """
    x = finite_array("x", x).astype(np.float64)
    q, k, v = x @ Wq, x @ Wk, x @ Wv  # (T, D) each
    scores = q @ k.T / np.sqrt(x.shape[-1])  # (T, T): every query against every key, order plays no part
    if causal:
        future = np.triu(np.ones(scores.shape, dtype=bool), k=1)  # (T, T): key j > query i
        scores = np.where(future, -np.inf, scores)  # exp(-inf) = 0: the future gets no weight
    return softmax(scores) @ v


def _check_perm(perm, T: int) -> np.ndarray:
    perm = np.asarray(perm)
    if perm.ndim != 1 or sorted(perm.tolist()) != list(range(T)):
        raise ValueError(f"perm ({perm.tolist()}) must be a permutation of 0..{T - 1}")
    return perm.astype(np.int64)


@dataclass(frozen=True)
class PermutationDemo:
    """Outputs for the original and the shuffled sequence, and how far apart they are once re-aligned."""

    outputs: np.ndarray  # (T, D) attention(x + pos)
    shuffled_outputs: np.ndarray  # (T, D) attention(x[perm] + pos)
    perm: np.ndarray  # (T,)
    max_difference: float  # max |attention(x) - attention(x[perm])[argsort(perm)]|
    difference: np.ndarray  # (T, D) that absolute difference per token (original order) and dimension


def permutation_demo(x, perm, *, positions=None, seed: int = 0, projections=None, causal: bool = False
                     ) -> PermutationDemo:
    """Run attention on x and on x[perm]; with ``positions`` (T, D) added first (the position stays with the slot).

    Without positions the re-aligned outputs agree to ~1e-15. With positions added, a token that moved now carries a
    different position vector, so its output changes: the difference becomes large. ``projections`` (Wq, Wk, Wv)
    overrides the matrices drawn from ``default_rng(seed)``, e.g. those of ``text003_setup``. ``causal`` masks the
    future (see :func:`self_attention`): then the difference is large even without positions.
    """
    x = finite_array("x", x).astype(np.float64)
    if x.ndim != 2:
        raise ValueError(f"x must have shape (T, D), got {x.shape}")
    T, D = x.shape
    perm = _check_perm(perm, T)
    if projections is None:
        Wq, Wk, Wv = random_projections(D, seed=seed)
    else:
        Wq, Wk, Wv = (finite_array("projections", W).astype(np.float64) for W in projections)
        if any(W.shape != (D, D) for W in (Wq, Wk, Wv)):
            raise ValueError(f"projections must be three ({D}, {D}) matrices, got {[W.shape for W in (Wq, Wk, Wv)]}")
    pos = np.zeros_like(x) if positions is None else finite_array("positions", positions).astype(np.float64)
    if pos.shape != x.shape:
        raise ValueError(f"positions must have shape {x.shape}, got {pos.shape}")
    out = self_attention(x + pos, Wq, Wk, Wv, causal=causal)
    out_shuffled = self_attention(x[perm] + pos, Wq, Wk, Wv, causal=causal)  # slot j now holds token perm[j], same position pos[j]
    inv = np.argsort(perm)  # inv[i]: the slot token i moved to, so out_shuffled[inv] is back in the original order
    difference = np.abs(out - out_shuffled[inv])
    return PermutationDemo(out, out_shuffled, perm, float(difference.max()), difference)


# tokens and their vectors for the "why position" page

_CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"  # kana and Han: written without spaces, a word per char
_WORD = re.compile(rf"[{_CJK}]|[^\s{_CJK}]+")


def split_tokens(text: str, *, mode: SplitMode = "words") -> list[str]:
    """Split a sentence into tokens: whitespace-separated words (each Chinese/Japanese character on its own, as
    those scripts have no spaces: "狗咬人" -> 狗 咬 人), or every non-space character."""
    one_of("mode", mode, get_args(SplitMode))
    if mode == "words":
        tokens = _WORD.findall(text)
    else:  # "chars"
        tokens = [ch for ch in text if not ch.isspace()]
    if len(tokens) > MAX_TOKENS:
        raise InputError("too_many_tokens", n=len(tokens), limit=MAX_TOKENS)
    return tokens


def token_vectors(tokens, d_model: int, *, seed: int = 0) -> np.ndarray:
    """A random standard-normal vector per distinct token, shape (T, D): the same token always gets the same vector.

    Each vector is seeded by the token's own UTF-8 bytes (not by where it first appears), so shuffling the sentence
    cannot change which vector a word has, just like a real embedding table W[id].
    """
    d_model = positive_int("d_model", d_model)
    rows = [np.random.default_rng([seed, *str(tok).encode("utf-8")]).normal(size=d_model) for tok in tokens]
    return np.array(rows, dtype=np.float64).reshape(len(rows), d_model)


def reverse_permutation(num_tokens: int) -> np.ndarray:
    """[T-1, ..., 0]: 狗咬人 -> 人咬狗."""
    return np.arange(positive_int("num_tokens", num_tokens))[::-1].copy()


def random_permutation(num_tokens: int, *, seed: int = 0) -> np.ndarray:
    """A seeded shuffle that actually moves something (redrawn while it is the identity, for T >= 2)."""
    num_tokens = positive_int("num_tokens", num_tokens)
    rng = np.random.default_rng(seed)
    perm = rng.permutation(num_tokens)
    while num_tokens > 1 and np.array_equal(perm, np.arange(num_tokens)):
        perm = rng.permutation(num_tokens)
    return perm


def permutation_between(tokens, shuffled) -> np.ndarray:
    """perm with shuffled == [tokens[j] for j in perm]; repeated tokens keep their relative order.

    Raises if ``shuffled`` does not use exactly the same tokens (a rearrangement, nothing added or dropped).
    """
    tokens, shuffled = list(tokens), list(shuffled)
    if sorted(tokens) != sorted(shuffled):
        raise InputError("shuffle_tokens", shuffled=" ".join(shuffled), original=" ".join(tokens))
    slots: dict[str, list[int]] = {}
    for i, tok in enumerate(tokens):
        slots.setdefault(tok, []).append(i)
    return np.array([slots[tok].pop(0) for tok in shuffled], dtype=np.int64)


def learned_position_table(context_length: int, d_model: int, *, seed: int = 0) -> np.ndarray:
    """An untrained learned table (L, D): standard-normal rows, on the same scale as the demo's word vectors.

    Drawn as table 1 of ``seed`` (random_init.normal_rows), so no row shares a stream with a word vector.
    """
    context_length = positive_int("context_length", context_length)
    d_model = positive_int("d_model", d_model)
    return normal_rows(np.arange(context_length), d_model, std=1.0, seed=seed, table=1)


def position_table(kind: PositionKind, context_length: int, d_model: int, *, seed: int = 0) -> np.ndarray | None:
    """The (T, D) vectors added to the tokens for ``kind``: none, sinusoidal (base 10,000) or learned (random)."""
    one_of("positions", kind, POSITION_KINDS)
    if kind == "none":
        return None
    if kind == "sinusoidal":
        return sinusoidal_table(context_length, d_model).astype(np.float64)
    return learned_position_table(context_length, d_model, seed=seed)  # "learned"


@dataclass(frozen=True)
class WordOrderDemo:
    """A sentence, its shuffled version, and attention's outputs for both (lesson 003's experiment on your words)."""

    tokens: list[str]
    shuffled_tokens: list[str]
    demo: PermutationDemo


def word_order_demo(
    text: str,
    *,
    split: SplitMode = "words",
    shuffle: ShuffleMode = "reverse",
    shuffled_text: str = "",
    seed: int = 0,
    positions: PositionKind = "none",
    d_model: int = 8,
    causal: bool = False,
) -> WordOrderDemo:
    """Embed a sentence, shuffle it (reverse, seeded random, or as typed in ``shuffled_text``) and run attention on
    both orders, optionally with positions added and with a causal mask. Word vectors and Wq, Wk, Wv all come from
    ``seed``."""
    tokens = split_tokens(text, mode=split)
    if len(tokens) < 2:
        raise InputError("too_few_tokens", n=len(tokens))
    d_model = positive_int("d_model", d_model)
    one_of("shuffle", shuffle, get_args(ShuffleMode))
    if shuffle == "reverse":
        perm = reverse_permutation(len(tokens))
    elif shuffle == "random":
        perm = random_permutation(len(tokens), seed=seed)
    else:  # "typed"
        perm = permutation_between(tokens, split_tokens(shuffled_text, mode=split))
    x = token_vectors(tokens, d_model, seed=seed)
    pos = position_table(positions, len(tokens), d_model, seed=seed)
    demo = permutation_demo(x, perm, positions=pos, seed=seed, causal=causal)
    return WordOrderDemo(tokens, [tokens[j] for j in perm], demo)
