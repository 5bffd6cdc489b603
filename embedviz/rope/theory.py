"""The theory that sizes RoPE's theta: three published results, computed as their papers state them.

- Critical dimension (Liu et al. 2023, "Scaling Laws of RoPE-based Extrapolation", arXiv:2310.05209): a pair whose
  wavelength 2*pi*theta^(2i/d) is longer than the training length never sees a full turn in training, so its angles
  past that length are new. The pairs that do turn fully are the first d_extra / 2:
  d_extra = 2 * ceil((d / 2) * log_theta(L_train / (2*pi))); d = 128, theta = 10,000, L = 4,096 -> 92.
- Base lower bound (Men et al. 2024, "Base of RoPE Bounds Context Length", NeurIPS, arXiv:2405.14591): a similar
  key should out-score a random one at every distance, which needs B(m) = sum_i cos(m * theta^(-2i/d)) >= 0 for
  m = 0 .. L-1. The smallest such base is found by a scan; the criterion is not monotone in the base (a base can
  pass while a larger one fails), so bisection would be wrong.
- Position Interpolation bound (Chen et al. 2023, "Extending Context Window of Large Language Models via
  Positional Interpolation", arXiv:2306.15595, Theorem 2.1 and Eq. 8): between two trained integer offsets the
  interpolated score stays within d * max|h| * (s - s1)(s2 - s) / (8 ln c) of the straight line (d / (32 ln c) at the
  midpoint: 128 / 294.73 for LLaMA); extrapolating, the only bound is 2 * max|h| * B(s), B(s) = sum_k |A_{k+1}(s)|,
  A_k(s) = sum_{j<k} e^{i s theta_j}, at least d and usually much more.
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass

import numpy as np

from embedviz._validate import even_int, finite_array, finite_float, positive_int
from embedviz.errors import InputError
from embedviz.rope.rotary import inverse_frequencies

MAX_SCAN_LENGTH = 131_072  # the base scan visits every m < L for every candidate base: bounded work per call
# Scans already run (rel_step 1e-3 from start 2.0, as base_lower_bound's defaults): (head_dim, L) -> how many grid
# bases were tried, so the bound is 2 * 1.001^(scanned - 1). Each costs 1-5 s of CPU (more on a loaded server), so
# a page showing the published head sizes at its lengths reads them here instead of scanning per request;
# tests/test_rope_theory.py checks every entry (it passes, the grid base below it fails) and re-runs some scans.
KNOWN_SCANS = {
    (24, 1_024): 10_839, (24, 2_048): 12_542, (24, 4_096): 14_310,
    (32, 1_024): 10_284, (32, 2_048): 11_542, (32, 4_096): 13_235,
    (64, 1_024): 8_268, (64, 2_048): 9_609, (64, 4_096): 10_827,
    (80, 1_024): 8_399, (80, 2_048): 8_929, (80, 4_096): 10_424,
    (96, 1_024): 7_821, (96, 2_048): 9_151, (96, 4_096): 10_221,
    (128, 1_024): 7_677, (128, 2_048): 8_670, (128, 4_096): 9_515,
    (256, 1_024): 7_307, (256, 2_048): 8_102, (256, 4_096): 9_096,
}
_KNOWN_START, _KNOWN_STEP = 2.0, 1e-3
_SCAN_ELEMENTS = 4_000_000  # cos evaluations per numpy call in the scan (~32 MB of float64)


def critical_dimension(head_dim: int, theta: float, train_length: int, *, turning: int | None = None) -> int:
    """d_extra = 2 * ceil((d / 2) * log_theta(L_train / (2*pi))), clipped to [0, d] (Liu et al. 2023, Eq. 10).

    The first d_extra / 2 pairs turn at least once inside the training length; the rest never finish a turn, and
    their angles beyond L_train are ones the model never saw. ``turning``: how many of the d dimensions have a
    frequency at all (proportional RoPE keeps theta^(-2i/d) over the whole head but zeroes the pairs past its
    rotated ones, which never turn), so at most that many.
    """
    head_dim = even_int("head_dim", head_dim, about="RoPE")
    theta = finite_float("theta", theta, greater_than=1.0)
    train_length = positive_int("train_length", train_length)
    pairs = (head_dim / 2) * math.log(train_length / (2 * math.pi)) / math.log(theta)
    critical = int(min(max(2 * math.ceil(pairs), 0), head_dim))
    if turning is not None:
        critical = min(critical, positive_int("turning", turning, minimum=0, maximum=head_dim))
    return critical


def score_sum(positions, head_dim: int, theta: float) -> np.ndarray:
    """B(m) = sum_i cos(m * theta^(-2i/d)) for every position m, shape (N,) (Men et al. 2024's long-term decay of
    token discrimination, up to the factor 2 sigma^2)."""
    positions = finite_array("positions", positions).astype(np.float64).reshape(-1)
    inv_freq = inverse_frequencies(head_dim, theta)
    return np.cos(np.multiply.outer(positions, inv_freq)).sum(axis=1)  # (N, d/2) -> (N,)


def first_negative(head_dim: int, theta: float, context_length: int) -> int | None:
    """The first m < context_length with B(m) < 0, or None when B stays >= 0 (chunked, stops at the first one)."""
    head_dim = even_int("head_dim", head_dim, about="RoPE")
    context_length = positive_int("context_length", context_length)
    found = _first_negatives(head_dim, np.array([finite_float("theta", theta, greater_than=1.0)]), context_length)
    return None if found[0] < 0 else int(found[0])


def _first_negatives(head_dim: int, bases: np.ndarray, context_length: int, *, stride: int = 1) -> np.ndarray:
    """For each base, the first m in 0, stride, 2*stride, ... < context_length with B(m) < 0, -1 where there is none.

    All bases advance over m together in chunks; a base leaves as soon as it fails, so small (failing) bases cost
    little, and the chunk grows as fewer bases remain. Shape (n_bases,).
    """
    exponents = np.arange(0, head_dim, 2, dtype=np.float64) / head_dim
    out = np.full(len(bases), -1, dtype=np.int64)
    alive = np.arange(len(bases))
    start = 0
    while alive.size and start < context_length:
        size = max(16, _SCAN_ELEMENTS // (alive.size * (head_dim // 2)))
        m = np.arange(start, min(context_length, start + size * stride), stride, dtype=np.float64)  # (M,)
        inv_freq = bases[alive, None] ** -exponents[None, :]  # (A, d/2)
        sums = np.cos(m[None, :, None] * inv_freq[:, None, :]).sum(axis=2)  # (A, M, d/2) -> (A, M)
        negative = sums < 0
        failed = negative.any(axis=1)
        out[alive[failed]] = m[negative[failed].argmax(axis=1)].astype(np.int64)
        alive = alive[~failed]
        start += size * stride
    return out


@dataclass(frozen=True)
class BaseBound:
    """The scan's result: ``base`` the smallest candidate with B(m) >= 0 for all m < L; ``scanned`` how many
    candidates were tried; ``rel_step`` the grid's relative spacing (the answer is exact to that spacing)."""

    base: float
    context_length: int
    head_dim: int
    scanned: int
    rel_step: float


class ScanStopped(ValueError):
    """The base scan used its CPU budget before finding a base; ``below`` is the largest base it had ruled out."""

    def __init__(self, message: str, below: float) -> None:
        super().__init__(message)
        self.below = below


def base_lower_bound(
    context_length: int, head_dim: int = 128, *, rel_step: float = 1e-3, start: float = 2.0,
    max_base: float = 1e13, batch: int = 512, cpu_budget_s: float | None = None,
) -> BaseBound:
    """Smallest base b on the grid start * (1 + rel_step)^k with sum_i cos(m * b^(-2i/d)) >= 0 for m = 0 .. L-1.

    A scan from small bases upwards, never bisection: the set of good bases is not an interval (at d = 128,
    L = 4,096 the base 26,953 passes, 27,500 does not, 29,000 does again). Bases are tried ``batch`` at a time,
    each dropped at its first negative m. ``cpu_budget_s``: raise :class:`ScanStopped` once this thread has spent
    that much CPU time (a server bounds what one request may cost; wide heads and long contexts take minutes).
    Men et al. report (d = 128) 4.3e3 for 1K, 2.7e4 for 4K, 8.4e4 for 8K (and 1.6e4 for 2K, which a finer scan
    lowers to 1.2e4, as Su Jianlin's brute force also found).
    """
    context_length = positive_int("context_length", context_length)
    if context_length > MAX_SCAN_LENGTH:
        raise InputError("scan_length", value=context_length, limit=MAX_SCAN_LENGTH)
    head_dim = even_int("head_dim", head_dim, about="RoPE")
    rel_step = finite_float("rel_step", rel_step, greater_than=0.0)
    start = finite_float("start", start, greater_than=1.0)
    max_base = finite_float("max_base", max_base, greater_than=start)
    batch = positive_int("batch", batch)
    scanned, k = 0, 0
    growth = math.log1p(rel_step)
    started = time.thread_time()
    while True:
        bases = start * np.exp(growth * np.arange(k, k + batch, dtype=np.float64))  # ascending
        if cpu_budget_s is not None and time.thread_time() - started > cpu_budget_s:
            raise ScanStopped(f"the base scan for head_dim {head_dim} and {context_length:,} positions stopped after "
                              f"{cpu_budget_s:g} s of CPU; every base below {bases[0]:.3g} fails", float(bases[0]))
        bases = bases[bases <= max_base]
        if not bases.size:
            raise InputError("no_base", max_base=max_base, length=context_length)
        # a strided look finds most failures at a fraction of the cost; only its survivors get every m checked
        survivors = np.flatnonzero(_first_negatives(head_dim, bases, context_length, stride=8) < 0)
        if survivors.size:
            full = _first_negatives(head_dim, bases[survivors], context_length)
            passed = survivors[full < 0]
            if passed.size:
                return BaseBound(float(bases[passed[0]]), context_length, head_dim,
                                 scanned + int(passed[0]) + 1, rel_step)
        scanned += len(bases)
        k += batch


def interpolation_bound(head_dim: int, theta: float, s) -> np.ndarray:
    """Chen et al. 2023, Theorem 2.1, per unit max|h_j|: d * (s - s1)(s2 - s) / (8 ln c) with s1 = floor(s),
    s2 = s1 + 1 (the neighbouring trained offsets), shape (N,). At most d / (32 ln c); 128 / 294.73 at c = 10,000."""
    head_dim = even_int("head_dim", head_dim, about="RoPE")
    theta = finite_float("theta", theta, greater_than=1.0)
    s = finite_array("s", s).astype(np.float64).reshape(-1)
    s1 = np.floor(s)
    return head_dim * (s - s1) * (s1 + 1 - s) / (8 * math.log(theta))


def extrapolation_bound(head_dim: int, theta: float, s) -> np.ndarray:
    """Chen et al. 2023, Eq. 8 (RoFormer Sec. 3.4.3), per unit max|h_j|: 2 * B(s), B(s) = sum_{k=0}^{d/2-1}
    |A_{k+1}(s)|, A_k(s) = sum_{j<k} e^{i s theta_j}, shape (N,)."""
    s = finite_array("s", s).astype(np.float64).reshape(-1)
    inv_freq = inverse_frequencies(head_dim, theta)
    partial_sums = np.cumsum(np.exp(1j * np.multiply.outer(s, inv_freq)), axis=1)  # (N, d/2): A_1 .. A_{d/2}
    return 2.0 * np.abs(partial_sums).sum(axis=1)


def extrapolation_to_interpolation(head_dim: int, theta: float, s) -> float:
    """How many times the smallest extrapolation bound over ``s`` exceeds the largest interpolation bound
    (d / (32 ln c)): Chen et al.'s "at least 2 * 294.73 ~ 600 times" at d = 128, c = 10,000."""
    return float(extrapolation_bound(head_dim, theta, s).min() / interpolation_bound(head_dim, theta, [0.5])[0])


def base_bound(context_length: int, head_dim: int = 128, *, rel_step: float = 1e-3,
               cpu_budget_s: float | None = None) -> BaseBound:
    """:func:`base_lower_bound` from its default start: read from :data:`KNOWN_SCANS` when that scan was run
    before, else scanned now (``cpu_budget_s`` bounds the scan, as there)."""
    scanned = KNOWN_SCANS.get((head_dim, context_length)) if rel_step == _KNOWN_STEP else None
    if scanned is None:
        return base_lower_bound(context_length, head_dim, rel_step=rel_step, cpu_budget_s=cpu_budget_s)
    base = _KNOWN_START * math.exp(math.log1p(rel_step) * (scanned - 1))  # the grid of base_lower_bound
    return BaseBound(float(base), context_length, head_dim, scanned, rel_step)


@dataclass(frozen=True)
class BaseBoundSummary:
    """The base bound as the page shows it (:func:`base_bound_summary`): found, or how far a stopped scan got."""

    base_bound: float | None  # the smallest base with B(m) >= 0 over the length; None when the scan ran out of time
    base_below: float | None  # when it ran out: every base below this one fails; None when the bound was found


def base_bound_summary(head_dim: int, scan_length: int, *, rel_step: float = 1e-3,
                       cpu_budget_s: float | None = None) -> BaseBoundSummary:
    """The base bound for ``scan_length`` as the page shows it: ``base_bound``, or None and ``base_below`` (how far
    the scan got) when it ran out of ``cpu_budget_s``."""
    try:
        found = base_bound(scan_length, head_dim, rel_step=rel_step, cpu_budget_s=cpu_budget_s)
    except ScanStopped as stopped:
        return BaseBoundSummary(base_bound=None, base_below=stopped.below)
    return BaseBoundSummary(base_bound=found.base, base_below=None)


@dataclass(frozen=True)
class TrainingTheory:
    """The critical dimension and the PI bounds at one setting (:func:`training_theory`)."""

    critical: int  # dims whose pairs turn at least once inside the training length (critical_dimension)
    turning_pairs: int  # pairs with a frequency (all of head_dim/2 but for proportional RoPE)
    still_pairs: int  # pairs at frequency 0: each adds cos 0 = 1 to sum_i cos(m w_i)
    s: np.ndarray  # (1500,) offsets from 0 to 2 * train_length
    interpolation: np.ndarray  # (1500,) the interpolation bound, one value repeated (it does not depend on s)
    extrapolation: np.ndarray  # (1500,) the extrapolation bound at each offset
    ratio: float  # extrapolation_to_interpolation over these offsets


def training_theory(head_dim: int, theta: float, train_length: int, *, turning: int | None = None) -> TrainingTheory:
    """The critical dimension (``turning``: see :func:`critical_dimension`), the turning and still pairs, and the PI
    bounds over s in [0, 2 * train_length] (1,500 points) with their ratio."""
    s = np.linspace(0, 2 * positive_int("train_length", train_length), 1_500)
    interpolation = float(interpolation_bound(head_dim, theta, [0.5])[0])
    pairs = head_dim // 2
    turning_pairs = pairs if turning is None else positive_int("turning", turning, minimum=0, maximum=head_dim) // 2
    return TrainingTheory(
        critical=critical_dimension(head_dim, theta, train_length, turning=turning),
        turning_pairs=turning_pairs, still_pairs=pairs - turning_pairs,
        s=s,
        interpolation=np.full(s.shape, interpolation),
        extrapolation=extrapolation_bound(head_dim, theta, s),
        ratio=extrapolation_to_interpolation(head_dim, theta, s),
    )


@dataclass(frozen=True)
class TheorySummary(TrainingTheory, BaseBoundSummary):
    """:class:`TrainingTheory` and :class:`BaseBoundSummary` at one setting (:func:`theory_summary`)."""


def theory_summary(head_dim: int, theta: float, train_length: int, scan_length: int, *,
                   rel_step: float = 1e-3, cpu_budget_s: float | None = None) -> TheorySummary:
    """The three results at one setting: :func:`training_theory` and :func:`base_bound_summary` together. When the
    base scan runs out of ``cpu_budget_s``, ``base_bound`` is None and ``base_below`` says how far it got."""
    return TheorySummary(**vars(training_theory(head_dim, theta, train_length)),
                         **vars(base_bound_summary(head_dim, scan_length, rel_step=rel_step,
                                                   cpu_budget_s=cpu_budget_s)))
