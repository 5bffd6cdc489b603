"""Warm the slow caches once per served process, in the background, so a first visitor does not wait for them.

At the defaults every page reruns in milliseconds except the Trained embedding page, whose first visit trains text
001's experiment (0.4 s on an idle core, 3 s on a loaded one). A server started with ``EMBEDVIZ_WARM=1`` (``make
run``, ``deploy/launcher.py``, the systemd unit and the Kubernetes Deployment set it) trains that default run in a
daemon thread from the server's start (serve.py's lifespan; under a bare ``streamlit run app.py``, its first
session), into the same ``st.cache_data`` entry the page reads; until it is done the
page trains as before. Off by default, so tests (AppTest) see the page's own first run and its progress bar.

Then the same thread computes what the lesson tours' steps compute, lesson by lesson from the first (a class starts
at lesson 000), within ``TOUR_CPU_BUDGET_S`` of its own CPU: each question's answer, each training run a step opens,
the bundled models a Real model step reads, and lesson 003's methods on the past-length page (1.4 s on an idle core,
the slowest step), each into the entry its page reads. A class stepping onto a page a server has not opened yet
(all its tabs at once, the teacher's too) then reads it cached.
"""
from __future__ import annotations

import gc
import logging
import os
import threading
import time

ENV = "EMBEDVIZ_WARM"
# The Trained embedding page's defaults (its widgets' values): steps, d_model, lr, seed, groups, softmax.
# tests/app/test_warm.py checks that a page run at its defaults reads exactly this cache entry.
TRAINED_DEFAULTS = (500, 16, 0.01, 0, ("abcdefghij", "ABCDEFGHIJ"), "vocab")
# The warm thread's CPU seconds for the tours' steps (all five tours took 21 s of it at load 6-12): a bound, so a
# slow machine's warm-up does not take a core from the first visitors for long.
TOUR_CPU_BUDGET_S = 60.0

_lock = threading.Lock()
_thread: threading.Thread | None = None


def start() -> threading.Thread | None:
    """Start the warm-up thread once per process (when $EMBEDVIZ_WARM is 1); returns it, or None when off."""
    global _thread
    if os.environ.get(ENV) != "1":
        return None
    with _lock:
        if _thread is None:
            _thread = threading.Thread(target=_warm, name="embedviz-warm", daemon=True)
            _thread.start()
    return _thread


def _warm() -> None:
    from embedviz.app import trained_embedding_view

    try:
        # the whole run, not one cut by the budget
        trained_embedding_view.group_experiment(*TRAINED_DEFAULTS, full=True)
    except Exception:  # a failed warm-up must never stop serving: the page then trains on its first visit
        logging.getLogger(__name__).exception("embedviz warm-up failed")
    done = warm_tours()
    logging.getLogger(__name__).info("embedviz warm-up done: %d tour steps", len(done))
    settle_heap()  # what the first pages and the warm-up loaded stays for the server's life too


def warm_tours(budget_s: float = TOUR_CPU_BUDGET_S) -> list[tuple[str, int]]:
    """What each tour step computes, in the tours' order, until ``budget_s`` of this thread's CPU is spent; the
    steps warmed. A step that fails is logged and skipped (its page computes it on its first visit)."""
    from embedviz.lessons import tours

    start, done = time.thread_time(), []
    for lesson, tour in tours.TOURS.items():
        for number in range(1, len(tour.steps) + 1):
            if time.thread_time() - start > budget_s:
                logging.getLogger(__name__).info("tour warm-up stopped at %s/%d: its CPU budget is spent", lesson,
                                                 number)
                return done
            try:
                warm_step(lesson, number)
                done.append((lesson, number))
            except Exception:  # noqa: BLE001 - as above: never stop serving
                logging.getLogger(__name__).exception("warm-up of tour %s step %d failed", lesson, number)
    return done


def warm_step(lesson: str, number: int) -> None:
    """The slow part of one step, into the caches its page and its panel read: its question's answer (and the
    training run that answer quotes), the training run, the bundled model or the methods' losses its page shows.
    The other pages' steps rerun in a fraction of a second from cold."""
    from embedviz.lessons import tours
    from embedviz.app import tour_answers
    from embedviz.lessons.widget_keys import PastLength, RealModel, Training

    step = tours.step(lesson, number)
    s = step.settings
    if step.page == "trained-embedding":
        from embedviz.app import trained_embedding_view as trained

        trained.group_experiment(s[Training.STEPS], s[Training.D_MODEL], s[Training.LR], s[Training.SEED],
                                 trained.parse_groups(s[Training.GROUPS]), s[Training.SOFTMAX], full=True)
    elif step.page == "real-model":
        from embedviz.app import real_model_view as real

        real.lesson_pairs(s.get(RealModel.MODEL) or real.BUNDLED_NAME)  # reads the model, then the lesson's pairs
    elif step.page == "past-length":
        from embedviz.app import past_length_view as past

        text = past.text_of(s[PastLength.SOURCE], past.own_text_default())
        past.losses(text, list(s[PastLength.METHODS]), float(s[PastLength.FACTOR]), int(s[PastLength.LENGTH]),
                    press=True)  # a press's budget: the four methods at once
    if step.question is not None:
        tour_answers.answer(lesson, number)


def settle_heap() -> None:
    """Set aside what a served process has loaded so far (modules, their tables, the warm caches) from Python's
    cyclic garbage collector, which otherwise walks all of it in every full collection: with torch, plotly and
    pandas loaded, ~0.3 s holding the GIL, several times in a class's burst of reruns, every session stopped. The
    objects are not lost: reference counting still frees what is dropped; only cycles among them are never looked
    for, and what they are is loaded once and kept."""
    gc.collect()
    gc.freeze()
