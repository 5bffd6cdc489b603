"""Context extension page: core speed at real and extreme sizes, page reruns at the defaults and every widget's
extremes, and the largest chart JSON.

Run: .venv/bin/python -m benchmarks.bench_context
"""
from __future__ import annotations

import json
import os
from pathlib import Path
from embedviz.lessons.widget_keys import Context as K

ROOT = Path(__file__).resolve().parents[1]

from benchmarks._apptest import chart_sizes, median_time, print_header, print_row  # noqa: E402
from embedviz.rope import context_extension, config as rope_config, scaling as rope_scaling  # noqa: E402
from embedviz.models import params  # noqa: E402
from embedviz.app import context_extension_view as view  # noqa: E402
from embedviz.app.i18n import catalog  # noqa: E402

PAGE = str(ROOT / "app_pages" / "context_extension.py")


def core_numbers() -> None:
    yarn = params.PRESETS["Qwen3-0.6B (YaRN 128K)"].rope_scaling  # static YaRN x4 from 32,768
    llama3 = context_extension.build_scaling("llama3", factor=8.0, original_max_position_embeddings=8192)
    phi = context_extension.extension_settings(context_extension.PHI3_MINI_128K)
    longrope = context_extension.build_scaling("longrope", factor=32.0, original_max_position_embeddings=4096,
                                               short_factor=phi.short_factor, long_factor=phi.long_factor)
    rows = [
        ("compute yarn (head_dim 128)", median_time(rope_scaling.compute, 128, 1e6, yarn)),
        ("extension_view Qwen3 YaRN 32K -> 128K (defaults)",
         median_time(context_extension.extension_view, 128, 1e6, yarn, original=32768, target=131072)),
        ("extension_view Llama 3.1 llama3 8K -> 128K",
         median_time(context_extension.extension_view, 128, 5e5, llama3, original=8192, target=131072)),
        ("extension_view Phi-3 LongRoPE at 128K",
         median_time(context_extension.extension_view, 96, 1e4, longrope, original=4096, target=131072,
                     context_length=131072)),
        ("extension_view head_dim 512, target 2,097,152 (widget maxima)",
         median_time(context_extension.extension_view, 512, 1e10, yarn, original=32768, target=2_097_152)),
        ("parse_config_json + extension_settings of the Phi-3 example",
         median_time(lambda: context_extension.extension_settings(
             rope_config.parse_config_json(view.EXAMPLE_CONFIG_TEXT)))),
    ]
    print(f"### Core (median of 3, load average {os.getloadavg()[0]:.1f})\n")
    print_header("what", "time", align="lr")
    for name, seconds in rows:
        print_row(name, f"{seconds * 1000:,.2f} ms")


def page_numbers() -> None:
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(PAGE, default_timeout=120)
    cold = median_time(at.run, repeats=1)
    results, largest = [("first run (imports, cold caches)", cold, cold)], (0, "")

    def measure(label: str, change=None) -> None:
        """The first run after the change (a cache miss for a new value), then the median of 3 reruns."""
        nonlocal largest
        if change is not None:
            change()
        first = median_time(at.run, repeats=1)
        assert not at.exception, (label, at.exception)
        rerun = median_time(at.run)
        for chart, size in zip(at.get("plotly_chart"), chart_sizes(at)):
            title = json.loads(chart.proto.spec)["layout"]["title"]["text"]
            if size > largest[0]:
                largest = (size, f"{title} ({label})")
        results.append((label, first, rerun))

    def reset() -> None:
        if any(button.key == K.RESET for button in at.button):
            at.button(key=K.RESET).click().run()

    def open_tab(code: str) -> None:
        at.session_state[K.TAB] = catalog()[f"ctx.tab_{code}"]["en"]

    measure(f"defaults ({view.DEFAULT_SOURCE}, tab 'pairs')")
    for code in view.TAB_CODES[1:]:  # one section per tab: each tab's own run and chart
        measure(f"tab '{code}'", lambda: open_tab(code))
    measure(f"source {view.YARN_SOURCE}, tab 'pairs'", lambda: (open_tab("pairs"),
                                                                 at.selectbox(key=K.SOURCE).set_value(view.YARN_SOURCE)))
    for kind, key, (lo, hi) in [("number_input", K.FACTOR, view.FACTOR), ("number_input", K.ORIGINAL, view.LENGTH),
                                ("number_input", K.TARGET, view.LENGTH), ("slider", K.HEAD_DIM, view.HEAD_DIM),
                                ("number_input", K.THETA, view.THETA)]:
        for value in (lo, hi):
            measure(f"{key} = {int(value):,}", lambda: getattr(at, kind)(key=key).set_value(value))
        reset()
    open_tab("calc")
    at.run()
    for value in (1, 32):  # the calculator's k lives in its own tab
        measure(f"ctx_k = {value} (calculator tab)", lambda: at.slider(key=K.K).set_value(value))
    open_tab("pairs")
    measure("head_dim 512 + target 2,097,152", lambda: (at.slider(key=K.HEAD_DIM).set_value(512),
                                                        at.number_input(key=K.TARGET).set_value(2_097_152)))
    reset()
    for method in ("linear", "llama3", "dynamic"):
        measure(f"method {method}", lambda: at.segmented_control(key=K.METHOD).set_value(method))
    for ratio in (view.RATIOS[0], view.RATIOS[-1]):
        measure(f"dynamic, length ratio {ratio:g}", lambda: at.select_slider(key=K.RATIO).set_value(ratio))
    measure("source config.json (Phi-3 LongRoPE)", lambda: at.selectbox(key=K.SOURCE).set_value(view.CONFIG))
    measure("source Llama-3.1-8B", lambda: at.selectbox(key=K.SOURCE).set_value("Llama-3.1-8B"))

    print("\n### Page reruns via AppTest (first run after the change, then the median of 3 reruns)\n")
    print_header("setting", "first run", "rerun", align="lrr")
    for label, first, rerun in results:
        print_row(label, f"{first:.3f} s", f"{rerun:.3f} s")
    print(f"\nLargest chart JSON: {largest[0] / 1024:,.1f} KB, {largest[1]}")


def main() -> None:
    core_numbers()
    page_numbers()


if __name__ == "__main__":
    main()
