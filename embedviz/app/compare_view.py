"""Cached core calls for the "Compare encodings" page: five schemes side by side at one d_model and length.

The schemes, their properties and the past-the-end analysis are in embedviz.encodings (a registry by name); this
module picks the positions each figure shows (embedviz.downsample) and caches the results.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import streamlit as st

from embedviz import encodings
from embedviz.positions import alibi
from embedviz.downsample import ALIBI_BIAS_POSITIONS, COMPARE_CURVE_POINTS, COMPARE_MATRIX_POSITIONS, spread_indices
from embedviz.downsample import strided_indices
from embedviz.models.params import embedding_parameter_count

SCHEMES, PROPERTIES, MEETS = encodings.SCHEMES, encodings.PROPERTIES, encodings.MEETS
MARKS = {"yes": "✓", "defined": "◐", "no": "✗"}  # the three states of encodings.MEETS
MAX_BIAS_HEADS = 4
# the schemes that give a position a vector of its own, drawn on the vector plots. ALiBi is left out: it adds no
# vector (the core's stand-in is the constant one, cos = 1 everywhere), and a flat line at cos = 1 labelled ALiBi
# reads as "ALiBi cannot tell neighbours apart" when its signal is a penalty on the scores
VECTOR_SCHEMES = tuple(s for s in SCHEMES if s != "alibi")


def slope_label(slope: float) -> str:
    """0.5 -> '1/2', 0.00390625 -> '1/256' (power-of-two head counts); otherwise 3 significant digits."""
    inverse = 1.0 / slope
    return f"1/{round(inverse)}" if abs(inverse - round(inverse)) < 1e-9 else f"{slope:.3g}"


def _step(positions) -> int:
    return int(positions[1] - positions[0]) if len(positions) > 1 else 1


@st.cache_data(max_entries=32, show_spinner=False)
def parameter_counts(d_model: int, length: int) -> dict[str, int]:
    """Positional parameters per scheme: L * D for the learned table, 0 for the others (embedviz.models.params)."""
    return {
        s: embedding_parameter_count(1, d_model, max_context_length=length, positional=s).positional_embedding
        for s in SCHEMES
    }


@dataclass(frozen=True)
class AdjacentCurves:
    positions: np.ndarray  # (P,) positions p shown
    curves: dict[str, np.ndarray]  # vector scheme -> (P,) cos(V(p), V(p + 1))
    step: int  # every step-th position is shown


@st.cache_data(max_entries=32, show_spinner=False)
def adjacent_curves(d_model: int, length: int) -> AdjacentCurves:
    """cos(V(p), V(p + 1)) for p in 0..L-2 (strided to COMPARE_CURVE_POINTS), one curve per vector scheme."""
    p = strided_indices(length - 1, COMPARE_CURVE_POINTS)
    curves = {s: encodings.adjacent_cosines(s, p, d_model) for s in VECTOR_SCHEMES}
    return AdjacentCurves(positions=p, curves=curves, step=_step(p))


@dataclass(frozen=True)
class SimilarityMatrices:
    positions: np.ndarray  # (P,) positions shown
    matrices: dict[str, np.ndarray]  # scheme -> (P, P) cos(V(p), V(q)), in the panels' order
    step: int  # every step-th position is shown


@st.cache_data(max_entries=32, show_spinner=False)
def similarity_matrices(d_model: int, length: int) -> SimilarityMatrices:
    """cos(V(p), V(q)) at strided positions: sinusoidal, learned, RoPE and none (one vector everywhere)."""
    p = strided_indices(length, COMPARE_MATRIX_POSITIONS)
    mats = {s: encodings.similarity_matrix(s, p, d_model) for s in ("sinusoidal", "learned", "rope", "none")}
    return SimilarityMatrices(positions=p, matrices=mats, step=_step(p))


@st.cache_data(max_entries=32, show_spinner=False)
def past_the_end(d_model: int, length: int, k: int, num_heads: int) -> encodings.PastTheEnd:
    return encodings.past_the_end(d_model, length, k, num_heads)


@dataclass(frozen=True)
class AlibiView:
    slopes: np.ndarray  # (H,) every head's slope
    heads: np.ndarray  # the few heads whose bias is drawn (first, last and between)
    positions: np.ndarray  # (P,) positions shown
    step: int  # every step-th position is shown
    bias: np.ndarray  # (len(heads), P, P) -slope_h * |i - j| at the shown positions, NaN above the diagonal


@st.cache_data(max_entries=32, show_spinner=False)
def alibi_view(num_heads: int, length: int) -> AlibiView:
    """Slopes of every head and the bias of a few heads (first, last and between) at strided positions."""
    heads = spread_indices(num_heads, MAX_BIAS_HEADS)
    p = strided_indices(length, ALIBI_BIAS_POSITIONS)
    return AlibiView(slopes=alibi.alibi_slopes(num_heads), heads=heads, positions=p, step=_step(p),
                     bias=alibi.bias_at(num_heads, p, p, heads=heads))
