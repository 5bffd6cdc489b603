"""The warm-up at server start: off unless asked for, and when on it fills the very cache entry the Trained
embedding page reads at its defaults, so a first visitor sees the run at once (no training, no progress bar)."""
from __future__ import annotations

import pytest
import streamlit as st

from embedviz.app import trained_embedding_view, warm
from tests.app import pagetest as pt


@pytest.fixture
def fresh_warm(monkeypatch):
    import gc

    monkeypatch.setattr(warm, "_thread", None)
    st.cache_data.clear()
    yield
    st.cache_data.clear()  # other tests must see their own first runs
    gc.unfreeze()  # the warm-up set this test process's heap aside from the collector, as a server's


def _progress_texts(at) -> list[str]:
    return [p.proto.text for p in at.get("progress")]


def test_off_unless_the_server_asks(fresh_warm, monkeypatch):
    monkeypatch.delenv(warm.ENV, raising=False)
    assert warm.start() is None
    monkeypatch.setenv(warm.ENV, "0")
    assert warm.start() is None


@pytest.mark.slow  # the default training run, in the warm-up and afresh
def test_warm_run_is_the_pages_default_run(fresh_warm, monkeypatch):
    monkeypatch.setenv(warm.ENV, "1")
    thread = warm.start()
    assert thread is not None and warm.start() is thread  # once per process
    thread.join(timeout=180)
    assert not thread.is_alive()
    import gc

    assert gc.get_freeze_count() > 0  # what it loaded, set aside from the cyclic collector's full walks
    # the cache now holds the default run: the page at its defaults trains nothing (no progress bar at all)
    at = pt.page("trained_embedding", timeout=120).run()
    pt.ok(at)
    assert not _progress_texts(at)
    assert len(at.get("plotly_chart")) == 1  # the open view (similarity before / after); the others are lazy tabs
    # and it is what training gives at those settings: the same numbers as a full run trained afresh
    warmed = trained_embedding_view.group_experiment(*warm.TRAINED_DEFAULTS)  # the full run the warm-up stored
    assert not warmed.stopped
    st.cache_data.clear()
    fresh = trained_embedding_view.group_experiment(*warm.TRAINED_DEFAULTS, full=True)
    assert fresh.groups_after == pytest.approx(warmed.groups_after, abs=1e-6)


def test_the_tours_warm_up_goes_in_the_tours_order_and_stops_at_its_budget(fresh_warm, monkeypatch):
    """Lesson 000's steps first, one after another, and no step begun once the CPU budget is spent (a clock that
    ticks one second per look)."""
    ticks = iter(range(1_000))
    monkeypatch.setattr(warm.time, "thread_time", lambda: float(next(ticks)))
    warmed = []
    monkeypatch.setattr(warm, "warm_step", lambda lesson, number: warmed.append((lesson, number)))
    assert warm.warm_tours(budget_s=2.5) == warmed == [("000", 1), ("000", 2)]


@pytest.mark.slow  # every step of the five tours, computed once
def test_every_tour_steps_slow_part_is_in_the_cache_its_page_reads(fresh_warm, monkeypatch):
    from embedviz.lessons import tours
    from embedviz.app import past_length_view as past, real_model_view as real, tour_answers
    from embedviz.lessons.widget_keys import PastLength as P, RealModel, Training as T

    steps = [(lesson, k) for lesson, t in tours.TOURS.items() for k in range(1, len(t.steps) + 1)]
    assert warm.warm_tours(budget_s=600) == steps
    # read back with the core unable to compute: each value comes from the cache the warm-up filled
    def no_compute(*args, **kwargs):
        raise AssertionError("computed again: the warm-up left no cache entry")

    monkeypatch.setattr(tours, "answer", no_compute)
    monkeypatch.setattr(real, "load_bundled_model", no_compute)
    for lesson, k in steps:
        step = tours.step(lesson, k)
        s = step.settings
        if step.question:
            assert tour_answers.answer(lesson, k)[0] in step.question.options
        if step.page == "real-model":
            assert real.model(s[RealModel.MODEL]).vocab_size > 0
        if step.page == "past-length":
            text = past.text_of(s[P.SOURCE], past.own_text_default())
            for method in s[P.METHODS]:  # raises when the method's losses are not stored
                assert past._stored(text, method, float(s[P.FACTOR]), int(s[P.LENGTH])).size
        if step.page == "trained-embedding":  # the whole run is there: the page's budgeted call returns it
            run = trained_embedding_view.group_experiment(
                s[T.STEPS], s[T.D_MODEL], s[T.LR], s[T.SEED], trained_embedding_view.parse_groups(s[T.GROUPS]),
                s[T.SOFTMAX])
            assert not run.stopped
