"""Cached core calls for the "Compare encodings" page: five schemes side by side at one d_model and length.

Every scheme is reduced to the position vectors it would give (or, for RoPE, the rotated constant vector whose
similarities are RoPE's relative scores), computed only at the positions a figure shows, so d_model 4096 and a
131072-token context stay cheap. The math is in embedviz.sinusoidal / rope / alibi / similarity / params.
"""
from __future__ import annotations

import numpy as np
import streamlit as st

from embedviz import alibi, rope, similarity
from embedviz.downsample import strided_indices
from embedviz.params import embedding_parameter_count
from embedviz.sinusoidal import sinusoidal_rows

SCHEMES = ("sinusoidal", "learned", "rope", "alibi", "none")
PROPERTIES = ("unique", "bounded", "relative", "extrapolates", "deterministic")
# Which scheme meets which property (lesson 003's checklist), in three states: "yes", "defined" (the formula gives
# a value at any position, but a model trained on L positions does not generalise past L: the reason the Context
# extension page exists) and "no". The reasons are in the locale ("cmp.why_<scheme>_<prop>").
MEETS: dict[str, tuple[str, ...]] = {
    "sinusoidal": ("yes", "yes", "yes", "defined", "yes"),
    "learned": ("yes", "yes", "no", "no", "yes"),
    "rope": ("yes", "yes", "yes", "defined", "yes"),
    "alibi": ("no", "no", "yes", "yes", "yes"),
    "none": ("no", "yes", "no", "yes", "yes"),
}
MARKS = {"yes": "✓", "defined": "◐", "no": "✗"}
LEARNED_STD = 0.02  # text 000: a small Gaussian, GPT-2's convention
CURVE_POINTS = 256  # positions on the adjacent-similarity curve (2 x 256 rows of up to 4096 per scheme)
MATRIX_POSITIONS = 96  # per similarity panel (four panels side by side)
BIAS_POSITIONS = 64  # per ALiBi head panel
MAX_BIAS_HEADS = 4


def slope_label(slope: float) -> str:
    """0.5 -> '1/2', 0.00390625 -> '1/256' (power-of-two head counts); otherwise 3 significant digits."""
    inverse = 1.0 / slope
    return f"1/{round(inverse)}" if abs(inverse - round(inverse)) < 1e-9 else f"{slope:.3g}"


def learned_rows(positions, d_model: int, *, seed: int = 0, std: float = LEARNED_STD) -> np.ndarray:
    """Rows of a randomly initialised (L, D) learned table at ``positions`` only, shape (P, D).

    Each row is drawn from its own seeded stream (seed, position), so row p is the same whichever other rows are
    asked for: a 131072 x 4096 table (2 GB) never has to exist to show 512 of its rows.
    """
    return np.stack([np.random.default_rng([seed, int(p)]).normal(0.0, std, d_model) for p in positions])


def position_vectors(scheme: str, positions, d_model: int) -> np.ndarray:
    """What each scheme contributes at ``positions``, shape (P, D).

    sinusoidal: PE(p). learned: row p of a random table. rope: R(p) applied to the all-ones vector (its cosine
    similarities are RoPE's relative scores, text 003's aligned q, k). alibi, none: no position vector at all, so
    the same vector everywhere (ALiBi acts on the scores instead).
    """
    positions = np.asarray(positions)
    if scheme == "sinusoidal":
        return sinusoidal_rows(positions, d_model)
    if scheme == "learned":
        return learned_rows(positions, d_model)
    if scheme == "rope":
        return rope.rotate(np.ones((positions.size, d_model)), positions)
    if scheme in ("alibi", "none"):
        return np.ones((positions.size, d_model))
    raise ValueError(f"scheme ({scheme!r}) must be one of {', '.join(SCHEMES)}")


@st.cache_data(max_entries=32, show_spinner=False)
def parameter_counts(d_model: int, length: int) -> dict[str, int]:
    """Positional parameters per scheme: L * D for the learned table, 0 for the others (embedviz.params)."""
    return {
        s: embedding_parameter_count(1, d_model, max_positions=length, positional=s).positional_embedding
        for s in SCHEMES
    }


@st.cache_data(max_entries=32, show_spinner=False)
def adjacent_curves(d_model: int, length: int) -> dict:
    """cos(V(p), V(p + 1)) for p in 0..L-2 (strided to CURVE_POINTS), one curve per scheme."""
    p = strided_indices(length - 1, CURVE_POINTS)
    curves = {s: similarity.paired_cosine(position_vectors(s, p, d_model), position_vectors(s, p + 1, d_model))
              for s in SCHEMES}
    step = int(p[1] - p[0]) if p.size > 1 else 1
    return dict(positions=p, curves=curves, step=step)


@st.cache_data(max_entries=32, show_spinner=False)
def similarity_matrices(d_model: int, length: int) -> dict:
    """cos(V(p), V(q)) at strided positions: sinusoidal, learned, RoPE, and ALiBi / none (identical vectors)."""
    p = strided_indices(length, MATRIX_POSITIONS)
    mats = {s: similarity.cosine_similarity_matrix(position_vectors(s, p, d_model))
            for s in ("sinusoidal", "learned", "rope", "none")}
    step = int(p[1] - p[0]) if p.size > 1 else 1
    return dict(positions=p, matrices=mats, step=step)


@st.cache_data(max_entries=32, show_spinner=False)
def past_the_end(d_model: int, length: int, k: int, num_heads: int) -> dict:
    """What each scheme does for a sequence of L + k tokens, i.e. up to position L + k - 1, past the last row L - 1."""
    from embedviz.embeddings import LearnedPositionalEmbedding  # torch: imported only when this is first needed

    last = length + k - 1
    # The module's own check; the message depends on max_context_length only, so a 1-wide table is enough to ask.
    try:
        LearnedPositionalEmbedding(length, 1)(length + k)
        learned_error = ""
    except ValueError as error:
        learned_error = str(error)
    pe = sinusoidal_rows([0, 1, last - 1, last], d_model)
    ones = np.ones(d_model)
    rope_far = rope.scores_vs_offset(ones, ones, [1], start=last - 1)[0] / d_model
    rope_near = rope.scores_vs_offset(ones, ones, [1], start=0)[0] / d_model
    return dict(
        last=last,
        learned_error=learned_error,
        sin_values=pe[3, :4],
        sin_adjacent_far=float(similarity.cosine_similarity(pe[2], pe[3])),
        sin_adjacent_start=float(similarity.cosine_similarity(pe[0], pe[1])),
        rope_far=float(rope_far),
        rope_near=float(rope_near),
        alibi_far=float(alibi.bias_at(num_heads, [last], [last - 1], heads=[0])[0, 0, 0]),
        alibi_near=float(alibi.bias_at(num_heads, [1], [0], heads=[0])[0, 0, 0]),
    )


@st.cache_data(max_entries=32, show_spinner=False)
def alibi_view(num_heads: int, length: int) -> dict:
    """Slopes of every head and the bias of a few heads (first, last and between) at strided positions."""
    heads = np.unique(np.linspace(0, num_heads - 1, min(num_heads, MAX_BIAS_HEADS)).round().astype(int))
    p = strided_indices(length, BIAS_POSITIONS)
    step = int(p[1] - p[0]) if p.size > 1 else 1
    return dict(slopes=alibi.alibi_slopes(num_heads), heads=heads, positions=p, step=step,
                bias=alibi.bias_at(num_heads, p, p, heads=heads))
