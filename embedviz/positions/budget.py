"""Lesson 003: why Qwen3-0.6B's max_position_embeddings is 40,960 and not its 32K context.

max_position_embeddings is the largest position the config allows, not the length the model was trained on:
Qwen3's native context is 32,768 tokens (the model card's YaRN recipe scales from it), and 40,960 = 32,768 +
8,192 leaves headroom (Qwen3's model cards: "reserving 32,768 tokens for outputs and 8,192 tokens for typical
prompts"). YaRN x4 over 32,768 reaches 131,072.
All figures come from embedviz.models.params.PRESETS.
"""
from __future__ import annotations

from dataclasses import dataclass

from embedviz.models.params import PRESETS

QWEN3 = "Qwen3-0.6B"
QWEN3_YARN = "Qwen3-0.6B (YaRN 128K)"


@dataclass(frozen=True)
class PositionBudget:
    """Qwen3-0.6B's positions (:func:`qwen3_position_budget`), each a whole number but the factor and the base."""

    max_position_embeddings: int  # the config's limit, 40,960
    native: int  # the pre-training length, 32,768 (YaRN's original_max_position_embeddings)
    headroom: int  # max_position_embeddings - native: 8,192 reserved for prompts
    yarn_factor: float  # 4.0
    yarn_reach: int  # native * yarn_factor, 131,072
    rope_theta: float  # 1,000,000


def qwen3_position_budget() -> PositionBudget:
    """max_position_embeddings, the native (pre-training) length, the headroom between them, and the YaRN reach."""
    plain, yarn = PRESETS[QWEN3], PRESETS[QWEN3_YARN]
    native = int(yarn.rope_scaling["original_max_position_embeddings"])
    factor = float(yarn.rope_scaling["factor"])
    return PositionBudget(
        max_position_embeddings=plain.max_context_length,
        native=native,
        headroom=plain.max_context_length - native,
        yarn_factor=factor,
        yarn_reach=int(native * factor),
        rope_theta=float(plain.rope_theta),
    )
