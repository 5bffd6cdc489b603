"""Cached core calls for the RoPE page. Plain arguments in, arrays and small dicts out; the math is in embedviz.rope."""
from __future__ import annotations

import numpy as np
import streamlit as st

from embedviz import rope
from embedviz.downsample import strided_indices
from embedviz.params import PRESETS

HEATMAP_POSITIONS = 256  # columns of the angle heatmap; x head_dim <= 256 rows keeps it ~65k cells
TEXT_DISTANCES = (0, 1, 5, 10, 20, 50, 100, 200, 400)  # text 003's decay table
REFERENCE_THETAS = (10_000.0, 500_000.0, 1_000_000.0)  # original RoPE, Llama 3, Qwen3
TEXT_Q, TEXT_K = (1.0, 0.0), (0.8, 0.6)  # text 003's 2-D demo vectors
DENSE_DISTANCES = 1_024  # every distance below this is sampled (the curve wiggles there); log-spaced above


def rope_presets() -> dict[str, dict]:
    """RoPE models of embedviz.params.PRESETS: name -> head_dim, theta, max length, rope_scaling type (or None)."""
    out = {}
    for name, p in PRESETS.items():
        if p.positional == "rope" and p.head_dim and p.rope_theta:
            scaling = (p.rope_scaling or {}).get("rope_type")
            out[name] = dict(head_dim=p.head_dim, theta=p.rope_theta, max_len=p.max_positions, scaling=scaling)
    return out


@st.cache_data(max_entries=32, show_spinner=False)
def angle_heatmap(head_dim: int, theta: float, window: int, pairing: str) -> dict:
    """cos of each dimension's rotation angle at positions 0..window-1 (strided to HEATMAP_POSITIONS)."""
    positions = strided_indices(window, HEATMAP_POSITIONS)
    z = rope.dimension_cos(positions, head_dim, theta, pairing=pairing)  # (T', head_dim)
    pair = rope.pair_of_dimension(head_dim, pairing=pairing)
    step = int(positions[1] - positions[0]) if positions.size > 1 else 1
    return dict(positions=positions, z=z.T, pair=pair, step=step)  # z: (head_dim, T') rows are dimensions


@st.cache_data(max_entries=64, show_spinner=False)
def pair_view(head_dim: int, theta: float, pair: int, m: int, n: int, shift: int) -> dict:
    """Text 003's 2-D demo on pair ``pair`` of a head: its frequency, wavelength and the three scores."""
    inv_freq = rope.inverse_frequencies(head_dim, theta)
    if not 0 <= pair < inv_freq.size:
        raise ValueError(f"pair ({pair}) must lie in [0, head_dim/2) = [0, {inv_freq.size})")
    omega = float(inv_freq[pair])
    demo = rope.pair_demo(TEXT_Q, TEXT_K, m, n, shift=shift, omega=omega)
    return dict(demo=demo, omega=omega, wavelen=2 * np.pi / omega)


def decay_distances(max_distance: int) -> np.ndarray:
    """Distances 1..max_distance: all of them up to DENSE_DISTANCES, then ~600 log-spaced (the curve is smooth)."""
    dense = np.arange(1, min(max_distance, DENSE_DISTANCES) + 1)
    if max_distance <= DENSE_DISTANCES:
        return dense
    sparse = np.unique(np.geomspace(DENSE_DISTANCES, max_distance, 600).round().astype(np.int64))
    return np.union1d(dense, sparse)


@st.cache_data(max_entries=32, show_spinner=False)
def decay(head_dim: int, theta: float, max_distance: int) -> dict:
    """mean_i cos(d * w_i) for the reference thetas and the chosen one; plus text 003's table."""
    distances = decay_distances(max_distance)
    thetas = list(dict.fromkeys((*REFERENCE_THETAS, float(theta))))
    curves = {t: rope.decay_curve(head_dim, t, distances) for t in thetas}
    table = dict(
        distance=list(TEXT_DISTANCES),
        text=rope.decay_curve(128, 10_000.0, TEXT_DISTANCES),  # the text's setting, computed live
        chosen=rope.decay_curve(head_dim, theta, TEXT_DISTANCES),
    )
    return dict(distances=distances, curves=curves, table=table)


@st.cache_data(max_entries=32, show_spinner=False)
def wavelengths(head_dim: int, theta: float, context_length: int) -> dict:
    """Per-pair wavelength and whether the pair completes a full turn inside the context."""
    inv_freq = rope.inverse_frequencies(head_dim, theta)
    wavelen = rope.wavelengths(inv_freq)
    never = rope.turns_within(inv_freq, context_length) < 1.0  # wavelength longer than the context
    return dict(wavelen=wavelen, never=never)


@st.cache_data(max_entries=32, show_spinner=False)
def pairing_scores(head_dim: int, theta: float, max_offset: int, seed: int = 0) -> dict:
    """Scores vs offset of one random (q, k): half-split, interleaved on permuted q/k, interleaved on raw q/k."""
    q, k = np.random.default_rng(seed).normal(size=(2, head_dim))
    P = rope.half_to_interleaved(head_dim)
    offsets = np.arange(0, max_offset + 1)
    half = rope.scores_vs_offset(q, k, offsets, theta, pairing="half")
    permuted = rope.scores_vs_offset(q[P], k[P], offsets, theta, pairing="interleaved")
    raw = rope.scores_vs_offset(q, k, offsets, theta, pairing="interleaved")
    return dict(
        offsets=offsets,
        half=half,
        permuted=permuted,
        raw=raw,
        max_diff=float(np.abs(half - permuted).max()),
        half_pair=rope.pair_of_dimension(head_dim, pairing="half"),
        interleaved_pair=rope.pair_of_dimension(head_dim, pairing="interleaved"),
        half_dims=rope.pair_dimensions(head_dim, pairing="half")[:3].tolist(),  # the first pairs, for a caption
        interleaved_dims=rope.pair_dimensions(head_dim, pairing="interleaved")[:3].tolist(),
    )
