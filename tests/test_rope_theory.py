"""Tests for embedviz.rope.theory: the papers' numbers, naive loops, and the non-monotone base criterion."""
from __future__ import annotations

import dataclasses
import math

import numpy as np
import pytest

from embedviz.rope import theory as rope_theory
from embedviz.rope.theory import (
    MAX_SCAN_LENGTH,
    base_lower_bound,
    critical_dimension,
    extrapolation_bound,
    first_negative,
    interpolation_bound,
    score_sum,
)
from tests.input_errors import raises_input


def naive_full_turn_dims(head_dim, theta, train_length):
    """Count pairs whose wavelength 2*pi*theta^(2i/d) fits in the training length, two dims per pair."""
    return 2 * sum(1 for i in range(head_dim // 2) if 2 * math.pi * theta ** (2 * i / head_dim) <= train_length)


def test_critical_dimension_is_92_for_llama2():
    assert critical_dimension(128, 10_000, 4_096) == 92  # Liu et al. 2023: LLaMA 2, d=128, 4K


@pytest.mark.parametrize("head_dim, theta, length", [(128, 10_000, 4_096), (128, 500_000, 8_192), (64, 10_000, 2_048),
                                                     (128, 1_000_000, 32_768), (96, 10_000, 4_096), (128, 10_000, 5)])
def test_critical_dimension_matches_a_naive_count(head_dim, theta, length):
    assert critical_dimension(head_dim, theta, length) == naive_full_turn_dims(head_dim, theta, length)


def test_score_sum_matches_a_loop():
    expected = [sum(math.cos(m * 10_000 ** (-2 * i / 8)) for i in range(4)) for m in (0, 1, 7, 100)]
    np.testing.assert_allclose(score_sum([0, 1, 7, 100], 8, 10_000), expected, rtol=1e-12)


def naive_passes(base, length, head_dim=128):
    return all(sum(math.cos(m * base ** (-2 * i / head_dim)) for i in range(head_dim // 2)) >= 0
               for m in range(length))


@pytest.mark.parametrize("name", ["Phi-2 (partial 0.4)", "GPT-NeoX-20B (partial 0.25)"])
def test_unrotated_pairs_keep_the_sum_nonnegative_for_any_base(name):
    """What RoPE in today's models says of partial rotation: each unrotated pair adds cos 0 = 1, and with at least
    as many of them as rotated pairs, sum cos(m * w_i) over the whole head stays >= 0 even at base 2 (the rotated
    pairs alone fail). Phi-2 turns 32 of its 80 dimensions, GPT-NeoX-20B 24 of 96."""
    from embedviz.rope.layers import layer_plan, published_config

    s = next(x for x in layer_plan(published_config(name)).settings if x.inv_freq is not None)
    still, turning = (s.head_dim - s.rotary_dim) // 2, s.rotary_dim // 2
    assert still >= turning
    m = np.arange(4_096, dtype=np.float64)[:, None]
    rotated = np.cos(m * 2.0 ** (-2 * np.arange(turning) / s.rotary_dim)).sum(axis=1)  # (m,) a loop over pairs
    assert rotated.min() < 0 <= (still + rotated).min()


@pytest.mark.slow
def test_base_bound_for_1k_matches_the_paper_and_a_naive_check():
    out = base_lower_bound(1_024)
    assert f"{out.base:.1e}" == "4.3e+03"  # Men et al. 2024, Table (d=128): 1K -> 4.3e3
    assert naive_passes(out.base, 1_024)
    assert not naive_passes(out.base / (1 + out.rel_step), 1_024)  # the grid point below fails


@pytest.mark.slow  # the papers' base scans, run fresh
def test_base_bound_for_4k_matches_the_paper():
    out = base_lower_bound(4_096)
    assert f"{out.base:.1e}" == "2.7e+04"  # Men et al. 2024: 4K -> 2.7e4
    assert first_negative(128, out.base, 4_096) is None


def test_the_criterion_is_not_monotone_in_the_base():
    # why the scan cannot bisect: at L = 4,096 a base passes, a larger one fails, a larger one passes again
    assert first_negative(128, 26_953, 4_096) is None
    assert first_negative(128, 27_500, 4_096) is not None
    assert first_negative(128, 29_000, 4_096) is None


def test_base_bound_errors():
    with raises_input("scan_length", value=200_000, limit=131_072):
        base_lower_bound(200_000)
    assert MAX_SCAN_LENGTH == 131_072
    with raises_input("no_base", max_base=100):
        base_lower_bound(1_024, max_base=100)


def test_interpolation_bound_is_d_over_294_73_at_the_midpoint():
    # Chen et al. 2023, Eq. 7: d / (32 ln c) * max|h|, 32 ln 10000 = 294.73
    assert 32 * math.log(10_000) == pytest.approx(294.73, abs=0.005)
    assert interpolation_bound(128, 10_000, [0.5])[0] == pytest.approx(128 / 294.73, rel=1e-4)
    np.testing.assert_array_equal(interpolation_bound(128, 10_000, [0.0, 1.0, 7.0]), [0, 0, 0])  # trained offsets


def test_extrapolation_bound_matches_a_loop_and_exceeds_d():
    s, d = 37.25, 16
    theta_j = [10_000 ** (-2 * j / d) for j in range(d // 2)]
    loop = 2 * sum(abs(sum(complex(math.cos(s * t), math.sin(s * t)) for t in theta_j[:k + 1])) for k in range(d // 2))
    assert extrapolation_bound(d, 10_000, [s])[0] == pytest.approx(loop, rel=1e-12)
    # the paper: B(s) is "at least larger than d" -> 2 B(s) / (d / (32 ln c)) >= 2 * 294.73 ~ 600 times
    s = np.linspace(0, 4096, 40_001)
    assert (extrapolation_bound(128, 10_000, s) / 2).min() > 128


def test_extrapolation_is_hundreds_of_times_looser():
    from embedviz.rope.theory import extrapolation_to_interpolation
    ratio = extrapolation_to_interpolation(128, 10_000, np.linspace(0, 4096, 4_001))
    assert ratio > 2 * 294.73 * 0.99  # the paper's "at least ~600x" (B(s) > d)


def test_the_base_scan_stops_at_its_cpu_budget_and_says_how_far_it_got():
    with pytest.raises(rope_theory.ScanStopped) as stopped:
        rope_theory.base_lower_bound(4_096, 512, cpu_budget_s=0.0)
    assert stopped.value.below >= 2.0 and "stopped after 0 s of CPU" in str(stopped.value)
    summary = rope_theory.theory_summary(512, 10_000.0, 4_096, 4_096, cpu_budget_s=0.0)
    assert summary.base_bound is None and summary.base_below >= 2.0 and summary.critical > 0


# the scans already run (KNOWN_SCANS): what the page reads instead of scanning per request


def numpy_passes(base: float, length: int, head_dim: int) -> bool:
    """sum_i cos(m * base^(-2i/d)) >= 0 for every m < length, written out with numpy (not the scan's code)."""
    m = np.arange(length, dtype=np.float64)[:, None]
    i = np.arange(head_dim // 2, dtype=np.float64)[None, :]
    return bool((np.cos(m * base ** (-2 * i / head_dim)).sum(axis=1) >= 0).all())


@pytest.mark.parametrize("head_dim, length", sorted(rope_theory.KNOWN_SCANS))
def test_every_known_scan_passes_and_the_grid_base_below_fails(head_dim, length):
    out = rope_theory.base_bound(length, head_dim)
    assert out.base == pytest.approx(2.0 * 1.001 ** (out.scanned - 1), rel=1e-9)  # a point of the scan's grid
    assert numpy_passes(out.base, length, head_dim)
    assert not numpy_passes(out.base / 1.001, length, head_dim)


def test_known_scans_give_the_papers_numbers():
    # Men et al. 2024, d = 128: 4.3e3 for 1K, 2.7e4 for 4K (their 1.6e4 for 2K is lowered to 1.2e4 by a finer scan)
    assert f"{rope_theory.base_bound(1_024).base:.1e}" == "4.3e+03"
    assert f"{rope_theory.base_bound(4_096).base:.1e}" == "2.7e+04"
    assert f"{rope_theory.base_bound(2_048).base:.1e}" == "1.2e+04"


def assert_same_scan(known, fresh):
    """The same grid point of the same scan. The base may differ in its last bit: the table was scanned on another
    CPU, whose libm rounds a power differently (204511.71209372955 there, ...53 here for d = 32 at 2K)."""
    assert dataclasses.replace(known, base=0.0) == dataclasses.replace(fresh, base=0.0)
    assert known.base == pytest.approx(fresh.base, rel=1e-12)


@pytest.mark.slow
def test_a_known_scan_equals_a_fresh_scan():
    assert_same_scan(rope_theory.base_bound(1_024, 24), base_lower_bound(1_024, 24))  # the cheapest entry, scanned now
    fresh = rope_theory.base_bound(1_024, 48)  # not in the table: scanned, and equal to a direct scan
    assert (48, 1_024) not in rope_theory.KNOWN_SCANS
    assert_same_scan(fresh, base_lower_bound(1_024, 48))


@pytest.mark.slow
@pytest.mark.parametrize("head_dim, length", sorted(rope_theory.KNOWN_SCANS))
def test_every_known_scan_equals_a_fresh_scan(head_dim, length):
    assert_same_scan(rope_theory.base_bound(length, head_dim), base_lower_bound(length, head_dim))


def test_the_critical_dimension_counts_at_most_the_dimensions_that_turn():
    """Proportional RoPE: θ^(−2i/d) over a 256-dim head, but only 64 dims have a frequency (the rest are 0)."""
    assert critical_dimension(256, 1_000.0, 131_072) == 256  # every pair would turn within 131,072 positions
    assert critical_dimension(256, 1_000.0, 131_072, turning=64) == 64
    # 2 ceil(128 ln(4,096 / 2π) / ln 1e6) = 2 ceil(60.04) = 122 < 192: a cap above the count leaves it
    assert critical_dimension(256, 1e6, 4_096, turning=192) == 122
    with raises_input("at_most", name="turning", value=258, limit=256):
        critical_dimension(256, 1_000.0, 131_072, turning=258)
