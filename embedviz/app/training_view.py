"""Cached training runs of the Trained embedding page.

A run is cached per settings with ``st.cache_data``. The progress bar must only appear when a run really trains, and
an element written from inside a cached function would be replayed on every cache hit, so the cache is probed
first: ``_stored`` raises (exceptions are never cached) unless it is handed a fresh result to store.
"""
from __future__ import annotations

import time
from collections.abc import Callable

import streamlit as st

from embedviz import training, training_result

# CPU seconds one rerun may spend training before it stops and offers a button for the rest: a link or a slider
# must not cost a classroom server more than that (text 001's default run takes ~0.4 s here).
RUN_CPU_BUDGET_S = 2.0
SOFTMAX = {"vocab": 256, "groups": None}  # the head's classes: the text's 256-byte vocabulary, or the groups only
TEXT_PAIRS = {("a", "b"): "0.03 → 0.56", ("a", "A"): "≈ 0.04"}  # what text 001 quotes (before -> after; after only)


class _NotCached(Exception):
    pass


@st.cache_data(max_entries=24, show_spinner=False)
def _stored(kind: str, settings: tuple, scope: str, _fresh: dict | None = None) -> dict:
    if _fresh is None:
        raise _NotCached  # a probe that found nothing; exceptions are not cached
    return _fresh


def parse_groups(text: str) -> tuple[str, ...]:
    """'abcdefghij ABCDEFGHIJ' -> ('abcdefghij', 'ABCDEFGHIJ'): groups are separated by spaces or new lines."""
    return tuple(text.split())


def _summary(result: training.TrainingResult, seconds: float, *, pairs_of_groups: bool) -> dict:
    """What the page shows, computed once per run by the core: similarities, group means over the snapshots, 2-D
    projections. ``pairs_of_groups``: the groups are strings of tokens (the group experiment), so the text's pairs
    can be named."""
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
        "pairs": training_result.text_pairs(result) if pairs_of_groups else {},
        "num_classes": result.num_classes,
        "unseen_classes": result.unseen_classes,
        "cross_peak": training_result.cross_group_peak(result) if pairs_of_groups else None,
        "cross_zero": training_result.cross_group_zero(result) if pairs_of_groups else None,
        "seconds": seconds,
    }


def _run(kind: str, settings: tuple, train: Callable, progress: Callable[[int, int], None] | None, *,
         steps: int, full: bool) -> dict:
    """A cached run: the full one if any session trained it, else (unless ``full``) one bounded by the budget."""
    full_key, budget_key = (kind, settings, "full"), (kind, settings, "budget")
    for key in (full_key,) if full else (full_key, budget_key):
        try:
            return _stored(*key)
        except _NotCached:
            pass
    start = time.perf_counter()
    result = train(progress, None if full else RUN_CPU_BUDGET_S)
    summary = _summary(result, time.perf_counter() - start, pairs_of_groups=kind == "groups")
    summary["steps_done"] = len(result.losses)
    summary["stopped"] = summary["steps_done"] < steps
    return _stored(*(budget_key if summary["stopped"] else full_key), _fresh=summary)


def group_experiment(
    steps: int, d_model: int, lr: float, seed: int, groups: tuple[str, ...], softmax: str,
    *, progress: Callable[[int, int], None] | None = None, full: bool = False,
) -> dict:
    """Text 001's experiment for these settings, trained once and then served from the cache.

    ``progress(step, steps)`` is only called when the run is really trained (not on a cache hit).
    """
    settings = (steps, d_model, lr, seed, groups, softmax)

    def train(callback, budget):
        return training.train_group_experiment(
            steps=steps, d_model=d_model, lr=lr, seed=seed, groups=groups, vocab_size=SOFTMAX[softmax],
            progress=callback, cpu_budget_s=budget,
        )

    return _run("groups", settings, train, progress, steps=steps, full=full)


def text_experiment(
    text: str, steps: int, d_model: int, lr: float, seed: int, context: int,
    *, progress: Callable[[int, int], None] | None = None, full: bool = False,
) -> dict:
    """``train_on_text`` on the user's text (character tokens), cached like ``group_experiment``."""
    settings = (text, steps, d_model, lr, seed, context)

    def train(callback, budget):
        return training.train_on_text(
            text, steps=steps, d_model=d_model, lr=lr, seed=seed, context=context, progress=callback,
            cpu_budget_s=budget,
        )

    return _run("text", settings, train, progress, steps=steps, full=full)


def text_reference(pair: tuple[str, str]) -> str:
    """Text 001's numbers for this pair as the text quotes them, or '' if it does not."""
    return TEXT_PAIRS.get(pair, "")


def loss_floor(groups: tuple[str, ...]) -> float:
    """The lowest loss any model can reach on these groups (the core's ``training_result.loss_floor``)."""
    return training_result.loss_floor(groups)
