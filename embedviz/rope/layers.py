"""RoPE layer by layer, as current models ship it: per-layer-type settings, NoPE layers, M-RoPE sections, MLA.

One config.json may hold several RoPEs:
- Gemma 3 / Gemma 4 (``layer_types`` + a ``rope_parameters`` dict per layer type): local "sliding_attention"
  layers with theta 10,000 and global "full_attention" layers with theta 1,000,000 (5 local : 1 global); Gemma 4's
  global layers use "proportional" RoPE on a wider head (``global_head_dim``);
- Llama 4 (``no_rope_layers``, 1 = RoPE, 0 = NoPE): every fourth layer has no position encoding at all and instead
  scales its queries by a temperature that grows with the position (``attn_temperature_tuning``);
- Qwen2-VL / Qwen2.5-VL (``mrope_section``): the pairs are split into time, height and width sections, each turned
  by its own position id;
- DeepSeek-V2 / V3 (MLA): only ``qk_rope_head_dim`` (64) dimensions of each head rotate, with YaRN's ``mscale``.

:func:`layer_plan` reads all of these (through :func:`embedviz.rope.config.from_config` for each distinct setting)
into one setting per layer. The numbers equal transformers 5.24's (tests/test_rope_layers.py).
"""
from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from embedviz import model_facts
from embedviz._validate import finite_array, finite_float, one_of, positive_int
from embedviz.errors import InputError
from embedviz.rope.config import config_text_part, from_config, scaling_of
from embedviz.rope.scaling import compute

MAX_LAYERS = 1_024  # the deepest published models have ~130 layers; a pasted config may claim anything
NOPE = "nope"  # the layer-type name this module gives Llama 4's layers without RoPE
# transformers' layer types with no attention scores, hence no RoPE: LFM2's convolutions, Qwen3-Next's and Mamba's
# linear attention ("mamba" is its old name), Nemotron-H's MoE layers
NO_ATTENTION = frozenset({"conv", "linear_attention", "mamba", "moe"})
MROPE_AXES = ("time", "height", "width")
# families whose modeling code turns q and k in a way layer_plan does not model (found by
# tests/test_rope_families.py against each family's rotary module): refused by name rather than drawn wrong
UNREAD_FAMILIES = {
    "dots3_note": "its own frequency layout", "dots3_note_text": "its own frequency layout",
    "ernie4_5_vl_moe": "its own 3-D frequency layout", "ernie4_5_vl_moe_text": "its own 3-D frequency layout",
    "jetmoe": "a rotary size set by kv_channels", "mistral4": "an MLA rope head of its own",
    "zamba2": "a rotary size set by attention_head_dim",
}
# Families whose attention code, not a config key, leaves some layers unrotated (each found and checked by running
# a tiny model of the family in tests/test_rope_families.py and recording which layers call its RoPE function).
# Only "sliding_attention" layers turn q and k; True: and only while the config sets a sliding_window (the layer's
# window is then the test `if self.sliding_window is not None`), False: whatever the window.
SLIDING_ONLY_ROPE = {"cohere2": True, "cohere2_moe": True, "flint": True, "afmoe": False, "lara_mini": False}
# EXAONE 4 style `if self.sliding_window is None or self.is_sliding`: with a window, the full layers are NoPE
GLOBAL_NOPE_WITH_WINDOW = frozenset({"exaone4", "exaone_moe", "kolibri1"})
# layer_rope_theta, one base per layer, 0 for a NoPE layer (default: the last layer and every 4th before it)
THETA_ZERO_NOPE = frozenset({"muse_spark", "muse_spark_text", "muse_glimmer", "muse_glimmer_text"})
# Mllama's cross_attention_layers attend to the image's states instead of the text's, without RoPE
CROSS_ATTENTION_NOPE = frozenset({"mllama", "mllama_text_model"})
CODE_NOPE_FAMILIES = frozenset(SLIDING_ONLY_ROPE) | GLOBAL_NOPE_WITH_WINDOW | THETA_ZERO_NOPE | CROSS_ATTENTION_NOPE
# What a config without floor_scale / attn_scale gets: the defaults of transformers' Llama4TextConfig (the code's
# fallback for a missing key, as transformers reads the file). Llama 4 Scout's config.json writes the same values
# (model_configs/llama-4-scout-17b-16e.json), and that file is where the page reads them for Scout.
LLAMA4_FLOOR_SCALE = 8192  # tokens per step of the temperature: it stays 1 up to position floor_scale - 2
LLAMA4_ATTN_SCALE = 0.1  # how much each step of log(1 + floor((m + 1) / floor_scale)) adds


@dataclass(frozen=True)
class LayerRope:
    """One distinct RoPE setting of a model (or NoPE). ``inv_freq`` has one entry per pair of the head (proportional:
    head_dim/2 with zeros for the unrotated pairs; partial: rotary_dim/2); None and rotary_dim 0 for a NoPE layer."""

    name: str  # the layer type ("sliding_attention", "full_attention", ...) or NOPE
    head_dim: int
    rotary_dim: int  # dimensions that turn: 0 (NoPE) ... head_dim
    theta: float | None
    rope_type: str | None
    inv_freq: np.ndarray | None
    attention_factor: float
    scaling: dict[str, Any] | None
    train_length: int | None = None  # original_max_position_embeddings as from_config reads it


@dataclass(frozen=True)
class NopeTemperature:
    """Llama 4's temperature on its NoPE layers' queries, 1 + attn_scale * ln(1 + floor((m + 1) / floor_scale)) at
    position m (:func:`nope_attention_scale`), as a config sets it."""

    floor_scale: float  # tokens per step: the temperature is 1 up to position floor_scale - 2
    attn_scale: float  # how much each step adds (never 0: a scale of 0 is no temperature at all)


@dataclass(frozen=True)
class LayerPlan:
    """A model's RoPE layer by layer: ``layers[k]`` indexes ``settings`` for layer k (shape (num_layers,))."""

    settings: tuple[LayerRope, ...]
    layers: np.ndarray  # (num_layers,) int
    nope_temperature: NopeTemperature | None  # Llama 4's, when its temperature tuning is on

    def counts(self) -> dict[str, int]:
        """How many layers use each setting, by name."""
        return {s.name: int(np.sum(self.layers == i)) for i, s in enumerate(self.settings)}

    def distinct_ropes(self) -> int:
        """How many different RoPEs the model's turning settings are: layer types that share one rope (GPT-OSS's
        sliding and full layers, one rope_scaling for both) count once."""
        kinds = {(s.head_dim, s.rotary_dim, s.attention_factor, s.inv_freq.tobytes())
                 for s in self.settings if s.inv_freq is not None}
        return len(kinds)


# helper functions


def _flag_list(config: Mapping[str, Any], key: str, num_layers: int) -> list[bool] | None:
    values = config.get(key)
    if values is None or (isinstance(values, list) and not values):
        return None
    if not isinstance(values, list) or any(v not in (0, 1) or isinstance(v, float) for v in values):
        raise InputError("layer_flags", key=key, got=str(values)[:80])
    if len(values) != num_layers:
        raise InputError("layer_flags_count", key=key, n=len(values), layers=num_layers)
    return [bool(v) for v in values]


def num_layers_of(config: Mapping[str, Any]) -> int:
    """num_hidden_layers (or the length of layer_types), at most :data:`MAX_LAYERS`."""
    config = config_text_part(config)
    count = config.get("num_hidden_layers")
    if count is None and isinstance(config.get("layer_types"), list):
        count = len(config["layer_types"])
    if count is None:
        raise InputError("no_layer_count")
    count = positive_int("num_hidden_layers", count, maximum=MAX_LAYERS)
    return count


def layer_types_of(config: Mapping[str, Any]) -> list[str] | None:
    """Each layer's type: ``layer_types`` as given, or Gemma's ``sliding_window_pattern`` (every n-th layer global,
    the others sliding, as transformers derives it), or None when the config does not distinguish layers."""
    config = config_text_part(config)
    num_layers = num_layers_of(config)
    types = config.get("layer_types")
    if types is not None:
        if not isinstance(types, list) or not all(isinstance(t, str) for t in types):
            raise InputError("layer_types_list", got=str(types)[:80])
        if len(types) != num_layers:
            raise InputError("layer_types_count", n=len(types), layers=num_layers)
        return list(types)
    pattern = config.get("sliding_window_pattern")
    if pattern is not None:
        pattern = positive_int("sliding_window_pattern", pattern)
        return ["sliding_attention" if (i + 1) % pattern else "full_attention" for i in range(num_layers)]
    return None


def rope_layer_flags(config: Mapping[str, Any]) -> list[bool] | None:
    """Llama 4: True for a RoPE layer, False for a NoPE layer (``no_rope_layers``, 1 = RoPE), or None for a model
    with RoPE everywhere. An empty list with ``no_rope_layer_interval`` means every interval-th layer is NoPE."""
    config = config_text_part(config)
    num_layers = num_layers_of(config)
    flags = _flag_list(config, "no_rope_layers", num_layers)
    if flags is None and config.get("no_rope_layer_interval") is not None:
        interval = positive_int("no_rope_layer_interval", config["no_rope_layer_interval"])
        flags = [(i + 1) % interval != 0 for i in range(num_layers)]
    if flags is None:
        flags = _code_flags(config, num_layers)
    return flags


def _code_flags(config: Mapping[str, Any], num_layers: int) -> list[bool] | None:
    """The RoPE layers of a family in :data:`CODE_NOPE_FAMILIES`, as its attention code picks them; else None."""
    model_type = config.get("model_type")
    if model_type not in CODE_NOPE_FAMILIES:
        return None
    types = layer_types_of(config) or ["full_attention"] * num_layers
    if model_type in THETA_ZERO_NOPE:
        thetas = config.get("layer_rope_theta")
        if thetas is None:
            return [(num_layers - 1 - i) % 4 != 0 for i in range(num_layers)]
        if not isinstance(thetas, list) or len(thetas) != num_layers:
            raise InputError("layer_flags_count", key="layer_rope_theta", n=len(thetas) if isinstance(
                thetas, list) else 0, layers=num_layers)
        return [finite_float("layer_rope_theta", theta) != 0 for theta in thetas]
    if model_type in CROSS_ATTENTION_NOPE:
        cross = config.get("cross_attention_layers") or []
        return [i not in cross for i in range(num_layers)]
    window = config.get("sliding_window") is not None
    if model_type in GLOBAL_NOPE_WITH_WINDOW:
        return [not window or t == "sliding_attention" for t in types]
    # Cohere2-MoE also turns its dense prefix layers when prefix_dense_sliding_window_pattern is 1
    dense = config.get("mlp_layer_types") if config.get("prefix_dense_sliding_window_pattern") == 1 else None
    needs_window = SLIDING_ONLY_ROPE[model_type]
    return [(t == "sliding_attention" and (window or not needs_window))
            or (isinstance(dense, list) and i < len(dense) and dense[i] == "dense") for i, t in enumerate(types)]


def _v4_gemma_nested(config: Mapping[str, Any], types: list[str]) -> dict[str, Any] | None:
    """Gemma 3's v4 config.json: ``rope_local_base_freq`` for the sliding layers, rope_theta + rope_scaling for the
    global ones; as the v5 nested ``rope_parameters`` transformers' Gemma3TextConfig builds from it."""
    if config.get("rope_local_base_freq") is None or isinstance(config.get("rope_parameters"), Mapping) and any(
            isinstance(v, Mapping) for v in config["rope_parameters"].values()):
        return None
    full = dict(scaling_of(config))
    full.setdefault("rope_theta", config.get("rope_theta"))
    nested = {"full_attention": full, "sliding_attention": {"rope_type": "default",
                                                            "rope_theta": config["rope_local_base_freq"]}}
    return {key: value for key, value in nested.items() if key in types}


def _per_layer_head_dims(config: Mapping[str, Any], num_layers: int) -> list[int | None]:
    """transformers v5's ``per_layer_config`` ({"05": {"head_dim": 512}, ...}, Gemma 4's global layers): each
    layer's head_dim override, None where the layer keeps the config's own."""
    overrides = config.get("per_layer_config") or {}
    if not isinstance(overrides, Mapping):
        raise InputError("per_layer_config", got=str(overrides)[:80])
    out: list[int | None] = [None] * num_layers
    for key, value in overrides.items():
        if not (isinstance(key, str) and key.isdigit() and int(key) < num_layers) or not isinstance(value, Mapping):
            raise InputError("per_layer_key", key=key, layers=num_layers)
        if value.get("head_dim") is not None:
            out[int(key)] = positive_int(f"per_layer_config[{key!r}]['head_dim']", value["head_dim"])
    return out


def _setting(config: Mapping[str, Any], name: str, layer_type: str | None) -> LayerRope:
    out = from_config(config, layer_type=layer_type)
    inv_freq, attention_factor = compute(out["head_dim"], out["theta"], out["scaling"])
    scaling = out["scaling"]
    rope_type = (scaling or {}).get("rope_type", "default")
    rotated = 2 * int(np.count_nonzero(inv_freq)) if rope_type == "proportional" else 2 * len(inv_freq)
    return LayerRope(name, out["head_dim"], rotated, out["theta"], rope_type, inv_freq, attention_factor, scaling,
                     out["original_max_position_embeddings"])


# public API


def layer_plan(config: Mapping[str, Any]) -> LayerPlan:
    """Which RoPE each layer of the model uses, read as transformers reads the config.

    - per-layer-type ``rope_parameters`` ({"sliding_attention": {...}, "full_attention": {...}}) with
      ``layer_types`` (or Gemma's ``sliding_window_pattern``; v4 Gemma 3: ``rope_local_base_freq``);
    - Llama 4's ``no_rope_layers``: NoPE layers get the setting named :data:`NOPE`;
    - otherwise one setting for every layer (named after the layer types when the config lists them).
    """
    config = config_text_part(config)
    if config.get("model_type") in UNREAD_FAMILIES:
        raise InputError("family_unread", name="model_type", value=config["model_type"])
    num_layers = num_layers_of(config)
    types = layer_types_of(config)
    nested = scaling_of(config)  # as transformers reads it: rope_scaling (an old key) wins over rope_parameters
    gemma_v4 = _v4_gemma_nested(config, types) if types else None
    if gemma_v4:
        config = {**{k: v for k, v in config.items() if k not in ("rope_scaling", "rope_theta")},
                  "rope_parameters": gemma_v4}
        nested = gemma_v4
    per_type = isinstance(nested, Mapping) and any(isinstance(v, Mapping) for v in nested.values())
    settings: list[LayerRope] = []
    layers = np.zeros(num_layers, dtype=int)
    if per_type:
        if types is None:
            raise InputError("per_layer_no_types")
        missing = sorted(set(types) - NO_ATTENTION - {k for k, v in nested.items() if isinstance(v, Mapping)})
        if missing:
            raise InputError("per_layer_missing", missing=", ".join(missing),
                             has=", ".join(k for k, v in nested.items() if isinstance(v, Mapping)))
        head_dims = _per_layer_head_dims(config, num_layers)
        keys = list(dict.fromkeys(zip(types, head_dims)))  # (layer type, head_dim override), first-seen order
        for name, head_dim in keys:
            layer_config = config if head_dim is None else {**config, "head_dim": head_dim}
            settings.append(name if name in NO_ATTENTION else _setting(layer_config, name, name))
        layers[:] = [keys.index(key) for key in zip(types, head_dims)]
    else:
        names = list(dict.fromkeys(types)) if types else ["rope"]
        one = _setting(config, next((n for n in names if n not in NO_ATTENTION), names[0]), None)
        settings = [name if name in NO_ATTENTION else LayerRope(
            name, one.head_dim, one.rotary_dim, one.theta, one.rope_type, one.inv_freq, one.attention_factor,
            one.scaling, one.train_length) for name in names]
        layers[:] = [names.index(t) for t in types] if types else 0
    # a layer without attention (a name left above) turns nothing: no frequencies, like a NoPE layer
    head_dim = next((s.head_dim for s in settings if not isinstance(s, str)), 0)
    settings = [LayerRope(s, head_dim, 0, None, None, None, 1.0, None) if isinstance(s, str) else s
                for s in settings]
    flags = rope_layer_flags(config)
    temperature = None
    if flags is not None and not all(flags):
        head_dim = settings[0].head_dim
        settings.append(LayerRope(NOPE, head_dim, 0, None, None, None, 1.0, None))
        layers[~np.array(flags)] = len(settings) - 1
        tuning = config.get("attn_temperature_tuning")  # Scout's file says 4
        if tuning is None:  # Llama4TextConfig's default is on; other models with NoPE layers (SmolLM3) have none
            tuning = str(config.get("model_type", "")).startswith("llama4")
        attn_scale = finite_float("attn_scale", config.get("attn_scale", LLAMA4_ATTN_SCALE))
        if tuning and attn_scale != 0:  # a scale of 0 multiplies by 1 at every position: no temperature
            floor_scale = finite_float("floor_scale", config.get("floor_scale", LLAMA4_FLOOR_SCALE), greater_than=0.0)
            temperature = NopeTemperature(floor_scale=floor_scale, attn_scale=attn_scale)
    used = sorted(set(layers.tolist()))  # drop settings no layer uses, keep the order
    layers = np.array([used.index(i) for i in layers], dtype=int)
    return LayerPlan(tuple(settings[i] for i in used), layers, temperature)


def nope_attention_scale(positions, *, floor_scale: float = LLAMA4_FLOOR_SCALE,
                         attn_scale: float = LLAMA4_ATTN_SCALE) -> np.ndarray:
    """Llama 4's temperature on a NoPE layer's queries: 1 + attn_scale * ln(1 + floor((m + 1) / floor_scale)),
    shape (T,). It is 1 up to position floor_scale - 2 and then grows like log m, sharpening attention over long
    inputs (the only thing a NoPE layer knows about position, apart from the causal mask)."""
    positions = finite_array("positions", positions).astype(np.float64).reshape(-1)
    floor_scale = finite_float("floor_scale", floor_scale, greater_than=0.0)
    attn_scale = finite_float("attn_scale", attn_scale)
    return np.log1p(np.floor((positions + 1.0) / floor_scale)) * attn_scale + 1.0


def mrope_sections(mrope_section: Sequence[int], num_pairs: int, *, interleaved: bool = False) -> np.ndarray:
    """Which position axis each pair follows in Qwen2-VL's M-RoPE, shape (num_pairs,): 0 time, 1 height, 2 width.

    ``mrope_section`` splits the pairs into consecutive blocks (Qwen2.5-VL: [16, 24, 24] of 64 pairs); block j takes
    its angle from position id j % 3 (transformers' recomposition). ``interleaved`` (Qwen3-VL, [24, 20, 20]): the
    axes take turns instead, height on pairs 1, 4, 7, ... below 3 x its section, width on 2, 5, 8, ..., time on the
    rest. Text tokens have equal t, h, w ids, so for them M-RoPE is plain RoPE.
    """
    num_pairs = positive_int("num_pairs", num_pairs)
    if isinstance(mrope_section, (str, bytes)) or not isinstance(mrope_section, Sequence) or not mrope_section:
        raise InputError("mrope_list", got=mrope_section)
    sizes = [positive_int("mrope_section entry", size) for size in mrope_section]
    if sum(sizes) != num_pairs:
        raise InputError("mrope_sum", sizes=sizes, total=sum(sizes), pairs=num_pairs)
    if not interleaved:
        return np.concatenate([np.full(size, j % 3) for j, size in enumerate(sizes)])
    if len(sizes) != 3:
        raise InputError("mrope_interleaved", sizes=sizes)
    axes = np.zeros(num_pairs, dtype=int)
    for axis in (1, 2):  # Qwen3-VL's apply_interleaved_mrope: axis k on pairs k, k + 3, ... below 3 x its size
        axes[axis: 3 * sizes[axis]: 3] = axis
    return axes


def mrope_of(config: Mapping[str, Any]) -> np.ndarray | None:
    """M-RoPE axis per turning pair (:func:`mrope_sections`) of a Qwen2-VL-style config, or None when it has none;
    the pairs a proportional RoPE leaves at frequency 0 follow no axis and are left out, as from its wavelengths."""
    config = config_text_part(config)
    section = scaling_of(config).get("mrope_section")
    if section is None:
        return None
    out = from_config(config)
    inv_freq = compute(out["head_dim"], out["theta"], out["scaling"]).inv_freq
    interleaved = bool(scaling_of(config).get("mrope_interleaved"))  # Qwen3-VL / Qwen3.5 write it
    return mrope_sections(section, len(inv_freq), interleaved=interleaved)[inv_freq > 0]


@dataclass(frozen=True)
class MlaScale:
    """DeepSeek's (MLA) softmax scale, as :func:`mla_softmax_scale` reads it from a config."""

    qk_head_dim: int  # q.k spans qk_nope_head_dim + qk_rope_head_dim dims (192 for DeepSeek-V3)
    base: float  # qk_head_dim^-0.5, the plain softmax scale
    mscale: float  # 0.1 * mscale_all_dim * ln(factor) + 1 for a scaled RoPE, else 1
    scale: float  # base * mscale^2, what transformers' DeepSeek attention uses
    logit_factor: float  # mscale^2: what every logit is multiplied by, on top of the plain scale
    factor: float  # the YaRN factor read (1.0 for a plain RoPE)


def mla_softmax_scale(config: Mapping[str, Any]) -> MlaScale | None:
    """DeepSeek-V2/V3 (MLA): the attention's softmax scale, qk_head_dim^-0.5 times mscale^2 with
    mscale = 0.1 * mscale_all_dim * ln(factor) + 1 for a scaled RoPE, as transformers' DeepSeek attention sets it.

    Returns an :class:`MlaScale`, or None for a config without ``qk_rope_head_dim``.
    (YaRN's own attention_factor is mscale / mscale_all_dim: 1 for DeepSeek-V3, whose both are 1.0.)
    """
    config = config_text_part(config)
    if config.get("qk_rope_head_dim") is None:
        return None
    nope_dim = positive_int("qk_nope_head_dim", config["qk_nope_head_dim"]) if config.get("qk_nope_head_dim") else 0
    qk_head_dim = nope_dim + positive_int("qk_rope_head_dim", config["qk_rope_head_dim"])  # q.k spans both parts
    params = from_config(config)["scaling"] or {}  # as transformers reads it: a YaRN factor left out is inferred
    mscale = 1.0
    rope_type = params.get("rope_type", params.get("type", "default"))
    if rope_type != "default" and params.get("mscale_all_dim"):
        factor = finite_float("factor", params.get("factor"), greater_than=0.0)
        mscale_all_dim = finite_float("mscale_all_dim", params["mscale_all_dim"])
        mscale = 1.0 if factor <= 1 else 0.1 * mscale_all_dim * math.log(factor) + 1.0
    base = qk_head_dim ** -0.5
    return MlaScale(qk_head_dim=qk_head_dim, base=base, mscale=mscale, scale=base * mscale * mscale,
                    logit_factor=mscale * mscale, factor=float(params.get("factor") or 1.0))


# the published configs the page offers (files of embedviz/model_configs/, which the tests read too)

PUBLISHED: dict[str, str] = {
    "Gemma 3 12B (5 local : 1 global)": "gemma-3-12b-it.json",
    "Gemma 4 E2B (proportional global layers)": "gemma-4-e2b.v5.json",
    "Llama 4 Scout (NoPE every 4th layer)": "llama-4-scout-17b-16e.json",
    "Qwen2.5-VL 7B (M-RoPE)": "qwen2.5-vl-7b.json",
    "DeepSeek-V3 (MLA, RoPE on 64 dims)": "deepseek-v3.json",
    "Phi-2 (partial 0.4)": "phi-2.json",
    "GPT-NeoX-20B (partial 0.25)": "gpt-neox-20b.json",
    "Llama 3.1 8B (one RoPE)": "llama-3.1-8b.json",
}


def published_config(name: str) -> dict[str, Any]:
    """The published config.json (RoPE fields) of one of :data:`PUBLISHED`."""
    one_of("model", name, PUBLISHED)
    return model_facts.config(PUBLISHED[name])


def rotated_dimensions(setting: LayerRope) -> np.ndarray:
    """Which of the head's dimensions RoPE turns, shape (head_dim,) bool, half pairing (dims i and i + d/2 of the
    rotated block): partial RoPE turns the first rotary_dim dims; proportional turns the pairs with a frequency, so
    its still dims sit at the end of each half; NoPE turns none."""
    mask = np.zeros(setting.head_dim, dtype=bool)
    if setting.inv_freq is None:
        return mask
    if setting.rope_type == "proportional":
        pairs = np.flatnonzero(setting.inv_freq > 0)
        mask[pairs] = True
        mask[pairs + setting.head_dim // 2] = True
        return mask
    mask[: setting.rotary_dim] = True
    return mask


def exponent_dim(setting: LayerRope) -> int:
    """The d in w_i = theta^(-2i/d) of a setting: the rotary dimension, except for proportional RoPE, whose
    exponent counts the whole head (0 for NoPE). The theory (critical dimension, base bound) reads this d."""
    if setting.inv_freq is None:
        return 0
    return setting.head_dim if setting.rope_type == "proportional" else setting.rotary_dim
