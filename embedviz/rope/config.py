"""Reading a model's config.json into RoPE's numbers, as Hugging Face transformers reads it.

Configs name the same thing several ways: transformers v4 writes a ``rope_scaling`` dict beside a top-level
``rope_theta``; v5 writes ``rope_parameters`` with ``rope_theta`` inside (per layer type for Gemma 3); GPT-NeoX
says ``rotary_emb_base`` and ``rotary_pct``; Phi-3 keeps ``original_max_position_embeddings`` at the top level.
:func:`from_config` turns any of them into the arguments of :func:`embedviz.rope.scaling.compute`, filling in what
transformers derives (head_dim, the trained length, a missing YaRN / LongRoPE ``factor``).
"""
from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from embedviz._validate import even_int, finite_float, positive_int, present
from embedviz.errors import InputError
from embedviz.rope.scaling import compute, resolve_rope_type

MAX_CONFIG_CHARS = 1_000_000  # a config.json is a few KB (Phi-3's with its factor lists ~4 KB)
# Sizes read from a config are checked against these before anything is allocated, so a hostile file costs
# nothing: the widest published RoPE head is 512 (Gemma 3's global layers 256, Gemma 4's 512), and no context
# comes near 2^32 tokens. (The page's own, narrower ranges are checked after reading.)
MAX_HEAD_DIM = 8_192
MAX_POSITIONS = 1 << 32
# model types whose rotary module reads a "dynamic" rope_scaling with "alpha" as a fixed NTK-alpha base
NTK_ALPHA_MODELS = frozenset({"hunyuan_v1_dense", "hunyuan_v1_moe", "hunyuan_vl", "hunyuan_vl_text"})
# transformers' attribute_map of families whose config.json names the sizes its own way (alias -> standard key);
# DBRX's attn_config.rope_theta is not read: transformers 5.24's DBRX rotary takes rope_parameters' theta only
_GPT2_NAMES = {"n_layer": "num_hidden_layers", "n_head": "num_attention_heads", "n_embd": "hidden_size",
               "n_positions": "max_position_embeddings"}
CONFIG_ALIASES = {"gptj": _GPT2_NAMES, "codegen": _GPT2_NAMES,
                  "dbrx": {"n_layers": "num_hidden_layers", "n_heads": "num_attention_heads", "d_model": "hidden_size",
                           "max_seq_len": "max_position_embeddings"},
                  # Moonshine (speech): the decoder's layers and heads (its one rotary module serves both stacks)
                  "moonshine": {"decoder_num_hidden_layers": "num_hidden_layers",
                                "decoder_num_attention_heads": "num_attention_heads"}}
# GPT-J / CodeGen build a sin|cos table with base 10,000 written in their code (no theta key) over the first
# rotary_dim dimensions of each head
SINUSOID_TABLE_MODELS = frozenset({"gptj", "codegen"})
_JSON_TYPES = {dict: "object", list: "array", str: "string", int: "number", float: "number", bool: "boolean",
               type(None): "null"}
# keys of a RoPE dict that hold one value, never a dict: a dict under one of them is a mistake, not a layer type
_SCALAR_KEYS = {"rope_type", "type", "rope_theta", "factor", "partial_rotary_factor", "original_max_position_embeddings",
                "beta_fast", "beta_slow", "mscale", "mscale_all_dim", "attention_factor", "truncate",
                "low_freq_factor", "high_freq_factor", "short_factor", "long_factor"}


def parse_config_json(text: str) -> dict:
    """The dict in a pasted / uploaded config.json; a ValueError that says what is wrong otherwise."""
    if not isinstance(text, str):
        raise ValueError(f"config.json must be text, got {type(text).__name__}")
    if len(text) > MAX_CONFIG_CHARS:
        raise InputError("config_long", n=len(text), limit=MAX_CONFIG_CHARS)
    if not text.strip():
        raise InputError("config_empty")
    try:
        config = json.loads(text)
    except json.JSONDecodeError as error:
        raise InputError("config_json", detail=error.msg, line=error.lineno, column=error.colno) from None
    except RecursionError:  # [[[[...]]]] thousands deep: Python's parser gives up
        raise InputError("config_deep") from None
    except ValueError:  # an integer of more than 4,300 digits (Python's int conversion limit)
        raise InputError("config_digits") from None
    if not isinstance(config, dict):
        kind = _JSON_TYPES.get(type(config), type(config).__name__)
        raise InputError("config_not_object", kind=kind)
    return config


def _config_positive_int(config: Mapping[str, Any], key: str, *, maximum: int = MAX_POSITIONS) -> int:
    present(config, (key,), name="config")
    return positive_int(key, config[key], maximum=maximum)


def config_text_part(config: Mapping[str, Any]) -> Mapping[str, Any]:
    """The part of a config.json that describes the language model: ``text_config`` of a multimodal config
    (Gemma 3, Llama 4) when the top level has no RoPE fields of its own, else the config itself."""
    if not isinstance(config, Mapping):
        raise ValueError(f"config must be a dict read from config.json, got {type(config).__name__}")
    own = ("rope_theta", "rope_scaling", "rope_parameters", "hidden_size", "head_dim", "max_position_embeddings")
    text = config.get("text_config")
    if isinstance(text, Mapping) and not any(config.get(key) is not None for key in own):
        config = text
    return _standard_names(config)


def _standard_names(config: Mapping[str, Any]) -> Mapping[str, Any]:
    """The config with transformers' standard keys filled in from a family's own names (:data:`CONFIG_ALIASES`;
    LongCat-Flash: num_hidden_layers is 2 x num_layers, each layer holding two attention blocks)."""
    model_type = config.get("model_type")
    aliases = CONFIG_ALIASES.get(model_type, {})
    if model_type == "longcat_flash" and config.get("num_layers") is not None:
        aliases = {"num_layers": "num_hidden_layers"}
    fill = {key: config[alias] for alias, key in aliases.items()
            if config.get(key) is None and config.get(alias) is not None}
    if model_type == "longcat_flash" and fill:
        fill["num_hidden_layers"] = 2 * positive_int("num_layers", fill["num_hidden_layers"])
    if model_type in SINUSOID_TABLE_MODELS and config.get("rotary_dim") is not None and config.get(
            "partial_rotary_factor") is None:
        heads = positive_int("n_head", fill.get("num_attention_heads", config.get("num_attention_heads")))
        hidden = positive_int("n_embd", fill.get("hidden_size", config.get("hidden_size")))
        fill["partial_rotary_factor"] = positive_int("rotary_dim", config["rotary_dim"]) / (hidden // heads)
    types = config.get("layer_types")
    if model_type == "dory" and isinstance(types, list) and "mlp" in types:
        # Dory's config.json lists each layer as an attention block and an "mlp" block: one layer per pair
        fill["layer_types"] = types[::2]
        if config.get("num_hidden_layers") is not None:
            fill["num_hidden_layers"] = positive_int("num_hidden_layers", config["num_hidden_layers"]) // 2
    return {**config, **fill} if fill else config


def _head_dim(config: Mapping[str, Any], layer_type: str | None) -> int:
    """The head size RoPE works on, as transformers' config classes set it:
    - DeepSeek-V2/V3 (MLA): ``qk_rope_head_dim`` (64), the decoupled RoPE part of each head, not hidden / heads;
    - Gemma 4's "full_attention" layers: ``global_head_dim`` (512) when the config has it;
    - else ``head_dim``, else hidden_size // num_attention_heads."""
    if config.get("qk_rope_head_dim") is not None:
        return even_int("qk_rope_head_dim", config["qk_rope_head_dim"], about="RoPE", maximum=MAX_HEAD_DIM)
    if layer_type == "full_attention" and config.get("global_head_dim") is not None:
        return even_int("global_head_dim", config["global_head_dim"], about="RoPE", maximum=MAX_HEAD_DIM)
    if config.get("head_dim") is not None:
        return even_int("head_dim", config["head_dim"], about="RoPE", maximum=MAX_HEAD_DIM)
    if config.get("hidden_size") is None or config.get("num_attention_heads") is None:
        raise InputError("config_no_head")
    hidden_size = _config_positive_int(config, "hidden_size", maximum=MAX_HEAD_DIM * 1_024)
    num_attention_heads = _config_positive_int(config, "num_attention_heads", maximum=MAX_HEAD_DIM * 1_024)
    if hidden_size % num_attention_heads:
        raise InputError("divisible", name="hidden_size", value=hidden_size, other="num_attention_heads",
                         other_value=num_attention_heads)
    return even_int("head_dim", hidden_size // num_attention_heads, about="RoPE", maximum=MAX_HEAD_DIM)


def scaling_of(config: Mapping[str, Any]) -> Mapping[str, Any]:
    """The config's ``rope_scaling``, else ``rope_parameters``, else {}: transformers reads
    `rope_parameters = rope_scaling or rope_parameters` (an old key wins when both are set). A value that is not a
    JSON object is refused."""
    params = config.get("rope_scaling") or config.get("rope_parameters") or {}
    if not isinstance(params, Mapping):
        raise InputError("scaling_not_dict", got=params)
    return params


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
    config = config_text_part(config)
    rope_parameters = scaling_of(config)
    for key in _SCALAR_KEYS & set(rope_parameters):
        if isinstance(rope_parameters[key], Mapping):
            raise InputError("scaling_nested", key=key)
    nested = [key for key, value in rope_parameters.items() if isinstance(value, Mapping)]
    if layer_type is not None:
        if layer_type not in nested:
            raise InputError("layer_type", value=layer_type, types=nested or "none")
        rope_parameters = rope_parameters[layer_type]
    elif nested:
        raise InputError("per_layer", types=", ".join(nested))
    rope_parameters = dict(rope_parameters)  # a copy: the caller's config stays as it was

    theta = rope_parameters.pop("rope_theta", None)
    if config.get("model_type") in SINUSOID_TABLE_MODELS:
        theta = 10_000.0
    if theta is None:
        theta = config.get("rope_theta", config.get("rotary_emb_base"))
    if theta is None:
        raise InputError("config_no_theta")
    theta = finite_float("rope_theta", theta, greater_than=1.0)

    if rope_parameters.get("partial_rotary_factor") is None:
        partial_rotary_factor = config.get("partial_rotary_factor", config.get("rotary_pct"))
        if partial_rotary_factor is not None:
            rope_parameters["partial_rotary_factor"] = partial_rotary_factor

    head_dim = _head_dim(config, layer_type)
    max_position_embeddings = _config_positive_int(config, "max_position_embeddings")

    # Qwen2-VL's v4 "mrope" is plain RoPE per axis (transformers maps it to default); mrope_section is read by
    # embedviz.rope.layers.mrope_of, not by the frequencies
    if rope_parameters.get("rope_type", rope_parameters.get("type")) == "mrope":
        rope_parameters["rope_type"] = "default"
    rope_parameters.pop("mrope_section", None)
    rope_type = resolve_rope_type(rope_parameters)
    rope_parameters.pop("type", None)
    rope_parameters["rope_type"] = rope_type
    if rope_type == "dynamic" and rope_parameters.get("alpha") and config.get("model_type") in NTK_ALPHA_MODELS:
        # HunYuan's rotary module runs "dynamic" with an alpha as a fixed NTK base, theta x alpha^(d/(d-2)),
        # over the whole head; it never recomputes it with the input's length
        alpha = finite_float("alpha", rope_parameters.pop("alpha"), greater_than=0.0)
        dim = _head_dim(config, layer_type)
        theta = finite_float("rope_theta", theta * alpha ** (dim / (dim - 2)))
        rope_type = rope_parameters["rope_type"] = "default"
        rope_parameters.pop("factor", None)
    if rope_type == "dynamic":
        original = max_position_embeddings  # what transformers' _compute_dynamic_ntk_parameters divides by
        rope_parameters["original_max_position_embeddings"] = original
    elif rope_type in ("llama3", "yarn", "longrope"):
        original = config.get("original_max_position_embeddings")
        if original is None:
            original = rope_parameters.get("original_max_position_embeddings", max_position_embeddings)
        original = positive_int("original_max_position_embeddings", original, maximum=MAX_POSITIONS)
        rope_parameters["original_max_position_embeddings"] = original
        if rope_type in ("yarn", "longrope") and rope_parameters.get("factor") is None:
            # the extension ratio, as transformers infers it (DeepSeek-V3, Phi-3)
            rope_parameters["factor"] = max_position_embeddings / original
    else:
        original = rope_parameters.get("original_max_position_embeddings", max_position_embeddings)
        original = positive_int("original_max_position_embeddings", original, maximum=MAX_POSITIONS)
    factor = rope_parameters.get("factor")
    if factor is not None and finite_float("factor", factor) * original > MAX_POSITIONS:
        raise InputError("factor_past", factor=float(factor), original=original, limit=MAX_POSITIONS)

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
