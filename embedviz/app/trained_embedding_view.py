"""Cached training runs of the Trained embedding page.

A run is cached per settings with ``st.cache_data``. The progress bar must only appear when a run really trains, and
an element written from inside a cached function would be replayed on every cache hit, so the cache is probed
first: ``_stored`` raises (exceptions are never cached) unless it is handed a fresh result to store.
"""
from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import streamlit as st

from embedviz.training import experiment, result as training_result

# CPU seconds one rerun may spend before training stops and offers a button for the rest: a link or a slider
# must not cost a classroom server more than that (lesson 001's default run takes ~0.4 s here). The budget covers
# the whole run: training stops SUMMARY_RESERVE_S early, which leaves the summary and the figures their share.
RUN_CPU_BUDGET_S = 2.0
SUMMARY_RESERVE_S = 0.5
# The "train every step" button is bounded too: one press must not take a server's core for a minute or its
# memory past a pod's limit (2,000 distinct characters, d_model 256, 2,000 steps took 19-49 s of CPU and +870 MB).
# A press that needs more stops there and says so; benchmarks/bench_hostile.py measures the heaviest press.
PRESS_CPU_BUDGET_S = 8.0
SOFTMAX = {"vocab": 256, "groups": None}  # the head's classes: the text's 256-byte vocabulary, or the groups only
TEXT_PAIRS = {("a", "b"): "0.03 → 0.56", ("a", "A"): "≈ 0.04"}  # what lesson 001 quotes (before -> after; after only)


class _NotCached(Exception):
    pass


@dataclass(frozen=True)
class Run:
    """How a run went, for either experiment."""
    steps_done: int  # every step asked, unless the run stopped at its budget
    stopped: bool  # whether it stopped early
    pressed: bool  # whether it is the "train every step" button's run (bounded by the press budget)
    seconds: float  # wall time of training and summary
    cpu: float  # CPU seconds of training and summary: what the budget bounds


@dataclass(frozen=True)
class GroupRun(Run):
    """What the "Two groups" tab shows (V tokens, S snapshots)."""
    vocab: list[str]  # the V tokens, group by group
    group_of: list[int]  # each token's group, an index into group_names
    group_names: list[str]
    losses: np.ndarray  # (steps_done,) each step's loss
    sim_before: np.ndarray  # (V, V) cosine similarity of the rows at step 0
    sim_after: np.ndarray  # (V, V) and after the last step
    groups_before: tuple[float, float]  # mean similarity within groups and across them, at step 0
    groups_after: tuple[float, float]  # and after the last step
    snapshot_steps: np.ndarray  # (S,) the steps of the snapshots
    curve: np.ndarray  # (S, 2) within- and cross-group mean similarity at each snapshot
    points: list[np.ndarray]  # S x (V, 2) the rows projected to 2-D at each snapshot
    limit: float  # one axis range for every snapshot's picture
    pairs: dict[tuple[str, str], tuple[float, float]]  # the text's pairs -> similarity before and after
    num_classes: int  # the head's classes
    unseen_classes: int  # classes of the head's softmax no token of the run is
    cross_peak: tuple[int, float] | None  # the step and value of the cross-group curve's top (None: one group)
    cross_zero: int | None  # the first step after the peak where it is below 0, or None


@dataclass(frozen=True)
class TextRun(Run):
    """What the "Your own text" tab shows, and no more (an entry stays small for any vocabulary)."""
    vocab: list[str]
    group_of: list[int]  # each token's character class, an index into group_names
    group_names: list[str]
    losses: np.ndarray
    sim_after: np.ndarray  # (M, M) the final similarity, tokens ordered by class, block-averaged to M <= the cells
    sim_labels: list[str]  # (M,) its row labels
    sim_step: int  # tokens per block
    sim_size: int  # V, the tokens before averaging
    point: np.ndarray  # (V, 2) the final rows projected to 2-D


# Each entry is small (a few hundred KB: group tables are at most 256 x 256, a text run keeps its similarity matrix
# block-averaged to the screen's cells and only the final map), so 24 entries stay within ~25 MB whatever the
# settings; benchmarks/bench_hostile.py measures 26 seeds of the heaviest link.
@st.cache_data(max_entries=24, show_spinner=False)
def _stored(kind: str, settings: tuple, scope: str, _fresh: Run | None = None) -> Run:
    if _fresh is None:
        raise _NotCached  # a probe that found nothing; exceptions are not cached
    return _fresh


def parse_groups(text: str) -> tuple[str, ...]:
    """'abcdefghij ABCDEFGHIJ' -> ('abcdefghij', 'ABCDEFGHIJ'): groups are separated by spaces or new lines."""
    return tuple(text.split())


def _group_fields(result: experiment.TrainingResult) -> dict[str, Any]:
    """GroupRun's fields, computed once per run by the core: similarities, group means over the snapshots, 2-D
    projections, the text's pairs (at most 256 tokens: every table here is small)."""
    steps, curve = training_result.snapshot_curves(result)  # (S,), (S, 2)
    points = training_result.snapshot_projections(result)  # S x (V, 2)
    return {
        "vocab": result.vocab,
        "group_of": result.group_of,
        "group_names": result.group_names,
        "losses": result.losses,
        "sim_before": result.similarity_matrix(after=False),
        "sim_after": result.similarity_matrix(after=True),
        "groups_before": result.group_similarity(after=False),
        "groups_after": result.group_similarity(after=True),
        "snapshot_steps": steps,
        "curve": curve,
        "points": points,
        "limit": training_result.projection_limit(points),  # one axis range for every snapshot's picture
        "pairs": training_result.text_pairs(result),
        "num_classes": result.num_classes,
        "unseen_classes": result.unseen_classes,
        "cross_peak": training_result.cross_group_peak(result),
        "cross_zero": training_result.cross_group_zero(result),
    }


def _text_fields(result: experiment.TrainingResult) -> dict[str, Any]:
    """TextRun's fields: the final similarity matrix with its tokens ordered by class, block-averaged to the
    screen's cells as the heatmap would draw it, the final 2-D map and the losses."""
    sim, labels, step = training_result.class_ordered_similarity(result)
    return {
        "vocab": result.vocab, "group_of": result.group_of, "group_names": result.group_names,
        "losses": result.losses, "sim_after": sim, "sim_labels": labels, "sim_step": step,
        "sim_size": len(result.vocab), "point": training_result.snapshot_projections(result)[-1],
    }


def _run(kind: str, settings: tuple, train: Callable, progress: Callable[[int, int], None] | None, *,
         steps: int, full: bool) -> Run:
    """A cached run: the full one if any session trained it, else a pressed one, else (unless ``full``) one
    bounded by the link's budget. ``full``: the reader pressed "train every step" (bounded by the press budget)."""
    keys = [(kind, settings, "full"), (kind, settings, "press")] + ([] if full else [(kind, settings, "budget")])
    for key in keys:
        try:
            return _stored(*key)
        except _NotCached:
            pass
    start, start_cpu = time.perf_counter(), time.thread_time()
    result = train(progress, (PRESS_CPU_BUDGET_S if full else RUN_CPU_BUDGET_S) - SUMMARY_RESERVE_S)
    record, fields = (TextRun, _text_fields(result)) if kind == "text" else (GroupRun, _group_fields(result))
    done = len(result.losses)
    summary = record(**fields, steps_done=done, stopped=done < steps, pressed=full,
                     seconds=time.perf_counter() - start, cpu=time.thread_time() - start_cpu)
    scope = "full" if not summary.stopped else "press" if full else "budget"
    return _stored(kind, settings, scope, _fresh=summary)


def group_experiment(
    steps: int, d_model: int, lr: float, seed: int, groups: tuple[str, ...], softmax: str,
    *, progress: Callable[[int, int], None] | None = None, full: bool = False,
) -> GroupRun:
    """Lesson 001's experiment for these settings, trained once and then served from the cache.

    ``progress(step, steps)`` is only called when the run is really trained (not on a cache hit).
    """
    settings = (steps, d_model, lr, seed, groups, softmax)

    def train(callback, budget):
        return experiment.train_group_experiment(
            steps=steps, d_model=d_model, lr=lr, seed=seed, groups=groups, vocab_size=SOFTMAX[softmax],
            progress=callback, cpu_budget_s=budget,
        )

    return _run("groups", settings, train, progress, steps=steps, full=full)


def text_experiment(
    text: str, steps: int, d_model: int, lr: float, seed: int, context: int,
    *, progress: Callable[[int, int], None] | None = None, full: bool = False,
) -> TextRun:
    """``train_on_text`` on the user's text (character tokens), cached like ``group_experiment``."""
    settings = (text, steps, d_model, lr, seed, context)

    def train(callback, budget):
        return experiment.train_on_text(  # the tab shows the final table only: no snapshots in between
            text, steps=steps, d_model=d_model, lr=lr, seed=seed, context_length=context, progress=callback,
            cpu_budget_s=budget, snapshot_every=steps,
        )

    return _run("text", settings, train, progress, steps=steps, full=full)


def text_reference(pair: tuple[str, str]) -> str:
    """Lesson 001's numbers for this pair as the text quotes them, or '' if it does not."""
    return TEXT_PAIRS.get(pair, "")


def loss_floor(groups: tuple[str, ...]) -> float:
    """The lowest loss any model can reach on these groups (the core's ``training_result.loss_floor``)."""
    return training_result.loss_floor(groups)
