"""Parameter cost of the embedding tables, and presets of real models to compare against.

The presets are data: embedviz/model_configs/presets.toml over the published config.json files beside it
(:mod:`embedviz.model_facts`).

A token embedding is a (V, D) table: V = vocab_size rows, one D = d_model vector per token id, so it costs
V * D parameters. A *learned* positional embedding is a second table of shape (L, D), L = max_context_length, and costs
L * D. Sinusoidal encodings are computed by a formula, RoPE rotates queries and keys inside attention and ALiBi adds a
distance penalty to attention scores: none of the three stores a table, so they cost 0 parameters.

The output projection (hidden state -> logits over the vocabulary) is another V x D matrix. Models that *tie* it
to the token table (GPT-2, BERT, Qwen3-0.6B) pay for it once; untied models (LLaMA, Mistral, ANDREA) pay twice.

Worked example (lesson 002, ANDREA-120M): 8,449 x 768 = 6,488,832 token parameters, 1,024 x 768 = 786,432 learned
position parameters, together 7,275,264: about 6% of the model's roughly 120M parameters.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal, get_args

from embedviz import model_facts
from embedviz._validate import boolean, one_of, positive_int

__all__ = [
    "Positional",
    "Dtype",
    "EmbeddingParams",
    "ModelPreset",
    "BYTES_PER_PARAM",
    "PRESETS",
    "embedding_parameter_count",
    "memory_bytes",
    "preset_embedding_params",
    "preset_share",
]

Positional = Literal["none", "learned", "sinusoidal", "rope", "alibi"]
Dtype = Literal["fp32", "bf16", "fp16", "int8"]

POSITIONAL_KINDS: tuple[str, ...] = get_args(Positional)
DTYPES: tuple[str, ...] = get_args(Dtype)

# Storage per parameter: fp32 is 4 bytes, the two 16-bit formats 2, int8 quantisation 1 (ignoring its scales).
BYTES_PER_PARAM: dict[str, int] = {"fp32": 4, "bf16": 2, "fp16": 2, "int8": 1}


# parameter counts


@dataclass(frozen=True)
class EmbeddingParams:
    """Parameter counts of a model's embedding layer.

    token_embedding:      V * D, the token table.
    positional_embedding: L * D for a learned table, 0 for none / sinusoidal / RoPE / ALiBi.
    output_head:          the vocabulary projection counted *separately* so the saving of tying is visible:
                          0 when tied (it reuses the token table), V * D when untied.
    total:                token_embedding + positional_embedding: the embedding layer itself.
    total_with_head:      total + output_head: every parameter that scales with the vocabulary or the positions.
    """

    token_embedding: int
    positional_embedding: int
    output_head: int
    total: int
    total_with_head: int


def embedding_parameter_count(
    vocab_size: int,
    d_model: int,
    *,
    max_context_length: int = 0,
    positional: Positional = "none",
    tied: bool = False,
) -> EmbeddingParams:
    """Count the parameters of the token table, the positional table and the output head.

    Args:
        vocab_size: V, rows of the token table (one per token id).
        d_model: D, the width of every embedding vector.
        max_context_length: L, rows of a learned positional table (the longest sequence it can encode). Only
            "learned" uses it, and then it must be >= 1; the other kinds accept any L >= 0 and ignore it.
        positional: "learned" stores an (L, D) table; "none", "sinusoidal", "rope" and "alibi" store nothing.
        tied: True when the output projection reuses the token table (GPT-2, BERT, Qwen3-0.6B). The untied
            output projection is counted separately in `output_head` (V * D), so the tied saving is visible.

    Example: ANDREA-120M, `embedding_parameter_count(8_449, 768, max_context_length=1_024, positional="learned")`
    gives token 6,488,832 + positional 786,432 = total 7,275,264, output_head 6,488,832 (untied).
    """
    vocab_size = positive_int("vocab_size", vocab_size, minimum=1)
    d_model = positive_int("d_model", d_model, minimum=1)
    one_of("positional", positional, POSITIONAL_KINDS)
    tied = boolean("tied", tied)
    if positional == "learned":
        # A learned table needs one trained row per position; with no rows no position could be encoded.
        max_context_length = positive_int("max_context_length", max_context_length, minimum=1)
    else:
        max_context_length = positive_int("max_context_length", max_context_length, minimum=0)

    # Python ints never overflow, so real sizes (V 151,936 x D 4,096) are exact.
    token = vocab_size * d_model  # the (V, D) table
    # Only a learned table is stored; sinusoidal is a formula, RoPE and ALiBi act inside attention.
    position = max_context_length * d_model if positional == "learned" else 0
    # Tied: the logits reuse the token table (logits = h @ W_E.T), so no new matrix; untied: a second (V, D).
    head = 0 if tied else vocab_size * d_model
    total = token + position
    return EmbeddingParams(
        token_embedding=token,
        positional_embedding=position,
        output_head=head,
        total=total,
        total_with_head=total + head,
    )


def memory_bytes(num_params: int, dtype: Dtype) -> int:
    """Bytes needed to store `num_params` parameters in `dtype` (fp32 4, bf16 / fp16 2, int8 1 byte each).

    `num_params` may be 0 (a RoPE model's positional table stores nothing).
    """
    num_params = positive_int("num_params", num_params, minimum=0)
    one_of("dtype", dtype, DTYPES)
    return num_params * BYTES_PER_PARAM[dtype]


# model presets


@dataclass(frozen=True)
class ModelPreset:
    """Published architecture figures of one model, as its config.json (or source text) states them.

    name:            display name, also the key in PRESETS.
    vocab_size:      V, rows of the token table (config `vocab_size`; may exceed the tokenizer's real entries).
    d_model:         D, the hidden size (config `hidden_size` / `n_embd`).
    num_layers:      transformer blocks; None when the source does not say.
    num_heads:       query heads per layer; None when unknown.
    num_kv_heads:    key/value heads (fewer than num_heads for grouped-query attention); None when unknown.
    head_dim:        width of one head. Usually d_model // num_heads, but not always (Qwen3-0.6B: 16 x 128 = 2,048
                     while d_model is 1,024; its attention projects 1,024 -> 2,048 and back).
    max_context_length:   the context length: rows of the learned table, RoPE's `max_position_embeddings`, or the
                     training sequence length for ALiBi (which has no hard limit).
    positional:      how position enters: "learned", "sinusoidal", "rope", "alibi" or "none".
    rope_theta:      RoPE base; None unless positional == "rope".
    rope_scaling:    Hugging Face style `rope_scaling` dict (e.g. {"rope_type": "llama3", ...}) or None. Treat it as
                     read-only: copy it (`dict(preset.rope_scaling)`) before changing anything.
    tied_embeddings: True when the output projection reuses the token table (or, for an encoder without a
                     language-model head, when there is no separate V x D output matrix at all).
    total_params:    the model's parameter count: the exact count of the published checkpoint where it can be
                     rebuilt from the config, the published round figure otherwise; None when unknown.
    source:          one line saying where the figures come from.
    trained_length:  the sequence length the model was pre-trained on, which is not always max_context_length: a RoPE
                     config's max_position_embeddings may add headroom (Qwen3-0.6B: 40,960 = 32K + 8K for the
                     answer, trained on 32,768) or be a limit the model never trained at (Mistral-7B-v0.1: 32,768,
                     trained on 8,192). The context-extension page counts "unseen angles" from it. None: the same as
                     max_context_length (see pretrained_length).
    last_stage_length: the context a later, long-context stage of pre-training reached, when the model had one
                     (Llama 3.1: pre-trained at 8K, its final stages up to 128K); None when pre-training stopped
                     at trained_length. Pages say it beside trained_length, so 8,192 does not read as the most
                     the model was ever trained on.
    """

    name: str
    vocab_size: int
    d_model: int
    num_layers: int | None
    num_heads: int | None
    num_kv_heads: int | None
    head_dim: int | None
    max_context_length: int
    positional: Positional
    rope_theta: float | None
    rope_scaling: dict[str, Any] | None = field(hash=False)  # a dict cannot be hashed; leave it out of __hash__
    tied_embeddings: bool
    total_params: int | None
    source: str
    trained_length: int | None = None
    last_stage_length: int | None = None

    @property
    def pretrained_length(self) -> int:
        """The length the model was pre-trained on: trained_length, else max_context_length."""
        return self.trained_length if self.trained_length is not None else self.max_context_length


# Where each preset field sits in a config.json: the first key present wins (GPT-2 and BLOOM use their own names).
_CONFIG_KEYS: dict[str, tuple[str, ...]] = {
    "d_model": ("hidden_size", "n_embd"),
    "num_layers": ("num_hidden_layers", "n_layer"),
    "num_heads": ("num_attention_heads", "n_head"),
    "max_context_length": ("max_position_embeddings", "n_positions", "seq_length"),
}


def _field(config: dict[str, Any], name: str) -> Any:
    return next((config[key] for key in _CONFIG_KEYS[name] if config.get(key) is not None), None)


def _preset_from_facts(entry: dict[str, Any]) -> ModelPreset:
    """One presets.toml entry (embedviz/model_configs/) as a ModelPreset, read from its config the way transformers'
    config classes read it: num_key_value_heads defaults to the query heads, head_dim to d_model // num_heads."""
    config = entry["config"]
    d_model, heads = _field(config, "d_model"), _field(config, "num_heads")
    rope = entry["positional"] == "rope"
    scaling = config.get("rope_scaling") if rope else None
    trained = entry.get("trained_length")
    if trained is None and scaling:  # a scaled config names the length it was trained on
        trained = scaling.get("original_max_position_embeddings")
    return ModelPreset(
        name=entry["name"],
        vocab_size=config["vocab_size"],
        d_model=d_model,
        num_layers=_field(config, "num_layers"),
        num_heads=heads,
        num_kv_heads=config.get("num_key_value_heads", heads),
        head_dim=config.get("head_dim") or (d_model // heads if heads else None),
        max_context_length=_field(config, "max_context_length"),
        positional=entry["positional"],
        rope_theta=float(config["rope_theta"]) if rope else None,
        rope_scaling=dict(scaling) if scaling else None,
        tied_embeddings=config.get("tie_word_embeddings", entry.get("tied_embeddings")),
        total_params=entry.get("total_params"),
        source=entry["source"],
        trained_length=trained,
        last_stage_length=entry.get("last_stage_length"),
    )


_ENTRIES = model_facts.preset_entries()
_PRESET_LIST: tuple[ModelPreset, ...] = tuple(_preset_from_facts(entry) for entry in _ENTRIES)
# Lesson 004's worked example: a hypothetical model (100,000 x 4,096, sinusoidal), named by numbers only
LESSON_004 = next(entry["name"] for entry in _ENTRIES if entry["id"] == "lesson-004")

PRESETS: dict[str, ModelPreset] = {preset.name: preset for preset in _PRESET_LIST}


def _get_preset(name: str) -> ModelPreset:
    return PRESETS[one_of("name", name, PRESETS)]


def preset_embedding_params(name: str) -> EmbeddingParams:
    """Embedding parameter counts of the preset called `name` (a key of PRESETS)."""
    preset = _get_preset(name)
    return embedding_parameter_count(
        preset.vocab_size,
        preset.d_model,
        max_context_length=preset.max_context_length,
        positional=preset.positional,
        tied=preset.tied_embeddings,
    )


def preset_share(name: str) -> float | None:
    """Fraction of the preset's total parameters that sit in its embedding tables (token + learned positions).

    An untied output head is not an embedding table and is not included. None when total_params is unknown.
    ANDREA-120M: 7,275,264 / 120,000,000 = 0.061, the "about 6%" of lesson 002.
    """
    preset = _get_preset(name)
    if preset.total_params is None:
        return None
    return preset_embedding_params(name).total / preset.total_params
