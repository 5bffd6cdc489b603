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
- "proportional" rotate the first pairs at theta^(-2i/head_dim), give the rest frequency 0 (Gemma 4 global layers)

The formulas follow ``transformers/modeling_rope_utils.py`` (transformers 5.24.0): one private function per
method, all with one signature, picked by name from ``ROPE_INIT_FUNCTIONS``. Where transformers computes in
float32 torch, this module computes in float64 numpy; the two agree to a relative error far below 1e-5.

Notation: d is the rotary dimension (head_dim, or int(head_dim * partial_rotary_factor)), w_i = inv_freq[i] for
pair i in 0..d/2-1, wavelen_i = 2*pi / w_i (positions per full turn), L the context length.

Plain RoPE is :mod:`embedviz.rope.rotary`, which this module builds on (never the other way round); reading a model's
config.json is :mod:`embedviz.rope.config`; the context-extension page's analysis is
:mod:`embedviz.rope.context_extension`.
"""
from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Literal, NamedTuple

import numpy as np

from embedviz._validate import boolean, even_int, finite_array, finite_float, one_of, positive_int, present
from embedviz.errors import InputError
from embedviz.rope.rotary import inverse_frequencies
from embedviz.rope.rotary import rotary_dim as _rope_rotary_dim

RopeType = Literal["default", "linear", "dynamic", "yarn", "longrope", "llama3", "proportional"]


class RopeFrequencies(NamedTuple):
    """What :func:`compute` returns: the per-pair frequencies and the factor cos and sin are multiplied by."""

    inv_freq: np.ndarray  # (d/2,) float64, d the rotary dimension
    attention_factor: float  # 1.0 except for yarn and longrope

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
    "proportional": (),
}
_KEY_HINTS = {
    ("dynamic", "original_max_position_embeddings"): "the trained length; transformers uses the config's "
    "max_position_embeddings, from_config() fills it in",
    ("longrope", "factor"): "transformers derives it as max_position_embeddings / original_max_position_embeddings, "
    "from_config() fills it in",
}


# helper functions

def _for(rope_type: str) -> str:
    """What a method's refusal is about: the rope_type whose rule it is ("... must be > 0 for rope_type 'yarn'")."""
    return f"rope_type '{rope_type}'"


def _number(params: Mapping[str, Any], key: str, rope_type: str, **bounds: float) -> float:
    """``params[key]`` as a finite float within ``bounds`` (those of ``finite_float``); the key must be there."""
    present(params, (key,), name="scaling", about=_for(rope_type))
    return finite_float(key, params[key], about=_for(rope_type), **bounds)


def _factor(params: Mapping[str, Any], rope_type: str) -> float:
    # factor < 1 would shrink the context: every method here is defined for stretching only
    return _number(params, "factor", rope_type, at_least=1)


def _positive(params: Mapping[str, Any], key: str, rope_type: str) -> float:
    """``params[key]`` as a float > 0; the key must be there."""
    return _number(params, key, rope_type, greater_than=0)


def _original_length(params: Mapping[str, Any]) -> int:
    return positive_int("original_max_position_embeddings", params["original_max_position_embeddings"])


def _attention_factor(params: Mapping[str, Any], rope_type: str) -> float | None:
    """An explicit ``attention_factor`` (> 0), or None to use the method's recommended value."""
    if params.get("attention_factor") is None:
        return None
    return _positive(params, "attention_factor", rope_type)


def per_pair_factors(params: Mapping[str, Any], key: str, dim: int) -> np.ndarray:
    """``short_factor`` / ``long_factor``: one positive number per pair, shape (d/2,)."""
    values = params[key]
    if isinstance(values, (str, bytes)) or not isinstance(values, (Sequence, np.ndarray)):
        raise InputError("pair_factors_list", key=key, half=dim // 2, got=type(values).__name__)
    if len(values) != dim // 2:
        raise InputError("pair_factors_count", key=key, n=len(values), dim=dim, half=dim // 2)
    try:
        array = np.asarray(values)
    except ValueError:  # ragged nested lists: numpy's own words would not help a reader
        raise InputError("pair_factors_flat", key=key, half=dim // 2) from None
    if array.ndim != 1:
        raise InputError("pair_factors_flat", key=key, half=dim // 2)
    return finite_array(key, array, positive=True).astype(np.float64)


def rotary_dim(head_dim: int, params: Mapping[str, Any]) -> int:
    """d = int(head_dim * partial_rotary_factor), as transformers truncates it; the rest of the head is not rotated."""
    return _rope_rotary_dim(head_dim, params.get("partial_rotary_factor"))


def resolve_rope_type(scaling: Mapping[str, Any]) -> str:
    """``rope_type`` (or the old key ``type``), with old names mapped; unknown names list the known ones."""
    rope_type = scaling.get("rope_type", scaling.get("type", "default"))
    if isinstance(rope_type, str):
        rope_type = _ROPE_TYPE_ALIASES.get(rope_type, rope_type)
    if not isinstance(rope_type, str) or rope_type not in ROPE_INIT_FUNCTIONS:
        known = ", ".join(repr(name) for name in ROPE_INIT_FUNCTIONS)
        raise InputError("rope_type_unknown", name="rope_type", value=rope_type, known=known)
    return rope_type


# one function per method, all with one signature: (d, theta, params, *, seq_len) -> (inv_freq, attention_factor)


def _compute_default_parameters(
    dim: int, theta: float, params: Mapping[str, Any], *, seq_len: int | None = None
) -> tuple[np.ndarray, float]:
    """Plain RoPE: w_i = theta^(-2i/d); attention untouched."""
    return inverse_frequencies(dim, theta), 1.0


def _compute_linear_scaling_parameters(
    dim: int, theta: float, params: Mapping[str, Any], *, seq_len: int | None = None
) -> tuple[np.ndarray, float]:
    """Position interpolation: w_i / factor, so position m*factor turns as far as position m did in training."""
    factor = _factor(params, "linear")
    # scaling positions by 1/factor is the same as scaling every frequency by 1/factor: angle = m * w_i
    return inverse_frequencies(dim, theta) / factor, 1.0


def _compute_dynamic_ntk_parameters(
    dim: int, theta: float, params: Mapping[str, Any], *, seq_len: int | None = None
) -> tuple[np.ndarray, float]:
    """Dynamic NTK: theta' = theta * (factor * L / L_train - (factor - 1))^(d / (d - 2)), only once L > L_train.

    L_train is ``original_max_position_embeddings`` (transformers: the config's max_position_embeddings); L is
    ``seq_len``, clamped up to L_train, so shorter inputs keep the trained frequencies exactly.
    """
    factor = _factor(params, "dynamic")
    base = _ntk_base(dim, theta, factor, _original_length(params), seq_len)
    return inverse_frequencies(dim, base), 1.0


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


YARN_BETAS = {"beta_fast": 32.0, "beta_slow": 1.0}  # the paper's (and transformers') defaults
YARN_TRUNCATE = True


def yarn_betas(params: Mapping[str, Any]) -> dict[str, Any]:
    """YaRN's beta_fast, beta_slow and truncate as ``params`` set them; ``or``: like transformers, a beta of None or 0
    falls back to :data:`YARN_BETAS`. (A live figure's browser is sent these, not the config's.)"""
    return {**{key: params.get(key) or default for key, default in YARN_BETAS.items()},
            "truncate": params.get("truncate", YARN_TRUNCATE)}


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
    betas = yarn_betas(params)
    beta_fast = finite_float("beta_fast", betas["beta_fast"], greater_than=0, about=_for("yarn"))
    beta_slow = finite_float("beta_slow", betas["beta_slow"], greater_than=0, about=_for("yarn"))
    if beta_fast < beta_slow:
        raise InputError("beta_order", fast=beta_fast, slow=beta_slow)
    truncate = boolean("truncate", betas["truncate"], about=_for("yarn"))
    for key, turns in (("beta_fast", beta_fast), ("beta_slow", beta_slow)):
        if not original_length / (turns * 2 * math.pi) > 0:  # underflows to 0: the log below is undefined
            raise InputError("beta_large", name=key, value=turns, n=original_length)

    low = _yarn_correction_dim(beta_fast, dim, theta, original_length)
    high = _yarn_correction_dim(beta_slow, dim, theta, original_length)
    if truncate:
        low, high = math.floor(low), math.ceil(high)
    low, high = max(low, 0), min(high, dim - 1)
    if low == high:
        high += 0.001  # transformers' guard against a zero-width ramp
    # ramp: 0 for the fast pairs (i <= low), 1 for the slow pairs (i >= high), linear in between
    ramp = np.clip((np.arange(dim // 2, dtype=np.float64) - low) / (high - low), 0.0, 1.0)  # (d/2,)

    inv_freq_extrapolation = inverse_frequencies(dim, theta)  # as trained
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
    short_factor = per_pair_factors(params, "short_factor", dim)
    long_factor = per_pair_factors(params, "long_factor", dim)
    attention_factor = _attention_factor(params, "longrope")
    if attention_factor is None:
        # keeps the attention entropy from growing with the longer context (Phi-3's choice)
        attention_factor = 1.0 if factor <= 1.0 else math.sqrt(1 + math.log(factor) / math.log(original_length))
    ext_factors = long_factor if seq_len and seq_len > original_length else short_factor
    return inverse_frequencies(dim, theta) / ext_factors, float(attention_factor)


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
        raise InputError("llama3_order", high=high_freq_factor, low=low_freq_factor)
    inv_freq = inverse_frequencies(dim, theta)
    wavelen = 2 * math.pi / inv_freq  # (d/2,)
    low_freq_wavelen = original_length / low_freq_factor  # longer than this: interpolate fully
    high_freq_wavelen = original_length / high_freq_factor  # shorter than this: keep
    # smooth = 1 at wavelen = high_freq_wavelen, 0 at low_freq_wavelen: the two ends meet continuously
    smooth = (original_length / wavelen - low_freq_factor) / (high_freq_factor - low_freq_factor)
    smoothed = (1 - smooth) * inv_freq / factor + smooth * inv_freq
    inv_freq_llama = np.where(wavelen > low_freq_wavelen, inv_freq / factor, inv_freq)
    is_medium_freq = (wavelen >= high_freq_wavelen) & (wavelen <= low_freq_wavelen)
    return np.where(is_medium_freq, smoothed, inv_freq_llama), 1.0


def _compute_proportional_parameters(
    dim: int, theta: float, params: Mapping[str, Any], *, seq_len: int | None = None
) -> tuple[np.ndarray, float]:
    """Proportional RoPE (Gemma 4's global layers): here ``dim`` is the whole head_dim, and the result always has
    head_dim/2 entries. The first int(partial_rotary_factor * head_dim // 2) pairs turn at theta^(-2i/head_dim)
    (the exponent counts the whole head, unlike partial RoPE); the other pairs get frequency 0, never rotated.
    An optional ``factor`` divides every frequency (default 1).
    """
    proportion = finite_float("partial_rotary_factor", params.get("partial_rotary_factor", 1.0), greater_than=0.0,
                              at_most=1.0, about=_for("proportional"))
    factor = _factor(params, "proportional") if params.get("factor") is not None else 1.0
    rotated_pairs = int(proportion * dim // 2)  # transformers' precedence: (proportion * dim) // 2
    inv_freq = np.zeros(dim // 2, dtype=np.float64)  # (head_dim/2,): the unrotated pairs stay at 0
    inv_freq[:rotated_pairs] = inverse_frequencies(dim, theta)[:rotated_pairs]
    return inv_freq / factor, 1.0


# the registry: a new method is one function above plus one line here (as transformers' ROPE_INIT_FUNCTIONS)
ROPE_INIT_FUNCTIONS: dict[str, Callable[..., tuple[np.ndarray, float]]] = {
    "default": _compute_default_parameters,
    "linear": _compute_linear_scaling_parameters,
    "dynamic": _compute_dynamic_ntk_parameters,
    "yarn": _compute_yarn_parameters,
    "longrope": _compute_longrope_parameters,
    "llama3": _compute_llama3_parameters,
    "proportional": _compute_proportional_parameters,
}


# each method's rule as LaTeX, keyed like the registry and written as the functions above compute it
# (s = factor, L_train = original_max_position_embeddings, d = rotary dimension, L = current length)
LATEX: dict[str, str] = {
    "default": r"\omega_i = \theta^{-2i/d}",
    "linear": r"\omega_i' = \frac{\omega_i}{s}\qquad(m\,\omega_i' = \tfrac{m}{s}\,\omega_i)",  # no words: both languages
    "dynamic": r"\theta' = \theta\left(s\,\frac{L}{L_{train}} - (s-1)\right)^{\frac{d}{d-2}}\ \ (L > L_{train}),"
               r"\qquad \omega_i' = \theta'^{-2i/d}",
    "yarn": r"\omega_i' = (1-\gamma_i)\,\omega_i + \gamma_i\,\frac{\omega_i}{s},\quad "
            r"\gamma_i = \operatorname{clip}\!\left(\frac{i - i(\beta_{fast})}{i(\beta_{slow}) - i(\beta_{fast})},"
            r" 0, 1\right),"
            r"\quad i(\beta) = \frac{d\,\ln\!\big(L_{train} / 2\pi\beta\big)}{2\ln\theta}",
    "longrope": r"\omega_i' = \frac{\omega_i}{\lambda_i},\qquad \lambda = \begin{cases}\text{short\_factor} & "
                r"L \le L_{train}\\ \text{long\_factor} & L > L_{train}\end{cases}",
    "llama3": r"\omega_i' = \begin{cases}\omega_i & \lambda_i < L_{train}/\text{high}\\ \omega_i/s & "
              r"\lambda_i > L_{train}/\text{low}\\ (1-\kappa_i)\,\omega_i/s + \kappa_i\,\omega_i & \text{else}"
              r"\end{cases},\quad \kappa_i = \frac{L_{train}/\lambda_i - \text{low}}{\text{high} - \text{low}},"
              r"\ \ \lambda_i = \frac{2\pi}{\omega_i}",
    "proportional": r"\omega_i = \begin{cases}\theta^{-2i/d_{head}}/s & i < \lfloor p\,d_{head}/2 \rfloor\\ 0 & "
                    r"\text{else}\ (\text{not rotated})\end{cases}",
}
# The plain words inside the formulas' \text{...} (high, low: llama3's high_freq_factor, low_freq_factor). A page
# shows a formula in the reader's language with formula(), passing these words' translations.
FORMULA_WORDS = ("else", "not rotated", "given", "high", "low")


def formula(latex: str, words: Mapping[str, str] | None = None) -> str:
    """``latex`` (a LATEX rule or an attention_factor_latex) with each FORMULA_WORDS word in \text{} replaced by
    its entry in ``words`` (a word missing there stays as it is)."""
    for word, shown in (words or {}).items():
        one_of("words", word, FORMULA_WORDS)
        latex = latex.replace(rf"\text{{{word}}}", rf"\text{{{shown}}}")
    return latex


def attention_factor_latex(
    method: str, *, factor: float, original: int, params: Mapping[str, Any], value: float
) -> str | None:
    """The attention factor's formula with these numbers filled in (as :func:`_compute_yarn_parameters` and
    :func:`_compute_longrope_parameters` pick it), or None for the methods that leave attention alone.

    ``value`` is the computed factor, shown at the end; ``params`` the method's numbers (``attention_factor``,
    ``mscale``, ``mscale_all_dim``; missing or 0 means "not set").
    """
    s = f"{factor:g}"
    if method not in ("yarn", "longrope"):
        return None
    if params.get("attention_factor"):
        return rf"\text{{attention\_factor}} = {value:.4f}\quad(\text{{given}})"
    if factor <= 1:
        return r"\text{attention\_factor} = 1\quad(s \le 1)"
    if method == "longrope":  # Phi-3: keep the attention entropy from growing with the context
        return (rf"\text{{attention\_factor}} = \sqrt{{1 + \frac{{\ln s}}{{\ln L_{{train}}}}}} = "
                rf"\sqrt{{1 + \frac{{\ln {s}}}{{\ln {original}}}}} = {value:.4f}")
    if params.get("mscale") and params.get("mscale_all_dim"):  # DeepSeek's ratio of two temperatures
        m, m_all = params["mscale"], params["mscale_all_dim"]
        return (rf"\text{{attention\_factor}} = \frac{{0.1\,m\ln s + 1}}{{0.1\,m_{{all}}\ln s + 1}} = "
                rf"\frac{{0.1 \cdot {m:g} \ln {s} + 1}}{{0.1 \cdot {m_all:g} \ln {s} + 1}} = {value:.4f}")
    return rf"\text{{attention\_factor}} = 0.1\ln s + 1 = 0.1\ln {s} + 1 = {value:.4f}"


# public API


def compute(
    head_dim: int, theta: float, scaling: Mapping[str, Any] | None, *, seq_len: int | None = None
) -> RopeFrequencies:
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
        :class:`RopeFrequencies` ``(inv_freq, attention_factor)``: inv_freq has shape (d/2,), float64, d the rotary
        dimension; attention_factor multiplies cos and sin (1.0 except for yarn and longrope).
    """
    head_dim = even_int("head_dim", head_dim, about="RoPE")
    theta = finite_float("theta", theta, greater_than=1.0)
    if seq_len is not None:
        seq_len = positive_int("seq_len", seq_len)
    if scaling is None:
        scaling = {}
    if not isinstance(scaling, Mapping):
        raise ValueError(
            f"scaling must be a dict like {{'rope_type': 'linear', 'factor': 4.0}} or None, got {scaling!r}"
        )
    rope_type = resolve_rope_type(scaling)
    # a v5 rope_parameters dict may carry rope_theta; two different bases would be ambiguous
    if scaling.get("rope_theta") is not None and finite_float("scaling['rope_theta']", scaling["rope_theta"]) != theta:
        raise ValueError(f"scaling['rope_theta'] ({scaling['rope_theta']}) disagrees with theta ({theta:g})")
    hints = {key: hint for (method, key), hint in _KEY_HINTS.items() if method == rope_type}
    present(scaling, _REQUIRED_KEYS[rope_type], name="scaling", hints=hints, about=_for(rope_type))
    # proportional keeps all head_dim/2 pairs (the unrotated ones at frequency 0); the others shrink to d/2
    dim = head_dim if rope_type == "proportional" else rotary_dim(head_dim, scaling)
    inv_freq, attention_factor = ROPE_INIT_FUNCTIONS[rope_type](dim, theta, scaling, seq_len=seq_len)
    return RopeFrequencies(np.asarray(inv_freq, dtype=np.float64), float(attention_factor))


def dynamic_base(head_dim: int, theta: float, scaling: Mapping[str, Any], *, seq_len: int | None) -> float:
    """The base dynamic NTK uses at ``seq_len``: theta * (s * L / L_train - (s - 1))^(d / (d - 2)), theta for
    L <= L_train. ``compute(head_dim, theta, scaling, seq_len=L)`` equals plain RoPE with this base."""
    head_dim = even_int("head_dim", head_dim, about="RoPE")
    theta = finite_float("theta", theta, greater_than=1.0)
    if seq_len is not None:
        seq_len = positive_int("seq_len", seq_len)
    if not isinstance(scaling, Mapping) or resolve_rope_type(scaling) != "dynamic":
        raise ValueError(f"dynamic_base needs a scaling dict with rope_type 'dynamic', got {scaling!r}")
    compute(head_dim, theta, scaling, seq_len=seq_len)  # the same checks, the same messages
    dim = rotary_dim(head_dim, scaling)
    return _ntk_base(dim, theta, _factor(scaling, "dynamic"), _original_length(scaling), seq_len)
