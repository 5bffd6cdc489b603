"""Lesson 000's input layer in shapes: (B, T) ids -> (B, T, D), and why the two parts are summed, not concatenated.

    ids (B, T) --token table (V, D)--> (B, T, D)
    0..T-1     --position table (L, D)--> (T, D) --unsqueeze(0)--> (1, T, D), broadcast over B
    sum        -> (B, T, D)                 every later layer keeps width D
    concat     -> (B, T, D_tok + D_pos)     a wider residual stream: every later d x d matrix grows with it

Both position modules of the lesson precompute (or store) L rows and refuse T > L; the messages shown are the
modules' own (embedviz.input_layer.embeddings).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import torch

from embedviz._validate import one_of, positive_int
from embedviz.input_layer.embeddings import (
    EmbeddingComposer,
    LearnedPositionalEmbedding,
    SinusoidalPositionalEmbedding,
    TokenEmbedding,
)
from embedviz.errors import InputError

Combine = Literal["sum", "concat"]
COMBINES: tuple[str, ...] = ("sum", "concat")
MAX_SHAPE_ELEMENTS = 8 * 512 * 512  # B * T * D of the demo batch (2,097,152): built for real, so keep it small


@dataclass(frozen=True)
class CombineCost:
    """What one way of combining token and position vectors costs (:func:`width_and_params`)."""

    token_table: int  # V x d_token parameters
    position_table: int  # L x d_position parameters (a learned table)
    width: int  # the width every later layer sees: d_token for sum, d_token + d_position for concat
    attention_per_layer: int  # 4 x width^2: q, k, v and output projections of one block, biases left out


def width_and_params(
    vocab_size: int, max_context_length: int, d_token: int, d_position: int, *, combine: Combine
) -> CombineCost:
    """What summing or concatenating costs: the tables, the width every layer then sees, one layer's attention.

    sum needs d_position == d_token (the two vectors are added element by element) and keeps width D.
    concat allows any d_position and makes the width d_token + d_position; the four attention projections of the
    next block (q, k, v, output: width x width each, biases left out) grow with the square of that width.
    """
    V = positive_int("vocab_size", vocab_size)
    L = positive_int("max_context_length", max_context_length)
    d_tok = positive_int("d_token", d_token)
    d_pos = positive_int("d_position", d_position)
    one_of("combine", combine, COMBINES)
    if combine == "sum":
        if d_pos != d_tok:
            raise ValueError(f"d_position ({d_pos}) must equal d_token ({d_tok}) to be summed")
        width = d_tok
    else:  # "concat"
        width = d_tok + d_pos
    return CombineCost(
        token_table=V * d_tok,
        position_table=L * d_pos,
        width=width,
        attention_per_layer=4 * width * width,
    )


@dataclass(frozen=True)
class ShapeTrace:
    """Every shape on the way from ids to the input of the first block (:func:`shape_trace`)."""

    # (step, shape) in pipeline order: "ids", "token_vectors", "positions", "broadcast", "sum"
    shapes: list[tuple[str, tuple[int, ...]]]
    sum_shape: tuple[int, ...]  # (B, T, D): token and position vectors added
    concat_shape: tuple[int, ...]  # (B, T, D + D_pos): concatenated instead


def shape_trace(
    batch: int, context_length: int, d_model: int, *, vocab_size: int = 256, max_context_length: int = 512,
    positional: Literal["sinusoidal", "learned"] = "sinusoidal", d_position: int | None = None, seed: int = 0,
) -> ShapeTrace:
    """Run the lesson's EmbeddingComposer on a random (B, T) batch and record every shape on the way, and the
    output shapes of the two ways to combine, built for real with torch."""
    B = positive_int("batch", batch)
    T = positive_int("context_length", context_length)
    D = positive_int("d_model", d_model, minimum=2)
    if B * T * D > MAX_SHAPE_ELEMENTS:
        raise InputError("shape_cap", n=B * T * D, limit=MAX_SHAPE_ELEMENTS)
    generator = torch.Generator().manual_seed(positive_int("seed", seed, minimum=0))
    one_of("positional", positional, ("sinusoidal", "learned"))
    tok = TokenEmbedding(vocab_size, D, generator=generator)
    if positional == "sinusoidal":
        pos_module = SinusoidalPositionalEmbedding(max_context_length, D)
    else:  # "learned"
        pos_module = LearnedPositionalEmbedding(max_context_length, D, generator=generator)
    composer = EmbeddingComposer(tok, pos_module)
    d_pos = D if d_position is None else positive_int("d_position", d_position)
    concat_module = pos_module if d_pos == D else SinusoidalPositionalEmbedding(max_context_length, d_pos)
    ids = torch.randint(0, vocab_size, (B, T), generator=generator)  # (B, T)
    with torch.no_grad():
        token_vectors = tok(ids)  # (B, T, D)
        positions = pos_module(T)  # (T, D); raises past max_context_length
        broadcast = positions.unsqueeze(0)  # (1, T, D)
        summed = composer(ids)  # (B, T, D)
        concat_pos = concat_module(T).unsqueeze(0).expand(B, T, d_pos)  # (B, T, D_pos)
        concatenated = torch.cat([token_vectors, concat_pos], dim=-1)  # (B, T, D + D_pos)
    return ShapeTrace(
        shapes=[
            ("ids", tuple(ids.shape)),
            ("token_vectors", tuple(token_vectors.shape)),
            ("positions", tuple(positions.shape)),
            ("broadcast", tuple(broadcast.shape)),
            ("sum", tuple(summed.shape)),
        ],
        sum_shape=tuple(summed.shape),
        concat_shape=tuple(concatenated.shape),
    )


def refusal_messages(max_context_length: int, context_length: int) -> dict[str, ValueError | None]:
    """Each lesson position module asked for ``context_length`` positions when it holds ``max_context_length``.

    Keys are the modules' class names; the value is the module's own ValueError (its code and params translate it
    on a page), or None when the length fits. A width of 2 is enough to ask: the check depends on the length only.
    """
    L = positive_int("max_context_length", max_context_length)
    T = positive_int("context_length", context_length)
    out = {}
    for module in (LearnedPositionalEmbedding(L, 2), SinusoidalPositionalEmbedding(L, 2)):
        name = type(module).__name__
        try:
            module(T)
            out[name] = None
        except ValueError as error:
            out[name] = error
    return out
