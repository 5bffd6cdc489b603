"""RoPE context extension: every Hugging Face ``rope_type`` as float64 numpy, equal to transformers' numbers.

A model trained on T positions has seen each RoPE pair turn through at most T * w_i radians. Asked for a longer
context, the slow pairs (long wavelengths) meet angles they never saw. Each method below changes the inverse
frequencies w_i = theta^(-2i/d) so that the long context maps back onto angles the model knows:

- "default"   plain RoPE, w_i = theta^(-2i/d)                              (Su et al. 2021)
- "linear"    position interpolation: every w_i / factor                  (Chen et al. 2023, kaiokendev)
- "dynamic"   NTK-aware: raise theta only once seq_len passes the trained length (bloc97, emozilla)
- "yarn"      keep fast pairs, divide slow pairs by factor, ramp between; scale attention (Peng et al. 2023)
- "longrope"  one searched factor per pair, a short and a long set         (Ding et al. 2024, Phi-3)
- "llama3"    like yarn but the ramp is over wavelengths                  (Meta, Llama 3.1)

The formulas follow ``transformers/modeling_rope_utils.py`` (transformers 5.24.0): one private function per
method, all with one signature, picked by name from ``ROPE_INIT_FUNCTIONS``. Where transformers computes in
float32 torch, this module computes in float64 numpy; the two agree to a relative error far below 1e-5.

Notation: d is the rotary dimension (head_dim, or int(head_dim * partial_rotary_factor)), w_i = inv_freq[i] for
pair i in 0..d/2-1, wavelen_i = 2*pi / w_i (positions per full turn), L the context length.
"""
from __future__ import annotations

import json
import math
import numbers
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np

from embedviz._validate import even_int, finite_array, finite_float, positive_int
from embedviz.downsample import log_spaced_indices
from embedviz.rope import decay_curve

RopeType = Literal["default", "linear", "dynamic", "yarn", "longrope", "llama3"]
PairKind = Literal["kept", "interpolated", "blended"]

# Old names transformers still accepts: "type" for "rope_type" (every model), "su" for LongRoPE (Phi-3 configs).
_ROPE_TYPE_ALIASES = {"su": "longrope"}

# Keys each method cannot do without, as transformers' `_validate_<rope_type>_rope_parameters` require them.
# longrope's `factor` is optional in transformers (it derives max_position_embeddings / original), but compute()
# never sees max_position_embeddings, so here it is required and from_config() fills it in.
_REQUIRED_KEYS: dict[RopeType, tuple[str, ...]] = {
    "default": (),
    "linear": ("factor",),
    "dynamic": ("factor", "original_max_position_embeddings"),
    "yarn": ("factor", "original_max_position_embeddings"),
    "longrope": ("short_factor", "long_factor", "original_max_position_embeddings", "factor"),
    "llama3": ("factor", "original_max_position_embeddings", "low_freq_factor", "high_freq_factor"),
}
_KEY_HINTS = {
    ("dynamic", "original_max_position_embeddings"): "the trained length; transformers uses the config's "
    "max_position_embeddings, from_config() fills it in",
    ("longrope", "factor"): "transformers derives it as max_position_embeddings / original_max_position_embeddings, "
    "from_config() fills it in",
}


# helper functions


def _default_inv_freq(dim: int, theta: float) -> np.ndarray:
    """w_i = theta^(-2i/d) for i in 0..d/2-1, shape (d/2,), float64."""
    return 1.0 / theta ** (np.arange(0, dim, 2, dtype=np.float64) / dim)


def _real(key: str, value: Any, rope_type: str) -> float:
    """``value`` as a finite float; bools, strings and NaN are refused with a message naming ``key``."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real) or not math.isfinite(value):
        raise ValueError(f"{key} ({value!r}) must be a finite number for rope_type '{rope_type}'")
    return float(value)


def _number(params: Mapping[str, Any], key: str, rope_type: str) -> float:
    """``params[key]`` as a finite float; the key must be there."""
    if params.get(key) is None:
        raise ValueError(f"scaling for rope_type '{rope_type}' is missing required key '{key}'")
    return _real(key, params[key], rope_type)


def _factor(params: Mapping[str, Any], rope_type: str) -> float:
    factor = _number(params, "factor", rope_type)
    # factor < 1 would shrink the context: every method here is defined for stretching only
    if factor < 1.0:
        raise ValueError(f"factor ({factor:g}) must be a number >= 1 for rope_type '{rope_type}'")
    return factor


def _positive(params: Mapping[str, Any], key: str, rope_type: str) -> float:
    """``params[key]`` as a float > 0; the key must be there."""
    return _check_positive(key, _number(params, key, rope_type), rope_type)


def _check_positive(key: str, value: Any, rope_type: str) -> float:
    """``value`` as a float > 0, the message naming ``key``."""
    value = _real(key, value, rope_type)
    if value <= 0:
        raise ValueError(f"{key} ({value:g}) must be > 0 for rope_type '{rope_type}'")
    return value


def _original_length(params: Mapping[str, Any]) -> int:
    return positive_int("original_max_position_embeddings", params["original_max_position_embeddings"])


def _attention_factor(params: Mapping[str, Any], rope_type: str) -> float | None:
    """An explicit ``attention_factor`` (> 0), or None to use the method's recommended value."""
    if params.get("attention_factor") is None:
        return None
    return _positive(params, "attention_factor", rope_type)


def _per_pair_factors(params: Mapping[str, Any], key: str, dim: int) -> np.ndarray:
    """``short_factor`` / ``long_factor``: one positive number per pair, shape (d/2,)."""
    values = params[key]
    if isinstance(values, (str, bytes)) or not isinstance(values, (Sequence, np.ndarray)):
        raise ValueError(f"{key} must be a list of d/2 = {dim // 2} numbers, got {type(values).__name__}")
    if len(values) != dim // 2:
        raise ValueError(
            f"{key} has {len(values)} entries, the rotary dimension ({dim}) needs {dim // 2} (one per pair)"
        )
    factors = finite_array(key, values).astype(np.float64)
    if np.any(factors <= 0):
        raise ValueError(f"{key} entries must all be > 0, got min {factors.min():g}")
    return factors


def _rotary_dim(head_dim: int, params: Mapping[str, Any]) -> int:
    """d = int(head_dim * partial_rotary_factor), as transformers truncates it; the rest of the head is not rotated."""
    partial_rotary_factor = params.get("partial_rotary_factor")
    if partial_rotary_factor is None:
        return head_dim
    partial_rotary_factor = finite_float("partial_rotary_factor", partial_rotary_factor, greater_than=0.0)
    if partial_rotary_factor > 1.0:
        raise ValueError(f"partial_rotary_factor ({partial_rotary_factor:g}) must be in (0, 1]")
    dim = int(head_dim * partial_rotary_factor)
    if dim < 2 or dim % 2:
        raise ValueError(
            f"rotary dimension int(head_dim * partial_rotary_factor) = int({head_dim} * {partial_rotary_factor:g}) "
            f"= {dim} must be even and >= 2"
        )
    return dim


def _resolve_rope_type(scaling: Mapping[str, Any]) -> str:
    """``rope_type`` (or the old key ``type``), with old names mapped; unknown names list the known ones."""
    rope_type = scaling.get("rope_type", scaling.get("type", "default"))
    if isinstance(rope_type, str):
        rope_type = _ROPE_TYPE_ALIASES.get(rope_type, rope_type)
    if not isinstance(rope_type, str) or rope_type not in ROPE_INIT_FUNCTIONS:
        known = ", ".join(repr(name) for name in ROPE_INIT_FUNCTIONS)
        raise ValueError(f"rope_type ({rope_type!r}) is unknown; known rope types: {known}")
    return rope_type


# one function per method, all with one signature: (d, theta, params, *, seq_len) -> (inv_freq, attention_factor)


def _compute_default_parameters(
    dim: int, theta: float, params: Mapping[str, Any], *, seq_len: int | None = None
) -> tuple[np.ndarray, float]:
    """Plain RoPE: w_i = theta^(-2i/d); attention untouched."""
    return _default_inv_freq(dim, theta), 1.0


def _compute_linear_scaling_parameters(
    dim: int, theta: float, params: Mapping[str, Any], *, seq_len: int | None = None
) -> tuple[np.ndarray, float]:
    """Position interpolation: w_i / factor, so position m*factor turns as far as position m did in training."""
    factor = _factor(params, "linear")
    # scaling positions by 1/factor is the same as scaling every frequency by 1/factor: angle = m * w_i
    return _default_inv_freq(dim, theta) / factor, 1.0


def _compute_dynamic_ntk_parameters(
    dim: int, theta: float, params: Mapping[str, Any], *, seq_len: int | None = None
) -> tuple[np.ndarray, float]:
    """Dynamic NTK: theta' = theta * (factor * L / L_train - (factor - 1))^(d / (d - 2)), only once L > L_train.

    L_train is ``original_max_position_embeddings`` (transformers: the config's max_position_embeddings); L is
    ``seq_len``, clamped up to L_train, so shorter inputs keep the trained frequencies exactly.
    """
    factor = _factor(params, "dynamic")
    base = _ntk_base(dim, theta, factor, _original_length(params), seq_len)
    return _default_inv_freq(dim, base), 1.0


def _ntk_base(dim: int, theta: float, factor: float, trained_length: int, seq_len: int | None) -> float:
    """Dynamic NTK's base for a sequence of ``seq_len`` tokens (theta itself up to the trained length)."""
    # below the trained length nothing changes (transformers clamps seq_len up to max_position_embeddings)
    length = trained_length if seq_len is None else max(seq_len, trained_length)
    if dim <= 2:  # with one pair, w_0 = base^0 = 1 whatever the base
        return theta
    # the exponent d/(d-2) makes the slowest pair w_{d/2-1} = base^(-(d-2)/d) slow down by exactly that ratio
    return theta * (factor * length / trained_length - (factor - 1.0)) ** (dim / (dim - 2))


def _yarn_mscale(scale: float, mscale: float = 1.0) -> float:
    """YaRN's attention temperature: 0.1 * mscale * ln(scale) + 1 (1 when not stretched)."""
    if scale <= 1.0:
        return 1.0
    return 0.1 * mscale * math.log(scale) + 1.0


def _yarn_correction_dim(num_rotations: float, dim: int, theta: float, original_length: int) -> float:
    """The (fractional) pair index whose wavelength fits ``num_rotations`` turns into the trained length."""
    # solve L_train * theta^(-2i/d) = 2*pi*num_rotations for i
    return (dim * math.log(original_length / (num_rotations * 2 * math.pi))) / (2 * math.log(theta))


def _compute_yarn_parameters(
    dim: int, theta: float, params: Mapping[str, Any], *, seq_len: int | None = None
) -> tuple[np.ndarray, float]:
    """YaRN: pairs turning > beta_fast times in the trained length are kept, < beta_slow times divided by factor.

    Between the two, a linear ramp over the pair index blends the two frequencies. The attention logits are scaled
    by ``attention_factor`` = 0.1 * ln(factor) + 1 unless given (or mscale / mscale_all_dim, DeepSeek style).
    """
    factor = _factor(params, "yarn")
    original_length = _original_length(params)
    attention_factor = _attention_factor(params, "yarn")
    if attention_factor is None:
        mscale, mscale_all_dim = params.get("mscale"), params.get("mscale_all_dim")
        if mscale and mscale_all_dim:  # transformers uses the ratio only when both are set and non-zero
            mscale = _number(params, "mscale", "yarn")
            mscale_all_dim = _number(params, "mscale_all_dim", "yarn")
            attention_factor = _yarn_mscale(factor, mscale) / _yarn_mscale(factor, mscale_all_dim)
        else:
            attention_factor = _yarn_mscale(factor)
    # `or`: like transformers, None and 0 fall back to the paper's 32 / 1
    beta_fast = _check_positive("beta_fast", params.get("beta_fast") or 32, "yarn")
    beta_slow = _check_positive("beta_slow", params.get("beta_slow") or 1, "yarn")
    if beta_fast < beta_slow:
        raise ValueError(
            f"beta_fast ({beta_fast:g}) must be >= beta_slow ({beta_slow:g}) for rope_type 'yarn': "
            "beta_fast counts the turns of the fast pairs that are kept"
        )
    truncate = params.get("truncate", True)
    if not isinstance(truncate, (bool, np.bool_)):
        raise ValueError(f"truncate ({truncate!r}) must be True or False for rope_type 'yarn'")

    low = _yarn_correction_dim(beta_fast, dim, theta, original_length)
    high = _yarn_correction_dim(beta_slow, dim, theta, original_length)
    if truncate:
        low, high = math.floor(low), math.ceil(high)
    low, high = max(low, 0), min(high, dim - 1)
    if low == high:
        high += 0.001  # transformers' guard against a zero-width ramp
    # ramp: 0 for the fast pairs (i <= low), 1 for the slow pairs (i >= high), linear in between
    ramp = np.clip((np.arange(dim // 2, dtype=np.float64) - low) / (high - low), 0.0, 1.0)  # (d/2,)

    inv_freq_extrapolation = _default_inv_freq(dim, theta)  # as trained
    inv_freq_interpolation = inv_freq_extrapolation / factor  # position interpolation
    inv_freq = inv_freq_interpolation * ramp + inv_freq_extrapolation * (1.0 - ramp)
    return inv_freq, float(attention_factor)


def _compute_longrope_parameters(
    dim: int, theta: float, params: Mapping[str, Any], *, seq_len: int | None = None
) -> tuple[np.ndarray, float]:
    """LongRoPE: w_i / ext_i with one searched factor per pair: ``long_factor`` once seq_len > the trained
    length, ``short_factor`` otherwise (and when seq_len is None, as at model init in transformers).

    attention_factor = sqrt(1 + ln(factor) / ln(L_train)) unless given.
    """
    factor = _factor(params, "longrope")
    original_length = _original_length(params)
    short_factor = _per_pair_factors(params, "short_factor", dim)
    long_factor = _per_pair_factors(params, "long_factor", dim)
    attention_factor = _attention_factor(params, "longrope")
    if attention_factor is None:
        # keeps the attention entropy from growing with the longer context (Phi-3's choice)
        attention_factor = 1.0 if factor <= 1.0 else math.sqrt(1 + math.log(factor) / math.log(original_length))
    ext_factors = long_factor if seq_len and seq_len > original_length else short_factor
    return _default_inv_freq(dim, theta) / ext_factors, float(attention_factor)


def _compute_llama3_parameters(
    dim: int, theta: float, params: Mapping[str, Any], *, seq_len: int | None = None
) -> tuple[np.ndarray, float]:
    """Llama 3.1: keep pairs with wavelen < L_train / high_freq_factor, divide those with wavelen >
    L_train / low_freq_factor by factor, blend in between with smooth = (L_train / wavelen - low) / (high - low).
    """
    factor = _factor(params, "llama3")
    original_length = _original_length(params)
    low_freq_factor = _positive(params, "low_freq_factor", "llama3")
    high_freq_factor = _positive(params, "high_freq_factor", "llama3")
    if high_freq_factor <= low_freq_factor:
        raise ValueError(
            f"high_freq_factor ({high_freq_factor:g}) must be greater than low_freq_factor ({low_freq_factor:g}) "
            "for rope_type 'llama3'"
        )
    inv_freq = _default_inv_freq(dim, theta)
    wavelen = 2 * math.pi / inv_freq  # (d/2,)
    low_freq_wavelen = original_length / low_freq_factor  # longer than this: interpolate fully
    high_freq_wavelen = original_length / high_freq_factor  # shorter than this: keep
    # smooth = 1 at wavelen = high_freq_wavelen, 0 at low_freq_wavelen: the two ends meet continuously
    smooth = (original_length / wavelen - low_freq_factor) / (high_freq_factor - low_freq_factor)
    smoothed = (1 - smooth) * inv_freq / factor + smooth * inv_freq
    inv_freq_llama = np.where(wavelen > low_freq_wavelen, inv_freq / factor, inv_freq)
    is_medium_freq = (wavelen >= high_freq_wavelen) & (wavelen <= low_freq_wavelen)
    return np.where(is_medium_freq, smoothed, inv_freq_llama), 1.0


# the registry: a new method is one function above plus one line here (as transformers' ROPE_INIT_FUNCTIONS)
ROPE_INIT_FUNCTIONS: dict[str, Callable[..., tuple[np.ndarray, float]]] = {
    "default": _compute_default_parameters,
    "linear": _compute_linear_scaling_parameters,
    "dynamic": _compute_dynamic_ntk_parameters,
    "yarn": _compute_yarn_parameters,
    "longrope": _compute_longrope_parameters,
    "llama3": _compute_llama3_parameters,
}


# public API


def compute(
    head_dim: int, theta: float, scaling: Mapping[str, Any] | None, *, seq_len: int | None = None
) -> tuple[np.ndarray, float]:
    """Inverse frequencies and attention factor of a (scaled) RoPE, equal to what transformers computes.

    Args:
        head_dim: size of one attention head, a positive even int.
        theta: RoPE base (``rope_theta``), > 1 and finite.
        scaling: a Hugging Face ``rope_parameters`` / ``rope_scaling`` dict (``rope_type`` or old ``type``,
            ``factor``, ``original_max_position_embeddings``, ``beta_fast``, ...), or None for plain RoPE.
            ``partial_rotary_factor`` in it shrinks the rotary dimension to int(head_dim * partial_rotary_factor).
        seq_len: current sequence length, read by "dynamic" (theta grows once seq_len > the trained length) and
            "longrope" (long factors once seq_len > the trained length); ignored by the others.

    Returns:
        ``(inv_freq, attention_factor)``: inv_freq has shape (d/2,), float64, d the rotary dimension;
        attention_factor multiplies cos and sin (1.0 except for yarn and longrope).
    """
    head_dim = even_int("head_dim", head_dim, what="RoPE")
    theta = finite_float("theta", theta, greater_than=1.0)
    if seq_len is not None:
        seq_len = positive_int("seq_len", seq_len)
    if scaling is None:
        scaling = {}
    if not isinstance(scaling, Mapping):
        raise ValueError(
            f"scaling must be a dict like {{'rope_type': 'linear', 'factor': 4.0}} or None, got {scaling!r}"
        )
    rope_type = _resolve_rope_type(scaling)
    # a v5 rope_parameters dict may carry rope_theta; two different bases would be ambiguous
    if scaling.get("rope_theta") is not None and finite_float("scaling['rope_theta']", scaling["rope_theta"]) != theta:
        raise ValueError(f"scaling['rope_theta'] ({scaling['rope_theta']}) disagrees with theta ({theta:g})")
    missing = [key for key in _REQUIRED_KEYS[rope_type] if scaling.get(key) is None]
    if missing:
        hints = [f" ({_KEY_HINTS[rope_type, key]})" if (rope_type, key) in _KEY_HINTS else "" for key in missing]
        names = ", ".join(f"'{key}'{hint}" for key, hint in zip(missing, hints))
        raise ValueError(f"scaling for rope_type '{rope_type}' is missing required key(s): {names}")
    dim = _rotary_dim(head_dim, scaling)
    inv_freq, attention_factor = ROPE_INIT_FUNCTIONS[rope_type](dim, theta, scaling, seq_len=seq_len)
    return np.asarray(inv_freq, dtype=np.float64), float(attention_factor)


def _config_positive_int(config: Mapping[str, Any], key: str) -> int:
    if config.get(key) is None:
        raise ValueError(f"config has no '{key}'")
    return positive_int(key, config[key])


def from_config(config: Mapping[str, Any], *, layer_type: str | None = None) -> dict[str, Any]:
    """Read a model's ``config.json`` dict into the arguments of :func:`compute`, as transformers reads it.

    Returns ``{"head_dim", "theta", "scaling", "max_position_embeddings", "original_max_position_embeddings"}``:
    ``compute(out["head_dim"], out["theta"], out["scaling"])`` gives the model's frequencies. ``scaling`` is None
    for plain RoPE over the whole head, else a normalised dict (``rope_type`` key, rope_theta removed, the trained
    length and a derived ``factor`` filled in where transformers derives them). ``original_max_position_embeddings``
    is the length the model was trained on before the extension (max_position_embeddings when the config has none).

    Reads, in transformers' order of precedence:
    - ``rope_scaling`` (v4 configs) or ``rope_parameters`` (v5 configs); ``layer_type`` picks one entry of a
      per-layer ``rope_parameters`` ({"full_attention": {...}, "sliding_attention": {...}});
    - ``rope_theta`` inside that dict, else top-level ``rope_theta`` (GPT-NeoX: ``rotary_emb_base``);
    - ``partial_rotary_factor`` inside that dict, else top-level (GPT-NeoX: ``rotary_pct``);
    - ``head_dim``, else hidden_size // num_attention_heads; ``max_position_embeddings``;
    - for llama3 / yarn / longrope the trained length is a top-level ``original_max_position_embeddings`` (Phi-3
      keeps it there), else the one in the dict, else max_position_embeddings; for dynamic it is always
      max_position_embeddings (transformers' dynamic NTK ignores any other);
    - yarn / longrope without ``factor``: factor = max_position_embeddings / original_max_position_embeddings.
    """
    if not isinstance(config, Mapping):
        raise ValueError(f"config must be a dict read from config.json, got {type(config).__name__}")
    # transformers: `rope_parameters = rope_scaling or rope_parameters` (an old key wins when both are set)
    rope_parameters = config.get("rope_scaling") or config.get("rope_parameters") or {}
    if not isinstance(rope_parameters, Mapping):
        raise ValueError(f"rope_scaling / rope_parameters must be a dict, got {rope_parameters!r}")
    nested = [key for key, value in rope_parameters.items() if isinstance(value, Mapping)]
    if layer_type is not None:
        if layer_type not in nested:
            raise ValueError(f"layer_type ({layer_type!r}) is not in rope_parameters; it has: {nested or 'none'}")
        rope_parameters = rope_parameters[layer_type]
    elif nested:
        raise ValueError(f"rope_parameters is per layer type ({', '.join(nested)}): pass layer_type= to pick one")
    rope_parameters = dict(rope_parameters)  # a copy: the caller's config stays as it was

    theta = rope_parameters.pop("rope_theta", None)
    if theta is None:
        theta = config.get("rope_theta", config.get("rotary_emb_base"))
    if theta is None:
        raise ValueError("config has no 'rope_theta' (neither top-level nor in rope_parameters)")
    theta = finite_float("rope_theta", theta, greater_than=1.0)

    if rope_parameters.get("partial_rotary_factor") is None:
        partial_rotary_factor = config.get("partial_rotary_factor", config.get("rotary_pct"))
        if partial_rotary_factor is not None:
            rope_parameters["partial_rotary_factor"] = partial_rotary_factor

    if config.get("head_dim") is not None:
        head_dim = even_int("head_dim", config["head_dim"], what="RoPE")
    else:
        if config.get("hidden_size") is None or config.get("num_attention_heads") is None:
            raise ValueError("config has neither 'head_dim' nor both 'hidden_size' and 'num_attention_heads'")
        hidden_size = _config_positive_int(config, "hidden_size")
        num_attention_heads = _config_positive_int(config, "num_attention_heads")
        if hidden_size % num_attention_heads:
            raise ValueError(
                f"hidden_size ({hidden_size}) must be divisible by num_attention_heads ({num_attention_heads})"
            )
        head_dim = even_int("head_dim", hidden_size // num_attention_heads, what="RoPE")
    max_position_embeddings = _config_positive_int(config, "max_position_embeddings")

    rope_type = _resolve_rope_type(rope_parameters)
    rope_parameters.pop("type", None)
    rope_parameters["rope_type"] = rope_type
    if rope_type == "dynamic":
        original = max_position_embeddings  # what transformers' _compute_dynamic_ntk_parameters divides by
        rope_parameters["original_max_position_embeddings"] = original
    elif rope_type in ("llama3", "yarn", "longrope"):
        original = config.get("original_max_position_embeddings")
        if original is None:
            original = rope_parameters.get("original_max_position_embeddings", max_position_embeddings)
        original = positive_int("original_max_position_embeddings", original)
        rope_parameters["original_max_position_embeddings"] = original
        if rope_type in ("yarn", "longrope") and rope_parameters.get("factor") is None:
            # the extension ratio, as transformers infers it (DeepSeek-V3, Phi-3)
            rope_parameters["factor"] = max_position_embeddings / original
    else:
        original = rope_parameters.get("original_max_position_embeddings", max_position_embeddings)
        original = positive_int("original_max_position_embeddings", original)

    plain = rope_type == "default" and rope_parameters.get("partial_rotary_factor", 1.0) == 1.0
    scaling = None if plain else rope_parameters
    compute(head_dim, theta, scaling)  # fail here, naming the field, rather than later in a figure
    return {
        "head_dim": head_dim,
        "theta": theta,
        "scaling": scaling,
        "max_position_embeddings": max_position_embeddings,
        "original_max_position_embeddings": original,
    }


# helpers for the context-extension page


def wavelengths_from_inv_freq(inv_freq) -> np.ndarray:
    """Positions per full turn of each pair, 2*pi / inv_freq, shape (d/2,), float64."""
    inv_freq = finite_array("inv_freq", inv_freq).astype(np.float64)
    if np.any(inv_freq <= 0):
        raise ValueError(f"inv_freq entries must all be > 0, got min {inv_freq.min():g}")
    return 2.0 * np.pi / inv_freq


def rotations_within(inv_freq, context_length: int) -> np.ndarray:
    """Full turns each pair makes over ``context_length`` positions, L * inv_freq / (2*pi), shape (d/2,).

    A pair with fewer than one turn never sees a repeated angle inside the context: it tells positions apart
    globally, and it is the pair an extension must stretch most carefully.
    """
    inv_freq = finite_array("inv_freq", inv_freq).astype(np.float64)
    context_length = positive_int("context_length", context_length)
    return context_length * inv_freq / (2.0 * np.pi)


def classify_pairs(
    inv_freq_before, inv_freq_after, *, rtol: float = 1e-6, factor: float | None = None
) -> list[PairKind]:
    """Label each pair by what the extension did to it: "kept", "interpolated" or "blended".

    kept: after == before; interpolated: after == before / factor; blended: anything else (a ramp, NTK, LongRoPE's
    per-pair factors). ``factor`` defaults to the largest before/after ratio, the full stretch of the method.
    Both arrays have shape (d/2,); equality is up to ``rtol``.
    """
    before = finite_array("inv_freq_before", inv_freq_before).astype(np.float64)
    after = finite_array("inv_freq_after", inv_freq_after).astype(np.float64)
    if before.ndim != 1 or before.shape != after.shape:
        raise ValueError(
            f"inv_freq_before {before.shape} and inv_freq_after {after.shape} must be 1-D of the same length"
        )
    if np.any(before <= 0) or np.any(after <= 0):
        raise ValueError("inv_freq_before and inv_freq_after entries must all be > 0")
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
    head_dim = even_int("head_dim", head_dim, what="RoPE")
    if head_dim < 4:
        raise ValueError(f"head_dim ({head_dim}) must be >= 4: with one pair, theta does not change its frequency")
    context_length = positive_int("context_length", context_length)
    max_turns = finite_float("max_turns", max_turns, greater_than=0.0)
    slow_pairs = positive_int("slow_pairs", slow_pairs)
    if slow_pairs > head_dim // 2 - 1:
        raise ValueError(
            f"slow_pairs ({slow_pairs}) must be in [1, head_dim/2 - 1] = [1, {head_dim // 2 - 1}] for head_dim "
            f"{head_dim}: pair 0 turns at w = 1 whatever theta is"
        )
    theta = (context_length / (2.0 * math.pi * max_turns)) ** (head_dim / (head_dim - 2 * slow_pairs))
    return max(theta, 1.0)


def slow_pair_count(inv_freq, context_length: int, *, max_turns: float = 1.0) -> int:
    """How many pairs make fewer than ``max_turns`` full turns over ``context_length`` positions.

    With max_turns = 1 these are the pairs whose wavelength is longer than the context: no angle repeats, so they
    tell far-apart positions apart (Llama 3 at 8,192 tokens with theta 500_000: 29 of 64 pairs).
    """
    max_turns = finite_float("max_turns", max_turns, greater_than=0.0)
    return int(np.sum(rotations_within(inv_freq, context_length) < max_turns))


def dynamic_base(head_dim: int, theta: float, scaling: Mapping[str, Any], *, seq_len: int | None) -> float:
    """The base dynamic NTK uses at ``seq_len``: theta * (s * L / L_train - (s - 1))^(d / (d - 2)), theta for
    L <= L_train. ``compute(head_dim, theta, scaling, seq_len=L)`` equals plain RoPE with this base."""
    head_dim = even_int("head_dim", head_dim, what="RoPE")
    theta = finite_float("theta", theta, greater_than=1.0)
    if seq_len is not None:
        seq_len = positive_int("seq_len", seq_len)
    if not isinstance(scaling, Mapping) or _resolve_rope_type(scaling) != "dynamic":
        raise ValueError(f"dynamic_base needs a scaling dict with rope_type 'dynamic', got {scaling!r}")
    compute(head_dim, theta, scaling, seq_len=seq_len)  # the same checks, the same messages
    dim = _rotary_dim(head_dim, scaling)
    return _ntk_base(dim, theta, _factor(scaling, "dynamic"), _original_length(scaling), seq_len)


# reading a pasted config.json into the context-extension page's settings

MAX_CONFIG_CHARS = 1_000_000  # a config.json is a few KB (Phi-3's with its factor lists ~4 KB)
_JSON_TYPES = {dict: "object", list: "array", str: "string", int: "number", float: "number", bool: "boolean"}

# The methods a user can pick (all but "default", which is the "before" of every comparison).
METHODS: tuple[RopeType, ...] = ("linear", "dynamic", "yarn", "longrope", "llama3")
# Each method's tunable numbers and their defaults (transformers' / the papers'). 0.0 stands for "not set":
# transformers treats a missing or zero mscale / mscale_all_dim the same, and attention_factor 0 means "use the
# method's formula".
METHOD_DEFAULTS: dict[str, dict[str, float | bool]] = {
    "linear": {},
    "dynamic": {},
    "yarn": {"beta_fast": 32.0, "beta_slow": 1.0, "mscale": 0.0, "mscale_all_dim": 0.0, "attention_factor": 0.0,
             "truncate": True},
    "longrope": {"attention_factor": 0.0},
    "llama3": {"low_freq_factor": 1.0, "high_freq_factor": 4.0},
}
UNSCALED_TARGET = 131_072  # 128K: where text 003's examples go (YaRN: LLaMA to 128K; Qwen3 32K -> 128K)

# microsoft/Phi-3-mini-128k-instruct's config.json, the RoPE fields as published (the factor lists are its float32
# values written out in full). The one copy: the page's example config and the tests' LongRoPE input both read it.
PHI3_MINI_128K: dict[str, Any] = {
    "model_type": "phi3",
    "hidden_size": 3072,
    "num_attention_heads": 32,
    "max_position_embeddings": 131072,
    "original_max_position_embeddings": 4096,
    "rope_theta": 10000.0,
    "rope_scaling": {
        "type": "longrope",
        "long_factor": [
            1.0800000429153442, 1.1100000143051147, 1.1399999856948853, 1.340000033378601, 1.5899999141693115,
            1.600000023841858, 1.6200000047683716, 2.620000123977661, 3.2300000190734863, 3.2300000190734863,
            4.789999961853027, 7.400000095367432, 7.700000286102295, 9.09000015258789, 12.199999809265137,
            17.670000076293945, 24.46000099182129, 28.57000160217285, 30.420001983642578, 30.840002059936523,
            32.590003967285156, 32.93000411987305, 42.320003509521484, 44.96000289916992, 50.340003967285156,
            50.45000457763672, 57.55000305175781, 57.93000411987305, 58.21000289916992, 60.1400032043457,
            62.61000442504883, 62.62000274658203, 62.71000289916992, 63.1400032043457, 63.1400032043457,
            63.77000427246094, 63.93000411987305, 63.96000289916992, 63.970001220703125, 64.02999877929688,
            64.06999969482422, 64.08000183105469, 64.12000274658203, 64.41000366210938, 64.4800033569336,
            64.51000213623047, 64.52999877929688, 64.83999633789062,
        ],
        "short_factor": [
            1.0, 1.0199999809265137, 1.0299999713897705, 1.0299999713897705, 1.0499999523162842,
            1.0499999523162842, 1.0499999523162842, 1.0499999523162842, 1.0499999523162842, 1.0699999332427979,
            1.0999999046325684, 1.1099998950958252, 1.1599998474121094, 1.1599998474121094, 1.1699998378753662,
            1.2899998426437378, 1.339999794960022, 1.679999828338623, 1.7899998426437378, 1.8199998140335083,
            1.8499997854232788, 1.8799997568130493, 1.9099997282028198, 1.9399996995925903, 1.9899996519088745,
            2.0199997425079346, 2.0199997425079346, 2.0199997425079346, 2.0199997425079346, 2.0199997425079346,
            2.0199997425079346, 2.0299997329711914, 2.0299997329711914, 2.0299997329711914, 2.0299997329711914,
            2.0299997329711914, 2.0299997329711914, 2.0299997329711914, 2.0299997329711914, 2.0299997329711914,
            2.0799996852874756, 2.0899996757507324, 2.189999580383301, 2.2199995517730713, 2.5899994373321533,
            2.729999542236328, 2.749999523162842, 2.8399994373321533,
        ],
    },
}


def parse_config_json(text: str) -> dict:
    """The dict in a pasted / uploaded config.json; a ValueError that says what is wrong otherwise."""
    if not isinstance(text, str):
        raise ValueError(f"config.json must be text, got {type(text).__name__}")
    if len(text) > MAX_CONFIG_CHARS:
        raise ValueError(f"config.json has {len(text):,} characters; a config has a few thousand (limit "
                         f"{MAX_CONFIG_CHARS:,})")
    if not text.strip():
        raise ValueError("config.json is empty: paste a model's config.json (a JSON object { ... })")
    try:
        config = json.loads(text)
    except json.JSONDecodeError as error:
        raise ValueError(
            f"config.json is not valid JSON: {error.msg} at line {error.lineno}, column {error.colno}"
        ) from None
    if not isinstance(config, dict):
        kind = _JSON_TYPES.get(type(config), type(config).__name__)
        raise ValueError(f"config.json must hold a JSON object {{ ... }}, got a JSON {kind}")
    return config


def extension_settings(config: Mapping[str, Any], *, layer_type: str | None = None) -> dict[str, Any]:
    """A model's RoPE as the context-extension page's starting values, read by :func:`from_config`.

    Returns ``{"head_dim", "theta", "method", "factor", "original", "target", "params", "short_factor",
    "long_factor", "partial_rotary_factor", "rotary_dim", "scaled"}``:
    - a scaled config keeps its method, factor and trained length (``original``); ``target`` is the longest context
      it claims: max(max_position_embeddings, original * factor) (the Qwen3 card keeps 40,960 beside factor 4);
    - an unscaled one (``scaled`` False) gets a suggestion: YaRN from max_position_embeddings to 131,072 tokens
      (4 x the trained length when it already has that many), as the YaRN paper took LLaMA 2 from 4K to 128K;
    - ``params`` holds every method's numbers (:data:`METHOD_DEFAULTS`), the config's own where it sets them;
    - LongRoPE's ``short_factor`` / ``long_factor`` are tuples, or None when the config has none.
    A per-layer ``rope_parameters`` (Gemma 3) is read for ``layer_type``, "full_attention" when not given.
    """
    if layer_type is None and isinstance(config, Mapping):
        nested = config.get("rope_scaling") or config.get("rope_parameters")
        if isinstance(nested, Mapping) and any(isinstance(value, Mapping) for value in nested.values()):
            layer_type = "full_attention" if isinstance(nested.get("full_attention"), Mapping) else next(
                key for key, value in nested.items() if isinstance(value, Mapping))
    out = from_config(config, layer_type=layer_type)
    scaling = out["scaling"] or {}
    rope_type = scaling.get("rope_type", "default")
    original = out["original_max_position_embeddings"]
    if rope_type == "default":
        target = UNSCALED_TARGET if original < UNSCALED_TARGET else 4 * original
        method, factor = "yarn", target / original
    else:
        method, factor = rope_type, float(scaling["factor"])
        target = max(out["max_position_embeddings"], round(original * factor))
    params: dict[str, float | bool] = {}
    for defaults in METHOD_DEFAULTS.values():
        params.update(defaults)
    for key in METHOD_DEFAULTS[method]:
        if scaling.get(key):  # like transformers: missing, None and 0 all mean "the default"
            params[key] = bool(scaling[key]) if key == "truncate" else float(scaling[key])
    if method == "yarn" and scaling.get("truncate") is False:
        params["truncate"] = False

    def factors(key: str) -> tuple[float, ...] | None:
        return tuple(float(v) for v in scaling[key]) if scaling.get(key) is not None else None

    return {
        "head_dim": out["head_dim"],
        "theta": out["theta"],
        "method": method,
        "factor": float(factor),
        "original": int(original),
        "target": int(target),
        "params": params,
        "short_factor": factors("short_factor"),
        "long_factor": factors("long_factor"),
        "partial_rotary_factor": scaling.get("partial_rotary_factor"),
        "rotary_dim": _rotary_dim(out["head_dim"], scaling),  # the dimensions that turn: d in every formula
        "scaled": rope_type != "default",
    }


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
    if method not in METHOD_DEFAULTS:
        raise ValueError(f"method ({method!r}) must be one of {', '.join(repr(m) for m in METHODS)}")
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


@dataclass(frozen=True)
class ExtensionView:
    """Everything the context-extension page draws, per pair i = 0..P-1 (P = rotary dimension / 2).

    inv_freq_before / inv_freq_after: plain RoPE's and the method's w_i; attention_factor: the method's.
    wavelen_before / wavelen_after: 2*pi / w_i. ratio: w_after / w_before (1 kept, 1/factor interpolated).
    kinds: "kept" / "interpolated" / "blended" per pair (:func:`classify_pairs` with the method's factor).
    length: the context the new frequencies serve (the target, or the current seq_len for dynamic / longrope).
    turns_trained: turns of the plain pairs over the trained length; turns_unscaled: over ``length`` without
    scaling (extrapolation); turns_scaled: with the method over ``length``.
    unseen_unscaled / unseen_scaled: pairs that meet angles training never showed them (fewer than one turn in
    training and a larger angle now), without / with the method.
    overshoot_unscaled / overshoot_scaled: the largest of those pairs' angle over ``length`` divided by its largest
    trained angle (1.0 when no pair overshoots): how far past training the worst pair goes.
    distances (N,), decay_before, decay_after: mean_i cos(distance * w_i), out to the target length.
    base: dynamic NTK's effective base at seq_len (None for the other methods).
    """

    inv_freq_before: np.ndarray
    inv_freq_after: np.ndarray
    attention_factor: float
    wavelen_before: np.ndarray
    wavelen_after: np.ndarray
    ratio: np.ndarray
    kinds: list[PairKind]
    length: int
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


def _unseen(inv_freq_trained: np.ndarray, original: int, inv_freq: np.ndarray, length: int) -> np.ndarray:
    """Pairs whose largest angle over ``length`` exceeds the largest trained one, where training never closed the
    circle (a pair that turned at least once in training has seen every angle)."""
    trained_angle = original * inv_freq_trained  # (P,) the largest angle each pair reached in training
    return (trained_angle < 2 * math.pi) & (length * inv_freq > trained_angle * (1 + 1e-9))


def _overshoot(inv_freq_trained: np.ndarray, original: int, inv_freq: np.ndarray, length: int) -> float:
    """max over the pairs that never closed a turn in training of (angle over ``length``) / (largest trained angle)."""
    trained_angle = original * inv_freq_trained  # (P,)
    open_circle = trained_angle < 2 * math.pi
    if not open_circle.any():
        return 1.0
    return max(1.0, float(np.max(length * inv_freq[open_circle] / trained_angle[open_circle])))


def extension_view(
    head_dim: int,
    theta: float,
    scaling: Mapping[str, Any],
    *,
    original: int,
    target: int,
    seq_len: int | None = None,
    decay_points: int = 768,
) -> ExtensionView:
    """Plain RoPE against ``scaling`` for a model trained on ``original`` tokens and asked for ``target``.

    ``seq_len`` is the current length for "dynamic" and "longrope" (the frequencies depend on it) and then is the
    context the turns are counted over; otherwise the target is. The decay curve is sampled at ``decay_points``
    distances from 1 to ``target``: every one up to 256 (or decay_points // 2), log-spaced beyond (a log axis).
    """
    original = positive_int("original", original)
    target = positive_int("target", target)
    plain = None
    if isinstance(scaling, Mapping) and scaling.get("partial_rotary_factor") is not None:
        plain = {"partial_rotary_factor": scaling["partial_rotary_factor"]}  # the same rotary dimension
    before, _ = compute(head_dim, theta, plain)
    after, attention_factor = compute(head_dim, theta, scaling, seq_len=seq_len)
    rope_type = _resolve_rope_type(scaling)
    length = positive_int("seq_len", seq_len) if seq_len is not None else target
    factor = float(scaling.get("factor") or 1.0)
    distances = log_spaced_indices(target + 1, positive_int("decay_points", decay_points, minimum=2),
                                   dense=256)[1:]  # (N,) 1..target, no 0 on a log axis
    return ExtensionView(
        inv_freq_before=before,
        inv_freq_after=after,
        attention_factor=attention_factor,
        wavelen_before=wavelengths_from_inv_freq(before),
        wavelen_after=wavelengths_from_inv_freq(after),
        ratio=after / before,
        kinds=classify_pairs(before, after, factor=factor),
        length=length,
        turns_trained=rotations_within(before, original),
        turns_unscaled=rotations_within(before, length),
        turns_scaled=rotations_within(after, length),
        unseen_unscaled=_unseen(before, original, before, length),
        unseen_scaled=_unseen(before, original, after, length),
        overshoot_unscaled=_overshoot(before, original, before, length),
        overshoot_scaled=_overshoot(before, original, after, length),
        distances=distances,
        decay_before=decay_curve(head_dim, theta, distances, inv_freq=before),
        decay_after=decay_curve(head_dim, theta, distances, inv_freq=after),
        base=dynamic_base(head_dim, theta, scaling, seq_len=seq_len) if rope_type == "dynamic" else None,
    )
