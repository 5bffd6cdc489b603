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

from embedviz import figures
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


# ---------------------------------------------------------------------------------------------------- contrast

def contrast(a: str, b: str = "#ffffff") -> float:
    """WCAG 2's contrast ratio (relative luminance of sRGB, https://www.w3.org/TR/WCAG21/#dfn-relative-luminance)."""
    la, lb = sorted((float(np.array([0.2126, 0.7152, 0.0722]) @ linear_rgb(c)) for c in (a, b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def test_the_contrast_formula_gives_wcags_reference_values():
    assert contrast("#000000") == pytest.approx(21.0)
    assert contrast("#767676") == pytest.approx(4.54, abs=0.01)  # the lightest grey that passes 4.5:1 on white
    assert contrast("#9e9e9e") < 3 < contrast("#8a8a8a")


def _grey_marks() -> dict[str, str]:
    from embedviz.figures import context_extension, modern_rope, tokens

    marks = {"GREY": figures.GREY, "LIGHT_GREY": figures.LIGHT_GREY,
             "context extension's wavelengths before": context_extension.BEFORE_COLOR,
             "a NoPE layer": modern_rope.NOPE_COLOR, "a dimension RoPE passes through": modern_rope.UNROTATED_COLOR,
             "a row neither looked up nor a target": tokens.OTHER}
    marks.update({f"reach shade {i}": c for i, c in enumerate(modern_rope.REACH_SHADES)})
    return marks


@pytest.mark.parametrize("name", list(_grey_marks()))
def test_grey_lines_and_bars_keep_3_to_1_against_the_white_plot(name):
    # WCAG 1.4.11: a line or bar a reader needs, 3:1 against what is around it (the template's white plot)
    colour = _grey_marks()[name]
    assert pio.templates[TEMPLATE].layout.plot_bgcolor == "white"
    assert contrast(colour) >= 3.0, f"{name} {colour} is {contrast(colour):.2f}:1 on white"


def _scale_end(position: float) -> str:
    from plotly.colors import sample_colorscale, unlabel_rgb

    r, g, b = unlabel_rgb(sample_colorscale(figures.DIVERGING, [position])[0])
    return "#%02x%02x%02x" % (round(r), round(g), round(b))


@pytest.mark.parametrize("vision, simulate", [("normal", None), ("protanopia", PROTANOPIA),
                                              ("deuteranopia", DEUTERANOPIA)])
def test_the_diverging_scales_ends_differ_in_lightness_as_well_as_hue(vision, simulate):
    """-1 and +1 of the heatmaps: on a washed-out projector or a greyscale print only lightness is left, so the two
    ends must differ in CIELAB L* (ColorBrewer's RdBu has both at L* 20), and stay apart from each other and from 0
    for a colour-blind reader too."""
    ends = [_scale_end(0.0), _scale_end(0.5), _scale_end(1.0)]
    lab = [cielab(linear_rgb(c) if simulate is None else simulate @ linear_rgb(c)) for c in ends]
    negative, zero, positive = lab
    assert abs(positive[0] - negative[0]) >= 25, f"L* {negative[0]:.0f} and {positive[0]:.0f} for {vision}"
    assert np.linalg.norm(positive - negative) >= MIN_DELTA_E
    assert min(np.linalg.norm(negative - zero), np.linalg.norm(positive - zero)) >= 40  # both ends far from white


def test_rdbus_ends_fail_that_check():
    # the reference the check was written against: plotly's RdBu_r, whose ends are both dark
    from plotly.colors import sample_colorscale, unlabel_rgb

    lows, highs = (unlabel_rgb(c) for c in sample_colorscale("RdBu_r", [0.0, 1.0]))
    lstar = [cielab(linear_rgb("#%02x%02x%02x" % tuple(round(v) for v in c)))[0] for c in (lows, highs)]
    assert abs(lstar[0] - lstar[1]) < 5


def test_no_figure_names_a_diverging_scale_of_its_own():
    # every diverging heatmap (Home, Token embeddings, Trained embedding, Sinusoidal, RoPE angles, similarity,
    # Compare) takes figures.DIVERGING: a plotly scale named in a builder would bring back RdBu's equal ends
    from pathlib import Path
    import re

    named = re.compile(r"""["'](RdBu|RdYlBu|RdGy|PuOr|PiYG|PRGn|BrBG|Spectral|balance|curl|delta|Picnic|Portland)(_r)?["']""")
    for path in (Path(figures.__file__).parent).glob("*.py"):
        assert not named.search(path.read_text()), path.name


def test_the_rope_decay_curves_differ_by_dash_as_well_as_colour():
    from embedviz.figures import rope

    curves = {f"theta {t}": np.linspace(1, 0, 5) for t in (10_000, 500_000, 1_000_000, 42)}
    fig = rope.decay_chart(np.arange(5) + 1, curves, highlight="theta 42", title="t", x_title="d", y_title="s")
    dashes = [trace.line.dash for trace in fig.data if trace.name in curves]
    assert len(set(dashes)) == len(curves), dashes
