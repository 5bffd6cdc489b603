"""A real model past its length: GlassLM's losses by position (part 1), its attention view (part 2), the page's
cached reruns, and a replica's RSS with the model loaded.

Targets (on an idle 2-core machine, one thread per process): part 1 at 4x (512 positions, 10 windows, 5 methods)
<= 1.0 s and at 8x <= 3 s, cold (each method computed once, then cached per text, method, factor and length);
part 2 <= 0.3 s; a replica's RSS grows <= 80 MB with the model loaded and both parts run.
Every timing line carries the load average it was taken at: on a shared machine the wall time also counts waiting
for a core, and CPU time is shown beside it. The A/B rows (glassllm's own numpy forward against the core's torch
forward, both at the trained 128) run interleaved, in the same minutes.

Run: .venv/bin/python -m benchmarks.bench_past_length
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

from benchmarks._apptest import median_times, print_header, print_row

ROOT = Path(__file__).resolve().parents[1]
PAGE = str(ROOT / "app_pages" / "past_length.py")
METHODS = ("none", "linear", "dynamic", "yarn", "llama3")  # the issue's five: lesson 003's three, Llama 3, none


def load() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def part1(length: int, windows: int = 10) -> None:
    from embedviz.language_model import extension, glass

    text = glass.default_text()
    for method in METHODS:
        extension.position_losses(text, length, extension.rope_parameters(method, length / 128), windows=windows)


def part2(length: int) -> None:
    """What the attention tab computes (past_length_view.attention, without its cache): one window's weights at
    this length and at the trained length, the distance profiles and the heads' kinds."""
    from embedviz.language_model import glass, heads

    text = glass.default_text()
    weights = heads.attention_weights(text, length, None)
    heads.distance_profile(weights)
    heads.head_kinds(weights)
    heads.head_kinds(heads.attention_weights(text, 128, None))


def core() -> None:
    from embedviz.language_model import glass

    start = time.perf_counter()
    glass.load()
    print(f"\n### Core (OPENBLAS_NUM_THREADS={os.environ.get('OPENBLAS_NUM_THREADS')}, "
          f"OMP_NUM_THREADS={os.environ.get('OMP_NUM_THREADS')}; model load {time.perf_counter() - start:.3f} s)\n")
    print_header("what", "wall (s)", "CPU (s)", "load average", "target (idle)", align="lrrll")
    part1(128)  # warm-up: torch's first kernels
    for name, fn, args, target in (
        ("part 1 at 4x: 512 positions x 10 windows x 5 methods", part1, (512,), "<= 1.0 s"),
        ("part 1 at 8x: 1,024 positions x 10 windows x 5 methods", part1, (1024,), "<= 3 s"),
        ("part 2 at 4x: attention of one 512-position window + 128, profiles, kinds", part2, (512,), "<= 0.3 s"),
        ("part 2 at 8x: the same at 1,024 positions", part2, (1024,), ""),
    ):
        wall, cpu = median_times(fn, *args)
        print_row(name, f"{wall:.2f}", f"{cpu:.2f}", load(), target)


def forward_a_b() -> None:
    """glassllm's numpy forward (it stops at its 128 positions) against the core's torch forward, 10 windows of
    128 tokens, interleaved: why the core runs the model in torch."""
    import glassllm
    import numpy as np

    from embedviz.language_model import glass

    model, _ = glassllm.load_pretrained("en")
    ids = glass.encode(glass.default_text())[:10 * 128].reshape(10, 128)
    print("\n### Forward, 10 windows of 128 tokens (interleaved A/B, median of 3 each round)\n")
    print_header("round", "glassllm numpy (s)", "core torch (s)", "load average", align="lrrl")
    for round_ in range(3):
        with glassllm.no_grad():
            numpy_wall, _ = median_times(model.forward, ids)
        torch_wall, _ = median_times(glass.logits, ids)
        print_row(round_ + 1, f"{numpy_wall:.3f}", f"{torch_wall:.3f}", load())
    np.testing.assert_allclose(glass.logits(ids), model.forward(ids).data, atol=1e-4)


def page_reruns() -> None:
    """The page at its defaults through AppTest: the first (cold: four methods computed) and cached reruns."""
    import streamlit as st
    from streamlit.testing.v1 import AppTest

    from embedviz.app import compat
    from embedviz.app.widgets import url_cut_toast
    from embedviz.lessons.widget_keys import PastLength as K

    compat.install(url_cut_notice=url_cut_toast)
    os.chdir(ROOT)
    print("\n### Page reruns (AppTest)\n")
    print_header("setting", "cold wall / CPU (s)", "warm wall / CPU (s)", "load average", align="lrrl")
    for name, query in (("defaults: lesson 003 at 4x, 4 methods", {}),
                        ("8x, the same 4 methods", {K.LENGTH: "1024", K.FACTOR: "8"}),
                        ("attention tab at 4x", {K.TAB: "Attention in a real model"})):
        at = AppTest.from_file(PAGE, default_timeout=300)
        for key, value in query.items():
            at.query_params[key] = value
        st.cache_data.clear()
        cold, cold_cpu = median_times(at.run, repeats=1)
        assert not at.exception and not at.error, (name, at.exception, at.error)
        warm, warm_cpu = median_times(at.run)
        print_row(name, f"{cold:.2f} / {cold_cpu:.2f}", f"{warm:.2f} / {warm_cpu:.2f}", load())


_RSS_PROBE = r"""
import json, resource
from embedviz._threads import limit_threads
limit_threads()
def rss():
    for line in open("/proc/self/status"):
        if line.startswith(("VmRSS", "VmHWM")):
            yield line.split(":")[0], int(line.split()[1]) / 1024
import streamlit, torch, numpy  # what a replica has loaded before this page
from embedviz.app import frame  # noqa: F401
out = {"imports": dict(rss())}
from embedviz.language_model import glass
glass.load()
out["model"] = dict(rss())
from benchmarks.bench_past_length import part1, part2
part1(1024); part2(512)
out["both parts (8x, attention at 4x)"] = dict(rss())
print(json.dumps(out))
"""


def rss() -> None:
    """A fresh process, as a replica: RSS after its imports, after the model is read, after both parts ran."""
    done = subprocess.run([sys.executable, "-c", _RSS_PROBE], cwd=ROOT, capture_output=True, text=True, check=True)
    out = json.loads(done.stdout.strip().splitlines()[-1])
    base = out["imports"]["VmRSS"]
    print("\n### Replica RSS (a fresh process)\n")
    print_header("after", "RSS (MiB)", "growth over the imports (MiB)", "peak VmHWM (MiB)", align="lrrr")
    for name, values in out.items():
        print_row(name, f"{values['VmRSS']:.0f}", f"{values['VmRSS'] - base:+.0f}", f"{values['VmHWM']:.0f}")


def main() -> None:
    print(f"## A real model past its length ({time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, "
          f"load average {load()})")
    core()
    forward_a_b()
    page_reruns()
    rss()


if __name__ == "__main__":
    main()
