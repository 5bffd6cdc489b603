"""A classroom on one server: N students' browsers at once, each opening every page and moving a slider.

    .venv/bin/python -m benchmarks.classroom                    # 10 sessions against its own server
    .venv/bin/python -m benchmarks.classroom --sessions 20 --url http://127.0.0.1:8501 --server-pid 1234

Starts the app on a free 127.0.0.1 port (unless --url), warms it up with one session, then runs --sessions
headless Chromium sessions concurrently (one browser, a context per student). Reports p50/p95/p99 page-load
time (open URL -> script done and every chart drawn), rerun time (slider key press -> chart redrawn and script
done), errors (tracebacks, JavaScript errors, timeouts) and the server's memory (RSS from /proc) before, at peak
and after the sessions closed, as a Markdown table. Loopback only; every loop is bounded; it stops by itself.

Note: the browsers run on the same machine as the server, so on 2 cores the students' Chromium competes with
the server for CPU: the times are an upper bound on what students on their own machines would see.
"""
from __future__ import annotations

import argparse
import asyncio
import os
import platform
import random
import statistics
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent

from deploy.launcher import free_port, rss_bytes, start_streamlit, stop_process, wait_healthy  # noqa: E402
from embedviz.app.pages import PAGES  # noqa: E402

CHROMIUM = os.environ.get("EMBEDVIZ_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-quic", "--no-first-run",
    "--disable-component-update", "--disable-sync",
]
IDLE = "[data-testid='stApp'][data-test-script-state='notRunning']"
SLIDER = "[data-testid='stSlider'] input[type='range'], [data-testid='stSlider'] [role='slider']"
CHART_HASH_JS = """() => {
  const plots = Array.from(document.querySelectorAll("[data-testid='stPlotlyChart'] .js-plotly-plot"));
  const text = plots.map(el => JSON.stringify([el.data, el.layout && el.layout.title])).join("|");
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) { h ^= text.charCodeAt(i); h = Math.imul(h, 16777619); }
  return plots.length + ":" + (h >>> 0).toString(16);
}"""
# Every chart container the script sent has a drawn plot (or a traceback is shown: then stop waiting).
ALL_DRAWN_JS = """() => {
  if (document.querySelector("[data-testid='stException']")) return true;
  const boxes = document.querySelectorAll("[data-testid='stPlotlyChart']");
  return Array.from(boxes).every(b => b.querySelector('.js-plotly-plot .main-svg'));
}"""
TIMEOUT_MS = 120_000
# In-page stopwatch of the script runs: when data-test-script-state turns 'running' and back to 'notRunning'.
# It sees the server's run time plus the websocket round trip, without the chart drawing that follows.
SCRIPT_TIMER_JS = """() => {
  const app = () => document.querySelector("[data-testid='stApp']");
  window.__runs = []; let started = null;
  new MutationObserver(() => {
    const state = app() && app().getAttribute('data-test-script-state');
    if (state === 'running' && started === null) started = performance.now();
    if (state === 'notRunning' && started !== null) { window.__runs.push(performance.now() - started); started = null; }
  }).observe(document, {subtree: true, attributes: true, attributeFilter: ['data-test-script-state']});
}"""


def page_paths() -> list[str]:
    """URL paths of every page in the navigation; the default page ("home") lives at "/"."""
    urls = [url for _, entries in PAGES for *_, url in entries]
    default = "home" if "home" in urls else urls[0]
    return ["" if url == default else url for url in urls]


@dataclass
class Results:
    loads: list[float] = field(default_factory=list)
    reruns: list[float] = field(default_factory=list)
    scripts: list[float] = field(default_factory=list)  # script runs after a slider move, seen in the page
    errors: list[str] = field(default_factory=list)


async def wait_ready(page) -> None:
    await page.wait_for_selector(IDLE, timeout=TIMEOUT_MS)
    await page.wait_for_selector("[data-testid='stMain'] [data-testid='stElementContainer']", timeout=TIMEOUT_MS)
    await page.wait_for_function(ALL_DRAWN_JS, timeout=TIMEOUT_MS)


async def student(
    browser, base_url: str, paths: list[str], results: Results, name: str, *, think: float = 0.0, delay: float = 0.0,
    rng: random.Random | None = None,
) -> None:
    """One student: open every page by URL, check it, move its first slider with the keyboard.

    ``delay``: when the student arrives; ``think``: mean pause (jittered) before each action, as people read."""
    rng = rng or random.Random(0)
    await asyncio.sleep(delay)
    context = await browser.new_context(viewport={"width": 1280, "height": 900}, base_url=base_url + "/")
    await context.add_init_script(SCRIPT_TIMER_JS.join(["(", ")()"]))
    page = await context.new_page()
    page.on("pageerror", lambda err: results.errors.append(f"{name}: JavaScript error: {err}"))
    try:
        for path in paths:
            where = f"{name} /{path}"
            try:
                start = time.perf_counter()
                await page.goto(path, wait_until="domcontentloaded", timeout=TIMEOUT_MS)
                await wait_ready(page)
                results.loads.append(time.perf_counter() - start)
                if await page.locator("[data-testid='stException']").count():
                    results.errors.append(f"{where}: traceback on load")
                    continue
                slider = page.locator(SLIDER).first
                if not await page.locator(SLIDER).count() or not await page.locator("[data-testid='stPlotlyChart']").count():
                    continue
                await asyncio.sleep(think * rng.uniform(0.5, 1.5))
                before = await page.evaluate(CHART_HASH_JS)
                await page.evaluate("() => { window.__runs = []; }")
                await slider.focus()
                start = time.perf_counter()
                await page.keyboard.press("ArrowRight")
                await page.wait_for_function(f"(b) => ({CHART_HASH_JS})() !== b", arg=before, timeout=TIMEOUT_MS)
                await page.wait_for_selector(IDLE, timeout=TIMEOUT_MS)
                results.reruns.append(time.perf_counter() - start)
                results.scripts += [ms / 1000 for ms in await page.evaluate("() => window.__runs")]
                if await page.locator("[data-testid='stException']").count():
                    results.errors.append(f"{where}: traceback after moving a slider")
            except Exception as error:  # a timeout or a crashed page is an error of this session, not the run
                results.errors.append(f"{where}: {type(error).__name__}: {str(error).splitlines()[0]}")
            await asyncio.sleep(think * rng.uniform(0.5, 1.5))
    finally:
        await context.close()


class MemorySampler:
    """Samples a pid's RSS every ``interval`` seconds in a thread; keeps the peak."""

    def __init__(self, pid: int | None, interval: float = 0.2):
        self.pid, self.interval, self.peak = pid, interval, 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self._stop.is_set():
            self.peak = max(self.peak, rss_bytes(self.pid))
            self._stop.wait(self.interval)

    def __enter__(self):
        if self.pid:
            self._thread.start()
        return self

    def __exit__(self, *exc):
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join()


def percentile(values: list[float], q: float) -> float:
    """The q-th percentile (0..100) by linear interpolation; nan when empty."""
    if not values:
        return float("nan")
    if len(values) == 1:
        return values[0]
    return statistics.quantiles(values, n=100, method="inclusive")[int(q) - 1] if q < 100 else max(values)


async def classroom(base_url: str, sessions: int, pid: int | None, *, think: float, ramp: float) -> dict:
    from playwright.async_api import async_playwright

    paths = page_paths()
    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        try:
            warm = Results()  # one student first: imports, caches, the first run of every page
            await student(browser, base_url, paths, warm, "warm-up")
            await asyncio.sleep(1.0)
            before = rss_bytes(pid) if pid else 0
            results = Results()
            start = time.perf_counter()
            with MemorySampler(pid) as memory:
                await asyncio.gather(*(
                    student(browser, base_url, paths, results, f"s{i}", think=think, delay=ramp * i / max(sessions, 1),
                            rng=random.Random(i))
                    for i in range(sessions)
                ))
            wall = time.perf_counter() - start
            await asyncio.sleep(2.0)  # closed sessions: let the server drop them
            after = rss_bytes(pid) if pid else 0
        finally:
            await browser.close()
    return {
        "sessions": sessions, "pages": len(paths), "think": think, "ramp": ramp, "wall": wall, "results": results, "warm_errors": warm.errors,
        "rss_before": before, "rss_peak": max(memory.peak, before), "rss_after": after,
    }


def table(run: dict) -> str:
    r: Results = run["results"]
    mb = 2**20

    def row(name, values):
        return (f"| {name} | {len(values)} | {percentile(values, 50):.2f} | {percentile(values, 95):.2f} | "
                f"{percentile(values, 99):.2f} | {max(values) if values else float('nan'):.2f} |")

    lines = [
        f"Classroom: {run['sessions']} concurrent browser sessions x {run['pages']} pages, one server "
        f"({os.cpu_count()} cores, {platform.machine()}), students arriving over {run['ramp']:.0f} s, "
        f"~{run['think']:.0f} s think time between actions, {run['wall']:.0f} s wall.",
        "",
        "| time (s) | n | p50 | p95 | p99 | max |",
        "| --- | ---: | ---: | ---: | ---: | ---: |",
        row("page load (URL -> all charts drawn)", r.loads),
        row("rerun (slider key -> chart redrawn)", r.reruns),
        row("script run after the key (seen in the page)", r.scripts),
        "",
        "| server | value |",
        "| --- | ---: |",
        f"| errors (tracebacks, JS errors, timeouts) | {len(r.errors)} |",
    ]
    if run["rss_before"]:
        lines += [
            f"| RSS after warm-up | {run['rss_before'] / mb:.0f} MB |",
            f"| RSS peak during the class | {run['rss_peak'] / mb:.0f} MB (+{(run['rss_peak'] - run['rss_before']) / mb:.0f} MB) |",
            f"| RSS after the sessions closed | {run['rss_after'] / mb:.0f} MB (+{(run['rss_after'] - run['rss_before']) / mb:.0f} MB) |",
        ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sessions", type=int, default=10, help="concurrent browser sessions (default 10)")
    parser.add_argument("--url", help="an already running app (loopback); default: start one on a free port")
    parser.add_argument("--server-pid", type=int, help="with --url: the server's pid, to report its memory")
    parser.add_argument("--think", type=float, default=3.0, help="mean seconds a student reads before each action (default 3)")
    parser.add_argument("--ramp", type=float, default=10.0, help="students arrive over this many seconds (default 10)")
    args = parser.parse_args(argv)
    if not os.access(CHROMIUM, os.X_OK):
        print(f"Chromium not found at {CHROMIUM}: `apt-get install chromium` (or set EMBEDVIZ_CHROMIUM)", file=sys.stderr)
        return 2
    proc = None
    try:
        if args.url:
            base_url, pid = args.url.rstrip("/"), args.server_pid
        else:
            port = free_port()
            log = Path(f"/tmp/embedviz-classroom-{port}.log")
            proc = start_streamlit(port, log_path=log)
            base_url, pid = f"http://127.0.0.1:{port}", proc.pid
            wait_healthy(f"{base_url}/_stcore/health", timeout=120, proc=proc, log_path=log)
        run = asyncio.run(classroom(base_url, args.sessions, pid, think=args.think, ramp=args.ramp))
    finally:
        stop_process(proc)
    print(table(run))
    errors = run["results"].errors + run["warm_errors"]
    for error in errors[:20]:
        print(f"- {error}")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
