"""Cached core calls for the RoPE page. Plain arguments in, arrays and small dicts out; the math is in embedviz.rope.rotary."""
from __future__ import annotations

import streamlit as st

from embedviz.rope import rotary as rope
from embedviz.downsample import ANGLE_HEATMAP_POSITIONS, DENSE_DISTANCES, log_spaced_indices, strided_indices
from embedviz.errors import InputError
from embedviz.models.params import PRESETS
from embedviz.rope.pairing import compare_pairings

TEXT_DISTANCES = (0, 1, 5, 10, 20, 50, 100, 200, 400)  # lesson 003's decay table
REFERENCE_THETAS = (10_000.0, 500_000.0, 1_000_000.0)  # original RoPE, Llama 3, Qwen3
TEXT_Q, TEXT_K = (1.0, 0.0), (0.8, 0.6)  # lesson 003's 2-D demo vectors
RANDOM_SAMPLES = 256  # independent random (q, k) pairs averaged for the "not aligned" curve
# the page's sections, one tab each (bound to ?rope_tab=), in lesson 003's order: code -> label's catalog key
TABS = {"angles": "rope.tab_angles", "pair": "rope.tab_pair", "decay": "rope.tab_decay", "random": "rope.tab_random",
        "wave": "rope.tab_wave", "pairing": "rope.tab_pairing", "lesson": "rope.tab_lesson"}
TAB_CODES = tuple(TABS)


def rope_presets() -> dict[str, dict]:
    """RoPE models of embedviz.models.params.PRESETS: name -> head_dim, theta, max length, rope_scaling type (or None),
    pre-training context and the context a last long-context stage reached (or None)."""
    out = {}
    for name, p in PRESETS.items():
        if p.positional == "rope" and p.head_dim and p.rope_theta:
            scaling = (p.rope_scaling or {}).get("rope_type")
            out[name] = dict(head_dim=p.head_dim, theta=p.rope_theta, max_len=p.max_positions, scaling=scaling,
                             trained=p.pretrained_length, last_stage=p.last_stage_length)
    return out


@st.cache_data(max_entries=32, show_spinner=False)
def angle_heatmap(head_dim: int, theta: float, window: int, pairing: str) -> dict:
    """cos of each dimension's rotation angle at positions 0..window-1 (strided to ANGLE_HEATMAP_POSITIONS)."""
    positions = strided_indices(window, ANGLE_HEATMAP_POSITIONS)
    z = rope.dimension_cos(positions, head_dim, theta, pairing=pairing)  # (T', head_dim)
    pair = rope.pair_of_dimension(head_dim, pairing=pairing)
    step = int(positions[1] - positions[0]) if positions.size > 1 else 1
    return dict(positions=positions, z=z.T, pair=pair, step=step)  # z: (head_dim, T') rows are dimensions


@st.cache_data(max_entries=64, show_spinner=False)
def pair_view(head_dim: int, theta: float, pair: int, m: int, n: int, shift: int) -> dict:
    """Lesson 003's 2-D demo on pair ``pair`` of a head: its frequency, wavelength and the three scores."""
    inv_freq = rope.inverse_frequencies(head_dim, theta)
    if not 0 <= pair < inv_freq.size:
        raise InputError("pair_range", value=pair, limit=inv_freq.size)
    omega = float(inv_freq[pair])
    demo = rope.pair_demo(TEXT_Q, TEXT_K, m, n, shift=shift, omega=omega)
    return dict(demo=demo, omega=omega, wavelen=float(rope.wavelengths(inv_freq)[pair]))


def _distances(max_distance: int):
    """Distances 1..max_distance: every one below DENSE_DISTANCES (the curves wiggle there), log-spaced above."""
    return log_spaced_indices(max_distance + 1, 2 * DENSE_DISTANCES, dense=DENSE_DISTANCES)[1:]


@st.cache_data(max_entries=32, show_spinner=False)
def decay(head_dim: int, theta: float, max_distance: int) -> dict:
    """mean_i cos(d * w_i) (aligned q, k) for the reference thetas and the chosen one, and lesson 003's table."""
    distances = _distances(max_distance)
    thetas = list(dict.fromkeys((*REFERENCE_THETAS, float(theta))))
    curves = {t: rope.decay_curve(head_dim, t, distances) for t in thetas}
    table = dict(
        distance=list(TEXT_DISTANCES),
        text=rope.decay_curve(128, 10_000.0, TEXT_DISTANCES),  # the lesson's setting, computed live
        chosen=rope.decay_curve(head_dim, theta, TEXT_DISTANCES),
    )
    return dict(distances=distances, curves=curves, table=table)


@st.cache_data(max_entries=32, show_spinner=False)
def aligned_and_random(head_dim: int, theta: float, max_distance: int) -> dict:
    """At the chosen theta: the aligned curve beside the mean and spread of the score of independent random unit
    q, k (expected 0 at every distance)."""
    distances = _distances(max_distance)
    return dict(distances=distances, aligned=rope.decay_curve(head_dim, theta, distances),
                random=rope.random_score_stats(head_dim, theta, distances, samples=RANDOM_SAMPLES))


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
    c = compare_pairings(head_dim, theta, max_offset, seed=seed)
    return dict(
        offsets=c.offsets,
        half=c.half,
        permuted=c.permuted,
        raw=c.raw,
        max_diff=c.max_diff,
        half_pair=rope.pair_of_dimension(head_dim, pairing="half"),
        interleaved_pair=rope.pair_of_dimension(head_dim, pairing="interleaved"),
        half_dims=rope.pair_dimensions(head_dim, pairing="half")[:3].tolist(),  # the first pairs, for a caption
        interleaved_dims=rope.pair_dimensions(head_dim, pairing="interleaved")[:3].tolist(),
    )
