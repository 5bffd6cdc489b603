"""What the benchmarks share: median timing, AppTest page reruns, chart JSON size, Markdown tables.

Each bench_*.py prints its own tables; the helpers here keep them measuring and printing the same way.
"""
from __future__ import annotations

import os
import statistics
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from embedviz._threads import limit_threads

limit_threads()  # every bench_*.py imports this module: it measures the thread setup the app and tests run with

RERUNS = 3  # a page rerun is timed as the median of 3: one slow rerun (a GC pause, a busy core) does not count

# AppTest looks a widget up per kind, so a key alone is tried against every kind a benchmark sets
WIDGET_KINDS = ("select_slider", "slider", "number_input", "text_input", "selectbox", "segmented_control")

# (setting name, {widget key: value}) per page path relative to the repository root
Cases = Mapping[str, Sequence[tuple[str, Mapping[str, Any]]]]


# timing


def median_times(fn: Callable, *args, repeats: int = RERUNS, warm_up: bool = False, **kwargs) -> tuple[float, float]:
    """Median wall and CPU seconds of ``repeats`` calls of ``fn(*args, **kwargs)``.

    ``warm_up`` first makes one untimed call (imports, page faults of the first allocation). CPU time sits next to
    wall time because on a shared machine the wall time also counts waiting for a core.
    """
    if warm_up:
        fn(*args, **kwargs)
    wall, cpu = [], []
    for _ in range(repeats):
        start, start_cpu = time.perf_counter(), time.process_time()
        fn(*args, **kwargs)
        wall.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    return statistics.median(wall), statistics.median(cpu)


def median_time(fn: Callable, *args, repeats: int = RERUNS, warm_up: bool = False, **kwargs) -> float:
    """Median wall seconds of ``repeats`` calls of ``fn(*args, **kwargs)`` (see :func:`median_times`)."""
    return median_times(fn, *args, repeats=repeats, warm_up=warm_up, **kwargs)[0]


# AppTest


def chart_sizes(at) -> list[int]:
    """Bytes of JSON each plotly chart on the page sends to the browser."""
    return [len(chart.proto.spec) for chart in at.get("plotly_chart")]


def largest_chart_json(at) -> int:
    """Bytes of the largest plotly chart's JSON on the page, 0 without a chart."""
    return max(chart_sizes(at), default=0)


def set_widget(at, key: str, value) -> None:
    """Set the widget with this key, whatever its kind."""
    for kind in WIDGET_KINDS:
        try:
            getattr(at, kind)(key=key).set_value(value)
            return
        except KeyError:
            continue
    raise KeyError(key)


def apply_settings(at, values: dict) -> None:
    """Set a case's widgets on a page that has run once. A ``*_tab`` key opens that tab first (its English label):
    a lazy tab's widgets exist only once it is open. tests/app/test_bench_cases.py runs every case through this."""
    tabs = {key: value for key, value in values.items() if key.endswith("_tab")}
    if tabs:
        for key, value in tabs.items():
            at.session_state[key] = value
        at.run()
    for key, value in values.items():
        if key not in tabs:
            set_widget(at, key, value)


# Markdown tables


def print_header(*columns: str, align: str) -> None:
    """The header of a Markdown table; ``align`` has one letter per column, "l" or "r" (numbers)."""
    if len(align) != len(columns) or set(align) - {"l", "r"}:
        raise ValueError(f"align ({align!r}) must give 'l' or 'r' for each of the {len(columns)} columns")
    print_row(*columns)
    print("|" + "|".join("---:" if a == "r" else "---" for a in align) + "|")


def print_row(*cells: object) -> None:
    """One Markdown table row of already formatted cells."""
    print("| " + " | ".join(str(cell) for cell in cells) + " |")


# the cold / warm rerun table of a page and its settings


def print_cold_warm_reruns(root: Path, cases: Cases) -> None:
    """Per page and setting: set the widgets on a fresh AppTest, time the rerun with empty caches (cold), then the
    median of 3 more reruns (warm), with the largest chart JSON; a row is printed as soon as it is measured."""
    import streamlit as st
    from streamlit.testing.v1 import AppTest

    from embedviz.app import compat
    from embedviz.app.widgets import url_cut_toast

    compat.install(url_cut_notice=url_cut_toast)  # a page run without the frame gets the frame's patches first
    os.chdir(root)  # the pages read files relative to the repository, as under `streamlit run`
    print("\n### page reruns (AppTest; a widget is set, then: cold = the rerun with empty caches, "
          "warm = median of 3 more reruns)\n")
    print("CPU time is shown next to wall time: on a shared machine the wall time also counts waiting for a core.\n")
    print_header("page", "setting", "cold wall / CPU (s)", "warm wall / CPU (s)", "largest chart JSON (KB)",
                 align="llrrr")
    largest = 0
    for page, settings in cases.items():
        AppTest.from_file(str(root / page), default_timeout=120).run()  # first run: imports (torch), not timed
        for name, values in settings:
            at = AppTest.from_file(str(root / page), default_timeout=120).run()
            apply_settings(at, values)
            st.cache_data.clear()
            cold, cold_cpu = median_times(at.run, repeats=1)
            assert not at.exception and not at.error, (page, name, at.exception, at.error)
            warm, warm_cpu = median_times(at.run)
            size = largest_chart_json(at)
            largest = max(largest, size)
            print_row(Path(page).stem, name, f"{cold:.3f} / {cold_cpu:.3f}", f"{warm:.3f} / {warm_cpu:.3f}",
                      f"{size / 1e3:.0f}")
    print(f"\nLargest chart JSON: {largest / 1e3:.0f} KB (cap 1,000 KB)")
