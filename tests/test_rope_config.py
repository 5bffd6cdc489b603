"""Tests for embedviz.rope.config: a model's config.json read into RoPE's numbers, as transformers reads it.

Hand-derived expectations on real-looking configs; the comparison with transformers' own config classes is in
tests/test_rope_scaling.py (test_from_config_matches_transformers_config_classes).
"""
from __future__ import annotations

import json
import math

import numpy as np
import pytest

from embedviz import model_facts
from embedviz.rope.context_extension import PHI3_MINI_128K
from embedviz.rope.config import from_config, parse_config_json
from embedviz.rope.scaling import compute
from tests.input_errors import raises_input
from tests.test_rope_scaling import GLM4_PARTIAL, LLAMA_31_8B, QWEN3_06B_YARN, default_inv_freq

# from_config on real-looking configs (hand-derived expectations)


def test_from_config_llama31():
    out = from_config(LLAMA_31_8B)
    assert out == {
        "head_dim": 128,  # 4096 / 32
        "theta": 500_000.0,
        "scaling": {
            "factor": 8.0,
            "low_freq_factor": 1.0,
            "high_freq_factor": 4.0,
            "original_max_position_embeddings": 8192,
            "rope_type": "llama3",
        },
        "max_position_embeddings": 131072,
        "original_max_position_embeddings": 8192,
    }
    assert LLAMA_31_8B["rope_scaling"].get("rope_theta") is None  # the caller's dict is untouched


def test_from_config_qwen3_yarn():
    out = from_config(QWEN3_06B_YARN)
    assert (out["head_dim"], out["theta"], out["max_position_embeddings"]) == (128, 1_000_000.0, 40960)
    assert out["original_max_position_embeddings"] == 32768
    inv_freq, attention_factor = compute(out["head_dim"], out["theta"], out["scaling"])
    assert attention_factor == pytest.approx(1.138629436111989)  # transformers 5.24.0, yarn x4
    default = default_inv_freq(128, 1_000_000.0)
    assert inv_freq[0] == default[0] and inv_freq[-1] == pytest.approx(default[-1] / 4, rel=1e-12)


def test_from_config_phi3_longrope():
    out = from_config(PHI3_MINI_128K)
    assert out["head_dim"] == 96  # 3072 / 32
    assert out["original_max_position_embeddings"] == 4096
    scaling = out["scaling"]
    assert scaling["rope_type"] == "longrope" and "type" not in scaling
    assert scaling["factor"] == 32.0  # 131072 / 4096, derived as transformers does
    short, attention_factor = compute(96, 10_000, scaling)
    # sqrt(1 + ln 32 / ln 4096) = sqrt(1 + 5/12)
    assert attention_factor == pytest.approx(math.sqrt(17 / 12))
    np.testing.assert_allclose(short, default_inv_freq(96, 10_000) / PHI3_MINI_128K["rope_scaling"]["short_factor"])
    long, _ = compute(96, 10_000, scaling, seq_len=4097)
    np.testing.assert_allclose(long, default_inv_freq(96, 10_000) / PHI3_MINI_128K["rope_scaling"]["long_factor"])


def test_from_config_partial_rotary():
    out = from_config(GLM4_PARTIAL)
    assert out["scaling"] == {"partial_rotary_factor": 0.5, "rope_type": "default"}
    assert out["original_max_position_embeddings"] == out["max_position_embeddings"] == 32768
    inv_freq, _ = compute(out["head_dim"], out["theta"], out["scaling"])
    np.testing.assert_allclose(inv_freq, default_inv_freq(64, 10_000), rtol=1e-12)  # 64 of 128 dims rotate


def test_from_config_plain_and_v5_layouts():
    plain = {"hidden_size": 1024, "num_attention_heads": 16, "max_position_embeddings": 2048, "rope_theta": 10_000}
    assert from_config(plain)["scaling"] is None
    assert from_config({**plain, "rope_scaling": None})["scaling"] is None
    # transformers v5 writes rope_theta inside rope_parameters
    v5 = {**{k: v for k, v in LLAMA_31_8B.items() if k not in ("rope_scaling", "rope_theta")},
          "rope_parameters": {**LLAMA_31_8B["rope_scaling"], "rope_theta": 500000.0}}
    assert from_config(v5) == from_config(LLAMA_31_8B)
    v5_plain = {**plain, "rope_theta": None, "rope_parameters": {"rope_type": "default", "rope_theta": 1e6}}
    out = from_config(v5_plain)
    assert out["theta"] == 1e6 and out["scaling"] is None
    # per-layer rope_parameters (Gemma 3 style)
    per_layer = {**plain, "rope_parameters": model_facts.config("gemma-3-12b-it.v5.json")["rope_parameters"]}
    full = from_config(per_layer, layer_type="full_attention")
    assert full["theta"] == 1e6 and full["scaling"] == {"rope_type": "linear", "factor": 8.0}
    assert from_config(per_layer, layer_type="sliding_attention")["scaling"] is None


def test_from_config_dynamic_uses_max_position_embeddings():
    config = {"hidden_size": 512, "num_attention_heads": 8, "max_position_embeddings": 2048, "rope_theta": 10_000,
              "rope_scaling": {"type": "dynamic", "factor": 2.0}}
    out = from_config(config)
    assert out["scaling"] == {"factor": 2.0, "rope_type": "dynamic", "original_max_position_embeddings": 2048}
    # d=64, seq_len 4096: theta' = 10_000 * (2 * 2 - 1)^(64/62)
    inv_freq, _ = compute(out["head_dim"], out["theta"], out["scaling"], seq_len=4096)
    np.testing.assert_allclose(inv_freq, default_inv_freq(64, 10_000 * 3 ** (64 / 62)), rtol=1e-12)


def test_from_config_gpt_neox_names():
    config = {"hidden_size": 512, "num_attention_heads": 8, "max_position_embeddings": 2048,
              "rotary_emb_base": 10_000, "rotary_pct": 0.25}
    out = from_config(config)
    assert out["theta"] == 10_000.0 and out["scaling"] == {"partial_rotary_factor": 0.25, "rope_type": "default"}
    assert compute(out["head_dim"], out["theta"], out["scaling"])[0].shape == (8,)  # 64 * 0.25 / 2


@pytest.mark.parametrize(
    ("config", "kwargs", "code", "params"),
    [
        ({"hidden_size": 512, "num_attention_heads": 8, "max_position_embeddings": 2048}, {}, "config_no_theta", {}),
        ({"rope_theta": 1e4, "max_position_embeddings": 2048}, {}, "config_no_head", {}),
        ({"rope_theta": 1e4, "hidden_size": 512, "num_attention_heads": 8}, {},
         "missing", {"name": "config", "keys": "'max_position_embeddings'"}),
        ({"rope_theta": 1e4, "hidden_size": 500, "num_attention_heads": 8, "max_position_embeddings": 2048}, {},
         "divisible", {"name": "hidden_size", "value": 500, "other": "num_attention_heads", "other_value": 8}),
        ({"rope_theta": 1e4, "head_dim": 63, "max_position_embeddings": 2048}, {},
         "even", {"name": "head_dim", "value": 63, "about": "RoPE"}),
        ({"rope_theta": 1e4, "head_dim": 64, "max_position_embeddings": 2048,
          "rope_scaling": {"rope_type": "llama3", "factor": 8.0}}, {},
         "missing", {"name": "scaling", "keys": "'low_freq_factor', 'high_freq_factor'", "about": "rope_type 'llama3'"}),
        ({"rope_theta": 1e4, "head_dim": 64, "max_position_embeddings": 2048,
          "rope_scaling": {"rope_type": "yarn", "factor": 0.5}}, {}, "at_least",
         {"name": "factor", "value": 0.5, "limit": 1, "about": "rope_type 'yarn'"}),
        ({"rope_theta": 1e4, "head_dim": 64, "max_position_embeddings": 2048,
          "rope_parameters": {"full_attention": {"rope_type": "default"}, "sliding_attention": {}}}, {},
         "per_layer", {"types": "full_attention, sliding_attention"}),
        ({"rope_theta": 1e4, "head_dim": 64, "max_position_embeddings": 2048}, {"layer_type": "full_attention"},
         "layer_type", {"value": "full_attention", "types": "none"}),
    ],
)
def test_from_config_errors(config, kwargs, code, params):
    with raises_input(code, **params):
        from_config(config, **kwargs)


def test_from_config_and_the_parser_refuse_what_is_not_text_or_a_dict():
    # a caller's mistake, not a reader's: a plain ValueError in English
    with pytest.raises(ValueError, match=r"config must be a dict read from config\.json, got str"):
        from_config("config.json")
    with pytest.raises(ValueError, match=r"config\.json must be text, got NoneType"):
        parse_config_json(None)


@pytest.mark.parametrize(
    ("text", "code", "params"),
    [
        ("", "config_empty", {}),
        ("  \n", "config_empty", {}),
        ('{"rope_theta": 10000,', "config_json",
         {"detail": "Expecting property name enclosed in double quotes", "line": 1, "column": 22}),
        ('{"a": 1}\n{"b": 2}', "config_json", {"detail": "Extra data", "line": 2, "column": 1}),
        ("[1, 2]", "config_not_object", {"kind": "array"}),
        ('"rope"', "config_not_object", {"kind": "string"}),
        ("4096", "config_not_object", {"kind": "number"}),
        (" " * 1_000_001, "config_long", {"n": 1_000_001}),
    ],
)
def test_parse_config_json_errors(text, code, params):
    with raises_input(code, **params):
        parse_config_json(text)


def test_parse_config_json_round_trip():
    assert parse_config_json(json.dumps(PHI3_MINI_128K, indent=2)) == PHI3_MINI_128K
    assert parse_config_json('{"rope_theta": 1e6}') == {"rope_theta": 1_000_000.0}
