"""Cached core calls for the RoPE page. Plain arguments in, arrays and small frozen records out; the math is in
embedviz.rope.rotary."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import streamlit as st

from embedviz.app.i18n import t
from embedviz.app.widgets import human_number
from embedviz.rope import rotary
from embedviz.downsample import ANGLE_HEATMAP_POSITIONS, DENSE_DISTANCES, log_spaced_indices, strided_indices
from embedviz.errors import InputError
from embedviz.models.params import PRESETS
from embedviz.positions.budget import PositionBudget, qwen3_position_budget
from embedviz.rope.pairing import compare_pairings

TEXT_DISTANCES = (0, 1, 5, 10, 20, 50, 100, 200, 400)  # lesson 003's decay table
# the decay chart's reference bases: the RoPE paper's 10,000 (a generic choice, the default of every RoPE here) and
# two published models' rope_theta, read from their config.json
REFERENCE_THETAS = (rotary.DEFAULT_THETA, PRESETS["Llama-3.1-8B"].rope_theta, PRESETS["Qwen3-0.6B"].rope_theta)
TEXT_Q, TEXT_K = (1.0, 0.0), (0.8, 0.6)  # lesson 003's 2-D demo vectors
RANDOM_SAMPLES = 256  # independent random (q, k) pairs averaged for the "not aligned" curve
# the page's sections, one tab each (bound to ?rope_tab=), in lesson 003's order: code -> label's catalog key
TABS = {"angles": "rope.tab_angles", "pair": "rope.tab_pair", "decay": "rope.tab_decay", "random": "rope.tab_random",
        "wave": "rope.tab_wave", "pairing": "rope.tab_pairing", "lesson": "rope.tab_lesson"}
TAB_CODES = tuple(TABS)
# the rotation of one pair, and why the score depends only on the offset
FORMULAS = (
    r"\begin{pmatrix} q'_{a} \\ q'_{b} \end{pmatrix} = "
    r"\begin{pmatrix} \cos m\omega_i & -\sin m\omega_i \\ \sin m\omega_i & \cos m\omega_i \end{pmatrix}"
    r"\begin{pmatrix} q_{a} \\ q_{b} \end{pmatrix},\qquad \omega_i = \theta^{-2i/d}",
    r"\langle R(m)\,q,\; R(n)\,k \rangle = \langle q,\; R(n-m)\,k \rangle",
)
# lesson 003's sinusoidal-vs-RoPE table: each aspect's catalog keys (its name, sinusoidal's, RoPE's), in its order
LESSON_ASPECTS = (("ropel.row_target", "ropel.sin_target", "ropel.rope_target"),
                  ("ropel.row_kind", "ropel.sin_kind", "ropel.rope_kind"),
                  ("ropel.row_params", "ropel.sin_params", "ropel.rope_params"),
                  ("ropel.row_mixing", "ropel.sin_mixing", "ropel.rope_mixing"),
                  ("ropel.row_users", "ropel.sin_users", "ropel.rope_users"))


@dataclass(frozen=True)
class RopePreset:
    head_dim: int
    theta: float  # rope_theta
    max_context_length: int  # max_position_embeddings
    scaling: str | None  # the rope_scaling type, or None
    trained: int | None  # the pre-training context
    last_stage: int | None  # the context a last long-context stage reached, or None


def rope_presets() -> dict[str, RopePreset]:
    """The RoPE models of embedviz.models.params.PRESETS by name."""
    out = {}
    for name, p in PRESETS.items():
        if p.positional == "rope" and p.head_dim and p.rope_theta:
            scaling = (p.rope_scaling or {}).get("rope_type")
            out[name] = RopePreset(head_dim=p.head_dim, theta=p.rope_theta, max_context_length=p.max_context_length,
                                   scaling=scaling, trained=p.pretrained_length, last_stage=p.last_stage_length)
    return out


def preset_caption(name: str) -> str:
    """What the page says under a chosen preset: its sizes, its trained context and its scaling."""
    p = rope_presets()[name]
    caption = t("rope.preset_caption", name=name, head_dim=p.head_dim, theta=human_number(p.theta),
                max_context_length=human_number(p.max_context_length), trained=human_number(p.trained))
    if p.last_stage:  # Llama 3.1: 8,192 is where pre-training started, not the most it was trained on
        caption += " " + t("common.last_stage", n=human_number(p.last_stage))
    return caption + (" " + t("rope.preset_scaling", scaling=p.scaling) if p.scaling else "")


@dataclass(frozen=True)
class AngleHeatmap:
    positions: np.ndarray  # (T,) positions shown
    z: np.ndarray  # (head_dim, T) cos of each dimension's angle; rows are dimensions
    pair: np.ndarray  # (head_dim,) the pair each dimension belongs to
    step: int  # every step-th position is shown


@st.cache_data(max_entries=32, show_spinner=False)
def angle_heatmap(head_dim: int, theta: float, window: int, pairing: str) -> AngleHeatmap:
    """cos of each dimension's rotation angle at positions 0..window-1 (strided to ANGLE_HEATMAP_POSITIONS)."""
    positions = strided_indices(window, ANGLE_HEATMAP_POSITIONS)
    z = rotary.dimension_cos(positions, head_dim, theta, pairing=pairing)  # (T', head_dim)
    pair = rotary.pair_of_dimension(head_dim, pairing=pairing)
    step = int(positions[1] - positions[0]) if positions.size > 1 else 1
    return AngleHeatmap(positions=positions, z=z.T, pair=pair, step=step)


@dataclass(frozen=True)
class PairView:
    demo: rotary.PairDemo  # the rotated q and k and the three scores
    omega: float  # the pair's frequency
    wavelen: float  # its wavelength, 2*pi / omega


@st.cache_data(max_entries=64, show_spinner=False)
def pair_view(head_dim: int, theta: float, pair: int, m: int, n: int, shift: int) -> PairView:
    """Lesson 003's 2-D demo on pair ``pair`` of a head: its frequency, wavelength and the three scores."""
    inv_freq = rotary.inverse_frequencies(head_dim, theta)
    if not 0 <= pair < inv_freq.size:
        raise InputError("pair_range", value=pair, limit=inv_freq.size)
    omega = float(inv_freq[pair])
    demo = rotary.pair_demo(TEXT_Q, TEXT_K, m, n, shift=shift, omega=omega)
    return PairView(demo=demo, omega=omega, wavelen=float(rotary.wavelengths(inv_freq)[pair]))


def _distances(max_distance: int):
    """Distances 1..max_distance: every one below DENSE_DISTANCES (the curves wiggle there), log-spaced above."""
    return log_spaced_indices(max_distance + 1, 2 * DENSE_DISTANCES, dense=DENSE_DISTANCES)[1:]


@dataclass(frozen=True)
class DecayTable:
    distance: list[int]  # lesson 003's distances
    text: np.ndarray  # the lesson's setting (head_dim 128, theta 10,000) at each
    chosen: np.ndarray  # the chosen head_dim and theta at each


@dataclass(frozen=True)
class Decay:
    distances: np.ndarray  # (K,) distances 1..max_distance
    curves: dict[float, np.ndarray]  # theta -> (K,) mean_i cos(d * w_i): the reference thetas and the chosen one
    table: DecayTable


@st.cache_data(max_entries=32, show_spinner=False)
def decay(head_dim: int, theta: float, max_distance: int) -> Decay:
    """mean_i cos(d * w_i) (aligned q, k) for the reference thetas and the chosen one, and lesson 003's table."""
    distances = _distances(max_distance)
    thetas = list(dict.fromkeys((*REFERENCE_THETAS, float(theta))))
    curves = {t: rotary.decay_curve(head_dim, t, distances) for t in thetas}
    table = DecayTable(
        distance=list(TEXT_DISTANCES),
        text=rotary.decay_curve(128, 10_000.0, TEXT_DISTANCES),  # the lesson's setting, computed live
        chosen=rotary.decay_curve(head_dim, theta, TEXT_DISTANCES),
    )
    return Decay(distances=distances, curves=curves, table=table)


@dataclass(frozen=True)
class AlignedAndRandom:
    distances: np.ndarray  # (K,)
    aligned: np.ndarray  # (K,) the score of aligned q, k
    random: rotary.ScoreSpread  # mean, high and low of the score of independent random q, k


@st.cache_data(max_entries=32, show_spinner=False)
def aligned_and_random(head_dim: int, theta: float, max_distance: int) -> AlignedAndRandom:
    """At the chosen theta: the aligned curve beside the mean and spread of the score of independent random unit
    q, k (expected 0 at every distance)."""
    distances = _distances(max_distance)
    return AlignedAndRandom(distances=distances, aligned=rotary.decay_curve(head_dim, theta, distances),
                            random=rotary.random_score_stats(head_dim, theta, distances, samples=RANDOM_SAMPLES))


@dataclass(frozen=True)
class Wavelengths:
    wavelen: np.ndarray  # (head_dim / 2,) each pair's wavelength
    never: np.ndarray  # (head_dim / 2,) bool: the pair does not complete a turn inside the context


@st.cache_data(max_entries=32, show_spinner=False)
def wavelengths(head_dim: int, theta: float, context_length: int) -> Wavelengths:
    """Per-pair wavelength and whether the pair completes a full turn inside the context."""
    inv_freq = rotary.inverse_frequencies(head_dim, theta)
    wavelen = rotary.wavelengths(inv_freq)
    never = rotary.turns_within(inv_freq, context_length) < 1.0  # wavelength longer than the context
    return Wavelengths(wavelen=wavelen, never=never)


@dataclass(frozen=True)
class PairingScores:
    offsets: np.ndarray  # (K,)
    half: np.ndarray  # (K,) scores with half-split pairs
    permuted: np.ndarray  # (K,) interleaved pairs on permuted q, k: the same as half
    raw: np.ndarray  # (K,) interleaved pairs on the raw q, k: not the same
    max_diff: float  # max |half - permuted|
    half_pair: np.ndarray  # (head_dim,) the pair of each dimension, half-split
    interleaved_pair: np.ndarray  # (head_dim,) and interleaved
    half_dims: list  # the first pairs' dimensions, for a caption
    interleaved_dims: list


@st.cache_data(max_entries=32, show_spinner=False)
def pairing_scores(head_dim: int, theta: float, max_offset: int, seed: int = 0) -> PairingScores:
    """Scores vs offset of one random (q, k): half-split, interleaved on permuted q/k, interleaved on raw q/k."""
    c = compare_pairings(head_dim, theta, max_offset, seed=seed)
    return PairingScores(
        offsets=c.offsets,
        half=c.half,
        permuted=c.permuted,
        raw=c.raw,
        max_diff=c.max_diff,
        half_pair=rotary.pair_of_dimension(head_dim, pairing="half"),
        interleaved_pair=rotary.pair_of_dimension(head_dim, pairing="interleaved"),
        half_dims=rotary.pair_dimensions(head_dim, pairing="half")[:3].tolist(),  # the first pairs, for a caption
        interleaved_dims=rotary.pair_dimensions(head_dim, pairing="interleaved")[:3].tolist(),
    )


def position_budget() -> PositionBudget:
    return qwen3_position_budget()
