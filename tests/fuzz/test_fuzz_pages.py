"""Random combinations of every page's widget values (hypothesis + AppTest), through app.py's navigation.

For each page of ``embedviz.app.pages.PAGES``: run it at its defaults, find its widgets (and the sidebar's language
switch), set each to a random valid value, run again. Then: no traceback; every ``st.error`` says something, in the reader's language; the
rerun's peak memory grows the process by under 1 GiB; the rerun stays within a few seconds of CPU.

`make test` runs EMBEDVIZ_FUZZ_EXAMPLES (default 8) derandomized examples per page, the same every run. The nightly
size is `EMBEDVIZ_FUZZ_EXAMPLES=200 EMBEDVIZ_FUZZ_RANDOM=1 .venv/bin/python -m pytest tests/fuzz -q`: fresh random
examples each night, failures kept in .hypothesis/ and replayed first next time.
"""
from __future__ import annotations

import os
import time

import pytest
from hypothesis import given
from hypothesis import strategies as st
from streamlit.testing.v1 import AppTest

from embedviz.app.pages import PAGES
from embedviz.app.i18n import catalog
from tests.app.pagetest import english_only
from tests.fuzz.conftest import FUZZ_SETTINGS, ROOT, discover, peak_rss_bytes, reset_peak_rss, rss_bytes

ENTRIES = [entry for _, entries in PAGES for entry in entries]
# 1 GiB: a classroom server runs many sessions; one view must not take a gigabyte. Measured as the rerun's growth
# over the process's memory just before it: the pytest process already holds every model and cache the tests
# before it loaded, which is no view's cost.
MAX_GROWTH = 1 << 30
# CPU seconds, not wall time: the limit must not depend on what else the machine is doing. Pages aim at <= 1 s
# at any slider extreme; a few seconds leaves room for AppTest itself and for cold caches.
MAX_RERUN_CPU_S = float(os.environ.get("EMBEDVIZ_FUZZ_MAX_SECONDS", "5"))


def _empty_error_texts() -> set[str]:
    """What ``common.input_error`` shows with an empty message, in every language: an error must say more."""
    return {text.format(message="").strip() for text in catalog()["common.input_error"].values()}


def _run_page(file: str) -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120).run()
    at.switch_page(file).run()
    assert not at.exception, f"{file} at its defaults: {at.exception[0].value}"
    return at


@pytest.mark.parametrize("entry", ENTRIES, ids=[url for *_, url in ENTRIES])
def test_random_widget_values_never_break_a_page(entry):
    file = entry[0]
    empty_errors = _empty_error_texts()
    assert reset_peak_rss(), "one rerun's peak memory needs Linux's /proc/self/clear_refs"

    @FUZZ_SETTINGS
    @given(data=st.data())
    def fuzz(data):
        at = _run_page(file)
        knobs = discover(at)
        chosen = {}
        for knob in knobs:
            value = data.draw(knob.strategy, label=knob.name)
            chosen[knob.name] = knob.apply(value)
        before = rss_bytes()
        reset_peak_rss()
        cpu, wall = time.process_time(), time.perf_counter()
        at.run()
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        where = f"{file} with {chosen}"
        assert not at.exception, f"{where}: traceback shown:\n{at.exception[0].value}"
        for error in at.error:
            assert error.value.strip() and error.value.strip() not in empty_errors, f"{where}: an empty error box"
            assert not english_only(error.value), f"{where}: a message only in English: {error.value}"
        growth = peak_rss_bytes() - before
        assert growth < MAX_GROWTH, (f"{where}: the rerun's peak took {growth / 2**20:.0f} MiB more "
                                     f"(limit {MAX_GROWTH // 2**20} MiB)")
        assert cpu < MAX_RERUN_CPU_S, f"{where}: the rerun took {cpu:.1f} s of CPU ({wall:.1f} s wall)"

    fuzz()
