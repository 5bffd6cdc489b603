"""`make bench` times page reruns at settings named by widget key (benchmarks/bench_*.py CASES); nothing else runs
those cases, so a widget that moves into a lazy tab or is renamed stopped the benchmark with a KeyError unnoticed.
Each case is applied here exactly as the benchmark applies it, and the page must run it without an error."""
from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from benchmarks import bench_rope, bench_sinusoidal
from benchmarks._apptest import apply_settings

ROOT = Path(__file__).resolve().parents[2]
CASES = [(page, name, values) for module in (bench_rope, bench_sinusoidal)
         for page, settings in module.CASES.items() for name, values in settings]


@pytest.mark.slow  # every benchmark case's page run
@pytest.mark.parametrize(("page", "name", "values"), CASES, ids=[f"{Path(p).stem}-{n}" for p, n, _ in CASES])
def test_every_benchmark_case_sets_widgets_that_exist_and_the_page_runs(page, name, values):
    at = AppTest.from_file(str(ROOT / page), default_timeout=120).run()
    apply_settings(at, values)
    at.run()
    assert not at.exception and not at.error, (name, at.exception, at.error)
    for key, value in values.items():
        if not key.endswith("_tab"):
            assert at.session_state[key] == value, (name, key)  # the setting really took
