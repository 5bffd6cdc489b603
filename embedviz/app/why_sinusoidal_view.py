"""Cached core calls of the "Why sine and cosine" page (lesson 003): the raw index, index / length, the binary
code and the smooth counter at one setting. Plain arguments in, plain values and a frozen record out; the math is in
embedviz.positions.why_sinusoidal."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import streamlit as st

from embedviz.downsample import strided_indices
from embedviz.positions import why_sinusoidal
from embedviz.positions.sinusoidal import sinusoidal_table

CURVE_POINTS = 512  # points per value curve
COUNTER_POSITIONS = 64  # positions in the binary / smooth counter picture: 2^6, every pattern of the low 6 bits
COUNTER_BITS = 8  # rows of that picture
STEP_POSITIONS = 40  # neighbour steps drawn: enough to see binary's uneven jumps



@dataclass(frozen=True)
class WhySinusoidalView:
    position: int  # the position shown, clipped to length - 1
    clipped: bool  # whether the asked position was past the end
    summary: why_sinusoidal.SchemeComparison  # compare_schemes: each scheme's range, steps and distinct codes
    x: np.ndarray  # the value curves' shared positions
    raw: np.ndarray  # the raw index at x
    normalized: dict[int, np.ndarray]  # length -> index / length at x, for both lengths
    value: float  # position / length
    same_value_other: float  # the position with that value at the other length
    code: list[int]  # the position's binary code, lowest bit first, padded with 0 to d_model
    counter_positions: np.ndarray  # the counter picture's positions
    binary: np.ndarray  # (positions, bits) their binary code
    smooth: np.ndarray  # the smooth counter with the same periods
    periods: list[float]  # each bit's period
    step_positions: np.ndarray  # positions p of the steps p -> p + 1 drawn
    steps: dict[str, np.ndarray]  # scheme -> step lengths ("binary", "sinusoidal"); empty for a 1-position length


@st.cache_data(max_entries=32, show_spinner=False)
def why_sinusoidal_view(length: int, other_length: int, position: int, d_model: int) -> WhySinusoidalView:
    """Everything the "why sine and cosine" page draws at one setting; ``position`` is clipped to length - 1."""
    p = min(position, length - 1)
    x = strided_indices(max(length, other_length), CURVE_POINTS)  # shared x of the value curves
    value = why_sinusoidal.normalized_value(p, length)
    counter_p = np.arange(COUNTER_POSITIONS)
    bits = min(d_model, COUNTER_BITS)
    code_bits = min(d_model, why_sinusoidal.MAX_BITS)  # D = 64: bits 62, 63 of a position are 0 (as compare_schemes)
    step_p = np.arange(min(length, STEP_POSITIONS + 1))
    steps = {}
    if len(step_p) > 1:
        steps = {
            "binary": why_sinusoidal.adjacent_steps(why_sinusoidal.binary_code(step_p, code_bits)),
            "sinusoidal": why_sinusoidal.adjacent_steps(sinusoidal_table(len(step_p), d_model)),
        }
    return WhySinusoidalView(
        position=p, clipped=p != position, summary=why_sinusoidal.compare_schemes(length, d_model),
        x=x, raw=why_sinusoidal.on_axis(why_sinusoidal.raw_index(length), x),
        normalized={L: why_sinusoidal.on_axis(why_sinusoidal.normalized_index(L), x) for L in (length, other_length)},
        value=value, same_value_other=why_sinusoidal.position_with_value(value, other_length),
        code=why_sinusoidal.binary_code(np.array([p]), code_bits)[0].astype(int).tolist() + [0] * (d_model - code_bits),
        counter_positions=counter_p, binary=why_sinusoidal.binary_code(counter_p, bits),
        smooth=why_sinusoidal.smooth_counter(counter_p, bits), periods=why_sinusoidal.bit_periods(bits).tolist(),
        step_positions=step_p[:-1], steps=steps,
    )
