"""benchmarks/feel.py, the browser benchmark the README's Feel table comes from, run on one page with one step.

Nothing else runs it, so a change to the probe it installs in the page, or to the page it steps, could break the
table unnoticed (as `make bench` once broke, see tests/app/test_bench_cases.py). Checked: every row measured, no
error, and each step's phases in the order they happen (first message, then the script shown done, then drawn).
"""
from __future__ import annotations

import pytest

from benchmarks import feel, profile_step

pytestmark = pytest.mark.e2e


def test_feel_measures_a_page_and_the_floor_and_splits_each_step_in_ordered_phases(browser, monkeypatch):
    monkeypatch.setattr(feel, "QUIET_MS", 500)  # settled sooner: this checks the harness, not the numbers
    args = feel.argparse.Namespace(pages=["dot-product"], steps=1, sliders=1, opens=1, base_steps=1, tabs=False,
                                   script=None)
    res = feel.run(args, browser)  # the session's browser: one sync Playwright per process
    base, page = res["base"], res["pages"]["dot-product"]
    assert not base.errors and not page.errors, (base.errors, page.errors)
    for t in (base, page):
        assert t.steps and t.opens and len(t.step_phases) == len(t.steps)
        for (first, done), drawn in zip(t.step_phases, t.steps):
            assert 0 < first <= done <= drawn < 30, (first, done, drawn)
    table = feel.table(res)
    row = next(line for line in table.splitlines() if line.startswith("| dot-product |"))
    assert row.count("|") == table.splitlines()[4].count("|")  # every column filled, the header's count


def test_profile_step_finds_the_scripts_a_slider_step_runs_on_a_page_and_on_the_floor(browser, monkeypatch):
    """benchmarks/profile_step.py, whose tables say where a step's browser time goes, on one page."""
    monkeypatch.setattr(feel, "QUIET_MS", 500)
    floor, pages = profile_step.run(["dot-product"], steps=2, opens=1, browser=browser)
    for parts in (floor, pages["dot-product"]):
        for kind in ("step", "open"):  # a step redraws the chart (plotly.js) through React, an open too
            assert parts[kind]["PlotlyChart"] > 0 and parts[kind]["react-dom"] > 0, (kind, parts[kind].most_common(5))
            assert "(idle)" not in parts[kind]
