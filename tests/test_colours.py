"""The series colours stay apart for a colour-blind reader: every pair of the template's colourway is far apart in
CIELAB (CIE76 ΔE) for normal vision and after simulating protanopia and deuteranopia.

The simulation is Machado, Oliveira and Fernandes (2009), "A Physiologically-based Model for Simulation of Color
Vision Deficiency", severity 1.0, applied in linear sRGB; the matrices are the paper's published table, written here
as the reference (the app has no copy of them).
"""
from __future__ import annotations

import itertools

import numpy as np
import pytest

from embedviz.figures import COLORWAY, TEMPLATE
import plotly.io as pio

PROTANOPIA = np.array([[0.152286, 1.052583, -0.204868], [0.114503, 0.786281, 0.099216],
                       [-0.003882, -0.048116, 1.051998]])
DEUTERANOPIA = np.array([[0.367322, 0.860646, -0.227968], [0.280085, 0.672501, 0.047413],
                         [-0.011820, 0.042940, 0.968881]])
# Two lines a reader must tell apart by colour alone: well past the ~2.3 of a just-noticeable difference, and past
# the 13.6 that red #DC3912 and green #109618 (Plotly's G10 red and green) keep under deuteranopia.
MIN_DELTA_E = 15.0


def linear_rgb(hex_colour: str) -> np.ndarray:
    c = np.array([int(hex_colour[i:i + 2], 16) for i in (1, 3, 5)]) / 255.0
    return np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)


def cielab(rgb_linear: np.ndarray) -> np.ndarray:
    """sRGB (D65) linear -> XYZ -> CIELAB."""
    m = np.array([[0.4124, 0.3576, 0.1805], [0.2126, 0.7152, 0.0722], [0.0193, 0.1192, 0.9505]])
    xyz = m @ np.clip(rgb_linear, 0.0, 1.0) / np.array([0.95047, 1.0, 1.08883])
    f = np.where(xyz > (6 / 29) ** 3, np.cbrt(xyz), xyz / (3 * (6 / 29) ** 2) + 4 / 29)
    return np.array([116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])])


def closest_pair(colours, simulate=None) -> tuple[float, str, str]:
    lab = {c: cielab(linear_rgb(c) if simulate is None else simulate @ linear_rgb(c)) for c in colours}
    return min((float(np.linalg.norm(lab[a] - lab[b])), a, b) for a, b in itertools.combinations(colours, 2))


@pytest.mark.parametrize("vision, simulate", [("normal", None), ("protanopia", PROTANOPIA),
                                              ("deuteranopia", DEUTERANOPIA)])
def test_every_pair_of_series_colours_stays_apart(vision, simulate):
    delta_e, a, b = closest_pair(COLORWAY, simulate)
    assert delta_e >= MIN_DELTA_E, f"{a} and {b} are only ΔE {delta_e:.1f} apart for {vision}"


def test_the_simulation_separates_what_it_should():
    # the reference itself: red and green collapse under deuteranopia, blue and orange do not
    assert closest_pair(["#FF0000", "#00FF00"], DEUTERANOPIA)[0] < closest_pair(["#FF0000", "#00FF00"])[0] / 3
    assert closest_pair(["#0072B2", "#E69F00"], DEUTERANOPIA)[0] > 40


def test_the_template_draws_with_that_colourway():
    assert list(pio.templates[TEMPLATE].layout.colorway) == COLORWAY
