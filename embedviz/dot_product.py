"""Lesson 002's two measures of "how alike are two vectors", defined before anything uses them.

    dot product   u . v = u_0 v_0 + u_1 v_1 + ... = |u| |v| cos(theta)   unnormalised: grows with the lengths
    cosine        cos(theta) = u . v / (|u| |v|)                          in [-1, 1]: direction only

Same direction: a large positive dot; opposite: a large negative one; at a right angle: 0. The 2-D case below is
the picture; the same algebra holds in 384 or 768 dimensions. Also the lesson's "predict the similarity" activity:
a reader sorts word pairs into bands, then the bundled model's cosines are revealed.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from embedviz._validate import finite_float, one_of
from embedviz.similarity import cosine_similarity

# (band, lower bound) from the top: cosine >= bound falls into the first band whose bound it reaches
BANDS: tuple[tuple[str, float], ...] = (
    ("close", 0.4), ("related", 0.15), ("unrelated", -0.15), ("opposite", -math.inf),
)
BAND_NAMES: tuple[str, ...] = tuple(name for name, _ in BANDS)
# Pairs for the activity: lesson 002's own (cat/dog similar, cat/Tuesday unrelated) and two more in the bundled
# model's vocabulary (each word one token). The answers are computed, never typed here.
PREDICTION_PAIRS: tuple[tuple[str, str], ...] = (
    ("cat", "dog"), ("cat", "tuesday"), ("king", "queen"), ("cat", "airplane"), ("good", "bad"), ("paris", "france"),
)


def polar_vector(length: float, angle_deg: float) -> np.ndarray:
    """The 2-D arrow of the given length pointing at angle_deg (counter-clockwise from the x axis), shape (2,)."""
    r = finite_float("length", length, at_least=0)
    a = math.radians(finite_float("angle_deg", angle_deg))
    return np.array([r * math.cos(a), r * math.sin(a)])


@dataclass(frozen=True)
class VectorComparison:
    """Two vectors side by side (:func:`compare_vectors`): the two sides of u.v = |u| |v| cos(angle)."""

    dot: float  # u . v
    norm_u: float  # |u|
    norm_v: float  # |v|
    cos: float  # cosine of the angle, 0 when either vector is zero
    lengths_times_cos: float  # |u| |v| cos: equal to dot, the other side of the identity
    angle_deg: float  # in [0, 180]; 90 for a zero vector


def compare_vectors(u, v) -> VectorComparison:
    """Dot product, both lengths, the cosine and the angle between two vectors of the same width.

    ``angle_deg`` is in [0, 180]; a zero vector has no direction, so its cosine is reported as 0 (as in
    embedviz.similarity) and its angle as 90.
    """
    u = np.asarray(u, dtype=np.float64).ravel()
    v = np.asarray(v, dtype=np.float64).ravel()
    if u.shape != v.shape or u.size == 0:
        raise ValueError(f"u {u.shape} and v {v.shape} must be non-empty vectors of the same width")
    cos = cosine_similarity(u, v)
    return VectorComparison(
        dot=float(u @ v),
        norm_u=float(np.linalg.norm(u)),
        norm_v=float(np.linalg.norm(v)),
        cos=cos,
        lengths_times_cos=float(np.linalg.norm(u) * np.linalg.norm(v) * cos),  # the other side of u.v = |u||v|cos
        angle_deg=math.degrees(math.acos(cos)),
    )


def similarity_band(cos: float) -> str:
    """The band a cosine falls in: close (>= 0.4), related (>= 0.15), unrelated (>= -0.15) or opposite."""
    cos = finite_float("cos", cos)
    if not -1.0 - 1e-9 <= cos <= 1.0 + 1e-9:
        raise ValueError(f"cos ({cos:g}) must be in [-1, 1]")
    return next(name for name, bound in BANDS if cos >= bound)


def grade_guesses(guesses, answers) -> list[bool]:
    """Whether each guessed band equals the computed one (both sequences of band names, same length)."""
    guesses, answers = list(guesses), list(answers)
    if len(guesses) != len(answers):
        raise ValueError(f"guesses ({len(guesses)}) and answers ({len(answers)}) must have the same length")
    for band in guesses + answers:
        one_of("band", band, BAND_NAMES)
    return [g == a for g, a in zip(guesses, answers)]
