"""A training run bounded by CPU time: a classroom server must not spend more than a couple of seconds on one
request (without a budget, a link with 2,000 steps, d_model 256 and 2,000 distinct characters cost 6.6 s of CPU)."""
from __future__ import annotations

import time

from embedviz.training.experiment import train_group_experiment, train_on_text

CJK = "".join(chr(0x4E00 + i) for i in range(2_000))  # 2,000 distinct characters: a 2,000-way softmax


def test_a_zero_budget_stops_after_the_first_step_with_its_snapshot():
    r = train_group_experiment(steps=50, d_model=8, seed=0, cpu_budget_s=0.0)
    assert len(r.losses) == 1
    assert r.snapshots[-1][0] == 1 and r.snapshots[0][0] == 0
    assert (r.weights_after == r.snapshots[-1][1]).all()


def test_no_budget_trains_every_step_and_a_budgeted_run_that_finishes_is_the_same_run():
    full = train_group_experiment(steps=40, d_model=8, seed=3)
    budgeted = train_group_experiment(steps=40, d_model=8, seed=3, cpu_budget_s=60.0)
    assert len(full.losses) == len(budgeted.losses) == 40
    assert (full.weights_after == budgeted.weights_after).all()


def test_the_heaviest_page_setting_stops_near_its_budget():
    budget = 0.3
    cpu = time.thread_time()
    r = train_on_text(CJK * 2, steps=2_000, d_model=256, lr=1.0, context_length=8, cpu_budget_s=budget)
    cpu = time.thread_time() - cpu
    assert 0 < len(r.losses) < 2_000  # stopped early, after at least one step
    # the budget plus one step and the result's bookkeeping; without the budget this run takes ~6.6 s of CPU
    assert cpu < budget + 1.5, f"{cpu:.2f} s of CPU for a {budget} s budget"
