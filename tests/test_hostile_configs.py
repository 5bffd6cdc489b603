"""Hostile config.json contents: each is refused with a ValueError that names what is wrong, before anything
large is allocated, in a few milliseconds.

Before the fix: huge head_dims computed for seconds and gigabytes (or ended in MemoryError asking for 3.6 TiB),
400-digit integers and ``factor: 1e308`` ended in OverflowError, 10,000-deep nesting in RecursionError, nested
LongRoPE lists in TypeError, ``beta_fast: 1e308`` in a bare "math domain error", ``null`` was "a JSON NoneType", and
``{"rope_type": {...}}`` was read as a per-layer config.
"""
from __future__ import annotations

import time
import tracemalloc

import pytest

from embedviz.rope import context_extension, config as rope_config
from tests.input_errors import raises_input

BASE = {"rope_theta": 10_000, "max_position_embeddings": 4_096, "head_dim": 128}
BIG = 10**400  # json.loads reads it as a Python int; float() of it overflows
HOSTILE = {  # config, then the refusal's code and the params that name what is wrong
    "head_dim 2e8": ({**BASE, "head_dim": 200_000_000}, "at_most",
                     {"name": "head_dim", "value": 200_000_000, "limit": 8192}),
    "head_dim 1e12": ({**BASE, "head_dim": 10**12}, "at_most", {"name": "head_dim", "value": 10**12, "limit": 8192}),
    "hidden_size 1e12, one head": (
        {"rope_theta": 10_000, "max_position_embeddings": 4_096, "hidden_size": 10**12, "num_attention_heads": 1},
        "at_most", {"name": "hidden_size", "value": 10**12}),
    "rope_theta 400 digits": ({**BASE, "rope_theta": BIG}, "huge_finite", {"name": "rope_theta", "digits": 401}),
    "factor 400 digits": ({**BASE, "rope_scaling": {"rope_type": "yarn", "factor": BIG}},
                          "huge_finite", {"name": "factor", "digits": 401}),
    "original 400 digits": (
        {**BASE, "rope_scaling": {"rope_type": "yarn", "factor": 4, "original_max_position_embeddings": BIG}},
        "huge_at_most", {"name": "original_max_position_embeddings", "digits": 401, "limit": 4_294_967_296}),
    "max_position_embeddings 400 digits": ({**BASE, "max_position_embeddings": BIG},
                                           "huge_at_most", {"name": "max_position_embeddings", "digits": 401}),
    "top-level original 400 digits": (
        {**BASE, "original_max_position_embeddings": BIG, "rope_scaling": {"rope_type": "llama3", "factor": 8}},
        "huge_at_most", {"name": "original_max_position_embeddings", "digits": 401}),
    "yarn factor 1e308": ({**BASE, "rope_scaling": {"rope_type": "yarn", "factor": 1e308}},
                          "factor_past", {"factor": 1e308, "original": 4_096}),
    "beta_fast 1e308": ({**BASE, "rope_scaling": {"rope_type": "yarn", "factor": 4, "beta_fast": 1e308}},
                        "beta_large", {"name": "beta_fast", "value": 1e308}),
    "longrope lists of lists": (
        {**BASE, "rope_scaling": {"rope_type": "longrope", "factor": 4, "original_max_position_embeddings": 1_024,
                                  "short_factor": [[1.0, 1.0]] * 64, "long_factor": [[1.0, 1.0]] * 64}},
        "pair_factors_flat", {"key": "short_factor", "half": 64}),
    "longrope ragged lists": (
        {**BASE, "rope_scaling": {"rope_type": "longrope", "factor": 4, "original_max_position_embeddings": 1_024,
                                  "short_factor": [[1.0], [1.0, 2.0], *[1.0] * 62], "long_factor": [1.0] * 64}},
        "pair_factors_flat", {"key": "short_factor", "half": 64}),
    "rope_type holding an object": ({**BASE, "rope_scaling": {"rope_type": {"rope_type": "yarn"}}},
                                    "scaling_nested", {"key": "rope_type"}),
}


@pytest.mark.parametrize("name", list(HOSTILE))
def test_a_hostile_config_is_refused_by_name_before_any_allocation(name):
    config, code, params = HOSTILE[name]
    tracemalloc.start()
    cpu = time.process_time()
    try:
        with raises_input(code, **params):
            context_extension.extension_settings(config)
        cpu = time.process_time() - cpu
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 1 << 20, f"{name}: {peak:,} bytes allocated before the refusal"
    assert cpu < 0.5, f"{name}: {cpu:.2f} s of CPU before the refusal"


@pytest.mark.parametrize(("text", "code", "params"), [
    ("null", "config_not_object", {"kind": "null"}),
    ("[" * 10_000 + "]" * 10_000, "config_deep", {}),
    ('{"rope_theta": ' + "9" * 5_000 + "}", "config_digits", {}),
])
def test_a_hostile_config_text_is_refused_with_a_message(text, code, params):
    with raises_input(code, **params):
        rope_config.parse_config_json(text)


def test_the_size_limits_leave_every_published_model_inside():
    # Gemma 3's global layers use head_dim 256 and Llama 4 Scout claims 10M tokens: far inside both limits
    assert rope_config.MAX_HEAD_DIM >= 8 * 256 and rope_config.MAX_POSITIONS >= 100 * 10_000_000
    settings = context_extension.extension_settings({**BASE, "head_dim": 512, "max_position_embeddings": 10_485_760})
    assert settings.head_dim == 512
