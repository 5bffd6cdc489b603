"""Cached core calls for the lessons' small demonstrations (naive positions, the input layer's shapes, raw ids,
dot product and cosine, subwords, Qwen3's position budget). Plain arguments in, plain values and frozen records out;
no math here."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import streamlit as st

from embedviz import dot_product
from embedviz.positions import naive as naive_positions
from embedviz.tokens import raw_ids, subwords
from embedviz.downsample import strided_indices
from embedviz.positions.budget import PositionBudget, qwen3_position_budget
from embedviz.positions.sinusoidal import sinusoidal_table

CURVE_POINTS = 512  # points per value curve
COUNTER_POSITIONS = 64  # positions in the binary / smooth counter picture: 2^6, every pattern of the low 6 bits
COUNTER_BITS = 8  # rows of that picture
STEP_POSITIONS = 40  # neighbour steps drawn: enough to see binary's uneven jumps


# Why sine and cosine (lesson 003)


@dataclass(frozen=True)
class NaiveView:
    position: int  # the position shown, clipped to length - 1
    clipped: bool  # whether the asked position was past the end
    summary: naive_positions.SchemeComparison  # compare_schemes: each scheme's range, steps and distinct codes
    x: np.ndarray  # the value curves' shared positions
    raw: np.ndarray  # the raw index at x
    normalized: dict[int, np.ndarray]  # length -> index / length at x, for both lengths
    value: float  # position / length
    same_value_other: float  # the position with that value at the other length
    code: list[int]  # the position's binary code, lowest bit first, padded with 0 to d_model
    counter_positions: np.ndarray  # the counter picture's positions
    binary: np.ndarray  # (positions, bits) their binary code
    smooth: np.ndarray  # the smooth counter with the same periods
    periods: list[float]  # each bit's period
    step_positions: np.ndarray  # positions p of the steps p -> p + 1 drawn
    steps: dict[str, np.ndarray]  # scheme -> step lengths ("binary", "sinusoidal"); empty for a 1-position length


@st.cache_data(max_entries=32, show_spinner=False)
def naive_view(length: int, other_length: int, position: int, d_model: int) -> NaiveView:
    """Everything the "why sine and cosine" page draws at one setting; ``position`` is clipped to length - 1."""
    p = min(position, length - 1)
    x = strided_indices(max(length, other_length), CURVE_POINTS)  # shared x of the value curves
    value = naive_positions.normalized_value(p, length)
    counter_p = np.arange(COUNTER_POSITIONS)
    bits = min(d_model, COUNTER_BITS)
    code_bits = min(d_model, naive_positions.MAX_BITS)  # D = 64: bits 62, 63 of a position are 0 (as compare_schemes)
    step_p = np.arange(min(length, STEP_POSITIONS + 1))
    steps = {}
    if len(step_p) > 1:
        steps = {
            "binary": naive_positions.adjacent_steps(naive_positions.binary_code(step_p, code_bits)),
            "sinusoidal": naive_positions.adjacent_steps(sinusoidal_table(len(step_p), d_model)),
        }
    return NaiveView(
        position=p, clipped=p != position, summary=naive_positions.compare_schemes(length, d_model),
        x=x, raw=naive_positions.on_axis(naive_positions.raw_index(length), x),
        normalized={L: naive_positions.on_axis(naive_positions.normalized_index(L), x) for L in (length, other_length)},
        value=value, same_value_other=naive_positions.position_with_value(value, other_length),
        code=naive_positions.binary_code(np.array([p]), code_bits)[0].astype(int).tolist() + [0] * (d_model - code_bits),
        counter_positions=counter_p, binary=naive_positions.binary_code(counter_p, bits),
        smooth=naive_positions.smooth_counter(counter_p, bits), periods=naive_positions.bit_periods(bits).tolist(),
        step_positions=step_p[:-1], steps=steps,
    )


# The input layer (lesson 000)


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


# Raw ids (lesson 001), dot product (lesson 002), subwords (lesson 003)


@st.cache_data(max_entries=64, show_spinner=False)
def byte_neighbours(char: str) -> list[tuple[int, str]]:
    return raw_ids.byte_id_neighbours(char)


@dataclass(frozen=True)
class IdNeighbours:
    id: int  # the word's token id
    other_id: int
    gap: int  # |id - other_id|
    tokens: list[str]  # the tokens of the rows next to the word's id
    rows: list[tuple[int, float]]  # (id, cos with the word's row) of each
    other_cos: float  # cos of the two words' rows
    rank: int  # where the other word ranks among the word's nearest rows by cosine
    vocab_size: int


@st.cache_data(max_entries=64, show_spinner=False)
def id_neighbour_rows(word: str, other: str) -> IdNeighbours:
    """The bundled model: the rows next to ``word``'s id, and where ``other`` ranks by cosine."""
    from embedviz.app.real_model_view import model  # the bundled table, loaded once per process
    from embedviz.models.word_vectors import pair_similarity

    m = model()
    a, b = m.token_id(word), m.token_id(other)
    rows = raw_ids.id_neighbours(m.token_embeddings, a)
    return IdNeighbours(
        id=a, other_id=b, gap=abs(a - b), tokens=m.tokens([i for i, _ in rows]), rows=rows,
        other_cos=pair_similarity(m.token_embeddings, a, b),
        rank=raw_ids.cosine_rank(m.token_embeddings, a, b), vocab_size=m.vocab_size,
    )


@dataclass(frozen=True)
class Arrows:
    u: np.ndarray  # (2,) the first arrow, from its length and angle
    v: np.ndarray  # (2,) the second
    comparison: dot_product.VectorComparison  # dot product, lengths, cosine and angle of the two


def vectors(len_u: float, angle_u: float, len_v: float, angle_v: float) -> Arrows:
    """Two arrows given by length and angle (degrees), and what compare_vectors says of them."""
    u, v = dot_product.polar_vector(len_u, angle_u), dot_product.polar_vector(len_v, angle_v)
    return Arrows(u=u, v=v, comparison=dot_product.compare_vectors(u, v))


@dataclass(frozen=True)
class PredictionAnswer:
    a: str  # the pair's two words
    b: str
    cos: float  # the bundled model's cosine of their rows
    band: str  # dot_product.similarity_band of it: the answer a guess is graded against


@st.cache_data(max_entries=4, show_spinner=False)
def prediction_answers() -> list[PredictionAnswer]:
    """The activity's pairs with the bundled model's cosine and band."""
    from embedviz.app.real_model_view import model
    from embedviz.models.word_vectors import pair_similarity

    m, out = model(), []
    for a, b in dot_product.PREDICTION_PAIRS:
        cos = pair_similarity(m.token_embeddings, m.token_id(a), m.token_id(b))
        out.append(PredictionAnswer(a=a, b=b, cos=cos, band=dot_product.similarity_band(cos)))
    return out


def grade(guesses: tuple[str, ...], answers: tuple[str, ...]) -> list[bool]:
    return dot_product.grade_guesses(guesses, answers)


@st.cache_data(max_entries=64, show_spinner=False)
def pieces(word: str, name: str | None = None) -> list[tuple[str, int]]:
    from embedviz.app.real_model_view import model

    return subwords.word_pieces((model(name) if name else model()).tokenizer, word)


def position_budget() -> PositionBudget:
    return qwen3_position_budget()
