"""Sinusoidal positional encoding (Vaswani et al. 2017, "Attention Is All You Need").

    PE[p, 2i]   = sin(p * w_i)
    PE[p, 2i+1] = cos(p * w_i),     w_i = base^(-2i / D)

Frequencies fall geometrically with i, so the first pairs turn fast (tell neighbours apart) and the last pairs turn
slowly (tell far-apart regions apart), like the hands of a clock. With an odd D the last column is a sine.
"""
from __future__ import annotations

import numpy as np

from embedviz._validate import finite_array, finite_float, positive_int

DEFAULT_BASE = 10_000.0
MAX_POSITIONS = 1 << 20  # a guard against accidental multi-GB tables, far above real context lengths
_BLOCK = 256  # positions per block in the angle-addition table (see sinusoidal_table)


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


def _interleave(sin: np.ndarray, cos: np.ndarray, d_model: int) -> np.ndarray:
    """(..., H) sines and cosines -> (..., D) with sin in even columns and cos in odd ones."""
    out = np.empty(sin.shape[:-1] + (sin.shape[-1], 2), dtype=np.float32)
    out[..., 0] = sin
    out[..., 1] = cos
    return out.reshape(sin.shape[:-1] + (2 * sin.shape[-1],))[..., :d_model]


def sinusoidal_rows(positions, d_model: int, base: float = DEFAULT_BASE) -> np.ndarray:
    """Encodings of arbitrary positions (any real numbers), shape (len(positions), D), float32.

    The angle p * w_i is formed in float64 so that large positions stay exact to float32 precision.
    """
    d_model, base = _check(d_model, base)
    positions = finite_array("positions", positions).astype(np.float64).reshape(-1)
    angles = positions[:, None] * frequencies(d_model, base)[None, :]  # (P, H)
    return _interleave(np.sin(angles), np.cos(angles), d_model)


def sinusoidal_table(num_positions: int, d_model: int, base: float = DEFAULT_BASE) -> np.ndarray:
    """The (L, D) table for positions 0..L-1, float32, max abs error ~1e-7 at any position up to 2**20.

    Why not ``np.sin(positions * w)``? In float64 it is slow for big tables; in float32 the angle itself is wrong at
    large positions (131072 * 2**-24 ~ 0.008 rad). Instead each position is split as p = q*B + r and the angle-addition
    formulas combine exact float64 sines/cosines of the block offset q*B and the remainder r:

        sin((qB + r) w) = sin(qB w) cos(r w) + cos(qB w) sin(r w)
        cos((qB + r) w) = cos(qB w) cos(r w) - sin(qB w) sin(r w)

    so only (L/B + B) * D/2 transcendental calls are made and the rest is float32 multiply-adds.
    """
    num_positions = positive_int("num_positions", num_positions, maximum=MAX_POSITIONS)
    d_model, base = _check(d_model, base)
    w = frequencies(d_model, base)  # (H,)
    block = min(_BLOCK, num_positions)
    num_blocks = -(-num_positions // block)
    r_angle = np.arange(block, dtype=np.float64)[:, None] * w  # (B, H) remainder angles
    q_angle = (np.arange(num_blocks, dtype=np.float64) * block)[:, None] * w  # (Q, H) block-offset angles
    sin_r, cos_r = np.sin(r_angle).astype(np.float32), np.cos(r_angle).astype(np.float32)
    sin_q = np.sin(q_angle).astype(np.float32)[:, None, :]  # (Q, 1, H)
    cos_q = np.cos(q_angle).astype(np.float32)[:, None, :]
    out = np.empty((num_blocks, block, w.size, 2), dtype=np.float32)  # (Q, B, H, 2): (sin, cos) pairs
    scratch = np.empty((num_blocks, block, w.size), dtype=np.float32)
    np.multiply(sin_q, cos_r, out=out[..., 0])
    out[..., 0] += np.multiply(cos_q, sin_r, out=scratch)
    np.multiply(cos_q, cos_r, out=out[..., 1])
    out[..., 1] -= np.multiply(sin_q, sin_r, out=scratch)
    table = out.reshape(num_blocks * block, 2 * w.size)  # (Q*B, 2H)
    return table[:num_positions, :d_model]


def distance_vs_gap(d_model: int, gaps, *, starts=(0,), base: float = DEFAULT_BASE) -> np.ndarray:
    """Euclidean distance ||PE(s + k) - PE(s)|| for every start s and gap k, shape (len(starts), len(gaps)).

    Each pair contributes 2 - 2cos(k w_i) to the squared distance, which holds k but not s: the rows coincide.
    It is computed from the encodings themselves (float64) so the coincidence is shown, not assumed.
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


def rotation_matrix(offset: float, d_model: int, base: float = DEFAULT_BASE) -> np.ndarray:
    """The fixed (D, D) matrix R(k) with PE(p + k) = R(k) @ PE(p) for every p (even D).

    Block-diagonal: per pair [sin, cos] -> [[cos kw, sin kw], [-sin kw, cos kw]] [sin, cos], the angle-addition
    formulas again. It depends on the offset k only, which is why attention can learn "look back k tokens".
    """
    d_model, base = _check(d_model, base)
    if d_model % 2:
        raise ValueError(f"d_model ({d_model}) must be even for the rotation property (odd D ends in a lone sine)")
    offset = finite_float("offset", offset)
    kw = offset * frequencies(d_model, base)
    rot = np.zeros((d_model, d_model))
    c, s = np.cos(kw), np.sin(kw)
    idx = np.arange(0, d_model, 2)
    rot[idx, idx], rot[idx, idx + 1] = c, s
    rot[idx + 1, idx], rot[idx + 1, idx + 1] = -s, c
    return rot
