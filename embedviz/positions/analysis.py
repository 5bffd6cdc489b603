"""How smooth is a position table? Neighbour similarity along the rows, and the steps where it breaks.

A position table is (L, D): row p is the vector added for position p. Lesson 000 says a sinusoidal table changes
smoothly by construction (every step p -> p+1 is the same rotation), while a learned table starts as independent
random rows and only becomes smooth if training makes it so. The tools here measure that for any table:

- `smoothness(table)`            cos(row t, row t+1) for every step, its typical value, and the outlier steps
- `notable_steps(result)`        the first and last steps plus the outliers: the rows a page should list
- `offset_similarity(table, k)`  mean cos(row p, row p+k) over all p: how fast similarity falls with distance
- `plane_turn(points)`           how far a 2-D picture turns per row (of `similarity.pca_2d(table, solver=
                                 "randomized")`): a learned sin/cos-like pair shows up here
- `turn_period(turn)`            that turn as a period in positions, 2 pi / |turn|

Everything is numpy, float64 inside, and works on any (L, D) table (a model's, a sinusoidal one, an upload).
"""
from __future__ import annotations

import math

from dataclasses import dataclass
from typing import Iterable

import numpy as np

from embedviz._validate import finite_array, finite_float, positive_int
from embedviz.similarity import adjacent_similarity, normalize_rows

MAD_TO_STD = 1.4826  # the median absolute deviation of a normal sample times this estimates its standard deviation
ROUGH_SPREADS, ROUGH_MIN_DROP = 5.0, 0.05  # smoothness(): how far below the typical step a rough step lies


@dataclass(frozen=True)
class Smoothness:
    """Step-by-step similarity of a (L, D) table.

    adjacent:    (L-1,) float64, adjacent[t] = cos(row t, row t+1): 1 = the table barely changes at that step.
    typical:     the median of `adjacent`, the similarity of an ordinary step.
    spread:      robust standard deviation of `adjacent` (1.4826 x median absolute deviation), so a few wild
                 steps do not hide themselves by inflating it.
    rough_steps: (R,) int64, every t whose step t -> t+1 is an outlier: below `typical` by more than
                 threshold x spread and by more than min_drop.
    norms:       (L,) float64, the length of every row (a rarely trained row often keeps an odd length).
    threshold, min_drop: the two bounds rough_steps was found with (a figure says what its circles mean).
    """

    adjacent: np.ndarray
    typical: float
    spread: float
    rough_steps: np.ndarray
    norms: np.ndarray
    threshold: float = ROUGH_SPREADS
    min_drop: float = ROUGH_MIN_DROP

    @property
    def num_positions(self) -> int:
        return int(self.norms.shape[0])

    @property
    def median_norm(self) -> float:
        """The length of an ordinary row, to compare the odd ones against."""
        return float(np.median(self.norms))


def _position_table(table) -> np.ndarray:
    table = finite_array("table", table)
    if table.ndim != 2:
        raise ValueError(f"table has shape {table.shape}; it must be a 2-D (L, D) position table")
    if table.shape[0] < 2 or table.shape[1] < 1:
        raise ValueError(f"table has shape {table.shape}; it needs at least 2 rows and 1 column")
    return table.astype(np.float64)


def smoothness(table, *, threshold: float = ROUGH_SPREADS, min_drop: float = ROUGH_MIN_DROP) -> Smoothness:
    """Adjacent-row cosine similarity of `table` (L, D) and the steps where it drops far below the usual value.

    A step counts as rough when its cosine is below the median by more than `threshold` robust standard
    deviations AND by more than `min_drop` (the second test keeps a table whose steps are all nearly equal,
    like a sinusoidal one, from calling a 1e-9 wobble an outlier).
    """
    table = _position_table(table)
    threshold = finite_float("threshold", threshold, greater_than=0.0)
    min_drop = finite_float("min_drop", min_drop, at_least=0)
    adjacent = np.asarray(adjacent_similarity(table), dtype=np.float64)  # (L-1,)
    typical = float(np.median(adjacent))
    # Median and MAD instead of mean and std: the few broken steps we are looking for must not move the yardstick.
    spread = MAD_TO_STD * float(np.median(np.abs(adjacent - typical)))
    drop = typical - adjacent  # (L-1,) how much worse than an ordinary step
    rough = np.flatnonzero((drop > threshold * spread) & (drop > min_drop))
    norms = np.sqrt(np.einsum("ld,ld->l", table, table))  # (L,)
    return Smoothness(adjacent=adjacent, typical=typical, spread=spread, rough_steps=rough.astype(np.int64),
                      norms=norms, threshold=threshold, min_drop=min_drop)


def notable_steps(result: Smoothness, *, edge: int = 1) -> np.ndarray:
    """Sorted unique step indices to report: the first `edge` steps, the last `edge` steps, and the rough ones.

    The ends are always listed because that is where a learned table is least trained: position 0 holds the
    same token ([CLS] in BERT) in every sequence, and the last positions only appear in the longest ones.
    """
    edge = positive_int("edge", edge, minimum=0)
    steps = result.adjacent.shape[0]
    ends = np.concatenate([np.arange(min(edge, steps)), np.arange(max(steps - edge, 0), steps)])
    return np.unique(np.concatenate([ends, result.rough_steps])).astype(np.int64)


def offset_similarity(table, offsets: Iterable[int]) -> np.ndarray:
    """(K,) mean over p of cos(row p, row p+k) for each offset k: how similarity decays with distance.

    For a sinusoidal table every pair at offset k has the same cosine (it depends only on k), so the mean is
    that value; for a learned table the mean hides a spread, which the matrix view shows.
    """
    table = _position_table(table)
    L = table.shape[0]
    offsets = [positive_int("offset", k, minimum=1, maximum=L - 1) for k in offsets]
    if not offsets:
        raise ValueError("offsets (empty) must name at least one offset k >= 1")
    unit = normalize_rows(table, name="table")  # (L, D) once, not once per offset: row dot products are cosines
    return np.array([np.einsum("ld,ld->l", unit[:-k], unit[k:]).clip(-1.0, 1.0).mean() for k in offsets])  # (K,)


def turn_period(turn: float) -> float:
    """Positions per full turn, 2 pi / |turn|: the period of the sin/cos pair a steady turn stands for (inf at 0)."""
    turn = finite_float("turn", turn)
    return 2 * np.pi / abs(turn) if turn else float("inf")


def turn_degrees(turn: float) -> float:
    """The size of a turn per row in degrees (its sign says only which way the picture turns)."""
    return abs(math.degrees(turn))


def plane_turn(points) -> float:
    """Median signed angle (radians, in (-pi, pi]) from each point to the next around the origin of a 2-D picture.

    For the PCA picture of a position table: a sin/cos pair of frequency w, [cos(w p), sin(w p)], turns by
    exactly w per position, so a learned table whose main plane turns steadily has found such a pair on its own;
    2 pi / |turn| is its period in positions. The median ignores the odd jump (a row near the centre).
    """
    points = finite_array("points", points).astype(np.float64)
    if points.ndim != 2 or points.shape[1] != 2 or points.shape[0] < 2:
        raise ValueError(f"points has shape {points.shape}; it must be (N, 2) with N >= 2")
    angles = np.arctan2(points[:, 1], points[:, 0])  # (N,)
    steps = np.angle(np.exp(1j * np.diff(angles)))  # (N-1,) wrapped into (-pi, pi]: a turn, not a full lap
    return float(np.median(steps))


MIN_VARIANCE_RATIO = 0.5  # var(PC2) / var(PC1) of a circle is 1; of a random walk's path about 0.1-0.3
MIN_TURNS = 2.0  # full turns around the centre inside the window


def is_rotation(points) -> bool:
    """Whether a 2-D PCA picture of consecutive rows shows a steady rotation (a sin/cos pair), not a drift.

    Both must hold: the two axes carry similar variance (var(PC2) / var(PC1) >= MIN_VARIANCE_RATIO, a circle
    rather than a line), and the median step of :func:`plane_turn` adds up to at least MIN_TURNS full turns over
    the rows. A random walk fails both ways: its first principal components are the slowest cosines of the
    window (Karhunen-Loeve), so its picture is an elongated arc that sweeps about half a turn (about 2 degrees per
    step over 126 rows), which a per-step angle alone would misread as a slow rotation.
    """
    points = finite_array("points", points).astype(np.float64)
    if points.ndim != 2 or points.shape[1] != 2:
        raise ValueError(f"points has shape {points.shape}; it must be (N, 2)")
    if points.shape[0] < 3:  # two points are always on a line: no turn can be told
        return False
    variance = points.var(axis=0)  # (2,)
    if variance.max() == 0 or variance.min() / variance.max() < MIN_VARIANCE_RATIO:
        return False
    turns = abs(plane_turn(points)) * (points.shape[0] - 1) / (2 * np.pi)
    return bool(turns >= MIN_TURNS)
