"""benchmarks/bench_live.py's parts that no other test runs: the bare page it times a key step against, and its table.

A bare page that lost its slider or chart would make the benchmark wait or time nothing; a table that dropped a
column would print numbers under the wrong heads."""
from __future__ import annotations

from streamlit.testing.v1 import AppTest

from benchmarks import bench_live
from tests.conftest import ROOT


def test_the_bare_page_is_a_title_a_slider_and_one_chart():
    at = AppTest.from_file(str(ROOT / "benchmarks" / "baseline_page.py"), default_timeout=30).run()
    assert not at.exception
    assert [e.value for e in at.title] == ["Baseline"] and len(at.slider) == 1 and len(at.get("plotly_chart")) == 1
    at.slider[0].set_value(40).run()  # what a key step reruns
    assert not at.exception and len(at.get("plotly_chart")) == 1


def test_the_table_has_a_row_per_view_and_says_each_target():
    views = {"Sinusoidal heatmap, defaults": {"drag": 31.0, "moves": 60.0, "ms": 14.0, "key": 0.05, "key_full": 0.08},
             "RoPE decay curves, largest": {"drag": 9.0, "moves": 60.0, "ms": 40.0, "key": 0.2, "key_full": 0.3}}
    res = {"load_before": "load average 0.1 / 0.1 / 0.1 (1 / 5 / 15 min)", "training_first_s": 3.1,
           "training_warm_s": 0.55, "fresh_open_s": 5.0, "warm_open_s": 1.2, "views": views, "bare_key": 0.1}
    lines = bench_live.table(res).splitlines()
    live, cold = "\n".join(lines).split("\n\n| cold start")
    rows = [line for line in live.splitlines() if line.startswith("| ")]
    assert len(rows) == 1 + len(views) + 1 and len({row.count("|") for row in rows}) == 1  # header, views, bare
    assert "31.0 (met: >= 30)" in rows[1] and "0.50 |" in rows[1]
    assert "9.0 (not met: >= 10)" in rows[2] and "2.00 |" in rows[2]
    assert rows[1].endswith("| 80 |") and rows[2].endswith("| 300 |")  # key step -> full resolution, in ms
    assert "load average 0.1" in lines[0]


def test_the_cold_start_sits_beside_the_warm_figures_of_the_same_run():
    res = {"load_before": "load average 0.1 / 0.1 / 0.1 (1 / 5 / 15 min)", "training_first_s": 3.1,
           "training_warm_s": 0.55, "fresh_open_s": 5.0, "warm_open_s": 1.2, "views": {}, "bare_key": 0.1}
    lines = bench_live.table(res).splitlines()
    head = lines.index("| cold start | first (s) | warm: the second (s) |")
    training, opening = lines[head + 2:head + 4]
    assert training.endswith("| 3.10 | 0.55 |") and "torch's import is in neither" in training
    assert opening.endswith("| 5.0 | 1.2 |") and "fresh server" in opening
    assert {line.count("|") for line in lines[head:head + 4]} == {4}
