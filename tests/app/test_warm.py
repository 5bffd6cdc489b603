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
