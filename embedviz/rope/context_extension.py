"""Context extension, the analysis behind the page: what each method does to each RoPE pair, and the other road.

A model trained on L_train positions is asked for a longer context. :func:`extension_view` compares plain RoPE
with a method of :mod:`embedviz.rope.scaling` pair by pair: which pairs it keeps, interpolates (w_i / factor) or
blends, how many turns each pair makes, which pairs meet angles training never showed them, and the long-range
decay before and after. The other road, pre-training with a larger rope_theta, is :mod:`embedviz.rope.theta_calculator`.

The page's starting values live here too: :func:`extension_settings` reads a config (:mod:`embedviz.rope.config`)
into them, :data:`METHOD_DEFAULTS` holds each method's tunable numbers, :data:`LLAMA2_7B_PI_16K` is the view the
page opens on and :data:`PHI3_MINI_128K` the example config of its text area (the LongRoPE lists as published).
"""
from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np

from embedviz import model_facts
from embedviz._validate import finite_array, finite_float, one_of, positive_int
from embedviz.downsample import log_spaced_indices
from embedviz.errors import InputError
from embedviz.models.params import PRESETS
from embedviz.rope.rotary import decay_of_frequencies, turns_within, wavelengths
from embedviz.rope.config import config_text_part, from_config, scaling_of
from embedviz.rope.scaling import (YARN_BETAS, YARN_TRUNCATE, RopeType, compute, dynamic_base, per_pair_factors,
                                   resolve_rope_type, rotary_dim)

PairKind = Literal["kept", "interpolated", "blended"]

# The methods a user can pick (all but "default", which is the "before" of every comparison).
# Simple -> complex, the order the page offers them: one division (linear), a new base (dynamic NTK), a ramp by
# turns plus a temperature (yarn), YaRN's three groups drawn by wavelength (llama3: its text builds on YaRN's),
# then a searched factor per pair with two tables (longrope: only a config brings its lists).
METHODS: tuple[RopeType, ...] = ("linear", "dynamic", "yarn", "llama3", "longrope")
# Each method's tunable numbers and their defaults (transformers' / the papers'). 0.0 stands for "not set":
# transformers treats a missing or zero mscale / mscale_all_dim the same, and attention_factor 0 means "use the
# method's formula".
METHOD_DEFAULTS: dict[str, dict[str, float | bool]] = {
    "linear": {},
    "dynamic": {},
    "yarn": {**YARN_BETAS, "mscale": 0.0, "mscale_all_dim": 0.0, "attention_factor": 0.0, "truncate": YARN_TRUNCATE},
    "llama3": {"low_freq_factor": 1.0, "high_freq_factor": 4.0},
    "longrope": {"attention_factor": 0.0},
}
UNSCALED_TARGET, SUGGESTED_MAX_FACTOR = 131_072, 32  # 128K (YaRN: LLaMA 4K x 32 -> 128K; Qwen3 32K -> 128K)

# microsoft/Phi-3-mini-128k-instruct's config.json (its LongRoPE factor lists as published, in full): the page's
# example config and the tests' LongRoPE input.
PHI3_MINI_128K: dict[str, Any] = model_facts.config("phi-3-mini-128k-instruct.json")

# The page's first view: the simplest method, position interpolation (Chen et al. 2023), on LLaMA-2-7B, its 4,096
# trained positions stretched x4 to 16,384. x4 is the PI paper's smallest stretch (LLaMA 2,048 -> 8,192), the shape
# of published PI checkpoints of this very model (LongLoRA's Llama-2-7b-longlora-16k: linear, factor 4) and the
# factor of the Qwen3 YaRN preset, so switching the method compares methods at one stretch. At x4 the fastest pair's
# step per token drops from 1 radian to 0.25, which is PI's cost. Written as a config.json (the preset's numbers);
# original_max_position_embeddings is spelt out because a linear config cannot say its trained length otherwise
# (transformers' linear scaling ignores it).
_LLAMA2 = PRESETS["LLaMA-2-7B"]
PI_FACTOR = 4.0
LLAMA2_7B_PI_16K: dict[str, Any] = {
    "model_type": "llama",
    "hidden_size": _LLAMA2.d_model,
    "num_attention_heads": _LLAMA2.num_heads,
    "max_position_embeddings": round(_LLAMA2.pretrained_length * PI_FACTOR),
    "rope_theta": _LLAMA2.rope_theta,
    "rope_scaling": {"rope_type": "linear", "factor": PI_FACTOR,
                     "original_max_position_embeddings": _LLAMA2.pretrained_length},
}

# the methods whose frequencies depend on the current length (the page's "current length" slider)
CONTEXT_LENGTH_METHODS: tuple[RopeType, ...] = ("dynamic", "longrope")
# the methods with one fixed stretch: past original x factor even their interpolated pairs overshoot
FIXED_STRETCH_METHODS: tuple[RopeType, ...] = ("linear", "yarn", "llama3")


@dataclass(frozen=True)
class ExtensionSettings:
    """A model's RoPE as the context-extension page's starting values (:func:`extension_settings`)."""

    head_dim: int  # the head's width (all of it, rotated or not)
    theta: float  # rope_theta
    method: RopeType  # the config's rope_type, or "yarn" as the suggestion for an unscaled config
    factor: float  # the config's stretch, or the suggested one (target / original)
    original: int  # the trained length: original_max_position_embeddings as from_config reads it
    target: int  # the longest context the config claims, or the suggested one
    # every method's tunable numbers by transformers name (METHOD_DEFAULTS), the config's own where it sets them:
    # a mapping, iterated by name beside the page's widget keys
    params: dict[str, float | bool]
    short_factor: tuple[float, ...] | None  # LongRoPE's per-pair lists when well formed, else None
    long_factor: tuple[float, ...] | None
    partial_rotary_factor: float | None  # as the config writes it; None when absent
    rotary_dim: int  # the dimensions that turn: d in every formula
    scaled: bool  # False: the config has no scaling, and method / factor / target are a suggestion


def extension_settings(config: Mapping[str, Any], *, layer_type: str | None = None) -> ExtensionSettings:
    """A model's RoPE as the context-extension page's starting values, read by :func:`from_config`.

    - a scaled config keeps its method, factor and trained length (``original``); ``target`` is the longest context
      it claims: max(max_position_embeddings, original * factor) (the Qwen3 card keeps 40,960 beside factor 4);
    - an unscaled one (``scaled`` False) gets a suggestion: YaRN to 131,072 tokens, at most x 32 (4 x the trained
      length when it already has 131,072), as the YaRN paper took LLaMA 2 from 4K to 128K;
    - ``params`` holds every method's numbers (:data:`METHOD_DEFAULTS`), the config's own where it sets them;
    - LongRoPE's ``short_factor`` / ``long_factor`` are tuples, or None when absent (or malformed, off longrope).
    A per-layer ``rope_parameters`` (Gemma 3) is read for ``layer_type``, "full_attention" when not given.
    """
    if layer_type is None and isinstance(config, Mapping):
        nested = scaling_of(config_text_part(config))  # a multimodal config keeps them in text_config
        if any(isinstance(value, Mapping) for value in nested.values()):
            # full_attention first; a proportional layer (Gemma 4) is a pair layout, not a context extension
            usable = [key for key, value in nested.items() if isinstance(value, Mapping)
                      and value.get("rope_type", value.get("type")) != "proportional"]
            layer_type = "full_attention" if "full_attention" in usable else (usable or [None])[0]
            if layer_type is None:
                raise InputError("proportional_only")
    out = from_config(config, layer_type=layer_type)
    scaling = out["scaling"] or {}
    rope_type = scaling.get("rope_type", "default")
    if rope_type == "proportional":
        raise InputError("proportional_layout")
    original = out["original_max_position_embeddings"]
    if rope_type == "default":
        target = min(UNSCALED_TARGET, SUGGESTED_MAX_FACTOR * original) if original < UNSCALED_TARGET else 4 * original
        method, factor = "yarn", target / original
    else:
        method, factor = rope_type, float(scaling["factor"])
        target = max(out["max_position_embeddings"], round(original * factor))
    params: dict[str, float | bool] = {}
    for defaults in METHOD_DEFAULTS.values():
        params.update(defaults)
    for key in METHOD_DEFAULTS[method]:
        if scaling.get(key):  # like transformers: missing, None and 0 all mean "the default"
            params[key] = bool(scaling[key]) if key == "truncate" else finite_float(key, scaling[key])
    if method == "yarn" and scaling.get("truncate") is False:
        params["truncate"] = False

    def factors(key: str) -> tuple[float, ...] | None:
        """LongRoPE's per-pair list when well formed, whatever the method (the page then offers LongRoPE); else
        None, as transformers ignores one off longrope (from_config already refused a malformed one on it)."""
        try:
            return tuple(per_pair_factors(scaling, key, rotary_dim(out["head_dim"], scaling)).tolist())
        except (KeyError, ValueError):  # none (missing, or null: not a list), or malformed (a stray 6 crashed here)
            return None

    return ExtensionSettings(
        head_dim=out["head_dim"], theta=out["theta"], method=method, factor=float(factor), original=int(original),
        target=int(target), params=params, short_factor=factors("short_factor"), long_factor=factors("long_factor"),
        partial_rotary_factor=scaling.get("partial_rotary_factor"), rotary_dim=rotary_dim(out["head_dim"], scaling),
        scaled=rope_type != "default",
    )


def build_scaling(
    method: RopeType,
    *,
    factor: float,
    original_max_position_embeddings: int,
    params: Mapping[str, Any] | None = None,
    short_factor: Sequence[float] | None = None,
    long_factor: Sequence[float] | None = None,
    partial_rotary_factor: float | None = None,
) -> dict[str, Any]:
    """The ``rope_scaling`` dict of ``method`` from the page's numbers, for :func:`compute`.

    Only the keys the method reads go in; ``params`` entries of other methods are ignored, missing ones take
    :data:`METHOD_DEFAULTS`, and the "not set" zeros (mscale, mscale_all_dim, attention_factor) are left out.
    """
    one_of("method", method, METHODS)
    scaling: dict[str, Any] = {
        "rope_type": method,
        "factor": factor,
        "original_max_position_embeddings": original_max_position_embeddings,
    }
    for key, default in METHOD_DEFAULTS[method].items():
        value = (params or {}).get(key, default)
        if key in ("mscale", "mscale_all_dim", "attention_factor") and value == 0:
            continue  # "not set": the method's own formula applies
        scaling[key] = value
    if method == "longrope":
        scaling["short_factor"] = None if short_factor is None else list(short_factor)
        scaling["long_factor"] = None if long_factor is None else list(long_factor)
    if partial_rotary_factor is not None:
        scaling["partial_rotary_factor"] = partial_rotary_factor
    return scaling



def context_length_for(method: str, original: int, ratio: float) -> int | None:
    """The current length dynamic NTK and LongRoPE see at ``ratio`` x the trained length; None for the methods that
    ignore it."""
    return max(1, round(ratio * original)) if method in CONTEXT_LENGTH_METHODS else None


@dataclass(frozen=True)
class Overshoot:
    """A fixed stretch that falls short of the target (:func:`beyond_factor`)."""

    covered: int  # original x factor, rounded: the length the stretch reaches
    times: float  # target / (original x factor): how far past their trained angles the interpolated pairs go


def beyond_factor(method: str, original: int, target: int, factor: float) -> Overshoot | None:
    """For the methods with a fixed stretch: when the target is longer than original x factor, that length and the
    ratio target / (original x factor) by which the interpolated pairs overshoot their trained angles."""
    covered = original * factor
    if method not in FIXED_STRETCH_METHODS or target <= covered * (1 + 1e-9):
        return None
    return Overshoot(covered=round(covered), times=target / covered)



# what the method does to each pair


def classify_pairs(
    inv_freq_before, inv_freq_after, *, rtol: float = 1e-6, factor: float | None = None
) -> list[PairKind]:
    """Label each pair by what the extension did to it: "kept", "interpolated" or "blended".

    kept: after == before; interpolated: after == before / factor; blended: anything else (a ramp, NTK, LongRoPE's
    per-pair factors). ``factor`` defaults to the largest before/after ratio, the full stretch of the method.
    Both arrays have shape (d/2,); equality is up to ``rtol``.
    """
    before = finite_array("inv_freq_before", inv_freq_before, positive=True).astype(np.float64)
    after = finite_array("inv_freq_after", inv_freq_after, positive=True).astype(np.float64)
    if before.ndim != 1 or before.shape != after.shape:
        raise ValueError(
            f"inv_freq_before {before.shape} and inv_freq_after {after.shape} must be 1-D of the same length"
        )
    rtol = finite_float("rtol", rtol, greater_than=0.0)
    ratio = before / after  # (d/2,) how much each pair was slowed down
    if factor is None:
        factor = float(ratio.max()) if ratio.size else 1.0
    factor = finite_float("factor", factor, greater_than=0.0)
    kinds: list[PairKind] = []
    for r in ratio:
        if abs(r - 1.0) <= rtol:
            kinds.append("kept")
        elif abs(r - factor) <= rtol * factor:
            kinds.append("interpolated")
        else:
            kinds.append("blended")
    return kinds


@dataclass(frozen=True)
class ExtensionView:
    """Everything the context-extension page draws, per pair i = 0..P-1 (P = rotary dimension / 2).

    inv_freq_before / inv_freq_after: plain RoPE's and the method's w_i; attention_factor: the method's.
    wavelen_before / wavelen_after: 2*pi / w_i. ratio: w_after / w_before (1 kept, 1/factor interpolated).
    kinds: "kept" / "interpolated" / "blended" per pair (:func:`classify_pairs` with the method's factor).
    context_length: the context the new frequencies serve (the target, or the current length for dynamic /
    longrope). turns_trained: turns of the plain pairs over the trained length; turns_unscaled: over
    ``context_length`` without scaling (extrapolation); turns_scaled: with the method over ``context_length``.
    unseen_unscaled / unseen_scaled: pairs that meet angles training never showed them (fewer than one turn in
    training and a larger angle now), without / with the method.
    overshoot_unscaled / overshoot_scaled: the largest of those pairs' angle over ``context_length`` divided by its
    largest trained angle (1.0 when no pair overshoots): how far past training the worst pair goes.
    distances (N,), decay_before, decay_after: mean_i cos(distance * w_i), out to the target length.
    base: dynamic NTK's effective base at context_length (None for the other methods).
    """

    inv_freq_before: np.ndarray
    inv_freq_after: np.ndarray
    attention_factor: float
    wavelen_before: np.ndarray
    wavelen_after: np.ndarray
    ratio: np.ndarray
    kinds: list[PairKind]
    context_length: int
    turns_trained: np.ndarray
    turns_unscaled: np.ndarray
    turns_scaled: np.ndarray
    unseen_unscaled: np.ndarray
    unseen_scaled: np.ndarray
    overshoot_unscaled: float
    overshoot_scaled: float
    distances: np.ndarray
    decay_before: np.ndarray
    decay_after: np.ndarray
    base: float | None


def _unseen(inv_freq_trained: np.ndarray, original: int, inv_freq: np.ndarray, context_length: int) -> np.ndarray:
    """Pairs whose largest angle over ``context_length`` exceeds the largest trained one, where training never closed
    the circle (a pair that turned at least once in training has seen every angle)."""
    trained_angle = original * inv_freq_trained  # (P,) the largest angle each pair reached in training
    return (trained_angle < 2 * math.pi) & (context_length * inv_freq > trained_angle * (1 + 1e-9))


def _overshoot(inv_freq_trained: np.ndarray, original: int, inv_freq: np.ndarray, context_length: int) -> float:
    """max over the pairs that never closed a turn in training of (angle over ``context_length``) / (largest trained
    angle)."""
    trained_angle = original * inv_freq_trained  # (P,)
    open_circle = trained_angle < 2 * math.pi
    if not open_circle.any():
        return 1.0
    return max(1.0, float(np.max(context_length * inv_freq[open_circle] / trained_angle[open_circle])))


def extension_view(
    head_dim: int,
    theta: float,
    scaling: Mapping[str, Any],
    *,
    original: int,
    target: int,
    context_length: int | None = None,
    decay_points: int = 768,
) -> ExtensionView:
    """Plain RoPE against ``scaling`` for a model trained on ``original`` tokens and asked for ``target``.

    ``context_length`` is the current length for "dynamic" and "longrope" (the frequencies depend on it, as on
    transformers' ``seq_len``) and then is the context the turns are counted over; otherwise the target is. The
    decay curve is sampled at ``decay_points`` distances from 1 to ``target``: every one up to 256 (or
    decay_points // 2), log-spaced beyond (a log axis).
    """
    original = positive_int("original", original)
    target = positive_int("target", target)
    plain = None
    if isinstance(scaling, Mapping) and scaling.get("partial_rotary_factor") is not None:
        plain = {"partial_rotary_factor": scaling["partial_rotary_factor"]}  # the same rotary dimension
    if context_length is not None:  # checked here so a refusal names this function's parameter
        context_length = positive_int("context_length", context_length)
    before = compute(head_dim, theta, plain).inv_freq
    after, attention_factor = compute(head_dim, theta, scaling, seq_len=context_length)
    rope_type = resolve_rope_type(scaling)
    served = target if context_length is None else context_length
    factor = float(scaling.get("factor") or 1.0)
    distances = log_spaced_indices(target + 1, positive_int("decay_points", decay_points, minimum=2),
                                   dense=256)[1:]  # (N,) 1..target, no 0 on a log axis
    return ExtensionView(
        inv_freq_before=before,
        inv_freq_after=after,
        attention_factor=attention_factor,
        wavelen_before=wavelengths(before),
        wavelen_after=wavelengths(after),
        ratio=after / before,
        kinds=classify_pairs(before, after, factor=factor),
        context_length=served,
        turns_trained=turns_within(before, original),
        turns_unscaled=turns_within(before, served),
        turns_scaled=turns_within(after, served),
        unseen_unscaled=_unseen(before, original, before, served),
        unseen_scaled=_unseen(before, original, after, served),
        overshoot_unscaled=_overshoot(before, original, before, served),
        overshoot_scaled=_overshoot(before, original, after, served),
        distances=distances,
        decay_before=decay_of_frequencies(before, distances),
        decay_after=decay_of_frequencies(after, distances),
        base=dynamic_base(head_dim, theta, scaling, seq_len=context_length) if rope_type == "dynamic" else None,
    )
