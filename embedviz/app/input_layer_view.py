"""Cached core calls of the Input layer page (lesson 000): the shapes from (B, T) ids to (B, T, D) vectors, the cost
of summing against concatenating, and the position modules' refusals past their length (the Compare page shows the
sinusoidal module's too). Plain arguments in, frozen records out; torch is imported on first use."""
from __future__ import annotations

from dataclasses import dataclass

import streamlit as st


@dataclass(frozen=True)
class InputLayerView:
    trace: composition.ShapeTrace  # every shape from ids to the sum, and the two ways' output shapes
    cost: dict[str, composition.CombineCost]  # "sum" / "concat" -> composition.width_and_params (a lazy import)


@st.cache_data(max_entries=32, show_spinner=False)
def input_layer(batch: int, length: int, d_model: int, d_position: int, vocab_size: int,
                max_length: int) -> InputLayerView:
    """The shape trace of the lesson's EmbeddingComposer and the cost of sum vs concat."""
    from embedviz.input_layer import composition  # torch: imported on first use, so pages without it never load torch
    trace = composition.shape_trace(batch, length, d_model, vocab_size=vocab_size, max_context_length=max_length,
                                    d_position=d_position)
    return InputLayerView(trace=trace, cost={
        "sum": composition.width_and_params(vocab_size, max_length, d_model, d_model, combine="sum"),
        "concat": composition.width_and_params(vocab_size, max_length, d_model, d_position, combine="concat"),
    })


@st.cache_data(max_entries=64, show_spinner=False)
def refusals(max_length: int, length: int) -> dict[str, ValueError | None]:
    from embedviz.input_layer import composition
    return composition.refusal_messages(max_length, length)
