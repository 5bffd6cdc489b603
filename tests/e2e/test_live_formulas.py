"""The live figures' formulas in the browser (embedviz/app/live/formulas.js) against the Python core, in Chromium.

formulas.js is a second copy of a few core formulas; every function is evaluated at a grid of settings, including
the sliders' extremes, and must agree with the core to 1e-9 (both are float64)."""
from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np
import pytest

from embedviz import downsample
from embedviz.rope import context_extension, rotary, scaling as rope_scaling
from embedviz.positions import sinusoidal
from embedviz.app import sinusoidal_view
from embedviz.app.live import ASSETS

pytestmark = pytest.mark.e2e

D_MODELS = (2, 3, 7, 64, 513, 4096)
BASES = (100.0, 10_000.0, 1e7)
LENGTHS = (1, 2, 100, 353, 131_072)
BUDGETS = (1, 64, 352)


@pytest.fixture(scope="module")
def js(browser):
    """A page with formulas.js loaded as the module it is; its exports on window.F."""
    context = browser.new_context()
    page = context.new_page()
    page.goto("about:blank")
    source = (ASSETS / "formulas.js").read_text()
    names = [line.split("(")[0].split()[-1] for line in source.splitlines() if line.startswith("export function")]
    page.add_script_tag(content=source + f"\nwindow.F = {{{', '.join(names)}}};", type="module")
    page.wait_for_function("() => window.F !== undefined")
    plain = ("const plain = (v) => ArrayBuffer.isView(v) ? Array.from(v) : Array.isArray(v) ? v.map(plain)"
             " : v && typeof v === 'object' ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, plain(x)])) : v;")
    yield lambda name, *args: page.evaluate(f"(a) => {{ {plain} return plain(window.F.{name}(...a)); }}", list(args))
    context.close()


def close(a, b) -> None:
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    assert a.shape == b.shape, (a.shape, b.shape)
    np.testing.assert_allclose(a, b, rtol=1e-9, atol=1e-9)


@pytest.mark.parametrize("n, budget", list(itertools.product(LENGTHS + (4096,), BUDGETS)))
def test_stride_is_downsample_s(js, n, budget):
    assert js("strideFor", n, budget) == downsample.stride_for(n, budget)
    assert js("stridedIndices", n, budget) == downsample.strided_indices(n, budget).tolist()


@pytest.mark.parametrize("d_model, base", list(itertools.product(D_MODELS, BASES)))
def test_frequencies_and_pair_dims_are_the_core_s(js, d_model, base):
    close(js("frequencies", d_model, base), sinusoidal.frequencies(d_model, base))
    pairs = list(range(0, (d_model + 1) // 2, 3))
    assert js("pairDims", pairs, d_model) == sinusoidal.pair_dims(pairs, d_model).tolist()
    positions, dims = [0, 1, 5, 999, 131_071], sorted({0, 1, min(2, d_model - 1), d_model - 2, d_model - 1} - {-1})
    close(js("sinusoidalColumns", positions, d_model, base, dims),
          sinusoidal.sinusoidal_rows(positions, d_model, base, dims=dims, dtype=np.float64).T)


@pytest.mark.parametrize("num_positions, d_model, base",
                         list(itertools.product((1, 100, 131_072), (3, 64, 4096), (100.0, 10_000.0, 1e7))))
def test_the_heatmap_view_is_the_core_s_table_at_the_strided_cells(js, num_positions, d_model, base):
    view = js("encodingView", num_positions, d_model, base, downsample.CELL_BUDGET, downsample.HEATMAP_PAIRS)
    positions = downsample.strided_indices(num_positions, downsample.CELL_BUDGET)
    pair_step = downsample.stride_for((d_model + 1) // 2, downsample.HEATMAP_PAIRS)
    dims = sinusoidal.pair_dims(np.arange(0, (d_model + 1) // 2, pair_step), d_model)
    assert view["positions"] == positions.tolist() and view["dims"] == dims.tolist()
    assert view["pairStep"] == pair_step
    close(view["z"], sinusoidal.sinusoidal_rows(positions, d_model, base, dims=dims, dtype=np.float64).T)


@pytest.mark.parametrize("n, budget, dense", [(1, 2, 0), (64, 256, 64), (257, 256, 64), (4097, 2048, 1024),
                                             (131_073, 256, 64), (131_073, 2048, 1024), (1000, 10, 64)])
def test_log_spaced_indices_are_the_core_s(js, n, budget, dense):
    assert js("logSpacedIndices", n, budget, dense) == downsample.log_spaced_indices(n, budget, dense=dense).tolist()


@pytest.mark.parametrize("d_model, base", list(itertools.product((3, 64, 4096), (100.0, 10_000.0, 1e7))))
def test_distance_curves_are_the_core_s(js, d_model, base):
    close(js("distanceLevels", d_model), sinusoidal.distance_levels(d_model))
    gaps, starts = [1, 2, 7, 100, 131_071], [0, 100, 10_000]
    close(js("distanceVsGap", d_model, gaps, starts, base),
          sinusoidal.distance_vs_gap(d_model, gaps, starts=starts, base=base))
    for length in (1, 128, 131_072):
        view = js("distanceCurves", length, d_model, base, list(sinusoidal_view.DISTANCE_STARTS),
                  downsample.CURVE_POINTS, downsample.DENSE_POINTS)
        gaps = downsample.log_spaced_indices(max(length, 2), downsample.CURVE_POINTS)[1:]  # gap 0: not on a log axis
        assert view["gaps"] == gaps.tolist()
        close(view["distances"], sinusoidal.distance_vs_gap(d_model, gaps, starts=sinusoidal_view.DISTANCE_STARTS,
                                                             base=base))
        close([view["typical"], view["bound"]], sinusoidal.distance_levels(d_model))


@pytest.mark.parametrize("head_dim, theta", list(itertools.product((2, 6, 128, 256), (100.0, 10_000.0, 1e7))))
def test_rope_frequencies_pairs_and_decay_are_the_core_s(js, head_dim, theta):
    inv_freq = rotary.inverse_frequencies(head_dim, theta)
    close(js("ropeInverseFrequencies", head_dim, theta), inv_freq)
    close(js("wavelengths", inv_freq.tolist()), rotary.wavelengths(inv_freq))  # Context extension's chart draws them
    distances = [0, 1, 5, 400, 131_072]
    close(js("decayCurve", head_dim, theta, distances), rotary.decay_curve(head_dim, theta, distances))
    for pairing in ("half", "interleaved"):
        assert js("pairOfDimension", head_dim, pairing) == rotary.pair_of_dimension(head_dim, pairing=pairing).tolist()
        positions = [0, 1, 77, 131_071]
        close(js("dimensionCosRows", positions, head_dim, theta, pairing),
              rotary.dimension_cos(positions, head_dim, theta, pairing=pairing).T)


@pytest.mark.parametrize("head_dim, theta, window, pairing",
                         list(itertools.product((2, 256), (10_000.0, 1e7), (32, 131_072),
                                                ("half", "interleaved"))))
def test_the_rope_views_are_the_core_s(js, head_dim, theta, window, pairing):
    view = js("angleHeatmapView", head_dim, theta, window, pairing, downsample.ANGLE_HEATMAP_POSITIONS)
    positions = downsample.strided_indices(window, downsample.ANGLE_HEATMAP_POSITIONS)
    assert view["positions"] == positions.tolist()
    assert view["pair"] == rotary.pair_of_dimension(head_dim, pairing=pairing).tolist()
    assert view["step"] == (positions[1] if positions.size > 1 else 1)
    close(view["z"], rotary.dimension_cos(positions, head_dim, theta, pairing=pairing).T)
    dense = downsample.DENSE_DISTANCES  # every distance below it, log-spaced above; distance 0 left out
    distances = downsample.log_spaced_indices(window + 1, 2 * dense, dense=dense)[1:]
    assert js("ropeDistances", window, dense) == distances.tolist()


PHI3 = context_extension.extension_settings(context_extension.PHI3_MINI_128K)  # LongRoPE's lists, head_dim 96
SCALING_CASES = [  # (method, head_dim, theta, factor, original, seq_len, params): slider ends and the ramps' edges
    *[(m, hd, theta, factor, 4096, None, {}) for m in ("linear", "yarn", "llama3")
      for hd, theta, factor in ((2, 10_000.0, 4.0), (8, 2.0, 1.0), (128, 10_000.0, 4.0), (128, 500_000.0, 8.0),
                                (256, 1e10, 256.0), (64, 1e6, 1.5))],
    *[("dynamic", hd, theta, factor, orig, seq, {}) for hd, theta, factor, orig, seq in
      ((2, 10_000.0, 4.0, 4096, 16_384), (4, 10_000.0, 2.0, 4096, 8192), (128, 10_000.0, 4.0, 4096, 2048),
       (128, 500_000.0, 8.0, 8192, 65_536), (256, 1e10, 256.0, 1024, 262_144))],
    ("yarn", 128, 10_000.0, 4.0, 4096, None, {"beta_fast": 64.0, "beta_slow": 2.0, "truncate": False}),
    ("yarn", 64, 1e6, 32.0, 4096, None, {"beta_fast": 1000.0, "beta_slow": 1000.0}),  # a zero-width ramp at pair 0
    ("yarn", 128, 10_000.0, 4.0, 4096, None, {"beta_fast": 0.0, "beta_slow": 0.0}),  # a 0 is the paper's 32 / 1
    ("llama3", 128, 500_000.0, 8.0, 8192, None, {"low_freq_factor": 2.0, "high_freq_factor": 16.0}),
    *[("longrope", 96, 10_000.0, 32.0, 4096, seq, {}) for seq in (None, 2048, 4096, 8192)],
]


@pytest.mark.parametrize("method, head_dim, theta, factor, original, seq_len, params", SCALING_CASES)
def test_the_scaling_methods_and_pair_kinds_are_the_core_s(js, method, head_dim, theta, factor, original, seq_len,
                                                           params):
    """Context extension's wavelength chart: each method's scaled frequencies (the core is checked against
    transformers' own ROPE_INIT_FUNCTIONS in tests/test_rope_scaling.py) and what it did to each pair."""
    lists = {"short_factor": PHI3.short_factor, "long_factor": PHI3.long_factor} if method == "longrope" else {}
    scaling = context_extension.build_scaling(method, factor=factor, original_max_position_embeddings=original,
                                              params=params, **lists)
    after = rope_scaling.compute(head_dim, theta, scaling, seq_len=seq_len).inv_freq
    given = {**context_extension.METHOD_DEFAULTS[method], **params, "factor": factor, "original": original,
             **{k: list(v) for k, v in lists.items()}}
    if method == "yarn":  # as the page sends them (context_extension_view.live_fixed): resolved by the core
        given.update(rope_scaling.yarn_betas(given))
    got = js("scaledInverseFrequencies", head_dim, theta, method, given, seq_len)
    close(got, after)
    before = rotary.inverse_frequencies(head_dim, theta)
    assert js("classifyPairs", before.tolist(), after.tolist(), factor) == context_extension.classify_pairs(
        before, after, factor=factor)
    assert js("classifyPairs", before.tolist(), after.tolist(), None) == context_extension.classify_pairs(before, after)


def test_every_exported_function_is_pinned():
    """A function added to formulas.js without a comparison here would be an unpinned second copy."""
    source = (ASSETS / "formulas.js").read_text()
    exported = {line.split("(")[0].split()[-1] for line in source.splitlines() if line.startswith("export function")}
    tested = Path(__file__).read_text()
    assert all(f'"{name}"' in tested for name in exported), exported
