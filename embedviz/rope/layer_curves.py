"""What the "RoPE in today's models" page draws of a layer plan's settings: each setting's wavelengths, decay and
rotated dimensions, and Llama 4's NoPE temperature along the positions. The reading of a config into settings is
:mod:`embedviz.rope.layers`; this module only turns a setting into curves."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from embedviz._validate import finite_float
from embedviz.rope.layers import LayerRope, exponent_dim, nope_attention_scale, rotated_dimensions
from embedviz.rope.rotary import decay_of_frequencies, wavelengths

DECAY_DISTANCES = np.unique(np.geomspace(1, 1_000_000, 240).astype(int))  # log-spaced distances for decay curves


@dataclass(frozen=True)
class SettingCurves:
    """What the page draws of one RoPE setting (:func:`setting_curves`)."""

    wavelengths: np.ndarray  # (turning pairs,) float64: positions per full turn of each pair that turns
    still_pairs: int  # pairs with frequency 0 (proportional RoPE's unrotated tail)
    decay: np.ndarray  # (len(DECAY_DISTANCES),) the decay curve over DECAY_DISTANCES
    rotated: np.ndarray  # (head_dim,) bool: which dims RoPE turns (rotated_dimensions)
    exponent_dim: int  # the d in theta^(-2i/d) (exponent_dim)


def setting_curves(setting: LayerRope) -> SettingCurves:
    """What the page draws of one RoPE setting: wavelengths of the pairs that turn, how many pairs stay still,
    the decay curve over :data:`DECAY_DISTANCES`, the rotated-dimension mask and the exponent's d."""
    turning = setting.inv_freq[setting.inv_freq > 0]
    return SettingCurves(wavelengths=wavelengths(turning), still_pairs=int(np.sum(setting.inv_freq == 0)),
                         decay=decay_of_frequencies(setting.inv_freq, DECAY_DISTANCES),
                         rotated=rotated_dimensions(setting), exponent_dim=exponent_dim(setting))


# The temperature curve's reach: 64 x floor_scale (flat up to floor_scale, then the log growth), at least 64
# positions for a floor_scale below 1, at most 1e15 (past any context, inside int64) for an absurd one.
TEMPERATURE_SPAN, MAX_TEMPERATURE_POSITION = 64, 10**15


@dataclass(frozen=True)
class TemperatureCurve:
    """Llama 4's NoPE attention temperature along the positions (:func:`temperature_curve`)."""

    positions: np.ndarray  # (<= 400,) int, log-spaced from 1 to the curve's reach, distinct
    scale: np.ndarray  # (same,) float64: the factor on the NoPE layers' queries at each position


def temperature_curve(floor_scale: float, attn_scale: float) -> TemperatureCurve:
    """Llama 4's NoPE temperature at 400 log-spaced positions up to its reach (see TEMPERATURE_SPAN)."""
    reach = TEMPERATURE_SPAN * finite_float("floor_scale", floor_scale, greater_than=0.0)
    length = int(min(max(reach, TEMPERATURE_SPAN), MAX_TEMPERATURE_POSITION))
    positions = np.unique(np.geomspace(1, length, 400).astype(int))
    return TemperatureCurve(positions=positions,
                            scale=nope_attention_scale(positions, floor_scale=floor_scale, attn_scale=attn_scale))
