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

BASE = {"rope_theta": 10_000, "max_position_embeddings": 4_096, "head_dim": 128}
BIG = 10**400  # json.loads reads it as a Python int; float() of it overflows
HOSTILE = {
    "head_dim 2e8": ({**BASE, "head_dim": 200_000_000}, "head_dim (200000000) must be <= 8192"),
    "head_dim 1e12": ({**BASE, "head_dim": 10**12}, "head_dim (1000000000000) must be <= 8192"),
    "hidden_size 1e12, one head": (
        {"rope_theta": 10_000, "max_position_embeddings": 4_096, "hidden_size": 10**12, "num_attention_heads": 1},
        "hidden_size (1000000000000) must be <="),
    "rope_theta 400 digits": ({**BASE, "rope_theta": BIG}, "rope_theta (an integer of about 401 digits)"),
    "factor 400 digits": ({**BASE, "rope_scaling": {"rope_type": "yarn", "factor": BIG}},
                          "factor (an integer of about 401 digits)"),
    "original 400 digits": (
        {**BASE, "rope_scaling": {"rope_type": "yarn", "factor": 4, "original_max_position_embeddings": BIG}},
        "original_max_position_embeddings (an integer of about 401 digits) must be <= 4,294,967,296"),
    "max_position_embeddings 400 digits": ({**BASE, "max_position_embeddings": BIG},
                                           "max_position_embeddings (an integer of about 401 digits)"),
    "top-level original 400 digits": (
        {**BASE, "original_max_position_embeddings": BIG, "rope_scaling": {"rope_type": "llama3", "factor": 8}},
        "original_max_position_embeddings (an integer of about 401 digits)"),
    "yarn factor 1e308": ({**BASE, "rope_scaling": {"rope_type": "yarn", "factor": 1e308}},
                          "factor (1e+308) stretches original_max_position_embeddings (4,096) past any context"),
    "beta_fast 1e308": ({**BASE, "rope_scaling": {"rope_type": "yarn", "factor": 4, "beta_fast": 1e308}},
                        "beta_fast (1e+308) is too large"),
    "longrope lists of lists": (
        {**BASE, "rope_scaling": {"rope_type": "longrope", "factor": 4, "original_max_position_embeddings": 1_024,
                                  "short_factor": [[1.0, 1.0]] * 64, "long_factor": [[1.0, 1.0]] * 64}},
        "short_factor must be a flat list of 64 numbers, got nested lists"),
    "longrope ragged lists": (
        {**BASE, "rope_scaling": {"rope_type": "longrope", "factor": 4, "original_max_position_embeddings": 1_024,
                                  "short_factor": [[1.0], [1.0, 2.0], *[1.0] * 62], "long_factor": [1.0] * 64}},
        "short_factor must be a flat list of 64 numbers, got nested lists"),
    "rope_type holding an object": ({**BASE, "rope_scaling": {"rope_type": {"rope_type": "yarn"}}},
                                    "'rope_type' must be a single value, got a JSON object"),
}


@pytest.mark.parametrize("name", list(HOSTILE))
def test_a_hostile_config_is_refused_by_name_before_any_allocation(name):
    config, message = HOSTILE[name]
    tracemalloc.start()
    cpu = time.process_time()
    try:
        with pytest.raises(ValueError) as error:
            context_extension.extension_settings(config)
        cpu = time.process_time() - cpu
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert message in str(error.value)
    assert peak < 1 << 20, f"{name}: {peak:,} bytes allocated before the refusal"
    assert cpu < 0.5, f"{name}: {cpu:.2f} s of CPU before the refusal"


@pytest.mark.parametrize(("text", "message"), [
    ("null", "must hold a JSON object { ... }, got a JSON null"),
    ("[" * 10_000 + "]" * 10_000, "nests objects or arrays too deeply"),
    ('{"rope_theta": ' + "9" * 5_000 + "}", "a number of more than 4,300 digits"),
])
def test_a_hostile_config_text_is_refused_with_a_message(text, message):
    with pytest.raises(ValueError, match="config.json") as error:
        rope_config.parse_config_json(text)
    assert message in str(error.value)


def test_the_size_limits_leave_every_published_model_inside():
    # Gemma 3's global layers use head_dim 256 and Llama 4 Scout claims 10M tokens: far inside both limits
    assert rope_config.MAX_HEAD_DIM >= 8 * 256 and rope_config.MAX_POSITIONS >= 100 * 10_000_000
    settings = context_extension.extension_settings({**BASE, "head_dim": 512, "max_position_embeddings": 10_485_760})
    assert settings.head_dim == 512
