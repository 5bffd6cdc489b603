"""Where a page's browser time goes: the renderer's CPU per slider step and per page open, by script, against the
bare page (the parts behind "Where the time goes" in the README).

    PYTHONPATH=. OPENBLAS_NUM_THREADS=1 .venv/bin/python -m benchmarks.profile_step --pages token-embeddings rope

Serves the app and the floor (``benchmarks/baseline_page.py``) as ``benchmarks/feel.py`` does, drives both with
one headless Chromium, and records the renderer main thread with the Chrome DevTools protocol's sampling profiler
(``Profiler.start`` / ``Profiler.stop``, every 100 µs) over ``--opens`` page opens and ``--steps`` presses of the
first slider, each waited for with feel.py's "settled". Samples are summed by where they ran: a script file
(its build hash dropped: ``react-dom``, ``PlotlyChart``, ``emotion-styled.browser.esm`` ...), a browser function
called from a script (``(getBoundingClientRect)``), or ``(program)``: the browser's own work outside any script
(style, layout, paint). Idle time is left out. Per page, a table of milliseconds per step and per open, the
page's next to the bare page's, largest first; the total row is the busy time.

feel.py says how much slower a page is than the floor; this says in which code the difference runs, which is what
decides whether a change to the app (fewer elements, a smaller chart) or only a change to Streamlit's frontend
can remove it.
"""
from __future__ import annotations

import argparse
import collections
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

from benchmarks import feel  # noqa: E402

SAMPLE_US = 100
ROWS = 14  # the largest parts shown per page; the rest are summed in "other"
HASH = re.compile(r"[.-][\w-]{8}\.js$")  # Vite's build hash: PlotlyChart.D9Z0_fxz.js -> PlotlyChart


def part(frame: dict) -> str:
    """Where one profile sample ran: a script file without its hash, or a browser function / state."""
    url, name = frame["url"], frame["functionName"]
    if url:
        return HASH.sub("", url.rsplit("/", 1)[-1])
    return f"({name.strip('()')})" if name else "(anonymous)"


def self_ms(profile: dict) -> collections.Counter:
    """Milliseconds of self time per part in one CDP profile (idle left out)."""
    frames = {node["id"]: node["callFrame"] for node in profile["nodes"]}
    out: collections.Counter = collections.Counter()
    # timeDeltas[i] is the time before sample i: sample i ran until sample i + 1
    for sample, delta in zip(profile["samples"], profile["timeDeltas"][1:] + [0]):
        out[part(frames[sample])] += delta / 1e3
    out.pop("(idle)", None)
    return out


class Recorder:
    """The sampling profiler of one tab, summed over the calls of ``record``."""

    def __init__(self, tab):
        self.cdp = tab.context.new_cdp_session(tab)
        self.cdp.send("Profiler.enable")
        self.cdp.send("Profiler.setSamplingInterval", {"interval": SAMPLE_US})

    def record(self, act) -> collections.Counter:
        self.cdp.send("Profiler.start")
        try:
            act()
        finally:
            profile = self.cdp.send("Profiler.stop")["profile"]
        return self_ms(profile)


def profile_page(tab, path: str, pid: int, *, opens: int, steps: int) -> dict[str, collections.Counter]:
    """Per-open and per-step milliseconds by part on one page (after one unrecorded warm-up open)."""
    t, cpu, rec = feel.Timings(), feel.Cpu(tab, pid), Recorder(tab)
    feel.open_page(tab, path, t, cpu, record=False)
    total_open: collections.Counter = collections.Counter()
    for _ in range(opens):
        total_open += rec.record(lambda: feel.open_page(tab, path, t, cpu))
    total_step = rec.record(lambda: feel.step_sliders(tab, t, cpu, steps=steps, max_sliders=1))
    if t.errors or not t.steps:
        raise RuntimeError(f"/{path}: {t.errors or 'no slider a reader can step on its first tab'}")
    per = {"open": collections.Counter({k: v / opens for k, v in total_open.items()})}
    per["step"] = collections.Counter({k: v / len(t.steps) for k, v in total_step.items()})
    return per


def table(name: str, page: dict, bare: dict) -> str:
    """One page's parts as a Markdown table, ms per step and per open, the page's next to the bare page's: the
    largest (by the page's step, then a tenth of its open, then the bare page's) first, the rest summed in one row,
    so each column adds up to its total."""
    kinds = ("step", "open")
    weight = lambda k: (page["step"][k] + page["open"][k] / 10, bare["step"][k] + bare["open"][k] / 10)
    order = sorted({k for side in (page, bare) for kind in kinds for k in side[kind]}, key=weight, reverse=True)
    shown, rest = order[:ROWS], order[ROWS:]
    lines = [f"\n### {name}: renderer CPU by script, ms (page / bare page)\n",
             "| where | per step | per open |", "|---|---:|---:|"]
    cell = lambda kind, keys: f"{sum(page[kind][k] for k in keys):.1f} / {sum(bare[kind][k] for k in keys):.1f}"
    for key in shown:
        lines.append(f"| {key} | {cell('step', [key])} | {cell('open', [key])} |")
    if rest:
        lines.append(f"| other ({len(rest)}) | {cell('step', rest)} | {cell('open', rest)} |")
    lines.append(f"| **busy in all** | {cell('step', order)} | {cell('open', order)} |")
    return "\n".join(lines)


def run(pages: list[str], *, steps: int, opens: int, browser=None) -> tuple[dict, dict[str, dict]]:
    """Serve the app and the floor, profile the floor and each page in one tab per server (``browser``: as for
    feel.serve), stop the servers; returns the floor's parts and each page's (or the RuntimeError it raised)."""

    def drive(browser, servers):
        contexts = []
        try:
            (app, app_url), (bare, bare_url) = servers
            app_tab, bare_tab = feel.new_tab(browser, app_url, contexts), feel.new_tab(browser, bare_url, contexts)
            floor, out = profile_page(bare_tab, "", bare.pid, opens=opens, steps=steps), {}
            for path in pages:
                try:
                    out[path] = profile_page(app_tab, path, app.pid, opens=opens, steps=steps)
                except RuntimeError as error:  # e.g. a page with no slider on its first tab: said, not fatal
                    out[path] = error
            return floor, out
        finally:
            for ctx in contexts:
                ctx.close()

    return feel.serve(drive, browser=browser)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pages", nargs="+", default=["token-embeddings"], help="url paths (default: token-embeddings)")
    parser.add_argument("--steps", type=int, default=12, help="presses of the first slider (default 12)")
    parser.add_argument("--opens", type=int, default=3, help="recorded opens (default 3)")
    args = parser.parse_args(argv)
    floor, pages = run(args.pages, steps=args.steps, opens=args.opens)
    for path, parts in pages.items():
        print(f"\n### {path}: {parts}" if isinstance(parts, RuntimeError) else table(path, parts, floor))
    return 1 if any(isinstance(parts, RuntimeError) for parts in pages.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
