"""What each attention layer can reach: the offsets its RoPE can ever meet.

A layer's RoPE only matters at offsets the layer's mask lets through:
- a sliding-window layer (Gemma 2/3/4, Cohere2, GPT-OSS "sliding_attention"; Mistral 7B v0.1's every layer) sees
  the last ``sliding_window`` tokens only;
- a chunked layer (Llama 4's "chunked_attention", its RoPE layers, ``attention_chunk_size`` 8,192) sees its own
  chunk only, so no offset reaches the chunk size;
- a full layer reaches the whole context. GPT-OSS adds learned per-head attention sinks on every layer: a logit
  with no key and no position, which can take attention mass away from every token.

``max_position_embeddings`` is the longest context the config allows, not a length the model was trained on;
:func:`context_of` says which of the two a config's length is.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from embedviz._validate import positive_int
from embedviz.rope.config import MAX_POSITIONS, config_text_part, scaling_of
from embedviz.rope.layers import layer_types_of, num_layers_of

FULL, SLIDING, CHUNKED = "full", "sliding", "chunked"
SINK_MODELS = frozenset({"gpt_oss"})  # model types whose attention adds learned per-head sinks


@dataclass(frozen=True)
class Reach:
    """One layer's reach: ``kind`` (FULL / SLIDING / CHUNKED), ``span`` (the window or chunk in tokens, None for
    FULL: the whole context) and ``sinks`` (learned attention sinks on this layer)."""

    kind: str
    span: int | None
    sinks: bool

    def limit(self, context_length: int) -> int:
        """The largest offset + 1 this layer meets in a context of ``context_length`` tokens."""
        return context_length if self.span is None else min(self.span, context_length)


def _span(config: Mapping[str, Any], key: str) -> int | None:
    value = config.get(key)
    return None if value is None else positive_int(key, value, maximum=MAX_POSITIONS)


def layer_reach(config: Mapping[str, Any]) -> list[Reach]:
    """Each layer's :class:`Reach`, read as transformers' config classes build ``layer_types``:
    "sliding_attention" takes ``sliding_window``, "chunked_attention" ``attention_chunk_size`` (Llama 4 derives
    chunked layers from ``no_rope_layers`` when it has no list); without layer types a ``sliding_window`` holds on
    every layer (Mistral), unless ``use_sliding_window`` is false (Qwen2: then from layer ``max_window_layers``)."""
    config = config_text_part(config)
    num_layers = num_layers_of(config)
    window, chunk = _span(config, "sliding_window"), _span(config, "attention_chunk_size")
    sinks = config.get("model_type") in SINK_MODELS
    types = layer_types_of(config)
    if types is None and chunk is not None and isinstance(config.get("no_rope_layers"), list):
        types = ["chunked_attention" if flag else "full_attention" for flag in config["no_rope_layers"]]
    if types is None and window is not None:
        if config.get("use_sliding_window") is False:
            types = ["full_attention"] * num_layers
        else:
            start = int(config.get("max_window_layers") or 0) if config.get("use_sliding_window") else 0
            types = ["sliding_attention" if i >= start else "full_attention" for i in range(num_layers)]
    out = []
    for layer_type in types or ["full_attention"] * num_layers:
        if layer_type == "sliding_attention" and window is not None:
            out.append(Reach(SLIDING, window, sinks))
        elif layer_type == "chunked_attention" and chunk is not None:
            out.append(Reach(CHUNKED, chunk, sinks))
        else:
            out.append(Reach(FULL, None, sinks))
    return out


def context_of(config: Mapping[str, Any]) -> str:
    """"trained" when the config names the length it was trained on (``original_max_position_embeddings``, top
    level or in rope_scaling), else "max": its length is ``max_position_embeddings``, an upper limit only."""
    config = config_text_part(config)
    params = scaling_of(config)
    nested = [v for v in params.values() if isinstance(v, Mapping)]
    named = config.get("original_max_position_embeddings") is not None or any(
        p.get("original_max_position_embeddings") is not None for p in [params, *nested])
    return "trained" if named else "max"
