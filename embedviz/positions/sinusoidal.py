"""Sinusoidal positional encoding (Vaswani et al. 2017, "Attention Is All You Need").

    PE[p, 2i]   = sin(p * w_i)
    PE[p, 2i+1] = cos(p * w_i),     w_i = base^(-2i / D)

Frequencies fall geometrically with i, so the first pairs turn fast (tell neighbours apart) and the last pairs turn
slowly (tell far-apart regions apart), like the hands of a clock. With an odd D the last column is a sine.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from embedviz._validate import even_int, finite_array, finite_float, positive_int

DEFAULT_BASE = 10_000.0  # the Transformer paper's base (Vaswani et al. 2017, section 3.5)
MAX_POSITIONS = 1 << 20  # a guard against accidental multi-GB tables, far above real context lengths
_MAX_BLOCK = 256  # positions per block in the angle-addition table (see sinusoidal_table)


def _check(d_model, base) -> tuple[int, float]:
    d_model = positive_int("d_model", d_model)
    base = finite_float("base", base, greater_than=1.0)
    return d_model, base


def frequencies(d_model: int, base: float = DEFAULT_BASE) -> np.ndarray:
    """Angular frequency w_i = base^(-2i/D) of each (sin, cos) pair, shape (ceil(D/2),), float64."""
    d_model, base = _check(d_model, base)
    i = np.arange((d_model + 1) // 2, dtype=np.float64)
    return base ** (-2.0 * i / d_model)


def wavelengths(d_model: int, base: float = DEFAULT_BASE) -> np.ndarray:
    """Positions one full turn of each pair takes: 2*pi / w_i (D=8: 6.3, 63, 628, 6283)."""
    return 2.0 * np.pi / frequencies(d_model, base)


def pair_dims(pairs, d_model: int) -> np.ndarray:
    """The columns of (sin, cos) pairs ``pairs``: 2i and 2i + 1 side by side, shape (2P,) (the last cos of an odd
    d_model does not exist and is left out)."""
    pairs = np.asarray(pairs, dtype=np.int64).reshape(-1)
    dims = np.stack([2 * pairs, 2 * pairs + 1], axis=1).reshape(-1)  # (2P,): pair i's sine, then its cosine
    return dims[dims < d_model]


def sinusoidal_rows(positions, d_model: int, base: float = DEFAULT_BASE, *, dims=None, dtype=np.float32) -> np.ndarray:
    """Encodings of arbitrary positions (any real numbers), shape (P, D), or (P, len(dims)) for chosen columns.

    Only the requested cells are computed, so a figure can show a few hundred rows x columns of a 131072 x 4096 table
    without building it. The angle p * w_i is formed in float64 so that large positions stay exact.
    """
    d_model, base = _check(d_model, base)
    positions = finite_array("positions", positions).astype(np.float64).reshape(-1)
    if dims is None:
        dims = np.arange(d_model)
    dims = np.asarray(dims).reshape(-1)
    if dims.size and (not np.issubdtype(dims.dtype, np.integer) or dims.min() < 0 or dims.max() >= d_model):
        raise ValueError(f"dims must be integer column indices in [0, {d_model - 1}], got {dims.tolist()[:8]}")
    angles = positions[:, None] * frequencies(d_model, base)[dims // 2]  # (P, C): column j belongs to pair j // 2
    even = dims % 2 == 0  # even columns hold the sine, odd ones the cosine of the same angle
    out = np.empty(angles.shape, dtype=np.float64)
    out[:, even] = np.sin(angles[:, even])
    out[:, ~even] = np.cos(angles[:, ~even])
    return out.astype(dtype, copy=False)


def sinusoidal_table(context_length: int, d_model: int, base: float = DEFAULT_BASE) -> np.ndarray:
    """The (L, D) table for positions 0..L-1, float32 and C-contiguous, max abs error ~2e-7 at any position.

    Why not ``np.sin(positions * w)``? In float64 it is slow for big tables (one transcendental call per cell); in
    float32 the angle itself is wrong at large positions (131072 * 2**-24 ~ 0.008 rad). Instead each position is
    split as p = qB + r and the angle-addition formula is done as one complex multiplication:

        i e^{-i p w} = (i e^{-i qB w}) * e^{-i r w} = sin(p w) + i cos(p w)

    Both factors are exact float64 values rounded once to complex64, so only (L/B + B) * D/2 transcendental calls
    are made; the product is written straight into the output, whose (real, imag) float32 pairs are exactly the
    interleaved (sin, cos) columns. One pass over memory, close to the cost of filling the array.
    """
    context_length = positive_int("context_length", context_length, maximum=MAX_POSITIONS)
    d_model, base = _check(d_model, base)
    w = frequencies(d_model, base)  # (H,)
    block = min(_MAX_BLOCK, math.isqrt(context_length))  # ~sqrt(L) minimises the L/B + B transcendental calls
    full, tail = divmod(context_length, block)
    q_offsets = np.arange(full + (tail > 0), dtype=np.float64) * block  # (Q,) block starts, exact integers
    r_phase = np.exp(-1j * (np.arange(block, dtype=np.float64)[:, None] * w)).astype(np.complex64)  # (B, H)
    q_phase = (1j * np.exp(-1j * (q_offsets[:, None] * w))).astype(np.complex64)  # (Q, H)
    out = np.empty((context_length, w.size), dtype=np.complex64)  # (L, H): sin + i cos per pair
    np.multiply(q_phase[:full, None, :], r_phase[None], out=out[: full * block].reshape(full, block, w.size))
    if tail:
        np.multiply(q_phase[full], r_phase[:tail], out=out[full * block :])
    table = out.view(np.float32)  # (L, 2H): real, imag -> sin, cos columns
    return table if d_model % 2 == 0 else np.ascontiguousarray(table[:, :d_model])


def distance_vs_gap(d_model: int, gaps, *, starts=(0,), base: float = DEFAULT_BASE) -> np.ndarray:
    """Euclidean distance ||PE(s + k) - PE(s)|| for every start s and gap k, shape (len(starts), len(gaps)).

    Each pair contributes 2 - 2cos(k w_i) to the squared distance, which holds k but not s: for even D the rows
    coincide. (An odd D's lone last sine adds (sin b - sin a)^2 = 4 cos^2((a+b)/2) sin^2((b-a)/2), which does depend
    on s.) It is computed from the encodings themselves (float64) so the coincidence is shown, not assumed.
    """
    d_model, base = _check(d_model, base)
    gaps = finite_array("gaps", gaps).astype(np.float64).reshape(-1)
    starts = finite_array("starts", starts).astype(np.float64).reshape(-1)
    w = frequencies(d_model, base)
    a = starts[:, None, None] * w  # (S, 1, H)
    b = (starts[:, None] + gaps[None, :])[:, :, None] * w  # (S, K, H)
    d2 = (np.sin(b) - np.sin(a)) ** 2 + (np.cos(b) - np.cos(a)) ** 2  # (S, K, H)
    if d_model % 2:  # the odd last column is a sine only
        d2[..., -1] = (np.sin(b[..., -1]) - np.sin(a[..., -1])) ** 2
    return np.sqrt(d2.sum(axis=-1))


def distance_levels(d_model: int) -> tuple[float, float]:
    """(typical, bound) for ||PE(s + k) - PE(s)|| at large gaps, independent of the base.

    Once every pair has turned many times its phase difference is spread evenly, and 2 - 2cos averages to 2 per pair
    (1 for a lone sine): the root-mean-square distance is sqrt(D). No pair can add more than 4 (opposite points of a
    unit circle), so the distance never exceeds 2 sqrt(ceil(D/2)), i.e. sqrt(2D) for even D: bounded, however far.
    (For odd D the sqrt(D) level is also averaged over start positions, see distance_vs_gap.)
    """
    d_model = positive_int("d_model", d_model)
    return float(np.sqrt(d_model)), float(2.0 * np.sqrt((d_model + 1) // 2))


def rotation_matrix(offset: float, d_model: int, base: float = DEFAULT_BASE) -> np.ndarray:
    """The fixed (D, D) matrix R(k) with PE(p + k) = R(k) @ PE(p) for every p (even D).

    Block-diagonal: per pair [sin, cos] -> [[cos kw, sin kw], [-sin kw, cos kw]] [sin, cos], the angle-addition
    formulas again. It depends on the offset k only, which is why attention can learn "look back k tokens".
    """
    d_model, base = _check_even(d_model, base)
    offset = finite_float("offset", offset)
    kw = offset * frequencies(d_model, base)
    rot = np.zeros((d_model, d_model))
    c, s = np.cos(kw), np.sin(kw)
    idx = np.arange(0, d_model, 2)
    rot[idx, idx], rot[idx, idx + 1] = c, s
    rot[idx + 1, idx], rot[idx + 1, idx + 1] = -s, c
    return rot


def _check_even(d_model, base) -> tuple[int, float]:
    d_model, base = _check(d_model, base)
    even_int("d_model", d_model, about="the rotation property (odd D ends in a lone sine)")
    return d_model, base


def rotate_encoding(pe, offset: float, base: float = DEFAULT_BASE) -> np.ndarray:
    """R(k) applied to encodings pe of shape (..., D) pair by pair, without building the (D, D) matrix.

    Same result as ``pe @ rotation_matrix(k, D, base).T`` in O(D) instead of O(D^2) per row (D = 4096 would make
    R a 128 MB matrix), float64.
    """
    pe = finite_array("pe", pe).astype(np.float64)
    d_model, base = _check_even(pe.shape[-1], base)
    offset = finite_float("offset", offset)
    kw = offset * frequencies(d_model, base)  # (H,)
    c, s = np.cos(kw), np.sin(kw)
    sin_p, cos_p = pe[..., 0::2], pe[..., 1::2]  # (..., H) each
    out = np.empty_like(pe)
    out[..., 0::2] = sin_p * c + cos_p * s  # sin(p w + k w)
    out[..., 1::2] = cos_p * c - sin_p * s  # cos(p w + k w)
    return out


@dataclass(frozen=True)
class RotationCheck:
    """PE(p + k) two ways: straight from the formula and as the fixed rotation R(k) applied to PE(p)."""

    position: float
    offset: float
    start: np.ndarray  # (D,) PE(p)
    direct: np.ndarray  # (D,) PE(p + k) from the formula
    rotated: np.ndarray  # (D,) R(k) PE(p)
    max_error: float  # max |direct - rotated|: float64 rounding only


def rotation_check(position: float, offset: float, d_model: int, base: float = DEFAULT_BASE) -> RotationCheck:
    """Compute PE(p + k) directly and as R(k) PE(p) (float64) and how far apart they are."""
    d_model, base = _check_even(d_model, base)
    position, offset = finite_float("position", position), finite_float("offset", offset)
    rows = sinusoidal_rows([position, position + offset], d_model, base, dtype=np.float64)  # (2, D)
    rotated = rotate_encoding(rows[0], offset, base)
    return RotationCheck(position, offset, rows[0], rows[1], rotated, float(np.abs(rows[1] - rotated).max()))
