"""Lesson 003's claim measured on a real model: past its trained length a RoPE model reads worse, and position
interpolation, NTK-aware scaling and YaRN let it read further.

glassllm's model was trained on windows of 128 tokens. Here it reads windows of up to 8x that, with each
context-extension method of :mod:`embedviz.rope.scaling` applied as transformers applies it, and the next-token loss
at every position says how well it still reads. Nothing is fine-tuned: the published methods are also used this way
("training-free"), and a model fine-tuned after scaling would do better.

A single window of a few hundred tokens moves a bucket's mean loss by 0.1-0.3 nats, as much as the methods differ,
so the losses come from several windows of one text (spread evenly over it; they overlap when the text is short) and
the spread between windows is part of the answer: :func:`separable` says when two methods cannot be told apart.
"""
from __future__ import annotations

import math
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from embedviz._validate import finite_float, one_of, positive_int
from embedviz.errors import InputError
from embedviz.language_model import glass

MAX_RATIO = 8  # lengths up to 8x the trained 128: 1,024 positions
MAX_FACTOR = 16.0  # a scaling factor past 16 stretches 128 trained positions over 2,048: beyond any length here
WINDOWS = 10  # windows per text and method: enough to see the spread, within a page's CPU budget
BUCKET = 128  # the table's buckets: one trained length each, so bucket 0 is what the model trained on
LLAMA3_FREQ_FACTORS = (1.0, 4.0)  # Llama 3.1's low_freq_factor and high_freq_factor, as its config.json sets them


# the methods: a rope_parameters dict per method, as a transformers config would hold it for this model


def _none(factor: float, trained: int, theta: float) -> None:
    return None  # plain RoPE: positions past 128 turn the pairs through angles training never showed


def _linear(factor: float, trained: int, theta: float) -> dict:
    return {"rope_type": "linear", "factor": factor}


def _dynamic(factor: float, trained: int, theta: float) -> dict:
    return {"rope_type": "dynamic", "factor": factor, "original_max_position_embeddings": trained}


def _yarn(factor: float, trained: int, theta: float) -> dict:
    return {"rope_type": "yarn", "factor": factor, "original_max_position_embeddings": trained}


def _ntk_by_parts(factor: float, trained: int, theta: float) -> dict:
    # YaRN without its temperature: the per-pair ramp ("NTK-by-parts", bloc97) alone, attention left at 1
    return {**_yarn(factor, trained, theta), "attention_factor": 1.0}


def _llama3(factor: float, trained: int, theta: float) -> dict:
    low, high = LLAMA3_FREQ_FACTORS
    return {"rope_type": "llama3", "factor": factor, "original_max_position_embeddings": trained,
            "low_freq_factor": low, "high_freq_factor": high}


def _theta(factor: float, trained: int, theta: float) -> dict:
    """Plain RoPE at a larger base, fixed: NTK-aware scaling's first form (bloc97), theta * s^(d/(d-2)), which
    slows the slowest pair by exactly s and the fastest not at all; no rope_type of its own in transformers."""
    d = glass.load().head_dim
    return {"rope_type": "default", "rope_theta": theta * factor ** (d / (d - 2))}


# Simple -> complex, as the Context extension page orders them. LongRoPE is not here: its per-pair factors are
# searched for one model on that model's own data (Phi-3's were), and glassllm has none; rope_parameters with a
# short_factor and a long_factor still run through position_losses.
METHODS: dict[str, Callable[[float, int, float], dict | None]] = {
    "none": _none,
    "linear": _linear,
    "theta": _theta,
    "dynamic": _dynamic,
    "ntk_by_parts": _ntk_by_parts,
    "yarn": _yarn,
    "llama3": _llama3,
}
LESSON_METHODS = ("none", "linear", "dynamic", "yarn")  # lesson 003's three methods beside no scaling


def rope_parameters(method: str, factor: float) -> dict | None:
    """The transformers rope_parameters of ``method`` at scaling ``factor`` for this model (None: plain RoPE)."""
    one_of("method", method, METHODS)
    factor = checked_factor(factor)
    model = glass.load()
    return METHODS[method](factor, model.trained_length, model.theta)


def checked_factor(factor: float) -> float:
    return finite_float("factor", factor, at_least=1.0, at_most=MAX_FACTOR)


def max_length() -> int:
    return MAX_RATIO * glass.load().trained_length


# windows of a text


@dataclass(frozen=True)
class WindowPlan:
    """Where the windows of a text start, and how many of them do not overlap."""

    starts: np.ndarray  # (W,) first token of each window; a window is context_length + 1 tokens (inputs and targets)
    n_tokens: int
    context_length: int
    independent: int  # windows' worth of tokens that do not overlap: (n_tokens - 1) // context_length, at most W

    @property
    def overlapping(self) -> bool:
        return self.independent < len(self.starts)


def window_plan(n_tokens: int, context_length: int, windows: int = WINDOWS, *, chars_per_token: float | None = None
                ) -> WindowPlan:
    """``windows`` windows of ``context_length`` positions spread evenly over ``n_tokens`` tokens (first at 0, last
    at the end; fewer when the text has fewer distinct starts). A text shorter than one window is refused, saying how
    long it must be (in characters too, at ``chars_per_token``, this text's own rate)."""
    context_length = glass.checked_length(context_length, most=max_length())
    windows = positive_int("windows", windows, maximum=64)
    need = context_length + 1
    if n_tokens < need:
        rate = chars_per_token or 3.0
        raise InputError("window_short", n=n_tokens, length=context_length, need=need, chars=math.ceil(need * rate))
    starts = np.unique(np.linspace(0, n_tokens - need, windows).round().astype(np.int64))
    return WindowPlan(starts, n_tokens, context_length, min(len(starts), (n_tokens - 1) // context_length))


def windows_of(ids: np.ndarray, plan: WindowPlan) -> np.ndarray:
    """The plan's windows of ``ids``, (W, context_length + 1): each window's inputs and, shifted by one, its targets."""
    return np.stack([ids[s:s + plan.context_length + 1] for s in plan.starts])


def plan_for(text_or_ids, context_length: int, windows: int = WINDOWS) -> tuple[np.ndarray, WindowPlan]:
    """A text's (or ids') tokens and its window plan."""
    ids = glass.ids_of(text_or_ids)
    rate = len(text_or_ids) / len(ids) if isinstance(text_or_ids, str) else None
    return ids, window_plan(len(ids), context_length, windows, chars_per_token=rate)


# the measurement


def position_losses(text_or_ids, context_length: int, rope_parameters: Mapping[str, Any] | None, *,
                    windows: int = WINDOWS) -> np.ndarray:
    """Next-token loss at each position of each window, shape (windows, context_length), float32, in nats.

    ``losses[w, p]`` = -log p(token p + 1 | tokens 0..p) in window w: position p has seen p + 1 tokens, so the
    positions from the trained length (128) on are those the model never trained at. Each window is one forward
    pass of ``context_length`` positions with RoPE at ``rope_parameters`` (a transformers ``rope_parameters`` dict,
    as :func:`rope_parameters` builds one, or None): dynamic NTK therefore takes its base from ``context_length``,
    the whole window, as transformers does for one forward pass (a model generating token by token changes the base
    as it goes), and YaRN's attention factor scales q and k.
    """
    ids, plan = plan_for(text_or_ids, context_length, windows)
    return glass.next_token_losses(windows_of(ids, plan), rope_parameters)


@dataclass(frozen=True)
class MethodRun:
    """One method's losses on a text, and what it cost."""

    method: str
    losses: np.ndarray  # (W, context_length) float32
    cpu_s: float  # CPU seconds of this thread


def run_methods(text_or_ids, context_length: int, factor: float, methods, *, windows: int = WINDOWS,
                cpu_budget_s: float | None = None, done: Mapping[str, np.ndarray] | None = None
                ) -> tuple[list[MethodRun], list[str]]:
    """Each method's losses, one after another, until ``cpu_budget_s`` of this thread's CPU time is spent
    (at least one method runs). ``done``: losses already known (from a cache), not computed again.
    Returns (the runs, the methods left for later)."""
    done = done or {}
    started = time.thread_time()
    runs, left = [], []
    for method in methods:
        if method in done:
            runs.append(MethodRun(method, done[method], 0.0))
            continue
        if cpu_budget_s is not None and runs and any(r.cpu_s for r in runs) and \
                time.thread_time() - started > cpu_budget_s:
            left.append(method)
            continue
        t0 = time.thread_time()
        losses = position_losses(text_or_ids, context_length, rope_parameters(method, factor), windows=windows)
        runs.append(MethodRun(method, losses, time.thread_time() - t0))
    return runs, left


# what the figures and the table show


@dataclass(frozen=True)
class Curve:
    """Loss against position, binned: the mean over windows of each window's bin mean, and a band around it."""

    x: np.ndarray  # (N,) the centre position of each bin
    mean: np.ndarray  # (N,)
    low: np.ndarray  # (N,) mean - one standard error of that mean
    high: np.ndarray  # (N,) mean + one standard error
    spread: np.ndarray  # (N,) standard deviation of the windows' bin means


def curve(losses: np.ndarray, *, bins: int = 16, independent: int | None = None) -> Curve:
    """``losses`` (W, L) averaged into ``bins`` bins of positions (a single token's loss swings from 0 to 10: a
    curve of single positions is noise). The band is the standard error of the mean over the windows, their spread
    / sqrt(n), with n the windows that do not overlap (``independent``, default all W): two methods whose bands
    stay apart differ by more than the text's noise. The spread itself is kept too."""
    W, L = losses.shape
    edges = np.linspace(0, L, min(bins, L) + 1).round().astype(int)
    per_window = np.stack([losses[:, a:b].mean(axis=1) for a, b in zip(edges[:-1], edges[1:])], axis=1)  # (W, N)
    mean = per_window.mean(axis=0)
    spread = per_window.std(axis=0, ddof=1) if W > 1 else np.zeros_like(mean)
    n = max(1, min(W, W if independent is None else independent))
    error = spread / math.sqrt(n)
    return Curve((edges[:-1] + edges[1:] - 1) / 2.0, mean, mean - error, mean + error, spread)


def bucket_means(losses: np.ndarray, bucket: int = BUCKET) -> np.ndarray:
    """Each window's mean loss per bucket of ``bucket`` positions, (W, ceil(L / bucket)) (the last may be shorter)."""
    L = losses.shape[1]
    return np.stack([losses[:, a:a + bucket].mean(axis=1) for a in range(0, L, bucket)], axis=1)


@dataclass(frozen=True)
class Bucket:
    """One method's mean loss in one bucket of positions, with its spread across windows."""

    start: int  # first position
    stop: int  # one past the last
    loss: float  # mean over windows and positions, nats
    std: float  # standard deviation of the windows' means

    @property
    def perplexity(self) -> float:
        return math.exp(self.loss)


def buckets(losses: np.ndarray, bucket: int = BUCKET) -> list[Bucket]:
    """The table's row for one method: mean loss per bucket of positions (0-127, 128-255, ...)."""
    means = bucket_means(losses, bucket)  # (W, B)
    L = losses.shape[1]
    spread = means.std(axis=0, ddof=1) if means.shape[0] > 1 else np.zeros(means.shape[1])
    return [Bucket(a, min(a + bucket, L), float(losses[:, a:a + bucket].mean()), float(s))
            for a, s in zip(range(0, L, bucket), spread)]


@dataclass(frozen=True)
class Separation:
    """Two methods on the same windows, in one bucket: their mean difference and whether it stands out of the
    windows' noise."""

    difference: float  # mean loss of a minus b, nats
    noise: float  # two standard errors of that difference
    separable: bool  # |difference| > noise


def separable(a: np.ndarray, b: np.ndarray, independent: int, bucket: int = BUCKET) -> list[Separation]:
    """Per bucket, whether methods a and b (losses (W, L) on the same windows) differ by more than the windows'
    noise: the paired difference of the windows' bucket means against two of its standard errors. The standard
    error uses the windows that do not overlap (``independent``), not all W: overlapping windows share tokens, and
    counting them as independent would claim a precision the text does not have."""
    diff = bucket_means(a, bucket) - bucket_means(b, bucket)  # (W, B): the same windows, so the text's own
    mean = diff.mean(axis=0)  # difficulty cancels out of the difference
    n = max(1, min(independent, diff.shape[0]))
    if diff.shape[0] < 2 or n < 2:  # one window: no spread to measure, nothing can be told apart
        return [Separation(float(m), math.inf, False) for m in mean]
    noise = 2.0 * diff.std(axis=0, ddof=1) / math.sqrt(n)
    return [Separation(float(m), float(e), bool(abs(m) > e)) for m, e in zip(mean, noise)]


def loss_rise(losses: np.ndarray, trained: int) -> tuple[float, float]:
    """Mean loss inside the trained length and past it, (inside, past): lesson 003's "quality drops" in two
    numbers (past is NaN when the windows end at the trained length)."""
    inside = float(losses[:, :trained].mean())
    past = float(losses[:, trained:].mean()) if losses.shape[1] > trained else float("nan")
    return inside, past
