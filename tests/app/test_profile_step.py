"""benchmarks/profile_step.py's accounting: a CDP sampling profile summed by where each sample ran.

The README's "where the time goes" rows come from these sums; the browser run itself is checked in
tests/e2e/test_feel.py.
"""
from __future__ import annotations

import collections

import pytest

from benchmarks import profile_step


def frame(url: str = "", name: str = "") -> dict:
    return {"url": url, "functionName": name, "lineNumber": 0, "columnNumber": 0}


@pytest.mark.parametrize(("url", "name", "expected"), [
    ("http://127.0.0.1:8501/static/js/react-dom.Dzbslgj4.js", "Ul", "react-dom"),
    ("http://127.0.0.1:8501/static/js/emotion-styled.browser.esm.DdOkyKg_.js", "He", "emotion-styled.browser.esm"),
    ("http://127.0.0.1:8501/static/js/PlotlyChart.D9Z0_fxz.js", "", "PlotlyChart"),
    ("", "getBoundingClientRect", "(getBoundingClientRect)"),
    ("", "(program)", "(program)"),
    ("", "", "(anonymous)"),
])
def test_a_sample_is_named_by_its_script_without_the_build_hash_or_by_the_browser_function(url, name, expected):
    assert profile_step.part(frame(url, name)) == expected


def test_each_sample_counts_until_the_next_one_and_idle_is_left_out():
    profile = {
        "nodes": [{"id": 1, "callFrame": frame(name="(root)")}, {"id": 2, "callFrame": frame(name="(idle)")},
                  {"id": 3, "callFrame": frame("http://x/static/js/react-dom.Dzbslgj4.js", "Ul")},
                  {"id": 4, "callFrame": frame(name="getBoundingClientRect")}],
        "samples": [3, 3, 4, 2, 3],
        "timeDeltas": [0, 100, 200, 300, 400],  # µs before each sample
    }
    # react-dom: 100 + 200 µs (its first two samples) + 0 (the last sample, with nothing after it)
    assert dict(profile_step.self_ms(profile)) == pytest.approx({"react-dom": 0.3, "(getBoundingClientRect)": 0.3})


def test_the_table_puts_the_page_next_to_the_floor_largest_first_and_each_column_adds_up():
    page = {"step": collections.Counter({"react-dom": 20.0, "PlotlyChart": 30.0, **{f"x{i}": 1.0 for i in range(20)}}),
            "open": collections.Counter({"react-dom": 50.0})}
    floor = {"step": collections.Counter({"PlotlyChart": 28.0, "(program)": 5.0}), "open": collections.Counter()}
    rows = profile_step.table("p", page, floor).splitlines()
    assert rows[5:7] == ["| PlotlyChart | 30.0 / 28.0 | 0.0 / 0.0 |", "| react-dom | 20.0 / 0.0 | 50.0 / 0.0 |"]
    # 23 parts, 14 shown: the floor's own (program) is among the 9 summed, not dropped
    assert rows[-2] == "| other (9) | 8.0 / 5.0 | 0.0 / 0.0 |"
    assert rows[-1] == "| **busy in all** | 70.0 / 33.0 | 50.0 / 0.0 |"
    cells = [row.split(" | ")[1].split(" / ") for row in rows[5:-1]]
    assert [sum(float(c[i]) for c in cells) for i in (0, 1)] == [70.0, 33.0]  # each step column adds up
