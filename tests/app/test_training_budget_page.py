"""The Trained embedding page keeps each rerun within the server's training budget: a run that needs more stops,
says so in the reader's language, and trains every step only when the reader asks (a button)."""
from __future__ import annotations

import pytest

from embedviz.app import trained_embedding_view
from embedviz.lessons.widget_keys import Training as K
from tests.app import pagetest as pt

PAGE = "trained_embedding"


@pytest.fixture
def no_budget_left(monkeypatch):
    """A budget of 0 s: every run stops after its first step (the page reads the view's constant each run)."""
    monkeypatch.setattr(trained_embedding_view, "RUN_CPU_BUDGET_S", 0.0)
    trained_embedding_view._stored.clear()
    yield
    trained_embedding_view._stored.clear()


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_run_past_the_budget_stops_says_so_and_finishes_on_request(no_budget_left, lang):
    words = pt.text("train.stopped", lang, done=1, steps=100, budget=0.0)
    at = pt.page(PAGE, lang=lang, **{K.STEPS: "100"}).run()
    pt.ok(at)
    assert any(words in w.value for w in at.warning), [w.value for w in at.warning]
    [button] = [b for b in at.button if b.key and b.key.startswith("tr_finish")]
    button.click().run()
    pt.ok(at)
    assert not any(pt.shows(w.value, key, lang) for key in ("train.stopped", "train.press_stopped")
                   for w in at.warning)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_button_is_bounded_too_and_says_so(no_budget_left, monkeypatch, lang):
    """"Train every step" has its own budget (a press of 2,000 distinct characters x d_model 256 x 2,000 steps took
    17-49 s of CPU): a press past it stops, says why in the reader's language, and offers no second button."""
    from embedviz.app.i18n import catalog

    monkeypatch.setattr(trained_embedding_view, "PRESS_CPU_BUDGET_S", 0.0)
    at = pt.page(PAGE, lang=lang, **{K.STEPS: "100"}).run()
    [button] = [b for b in at.button if b.key and b.key.startswith("tr_finish")]
    button.click().run()
    pt.ok(at)
    lead = catalog()["train.press_stopped"][lang].split("{")[0]
    [warning] = [w.value for w in at.warning if w.value.startswith(lead)]
    assert "100" in warning and "1" in warning
    assert not [b for b in at.button if b.key and b.key.startswith("tr_finish")]
    at.run()  # a rerun finds the pressed run in the cache: the same words, still no button
    assert [w.value for w in at.warning if w.value.startswith(lead)] == [warning]
    assert not [b for b in at.button if b.key and b.key.startswith("tr_finish")]


def test_a_text_runs_cached_result_stays_small_whatever_its_vocabulary(no_budget_left, monkeypatch):
    """A text run keeps what its tab shows: the similarity matrix block-averaged to the screen's cells and the final
    map, not (V, V) tables: 2,000 distinct characters held ~31 MB per cached run, 26 seeds +853 MB."""
    import pickle

    monkeypatch.setattr(trained_embedding_view, "RUN_CPU_BUDGET_S", trained_embedding_view.SUMMARY_RESERVE_S + 0.2)
    cjk = "".join(chr(0x4E00 + i) for i in range(2_000))
    r = trained_embedding_view.text_experiment(cjk, 2_000, 256, 0.01, 0, 8)
    assert r.stopped and r.sim_size == 2_000
    assert r.sim_after.shape[0] <= 352 and len(r.sim_labels) == r.sim_after.shape[0]
    assert len(pickle.dumps(r)) < 1_500_000
