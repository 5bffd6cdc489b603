"""Live figures in Chromium: redraws per second while a slider is dragged, and arrow key -> redrawn, per live view,
beside the bare one-slider Streamlit page (benchmarks/baseline_page.py) served and timed in the same run; then the
cold start beside the warm figures: a fresh process's first training call and its second, and a fresh server's first
page open and the same page's second open on that server.

A drag is scripted in the page, as a thumb moving at the display's rate: pointer down on the slider, then on every
animation frame for DRAG_S seconds the next option (back and forth along the track) and its input event, as a
browser fires them during a drag; then pointer up and the change event (the release). Redraws are the chart's own
count (livefig.js bumps data-redraws after each Plotly.react). (Driving the mouse from Playwright instead costs a
round trip per move, which bounded the count at the driver's pace, 15-26 moves/s on this machine.) A key step
is ArrowRight on the focused slider until the chart drew the new value, timed in the page from the keydown: for the
live figure the browser's own redraw (its first frame, like a drag's, draws a curve view from fewer points, so the time to the value drawn at
full resolution is its own column; each step's commit and its rerun land before the next step, as the bare page's
rerun does), for the bare page Streamlit's full rerun and redraw.

    PYTHONPATH=. python -m benchmarks.bench_live [--steps 8] [--only NAME]
"""
from __future__ import annotations

import argparse
import datetime as dt
import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

from embedviz._threads import thread_env  # noqa: E402
from embedviz.training.experiment import train_group_experiment  # noqa: E402
from deploy.launcher import ENTRY, free_port, start_streamlit, stop_process, streamlit_command, wait_healthy  # noqa: E402
from tests.e2e.conftest import CHROMIUM_ARGS, VIEWPORT, chromium_path  # noqa: E402

BASELINE = Path(__file__).with_name("baseline_page.py")

DRAG_S = 1.5
IDLE = "[data-testid='stApp'][data-test-script-state='notRunning']"
# (name, page path with the view's settings, the slider dragged and stepped)
LESSON = "sin_tab=Frequencies+and+distance+%28lesson+003%29"
DECAY = "rope_tab=Long-range+decay"
VIEWS = [
    ("Sinusoidal heatmap, defaults", "sinusoidal", "sin_d"),
    ("Sinusoidal heatmap, largest (D 4096, L 131072)", "sinusoidal?sin_d=4096&sin_L=131%2C072", "sin_base"),
    ("Sinusoidal distance vs gap, defaults", f"sinusoidal?{LESSON}", "sin_d"),
    ("Sinusoidal distance vs gap, largest", f"sinusoidal?{LESSON}&sin_d=4096&sin_L=131%2C072", "sin_base"),
    ("RoPE angle heatmap, defaults", "rope", "rope_theta"),
    ("RoPE angle heatmap, largest (head_dim 256, window 131072)",
     "rope?rope_hd=256&rope_len=131%2C072&rope_win=131%2C072", "rope_theta"),
    ("RoPE decay curves, defaults", f"rope?{DECAY}", "rope_theta"),
    ("RoPE decay curves, largest (head_dim 256, length 131072)", f"rope?{DECAY}&rope_hd=256&rope_len=131%2C072",
     "rope_theta"),
    ("Context extension wavelengths, defaults", "context-extension", "ctx_theta"),
    ("Context extension wavelengths, largest (head_dim 512)", "context-extension?ctx_hd=512", "ctx_factor"),
]
REDRAWS = "() => Number(document.querySelector('.live-chart')?.dataset.redraws || 0)"
BARE_TRACE = "document.querySelector('[data-testid=stPlotlyChart] .js-plotly-plot')?.data?.[0]"


DRAG_JS = """([key, seconds]) => new Promise((resolve) => {
  const input = document.querySelector(`input[data-key='${key}']`), chart = document.querySelector('.live-chart');
  const n = Number(input.max) + 1, start = Number(input.value), before = Number(chart.dataset.redraws);
  input.dispatchEvent(new PointerEvent('pointerdown', {bubbles: true}));
  let frames = 0;
  const t0 = performance.now();
  function step(now) {
    if (now - t0 >= seconds * 1000) {
      const redraws = Number(chart.dataset.redraws) - before;
      const ms = (chart.drawMs || []).slice(-Math.max(redraws, 1)).sort((a, b) => a - b);
      const cost = ms[Math.floor(ms.length / 2)];
      input.dispatchEvent(new PointerEvent('pointerup', {bubbles: true}));
      input.dispatchEvent(new Event('change', {bubbles: true}));
      resolve([redraws / ((now - t0) / 1000), frames / ((now - t0) / 1000), cost]);
      return;
    }
    frames += 1;
    const i = (start + frames) % (2 * (n - 1));
    input.value = String(Math.min(i, 2 * (n - 1) - i));
    input.dispatchEvent(new Event('input', {bubbles: true}));
    requestAnimationFrame(step);
  }
  requestAnimationFrame(step);
})"""


def drag(page, slider: str) -> tuple[float, float, float]:
    """(redraws/s, input events/s, median ms per redraw) during a DRAG_S scripted drag of ``slider``: one input
    event per animation frame, each to a new option, so every frame has a new value to draw. The ms per redraw
    (formulas.js and Plotly.react, timed by livefig.js) is what bounds the rate on a machine whose frames are not
    the limit: 1000 / ms redraws/s."""
    return tuple(page.evaluate(DRAG_JS, [slider, DRAG_S]))


# the chart shows the sliders' current indices (a redraw of the value the key moved to); with full, at the figure's
# own resolution (a key step's first frame, like a drag's, draws a curve view from fewer points)
DRAWN = """(full) => { const c = document.querySelector('.live-chart');
  const at = Object.fromEntries([...document.querySelectorAll('.live-figure input[data-key]')]
    .map((e) => [e.dataset.key, Number(e.value)]));
  return !!c && c.dataset.state === JSON.stringify(at) && (!full || c.dataset.full === '1'); }"""
# Timed in the page, the same way for both pages: from the key's keydown event to the first animation frame at which
# the chart holds the new value (then to the one at which it is whole). Timed from Playwright instead, a wait's poll
# queued behind the page's next task, which for a curve view is the whole redraw that follows its first frame, so
# the first frame was counted with the second; the bare page's rerun had no second.
WATCH = """(drawn) => { window.__keyTimes = new Promise((resolve, reject) => {
  const t = {}, test = new Function('return ' + drawn)();
  setTimeout(() => reject(new Error('not redrawn within 30 s of the key')), 30000);
  document.addEventListener('keydown', (e) => { t.key = e.timeStamp; requestAnimationFrame(check); },
    {capture: true, once: true});
  function check() {
    const now = performance.now(); // the frame's own timestamp is its start, which can precede the key's handling
    if (t.first === undefined && test(false)) t.first = now;
    if (test(true)) resolve([t.first - t.key, now - t.key]);
    else requestAnimationFrame(check);
  }
}); }"""
BARE_DRAWN = f"""(full) => {{ const t = {BARE_TRACE}; return !!t && !t.__before; }}"""


def key_step(page, focus, direction: str, drawn: str) -> tuple[float, float]:
    """Seconds from the keydown of ``direction`` on the element ``focus`` to the chart redrawn with the new value
    (``drawn(false)``) and whole (``drawn(true)``), timed in the page."""
    focus.focus()
    page.evaluate(WATCH, drawn)
    page.keyboard.press(direction)
    first, whole = page.evaluate("() => window.__keyTimes")
    return first / 1e3, whole / 1e3


def live_key_step(page, slider: str, direction: str) -> tuple[float, float]:
    """Seconds from ArrowRight/Left on the live slider to the chart redrawn at the new value, and to that value
    drawn at full resolution (the other way at an end of the track, where the key would move nothing)."""
    handle = page.locator(f"input[data-key='{slider}']")
    at = handle.evaluate("e => [Number(e.value), Number(e.max)]")
    direction = "ArrowLeft" if at[0] >= at[1] else "ArrowRight" if at[0] <= 0 else direction
    return key_step(page, handle, direction, DRAWN)


def bare_key_step(page, direction: str) -> float:
    """Seconds from an arrow key on the bare page's Streamlit slider to its heatmap redrawn with the rerun's data
    (the trace object before the key is marked; the redraw replaces it)."""
    page.evaluate(f"() => {{ const t = {BARE_TRACE}; t.__before = true; }}")
    slider = page.locator("[data-testid='stSlider'] input[type='range'], [data-testid='stSlider'] [role='slider']")
    return key_step(page, slider.first, direction, BARE_DRAWN)[0]


def training_calls() -> tuple[float, float]:
    """Seconds of a fresh process's first training call (500 steps of the text's experiment) and of its second, the
    same call warm. Both are timed after the import, so torch's own import is in neither: the first call's extra is
    what the first run loads or builds on top of it."""
    # named from the imported function, so a moved module fails this file's import (and its tests), not a run
    code = (f"import time; from {train_group_experiment.__module__} import {train_group_experiment.__name__} as train\n"
            "for _ in range(2):\n"
            "    t = time.perf_counter(); train(steps=500, seed=0); print(time.perf_counter() - t)")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True,
                         env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    first, second = out.stdout.strip().splitlines()[-2:]
    return float(first), float(second)


def open_sinusoidal(page, app: str) -> float:
    """Seconds from navigating to Sinusoidal to its live figure drawn."""
    start = time.perf_counter()
    page.goto(f"{app}/sinusoidal", wait_until="domcontentloaded", timeout=180_000)
    page.wait_for_function(f"() => ({REDRAWS})() > 0", timeout=180_000)
    return time.perf_counter() - start


def start_server(script: Path | None, log: Path) -> tuple[subprocess.Popen, str]:
    """The app (``script`` None) or another script, served on a free loopback port with the app's command line."""
    port = free_port()
    if script is None:
        proc = start_streamlit(port, log_path=log)
    else:  # the same command line as the app's, with another script
        cmd = [str(script) if c == ENTRY else c for c in streamlit_command(port)]
        env = {**thread_env(), "PYTHONPATH": str(ROOT)}
        proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=open(log, "ab"), stderr=subprocess.STDOUT,
                                stdin=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    wait_healthy(f"{url}/_stcore/health", timeout=120, proc=proc, log_path=log)
    return proc, url


def serve(drive):
    """Serve the app and the bare page, call ``drive(browser, [(process, url), ...])`` in one headless Chromium
    (Debian's, never Playwright's download), stop both servers, return what ``drive`` returned."""
    from playwright.sync_api import sync_playwright

    chromium = chromium_path()
    if chromium is None:
        raise SystemExit("Chromium not found: `apt-get install chromium` (or set EMBEDVIZ_CHROMIUM)")
    servers = []
    try:
        for script, log in [(None, "app"), (BASELINE, "baseline")]:
            servers.append(start_server(script, Path(f"/tmp/embedviz-live-{log}.log")))
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=chromium, headless=True, args=CHROMIUM_ARGS)
            try:
                return drive(browser, servers)
            finally:
                browser.close()
    finally:
        for proc, _ in servers:
            stop_process(proc)


def run(steps: int) -> dict:
    res: dict = {"load_before": load()}
    res["training_first_s"], res["training_warm_s"] = training_calls()

    def drive(browser, servers):
        (_, app), (_, bare) = servers[0], servers[1]
        ctx = browser.new_context(viewport=VIEWPORT, locale="en-US")
        try:
            page = ctx.new_page()
            res["fresh_open_s"] = open_sinusoidal(page, app)  # a fresh server's first open, figure drawn
            page.wait_for_selector(IDLE, timeout=120_000)
            res["warm_open_s"] = open_sinusoidal(page, app)  # the same page again: the server and browser warm
            res["views"] = {}
            for name, path, slider in VIEWS:
                page.goto(f"{app}/{path}", wait_until="domcontentloaded", timeout=120_000)
                page.wait_for_function(f"() => ({REDRAWS})() > 0", timeout=120_000)
                page.wait_for_selector(IDLE, timeout=120_000)
                rates = []
                for _ in range(3):  # each release commits: its rerun lands before the next drag
                    page.wait_for_selector(IDLE, timeout=120_000)
                    page.wait_for_selector(f"input[data-key='{slider}']", timeout=120_000)
                    rates.append(drag(page, slider))
                    page.wait_for_timeout(1000)
                page.wait_for_timeout(1500)  # the release's rerun lands
                keys = []
                for i in range(steps):  # each step alone, as the bare page's: its commit's rerun lands before the next
                    keys.append(live_key_step(page, slider, "ArrowRight" if i % 2 == 0 else "ArrowLeft"))
                    page.wait_for_timeout(600)  # past livefig's 400 ms pause
                    page.wait_for_selector(IDLE, timeout=120_000)
                    page.wait_for_timeout(300)
                print(f"measured: {name}", file=sys.stderr, flush=True)
                res["views"][name] = {"drag": statistics.median(r for r, _, _ in rates),
                                      "moves": statistics.median(m for _, m, _ in rates),
                                      "ms": statistics.median(c for _, _, c in rates),
                                      "key": statistics.median(k for k, _ in keys),
                                      "key_full": statistics.median(f for _, f in keys)}
                page.wait_for_timeout(1500)
            page.goto(bare, wait_until="domcontentloaded", timeout=120_000)
            page.wait_for_function(f"() => !!{BARE_TRACE}", timeout=120_000)
            bare_keys = []
            for i in range(steps):
                bare_keys.append(bare_key_step(page, "ArrowRight" if i % 2 == 0 else "ArrowLeft"))
                page.wait_for_timeout(300)
            res["bare_key"] = statistics.median(bare_keys)
        finally:
            ctx.close()
        return res

    return serve(drive)


def load() -> str:
    return "load average %.1f / %.1f / %.1f (1 / 5 / 15 min)" % os.getloadavg()


def table(res: dict) -> str:
    lines = [f"{dt.datetime.now():%Y-%m-%d %H:%M}, {platform.system()} {platform.machine()}, {os.cpu_count()} cores, "
             f"Python {platform.python_version()}; before: {res['load_before']}; after: {load()}", "",
             "| live view | redraws/s during a drag (target) | animation frames/s | ms per redraw | key step -> "
             "redrawn (ms) | x bare page (target <= 1.0) | key step -> full resolution (ms) |",
             "|---|---:|---:|---:|---:|---:|---:|"]
    for name, v in res["views"].items():
        target = 10 if "largest" in name else 30
        lines.append(f"| {name} | {v['drag']:.1f} ({'met' if v['drag'] >= target else 'not met'}: >= {target}) | "
                     f"{v['moves']:.0f} | {v['ms']:.0f} | {1e3 * v['key']:.0f} | {v['key'] / res['bare_key']:.2f} | "
                     f"{1e3 * v['key_full']:.0f} |")
    lines.append(f"| bare one-slider Streamlit page (full rerun) | - | - | - | {1e3 * res['bare_key']:.0f} | 1.00 | - |")
    lines += ["", "| cold start | first (s) | warm: the second (s) |", "|---|---:|---:|",
              f"| training call, 500 steps, in a fresh process (timed after the import: torch's import is in "
              f"neither) | {res['training_first_s']:.2f} | {res['training_warm_s']:.2f} |",
              f"| open of Sinusoidal, figure drawn, on a fresh server | {res['fresh_open_s']:.1f} | "
              f"{res['warm_open_s']:.1f} |"]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=8, help="arrow-key steps per view (default 8)")
    parser.add_argument("--only", default="", help="measure only the views whose name contains this")
    args = parser.parse_args(argv)
    VIEWS[:] = [v for v in VIEWS if args.only.lower() in v[0].lower()]
    print(table(run(args.steps)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
