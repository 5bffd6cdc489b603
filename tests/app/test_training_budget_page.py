"""The Trained embedding page keeps each rerun within the server's training budget: a run that needs more stops,
says so in the reader's language, and trains every step only when the reader asks (a button)."""
from __future__ import annotations

import pytest

from embedviz.app import training_view
from tests.app import pagetest as pt

PAGE = "trained_embedding"


@pytest.fixture
def no_budget_left(monkeypatch):
    """A budget of 0 s: every run stops after its first step (the page reads the view's constant each run)."""
    monkeypatch.setattr(training_view, "RUN_CPU_BUDGET_S", 0.0)
    training_view._stored.clear()
    yield
    training_view._stored.clear()


@pytest.mark.parametrize(("lang", "words"), [("en", "Stopped after 1 of 100 steps"), ("zh", "训练在第 1 步（共 100 步）停下")])
def test_a_run_past_the_budget_stops_says_so_and_finishes_on_request(no_budget_left, lang, words):
    at = pt.page(PAGE, lang=lang, tr_steps="100").run()
    pt.ok(at)
    assert any(words in w.value for w in at.warning), [w.value for w in at.warning]
    [button] = [b for b in at.button if b.key and b.key.startswith("tr_finish")]
    button.click().run()
    pt.ok(at)
    assert not any("Stopped after" in w.value or "停下" in w.value for w in at.warning)
