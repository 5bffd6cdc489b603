"""The other road to a long context: pre-train with a larger rope_theta. :func:`theta_for_context` is the smallest
theta whose slowest pairs turn at most once over a context; :func:`theta_calculator` puts it beside what real models
chose for their pre-training length (the Context extension page's calculator). Extending a trained model instead is
:mod:`embedviz.rope.context_extension`.
"""
from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from embedviz._validate import even_int, finite_float, positive_int
from embedviz.errors import InputError
from embedviz.rope.rotary import inverse_frequencies, turns_within


def theta_for_context(head_dim: int, context_length: int, *, max_turns: float = 1.0, slow_pairs: int = 1) -> float:
    """Smallest rope_theta whose ``slow_pairs`` slowest pairs turn at most ``max_turns`` times in ``context_length``.

    Pair j has w_j = theta^(-2j/d) (d = head_dim). Over L positions it turns L * w_j / (2*pi) times. The k slowest
    pairs are j = d/2 - k .. d/2 - 1, and the fastest of them, j = d/2 - k, decides:

        L * theta^(-(d-2k)/d) <= 2*pi * max_turns   <=>   theta >= (L / (2*pi * max_turns))^(d/(d-2k)).

    With k = 1 (the default) this is the slowest pair alone: theta >= (L / (2*pi * max_turns))^(d/(d-2)). With one
    turn or less no angle of those pairs repeats inside the context, which is one reason long-context models raise
    rope_theta (Llama 3: 500_000, Qwen3: 1_000_000). The result is never below 1 (when L <= 2*pi*max_turns any
    theta works). head_dim must be even and >= 4: with a single pair, w = theta^0 = 1 whatever theta is; for the
    same reason k can be at most d/2 - 1 (pair 0 always turns at w = 1).
    """
    head_dim = even_int("head_dim", head_dim, about="RoPE")
    if head_dim < 4:
        raise InputError("one_pair", name="head_dim", value=head_dim, limit=4)
    context_length = positive_int("context_length", context_length)
    max_turns = finite_float("max_turns", max_turns, greater_than=0.0)
    slow_pairs = positive_int("slow_pairs", slow_pairs)
    if slow_pairs > head_dim // 2 - 1:
        raise InputError("slow_pairs", value=slow_pairs, limit=head_dim // 2 - 1, head_dim=head_dim)
    theta = (context_length / (2.0 * math.pi * max_turns)) ** (head_dim / (head_dim - 2 * slow_pairs))
    return max(theta, 1.0)


def slow_pair_count(inv_freq, context_length: int, *, max_turns: float = 1.0) -> int:
    """How many pairs make fewer than ``max_turns`` full turns over ``context_length`` positions.

    With max_turns = 1 these are the pairs whose wavelength is longer than the context: no angle repeats, so they
    tell far-apart positions apart (Llama 3 at 8,192 tokens with theta 500_000: 29 of 64 pairs).
    """
    max_turns = finite_float("max_turns", max_turns, greater_than=0.0)
    return int(np.sum(turns_within(inv_freq, context_length) < max_turns))


def theta_for_context_latex(head_dim: int, context_length: int, slow_pairs: int, theta: float) -> str:
    """theta >= (L / 2 pi)^(d / (d - 2k)), :func:`theta_for_context`'s bound, with these numbers filled in."""
    return (rf"\theta \ \ge\ \left(\frac{{L}}{{2\pi}}\right)^{{\frac{{d}}{{d-2k}}}} = "
            rf"\left(\frac{{{context_length:,}}}{{2\pi}}\right)^{{\frac{{{head_dim}}}{{{head_dim - 2 * slow_pairs}}}}}"
            rf" \approx {theta:,.0f}").replace(",", "{,}")


@dataclass(frozen=True)
class ModelTheta:
    """One real model beside the calculator's answer: what it chose for its pre-training length."""

    model: str  # the label it was given
    head_dim: int
    trained: int  # its pre-training length (not max_position_embeddings: Qwen3-0.6B 32,768, not 40,960)
    theta: float  # its rope_theta
    one_turn: float  # the theta at which its slowest pair would turn exactly once over its trained length
    k_turn: float  # the theta at which its k slowest pairs would turn less than once (k clamped to its pairs)
    slow: int  # its pairs that turn less than once over its trained length
    pairs: int  # head_dim / 2


@dataclass(frozen=True)
class ThetaCalculation:
    """The theta a context needs, beside real models' choices (:func:`theta_calculator`)."""

    theta: float  # the theta at which k pairs turn less than once over the context
    one_turn: float  # the theta at which the slowest pair turns exactly once over the context
    k: int  # slow pairs asked for, clamped to [1, head_dim/2 - 1]
    clamped: bool  # k differs from the slow_pairs asked for
    rows: list[ModelTheta]  # one per real model, in the order given


def theta_calculator(
    head_dim: int, context_length: int, slow_pairs: int, models: Mapping[str, Any]
) -> ThetaCalculation:
    """:func:`theta_for_context` for this head and context, beside what real models chose for their pre-training.

    ``models`` maps a label to a preset (:class:`embedviz.models.params.ModelPreset`: head_dim, rope_theta,
    max_context_length, rope_scaling); each row gives its trained length, its theta, the theta one turn (and ``slow_pairs`` turns) would
    need, and how many of its pairs make less than one turn. ``slow_pairs`` is clamped to head_dim/2 - 1 (a small
    head has fewer pairs); ``clamped`` says so.
    """
    head_dim = even_int("head_dim", head_dim, about="RoPE")
    k = max(1, min(positive_int("slow_pairs", slow_pairs), head_dim // 2 - 1))
    rows = []
    for label, p in models.items():
        trained = p.pretrained_length  # not max_position_embeddings (Qwen3-0.6B: 32,768, not 40,960)
        rows.append(ModelTheta(
            model=label, head_dim=p.head_dim, trained=trained, theta=p.rope_theta,
            one_turn=theta_for_context(p.head_dim, trained),
            k_turn=theta_for_context(p.head_dim, trained, slow_pairs=min(k, p.head_dim // 2 - 1)),
            slow=slow_pair_count(inverse_frequencies(p.head_dim, p.rope_theta), trained),
            pairs=p.head_dim // 2,
        ))
    return ThetaCalculation(
        theta=theta_for_context(head_dim, context_length, slow_pairs=k),
        one_turn=theta_for_context(head_dim, context_length),
        k=k,
        clamped=k != slow_pairs,
        rows=rows,
    )
