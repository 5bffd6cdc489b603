"""Tests for embedviz.rope.reach: each layer's window / chunk / sinks against transformers' own config classes
(the layer_types they build, the sliding_window and attention_chunk_size they keep) and attention modules."""
from __future__ import annotations

import json

import pytest

from embedviz import model_facts
from embedviz.rope.reach import CHUNKED, FULL, SLIDING, context_of, layer_reach
from embedviz.rope.theory import critical_dimension
from tests.conftest import require_oracle

FIXTURES = model_facts.CONFIG_DIR  # the packaged configs: the app and the tests read the same files


def load(name: str) -> dict:
    return json.loads((FIXTURES / name).read_text())


def hf_reach(config) -> list[tuple[str, int | None]]:
    """(kind, span) per layer as transformers' config says: layer_types with sliding_window / chunk size."""
    window = getattr(config, "sliding_window", None)
    types = getattr(config, "layer_types", None) or ["sliding_attention" if window else "full_attention"] * \
        config.num_hidden_layers
    out = []
    for layer_type in types:
        if layer_type == "sliding_attention" and window:
            out.append((SLIDING, window))
        elif layer_type == "chunked_attention":
            out.append((CHUNKED, config.attention_chunk_size))
        else:
            out.append((FULL, None))
    return out


@pytest.mark.parametrize("name", ["Gemma3TextConfig", "Gemma4TextConfig", "Cohere2Config", "GptOssConfig",
                                  "Llama4TextConfig", "MistralConfig", "Qwen2Config", "LlamaConfig"])
def test_default_configs_reach_as_transformers_builds_their_layers(name):
    transformers = require_oracle("transformers")
    config = getattr(transformers, name)()
    ours = [(r.kind, r.span) for r in layer_reach(config.to_dict())]
    assert ours == hf_reach(config)


def test_published_files_gemma3_sliding_1024_llama4_chunks_8192_mistral_4096():
    transformers = require_oracle("transformers")
    gemma = layer_reach(load("gemma-3-12b-it.json"))
    assert [(r.kind, r.span) for r in gemma[:6]] == [(SLIDING, 1024)] * 5 + [(FULL, None)]
    scout = load("llama-4-scout-17b-16e.json")
    text = {k: v for k, v in scout["text_config"].items() if k != "model_type"}
    text["attn_temperature_tuning"] = bool(text.get("attn_temperature_tuning"))
    assert [(r.kind, r.span) for r in layer_reach(scout)] == hf_reach(transformers.Llama4TextConfig(**text))
    assert {r.span for r in layer_reach(scout)} == {8192, None}
    assert {(r.kind, r.span) for r in layer_reach(load("mistral-7b-v0.1.json"))} == {(SLIDING, 4096)}
    assert {r.kind for r in layer_reach(load("qwen2.5-vl-7b.json"))} == {FULL}  # use_sliding_window false


def test_gpt_oss_has_sinks_on_every_layer_as_its_attention_module():
    torch = require_oracle("torch")
    transformers = require_oracle("transformers")
    gpt_oss = require_oracle("transformers.models.gpt_oss.modeling_gpt_oss")
    config = transformers.GptOssConfig(num_hidden_layers=2, hidden_size=32, num_attention_heads=2,
                                       num_key_value_heads=1, head_dim=16, intermediate_size=32, num_local_experts=2)
    for i, reach in enumerate(layer_reach(config.to_dict())):
        attention = gpt_oss.GptOssAttention(config, layer_idx=i)
        assert reach.sinks == isinstance(getattr(attention, "sinks", None), torch.nn.Parameter)
        assert reach.span == attention.sliding_window
    assert not any(r.sinks for r in layer_reach(load("gemma-3-12b-it.json")))


def test_a_window_caps_the_critical_dimension():
    """Gemma 3's sliding layers: theta 10,000, d 256, a 1,024-token window: only 142 of 256 dims turn in it."""
    reach = layer_reach(load("gemma-3-12b-it.json"))[0]
    assert critical_dimension(256, 10_000, reach.limit(131_072)) == 142
    assert critical_dimension(256, 10_000, 131_072) == 256  # what the whole context would wrongly give
    gemma4 = layer_reach(load("gemma-4-e2b.v5.json"))[0]  # E2B's sliding layers: a 512-token window
    assert (gemma4.kind, gemma4.span) == (SLIDING, 512) and critical_dimension(256, 10_000, 512) == 124


def test_max_position_embeddings_is_not_called_a_trained_length():
    assert context_of(load("gemma-3-12b-it.json")) == "max"
    assert context_of(load("llama-3.1-8b.json")) == "trained"
    assert context_of(load("deepseek-v3.json")) == "trained"
    assert context_of(load("phi-3-mini-128k-instruct.json")) == "trained"
