"""Why sine and cosine (lesson 003): the three obvious ways to write a position into a vector, and what each gets wrong.

    raw index          x_p = p                 unbounded: at p = 4,000 it is 2 x 10^5 times an entry of 0.02
    index / length     x_p = p / L             bounded, but the same value means a different p for each L
    binary             x_p[b] = bit b of p      bounded, unique, independent of L, but every bit jumps 0 <-> 1

Sinusoidal encoding is the smooth version of the binary counter: bit b flips with period 2^(b+1) (2, 4, 8, ...),
and sinusoidal pair i turns with wavelength 2*pi * base^(2i/D), also a geometric series, but as a smooth wave. The
numbers below make the three faults and the fix measurable.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from embedviz._validate import even_int, finite_float, positive_int
from embedviz.positions.sinusoidal import DEFAULT_BASE, MAX_POSITIONS, sinusoidal_table

MAX_BITS = 62  # bit b of an int64 position; 2^62 positions is far beyond any context
EMBEDDING_STD = 0.02  # lesson 000: token vectors start as N(0, 0.02^2), so a typical entry is a few hundredths


def _length(context_length) -> int:
    return positive_int("context_length", context_length, maximum=MAX_POSITIONS)


def raw_index(context_length: int) -> np.ndarray:
    """The position itself as the value, shape (L,): 0, 1, ..., L-1. Its largest value grows with L."""
    return np.arange(_length(context_length), dtype=np.float64)


def normalized_index(context_length: int) -> np.ndarray:
    """p / L for p = 0..L-1, shape (L,): inside [0, 1), but 0.5 is token 5 of 10 and token 500 of 1,000."""
    L = _length(context_length)
    return np.arange(L, dtype=np.float64) / L


def normalized_value(position: int, context_length: int) -> float:
    """The index / length value of one position in a sequence of context_length tokens."""
    L = _length(context_length)
    p = positive_int("position", position, minimum=0, maximum=L - 1)
    return p / L


def position_with_value(value: float, context_length: int) -> float:
    """Which position of a length-L sequence carries ``value`` under index / length: value * L (may be fractional)."""
    value = finite_float("value", value)
    if not 0.0 <= value < 1.0:
        raise ValueError(f"value ({value:g}) must be in [0, 1): index / length never reaches 1")
    return value * _length(context_length)


def on_axis(values, x) -> np.ndarray:
    """values[x] for positions x on an axis shared by several lengths, NaN where x is past this sequence's end."""
    values, x = np.asarray(values, dtype=np.float64), np.asarray(x)
    curve = np.full(len(x), np.nan)
    inside = x < len(values)
    curve[inside] = values[x[inside]]
    return curve


def binary_code(positions, num_bits: int) -> np.ndarray:
    """Bit b of each position, least significant first, shape (N, num_bits), values 0.0 / 1.0.

    Column 0 flips at every step, column b every 2^b steps (period 2^(b+1)): the fastest column comes first, like
    sinusoidal dimension 0. With num_bits columns only 2^num_bits positions are distinct; p and p + 2^num_bits
    get the same code.
    """
    num_bits = positive_int("num_bits", num_bits, maximum=MAX_BITS)
    p = np.asarray(positions)
    if p.ndim != 1 or not np.issubdtype(p.dtype, np.integer) or (p.size and p.min() < 0):
        raise ValueError(f"positions must be a 1-D array of integers >= 0, got {p!r}")
    bits = np.arange(num_bits)
    return ((p.astype(np.int64)[:, None] >> bits[None, :]) & 1).astype(np.float64)  # (N, num_bits)


def smooth_counter(positions, num_bits: int) -> np.ndarray:
    """The binary counter with its square waves replaced by cosines of the same period, shape (N, num_bits).

    Column b is (1 - cos(pi p / 2^b)) / 2: 0 at p = 0, 1 at p = 2^b, like bit b, but moving smoothly in between.
    """
    num_bits = positive_int("num_bits", num_bits, maximum=MAX_BITS)
    p = np.asarray(positions, dtype=np.float64)
    if p.ndim != 1:
        raise ValueError(f"positions must be a 1-D array, got shape {p.shape}")
    periods = 2.0 ** (np.arange(num_bits) + 1)  # 2, 4, 8, ...: bit b repeats every 2^(b+1) positions
    return (1.0 - np.cos(2.0 * np.pi * p[:, None] / periods[None, :])) / 2.0


def bit_periods(num_bits: int) -> np.ndarray:
    """How many positions bit b takes to come back to where it started: 2, 4, 8, ..., shape (num_bits,)."""
    num_bits = positive_int("num_bits", num_bits, maximum=MAX_BITS)
    return 2.0 ** (np.arange(num_bits) + 1)


def adjacent_steps(table) -> np.ndarray:
    """Euclidean distance from row p to row p + 1, shape (L-1,): how far one step along the sequence moves.

    A 1-D scheme is passed as shape (L,) and treated as (L, 1).
    """
    X = np.asarray(table, dtype=np.float64)
    if X.ndim == 1:
        X = X[:, None]
    if X.ndim != 2 or X.shape[0] < 2:
        raise ValueError(f"table must have at least 2 rows, got shape {X.shape}")
    return np.linalg.norm(np.diff(X, axis=0), axis=1)


@dataclass(frozen=True)
class SchemeStats:
    """One position scheme measured at a length and width (a row of :func:`compare_schemes`)."""

    max_abs: float  # the largest |value| anywhere: the size problem
    step_min: float  # the smallest distance between neighbouring positions
    step_max: float  # the largest: a smooth code moves by the same amount at every step
    distinct: int  # positions whose code no other position has


@dataclass(frozen=True)
class SchemeComparison:
    """The four schemes side by side (:func:`compare_schemes`)."""

    schemes: dict[str, SchemeStats]  # "raw", "normalized", "binary", "sinusoidal", in that order
    collide: tuple[int, int] | None  # two positions sharing a binary code when L > 2^D, else None
    raw_vs_embedding: float  # the largest raw index over EMBEDDING_STD


def compare_schemes(context_length: int, d_model: int, *, base: float = DEFAULT_BASE) -> SchemeComparison:
    """The four schemes at one length L and width D (binary gets D bits), measured side by side.

    For each scheme: ``max_abs`` (largest |value| anywhere, the size problem), ``step_min`` / ``step_max`` (the
    smallest and largest distance between neighbours: a smooth code moves by the same amount at every step),
    ``distinct`` (how many of the L positions get a code no other position has). Also ``collide`` (two positions
    that share a binary code when L > 2^D, else None) and ``raw_vs_embedding``: the largest raw index over
    EMBEDDING_STD, how many times larger than a typical token-vector entry it is.
    """
    L = _length(context_length)
    D = even_int("d_model", d_model, about="sinusoidal pairs")
    positions = np.arange(L)
    tables = {
        "raw": raw_index(L)[:, None],
        "normalized": normalized_index(L)[:, None],
        "binary": binary_code(positions, min(D, MAX_BITS)),
        "sinusoidal": sinusoidal_table(L, D, base).astype(np.float64),
    }
    schemes = {}
    for name, X in tables.items():
        steps = adjacent_steps(X) if L > 1 else np.zeros(1)
        schemes[name] = SchemeStats(
            max_abs=float(np.abs(X).max()), step_min=float(steps.min()), step_max=float(steps.max()),
            distinct=_distinct_count(X),
        )
    return SchemeComparison(schemes=schemes, collide=(0, 2**D) if D < MAX_BITS and L > 2**D else None,
                            raw_vs_embedding=schemes["raw"].max_abs / EMBEDDING_STD)


def _distinct_count(X: np.ndarray) -> int:
    """Positions whose row appears once: rows are rounded so float noise does not split equal codes."""
    _, counts = np.unique(np.round(X, 9), axis=0, return_counts=True)
    return int((counts == 1).sum())
