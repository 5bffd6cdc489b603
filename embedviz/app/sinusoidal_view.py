"""Cached core calls for the "Sinusoidal" page. Plain arguments in, arrays / small frozen records out.

Every view is computed at the size it is shown (strided positions, strided dimension pairs), never from a full
131072 x 4096 table, so a rerun stays fast at any slider extreme.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import streamlit as st

from embedviz.positions import sinusoidal
from embedviz.downsample import (CELL_BUDGET, CURVE_POINTS, HEATMAP_PAIRS, SIMILARITY_POSITIONS, head_tail_indices,
                                 log_spaced_indices, stride_for, strided_indices)
from embedviz.similarity import cosine_similarity_matrix

DISTANCE_STARTS = (0, 100, 10_000)  # lesson 003 compares starts 0 and 100; a far one shows the same curve again
TEXT_GAPS = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 100, 1000)  # lesson 003's printed gaps
FREQ_HEAD = FREQ_TAIL = 32  # a long frequency table shows its fastest and slowest pairs


@dataclass(frozen=True)
class EncodingView:
    z: np.ndarray  # (C, P): the shown dimension columns' values, one row per dimension, one column per position
    positions: np.ndarray  # (P,) the positions shown
    dims: np.ndarray  # (C,) the dimensions shown (sin and cos of every pair_step-th pair)
    pos_step: int  # every pos_step-th position is shown
    pair_step: int  # every pair_step-th (sin, cos) pair is shown


@st.cache_data(max_entries=32, show_spinner=False)
def encoding_view(num_positions: int, d_model: int, base: float) -> EncodingView:
    """The heatmap cells: every pos_step-th position x every pair_step-th (sin, cos) pair, z of shape (C, P)."""
    positions = strided_indices(num_positions, CELL_BUDGET)
    num_pairs = (d_model + 1) // 2
    pair_step = stride_for(num_pairs, HEATMAP_PAIRS)
    dims = sinusoidal.pair_dims(np.arange(0, num_pairs, pair_step), d_model)  # sin and cos columns together
    z = sinusoidal.sinusoidal_rows(positions, d_model, base, dims=dims).T  # (C, P): dimension rows, position columns
    return EncodingView(z=z, positions=positions, dims=dims, pos_step=int(positions[1] if positions.size > 1 else 1),
                        pair_step=int(pair_step))


@dataclass(frozen=True)
class FrequencyTable:
    pair: np.ndarray  # (N,) the pair numbers i listed (all, or the first and last FREQ_HEAD / FREQ_TAIL)
    dims: list[str]  # "2i, 2i+1" per listed pair (one column for an odd d_model's last pair)
    omega: np.ndarray  # (N,) frequency w_i of each listed pair
    wavelength: np.ndarray  # (N,) 2*pi / w_i
    num_pairs: int  # pairs in the encoding
    truncated: bool  # whether pairs between the head and the tail were left out


@st.cache_data(max_entries=32, show_spinner=False)
def frequency_table(d_model: int, base: float) -> FrequencyTable:
    """Per (sin, cos) pair: its columns, frequency w_i and wavelength 2*pi/w_i; first and last pairs if many."""
    omega = sinusoidal.frequencies(d_model, base)
    idx = head_tail_indices(omega.size, FREQ_HEAD, FREQ_TAIL)
    cols = [f"{2 * i}, {2 * i + 1}" if 2 * i + 1 < d_model else f"{2 * i}" for i in idx]
    return FrequencyTable(pair=idx, dims=cols, omega=omega[idx], wavelength=sinusoidal.wavelengths(d_model, base)[idx],
                          num_pairs=int(omega.size), truncated=bool(idx.size < omega.size))


@dataclass(frozen=True)
class DistanceCurves:
    gaps: np.ndarray  # (K,) gaps k >= 1
    starts: tuple[int, ...]  # (S,) the start positions s
    distances: np.ndarray  # (S, K) ||PE(s + k) - PE(s)||
    typical: float  # the level the curves settle around
    bound: float  # the most any two encodings can be apart


@st.cache_data(max_entries=32, show_spinner=False)
def distance_curves(num_positions: int, d_model: int, base: float) -> DistanceCurves:
    """||PE(s + k) - PE(s)|| for gaps 1..L-1 (log-spaced beyond the first 64) from several starts s."""
    gaps = log_spaced_indices(max(num_positions, 2), CURVE_POINTS)[1:]  # gap 0 has no place on a log axis
    distances = sinusoidal.distance_vs_gap(d_model, gaps, starts=DISTANCE_STARTS, base=base)  # (S, K)
    typical, bound = sinusoidal.distance_levels(d_model)
    return DistanceCurves(gaps=gaps, starts=DISTANCE_STARTS, distances=distances, typical=typical, bound=bound)


@dataclass(frozen=True)
class TextDistances:
    gap: list[int]  # lesson 003's gaps
    from_0: np.ndarray  # distance at each gap from position 0
    from_100: np.ndarray  # and from position 100


@st.cache_data(max_entries=32, show_spinner=False)
def text_distances(d_model: int, base: float) -> TextDistances:
    """Lesson 003's table: distance at gaps 1..10, 100, 1000 from start 0 and from start 100."""
    d = sinusoidal.distance_vs_gap(d_model, TEXT_GAPS, starts=(0, 100), base=base)
    return TextDistances(gap=list(TEXT_GAPS), from_0=d[0], from_100=d[1])


@dataclass(frozen=True)
class SimilarityView:
    S: np.ndarray  # (P, P) cosine similarity of the shown positions' encodings
    positions: np.ndarray  # (P,) the positions shown
    step: int  # every step-th position is shown


@st.cache_data(max_entries=32, show_spinner=False)
def similarity_view(num_positions: int, d_model: int, base: float) -> SimilarityView:
    """Cosine similarity between the encodings of every step-th position, (P, P) with P <= SIMILARITY_POSITIONS."""
    positions = strided_indices(num_positions, SIMILARITY_POSITIONS)
    rows = sinusoidal.sinusoidal_rows(positions, d_model, base, dtype=np.float64)  # (P, D)
    return SimilarityView(S=cosine_similarity_matrix(rows), positions=positions,
                          step=int(positions[1] if positions.size > 1 else 1))


@st.cache_data(max_entries=32, show_spinner=False)
def rotation(position: int, offset: int, d_model: int, base: float) -> sinusoidal.RotationCheck:
    return sinusoidal.rotation_check(position, offset, d_model, base)
