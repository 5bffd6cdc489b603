"""Cached core calls of the Dot product page (lesson 002): two arrows and what their dot product and cosine say,
and the prediction activity's answers from the bundled model. Plain arguments in, frozen records out."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import streamlit as st

from embedviz import dot_product


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
