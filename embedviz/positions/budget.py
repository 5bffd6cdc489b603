"""Lesson 003: why Qwen3-0.6B's max_position_embeddings is 40,960 and not its 32K context.

max_position_embeddings is the largest position the config allows, not the length the model was trained on:
Qwen3's native context is 32,768 tokens (the model card's YaRN recipe scales from it), and 40,960 = 32,768 +
8,192 leaves headroom (Qwen3's model cards: "reserving 32,768 tokens for outputs and 8,192 tokens for typical
prompts"). YaRN x4 over 32,768 reaches 131,072.
All figures come from embedviz.models.params.PRESETS.
"""
from __future__ import annotations

from embedviz.models.params import PRESETS

QWEN3 = "Qwen3-0.6B"
QWEN3_YARN = "Qwen3-0.6B (YaRN 128K)"


def qwen3_position_budget() -> dict[str, float]:
    """max_position_embeddings, the native (pre-training) length, the headroom between them, and the YaRN reach."""
    plain, yarn = PRESETS[QWEN3], PRESETS[QWEN3_YARN]
    native = int(yarn.rope_scaling["original_max_position_embeddings"])
    factor = float(yarn.rope_scaling["factor"])
    return dict(
        max_position_embeddings=plain.max_positions,
        native=native,
        headroom=plain.max_positions - native,
        yarn_factor=factor,
        yarn_reach=int(native * factor),
        rope_theta=float(plain.rope_theta),
    )
