"""How the app feels in a browser: slider step -> redrawn and page open -> drawn, as ratios to bare Streamlit.

    PYTHONPATH=. OPENBLAS_NUM_THREADS=1 .venv/bin/python -m benchmarks.feel            # every page, ~5-8 min
    ... benchmarks/feel.py --pages rope sinusoidal --steps 2 --opens 2 --json /tmp/feel.json

Starts two servers on free 127.0.0.1 ports with the same Streamlit and settings: the app (``app.py``) and the
floor, ``benchmarks/baseline_page.py`` (one slider, one small plotly heatmap). One headless Chromium (Debian's,
never Playwright's download) drives both, one tab at a time. For every page in ``embedviz.app.frame.PAGES``:

- slider step: focus each visible slider (at most ``--sliders``), press ArrowRight (ArrowLeft at the top end)
  ``--steps`` times; each step is timed in the page, from the keydown to the last of: a websocket message, a
  change in the main area (charts included), the script state turning 'notRunning', followed by 1.5 s of quiet
  with every visible chart drawn;
- page open: navigate to the page ``--opens`` times (after one warm-up open), timed from navigation start to the
  same settled point.

Sliders inside an ``st.form`` send nothing until the form is submitted: they are not stepped; instead one of them
is moved and the form's submit button pressed, timed from the click, as a row of its own, ``<page> (train)``.
With ``--tabs``, each tab of the page's first tab bar is clicked in turn and timed to drawn (``<page> (tab
switch)``; a lazy URL-bound tab reruns the page, a plain one only shows what it has). Sliders are those a reader
sees: on a page with lazy tabs, the default tab's and those above the tabs. ``--script PATH`` measures any other
script served like the floor (``benchmarks/framed_page.py``: the floor inside the app's frame, which is what the
frame itself costs).

Each step is also split in phases (medians, ms from the key press): the first message back (the server has the
rerun), the script shown done (the browser has rendered the run's last message: until then it re-renders the page
as the messages stream in), and drawn (charts redrawn, the page quiet). The bare page's are the floor of each.

The baseline page is measured between the pages (``--base-steps`` steps and one open each time), so load that
drifts during the run (a shared machine) reaches both sides; the ratio is page median / pooled baseline median.
Prints a Markdown table with the date, machine and load average. Everything is bounded; both servers stop at
the end.
"""
from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import platform
import statistics
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

from embedviz._threads import thread_env  # noqa: E402
from deploy.launcher import ENTRY, free_port, start_streamlit, stop_process, streamlit_command, wait_healthy  # noqa: E402
from tests.e2e.conftest import CHROMIUM_ARGS, DEFAULT_URL, ENTRIES, VIEWPORT, chromium_path  # noqa: E402

BASELINE = Path(__file__).with_name("baseline_page.py")
# React renders in time slices and commits at the end: under load a long render shows no DOM change for a while
# after the script finished, so "settled" waits this long without any change in the main area.
QUIET_MS = 1_500
STEP_TIMEOUT_MS = 60_000
OPEN_TIMEOUT_MS = 120_000

# Installed before any page script: timestamps (performance.now(), ms) of the last websocket message, the last
# DOM change inside a chart, the last script-state change and the last key press, and since that press the first
# message and the script's end (its state shown 'notRunning').
PROBE_JS = """(() => {
  const F = window.__feel = {ws: 0, msgs: 0, bytes: 0, plot: 0, state: 0, key: 0, runs: 0, first: 0, done: 0};
  const WS = window.WebSocket;
  window.WebSocket = class extends WS {
    constructor(...args) {
      super(...args);
      this.addEventListener('message', (e) => {
        F.ws = performance.now(); F.msgs++;
        if (!F.first) F.first = F.ws;  // the first message after the key press: the server has the rerun
        F.bytes += (e.data && (e.data.byteLength || e.data.size || e.data.length)) || 0;
      });
    }
  };
  new MutationObserver((records) => {
    const now = performance.now();
    for (const r of records) {
      if (r.type === 'attributes' && r.attributeName === 'data-test-script-state') {
        F.state = now;
        const state = r.target.getAttribute('data-test-script-state');
        if (state === 'running') F.runs++;
        if (state === 'notRunning') F.done = now;  // drawn by React: the script's last message is rendered
        continue;
      }
      const el = r.target.nodeType === 1 ? r.target : r.target.parentElement;
      // any element drawn in the page or its sidebar (the navigation, the sidebar's widgets), charts too
      if (el && el.closest && el.closest("[data-testid='stMain'], [data-testid='stSidebar']")) F.plot = now;
    }
  }).observe(document, {subtree: true, childList: true, attributes: true});
  const press = () => { F.key = performance.now(); F.first = 0; F.done = 0; };
  document.addEventListener('keydown', press, true);
  document.addEventListener('mousedown', press, true);  // a tab or a button
})();"""
# Settled: a response arrived (and, on open, a script run began: under load the first messages can come
# well before the run), the script is not running, no element still shows its loading skeleton, every visible
# chart is drawn, and nothing changed in the page or the sidebar for QUIET_MS. Returns the settle time (ms since navigation start) or null.
SETTLED_JS = """([msgs0, runs0, quiet]) => {
  const F = window.__feel;
  if (!F || F.msgs <= msgs0 || F.runs < runs0) return null;
  const app = document.querySelector("[data-testid='stApp']");
  if (!app || app.getAttribute('data-test-script-state') !== 'notRunning') return null;
  if (!document.querySelector("[data-testid='stMain'] [data-testid='stElementContainer']")) return null;
  // a lazily loaded element (slider, chart, toggle...) shows a skeleton until its code is loaded: not drawn yet
  if (Array.from(document.querySelectorAll("[data-testid='stSkeleton']")).some(s => s.offsetParent !== null)) return null;
  if (!document.querySelector("[data-testid='stException']")) {
    const boxes = Array.from(document.querySelectorAll("[data-testid='stPlotlyChart']")).filter(b => b.offsetParent !== null);
    if (!boxes.every(b => b.querySelector('.js-plotly-plot .main-svg'))) return null;
  }
  const last = Math.max(F.ws, F.plot, F.state);
  return performance.now() - last >= quiet ? last : null;
}"""
THUMB = "[data-testid='stSlider'] input[type='range']"  # react-aria's (visually hidden) range input per thumb


@dataclass
class Timings:
    steps: list[float] = field(default_factory=list)  # seconds
    opens: list[float] = field(default_factory=list)
    step_bytes: list[int] = field(default_factory=list)  # websocket bytes received per step
    open_bytes: list[int] = field(default_factory=list)
    step_cpu: list[tuple[float, float]] = field(default_factory=list)  # (browser, server) CPU seconds per step
    # per step, seconds from the key press to the first message back and to the script shown done (then: drawing)
    step_phases: list[tuple[float, float]] = field(default_factory=list)
    early_done: int = 0  # of those, steps whose "done" is the last message's arrival (see _timed)
    open_cpu: list[tuple[float, float]] = field(default_factory=list)
    sliders: int = 0
    errors: list[str] = field(default_factory=list)


def settle(page, msgs0: int, timeout_ms: float, *, runs: int = 0) -> float:
    """Wait until settled; return the settle time stamp (ms, page clock)."""
    handle = page.wait_for_function(SETTLED_JS, arg=[msgs0, runs, QUIET_MS], timeout=timeout_ms, polling=50)
    return float(handle.json_value())


def probe(page) -> dict:
    return page.evaluate("() => ({...window.__feel})")


class Cpu:
    """CPU seconds spent so far by a tab's renderer main thread (CDP's TaskDuration) and by the server process
    (utime + stime of all its threads): unlike wall time, they barely move when other jobs load the machine."""

    def __init__(self, page, pid: int):
        self.cdp, self.pid = page.context.new_cdp_session(page), pid
        self.cdp.send("Performance.enable", {"timeDomain": "threadTicks"})  # thread CPU time, not task wall time
        self.tick = os.sysconf("SC_CLK_TCK")

    def now(self) -> tuple[float, float]:
        metrics = {m["name"]: m["value"] for m in self.cdp.send("Performance.getMetrics")["metrics"]}
        fields = Path(f"/proc/{self.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return metrics.get("TaskDuration", 0.0), (int(fields[11]) + int(fields[12])) / self.tick

    @staticmethod
    def delta(a, b) -> tuple[float, float]:
        return b[0] - a[0], b[1] - a[1]


def open_page(page, path: str, t: Timings, cpu: Cpu, *, record: bool = True) -> None:
    page.bring_to_front()  # the other tab was active: a background tab's drawing is throttled
    server0 = cpu.now()[1]
    page.goto(path, wait_until="commit", timeout=OPEN_TIMEOUT_MS)
    browser0 = cpu.now()[0]  # the renderer's counter may or may not restart with the new document
    end = settle(page, 0, OPEN_TIMEOUT_MS, runs=1)
    if record:
        browser, server = cpu.now()
        t.open_cpu.append((browser - browser0, server - server0))
        t.opens.append(end / 1000)  # performance.now() counts from navigation start
        t.open_bytes.append(probe(page)["bytes"])
    if page.locator("[data-testid='stException']").count():
        t.errors.append(f"/{path}: traceback on open")


# The sliders a reader can move now: visible (a lazy tab's hidden content is not even drawn; a plain tab's is
# hidden) and outside a form (a slider in an st.form sends nothing until the form's submit button is pressed).
FREE_THUMBS = f"""() => Array.from(document.querySelectorAll("{THUMB}")).filter(e => {{
    const box = e.closest("[data-testid='stSlider']");
    return box && box.offsetParent !== null && !e.closest("[data-testid='stForm']"); }})"""


def _timed(page, t: Timings, cpu: Cpu, act, *, what: str, rerun: bool = True) -> bool:
    """Do ``act()`` (a key press or a click) and time it to settled into ``t.steps``. ``rerun=False``: the action
    may not send anything (a plain tab shows content it already has), so no message is waited for unless one
    comes within a second. False when it failed (recorded in ``t.errors``)."""
    before, cpu0 = probe(page), cpu.now()
    act()
    msgs0 = before["msgs"]
    if not rerun:
        try:
            page.wait_for_function("n => window.__feel.msgs > n", arg=msgs0, timeout=1_000, polling=20)
        except Exception:  # nothing sent: settled once the page is quiet
            msgs0 = -1
    try:
        end = settle(page, msgs0, STEP_TIMEOUT_MS)
    except Exception as error:  # a step that never reran (or hung) is reported, not fatal
        t.errors.append(f"{what}: {type(error).__name__}: {str(error).splitlines()[0]}")
        return False
    after = probe(page)
    t.step_cpu.append(Cpu.delta(cpu0, cpu.now()))
    t.steps.append((end - after["key"]) / 1000)
    # A rerun that ends before React renders its "running" state never flips the script-state attribute (seen on a
    # fast machine, about one step in four): then the arrival of the run's last message stands for "done".
    done = after["done"] if after["done"] > after["key"] else after["ws"]
    if after["first"] > after["key"] and done > after["key"]:  # a plain tab's switch sends nothing
        t.step_phases.append(((after["first"] - after["key"]) / 1000, (done - after["key"]) / 1000))
        t.early_done += after["done"] <= after["key"]
    t.step_bytes.append(after["bytes"] - before["bytes"])
    if page.locator("[data-testid='stException']").count():
        t.errors.append(f"{what}: traceback")
        return False
    return True


def step_sliders(page, t: Timings, cpu: Cpu, *, steps: int, max_sliders: int) -> None:
    """``steps`` key presses on each of the first ``max_sliders`` visible sliders outside a form, each timed to
    settled."""
    try:  # under load React may draw a slider's box before its input: wait (bounded) until every one has it
        page.wait_for_function(f"""() => document.querySelectorAll("{THUMB}").length >=
            document.querySelectorAll("[data-testid='stSlider']").length""", timeout=15_000)
    except Exception:
        t.errors.append("a slider without its input after 15 s")
    n = min(page.evaluate_handle(FREE_THUMBS).evaluate("a => a.length"), max_sliders)
    t.sliders += n
    for i in range(n):
        for _ in range(steps):
            thumb = page.evaluate_handle(f"() => ({FREE_THUMBS})()[{i}] || null").as_element()
            if thumb is None or not thumb.is_visible():
                t.errors.append(f"slider {i}: not visible")
                break
            key = "ArrowLeft" if thumb.evaluate("e => Number(e.value) >= Number(e.max)") else "ArrowRight"
            thumb.focus()
            if not _timed(page, t, cpu, lambda: page.keyboard.press(key), what=f"slider {i}"):
                break


def submit_forms(page, t: Timings, cpu: Cpu, *, presses: int) -> None:
    """Each visible form (e.g. training settings with a Train button): move its first slider one step, then press
    its submit button, timed from the click to settled, ``presses`` times."""
    forms = page.locator("[data-testid='stForm']")
    for f in range(forms.count()):
        form = forms.nth(f)
        if not form.is_visible():
            continue
        button = form.locator("[data-testid='stFormSubmitButton'] button").first
        for _ in range(presses):
            thumb = form.locator(THUMB).first
            if thumb.count():
                key = "ArrowLeft" if thumb.evaluate("e => Number(e.value) >= Number(e.max)") else "ArrowRight"
                thumb.focus()
                page.keyboard.press(key)  # sends nothing: the form holds it until submitted
            if not _timed(page, t, cpu, lambda: button.click(), what=f"form {f} submit"):
                break


def switch_tabs(page, t: Timings, cpu: Cpu) -> None:
    """Click every tab of the first tab bar but the open one, then back to the first, each timed to settled
    (a lazy, URL-bound tab reruns the script and draws its section; a plain tab only shows it)."""
    tabs = page.locator("[data-testid='stTabs']").first.locator("[role='tab']")
    order = [*range(1, tabs.count()), 0] if tabs.count() > 1 else []
    for i in order:
        if not _timed(page, t, cpu, lambda: tabs.nth(i).click(), what=f"tab {i}", rerun=False):
            break


def page_paths(only: list[str] | None) -> list[tuple[str, str]]:
    """(url, browser path) of every registered page; the default page lives at ''."""
    out = [(url, "" if url == DEFAULT_URL else url) for *_, url in ENTRIES]
    return [p for p in out if not only or p[0] in only]


def start_server(script: Path | None, log: Path) -> tuple[subprocess.Popen, str]:
    port = free_port()
    if script is None:
        proc = start_streamlit(port, log_path=log)
    else:  # the same command line as the app's, with another script (and no background warm-up)
        cmd = [str(script) if c == ENTRY else c for c in streamlit_command(port)]
        env = {**thread_env(), "PYTHONPATH": str(ROOT)}  # a script in benchmarks/ may import embedviz
        proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=open(log, "ab"), stderr=subprocess.STDOUT,
                                stdin=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    wait_healthy(f"{url}/_stcore/health", timeout=120, proc=proc, log_path=log)
    return proc, url


def median(v: list[float]) -> float:
    return statistics.median(v) if v else float("nan")


def cpu_ms(pairs: list[tuple[float, float]]) -> tuple[float, float, float]:
    """Median browser, server and total CPU milliseconds."""
    if not pairs:
        return (float("nan"),) * 3
    return tuple(1e3 * median(list(v)) for v in (*zip(*pairs), [a + b for a, b in pairs]))


def worst(v: list[float]) -> float:
    return max(v) if v else float("nan")


def new_tab(browser, url: str, contexts: list):
    """A tab on ``url`` in a context of its own (added to ``contexts``, for the caller to close), with the probe."""
    ctx = browser.new_context(viewport=VIEWPORT, locale="en-US", base_url=url + "/")
    contexts.append(ctx)
    ctx.add_init_script(PROBE_JS)
    return ctx.new_page()


def measure(browser, servers: list, args, base: Timings, results: dict[str, Timings]) -> None:
    """Drive one tab per server (the app, the floor, each ``--script``) in ``browser`` and fill ``base`` and
    ``results``; the tabs' contexts are closed at the end, the browser is left open."""
    contexts = []
    try:
        tabs = []
        for proc, url in servers:
            tab = new_tab(browser, url, contexts)
            tabs.append((tab, Cpu(tab, proc.pid)))
        (app_tab, app_cpu), (bare_tab, bare_cpu), *script_tabs = tabs
        open_page(bare_tab, "", base, bare_cpu, record=False)  # warm: plotly.js compiled, caches filled
        targets = [(url, path, app_tab, app_cpu) for url, path in page_paths(args.pages)]
        targets += [(f"*{s.stem}*", "", tab, cpu) for s, (tab, cpu) in zip(args.script or [], script_tabs)]
        for name, path, tab, cpu in targets:
            try:  # a floor open that times out on a crowded machine is reported, not fatal
                open_page(bare_tab, "", base, bare_cpu)
                step_sliders(bare_tab, base, bare_cpu, steps=args.base_steps, max_sliders=1)
            except Exception as error:
                base.errors.append(f"{type(error).__name__}: {str(error).splitlines()[0]}")
            t = results[name] = Timings()
            extra = {"train": Timings(), "tab switch": Timings()}
            try:
                open_page(tab, path, t, cpu, record=False)  # the first visit of a page is the cold one
                for _ in range(args.opens):
                    open_page(tab, path, t, cpu)
                step_sliders(tab, t, cpu, steps=args.steps, max_sliders=args.sliders)
                submit_forms(tab, extra["train"], cpu, presses=args.steps)
                if args.tabs:
                    switch_tabs(tab, extra["tab switch"], cpu)
            except Exception as error:
                t.errors.append(f"{type(error).__name__}: {str(error).splitlines()[0]}")
            print(f"  {name}: open {median(t.opens):.2f} s, step {median(t.steps):.2f} s "
                  f"({len(t.steps)} steps on {t.sliders} sliders) {t.errors or ''}", file=sys.stderr, flush=True)
            for what, x in extra.items():  # rows of their own, under the page's
                if x.steps or x.errors:
                    results[f"{name} ({what})"] = x
                    print(f"  {name} ({what}): {median(x.steps):.2f} s ({len(x.steps)}) {x.errors or ''}",
                          file=sys.stderr, flush=True)
    finally:
        for ctx in contexts:
            ctx.close()


def serve(drive, scripts=(), browser=None):
    """Serve the app, the floor and each of ``scripts`` on loopback, call ``drive(browser, servers)`` with
    servers = [(process, url), ...] in that order, stop the servers, return what ``drive`` returned. ``browser``:
    a Playwright Chromium to lend (the e2e tests' session browser: a second sync Playwright cannot start inside the
    first one's event loop), else one is launched here and closed."""
    from playwright.sync_api import sync_playwright

    chromium = chromium_path()
    if chromium is None and browser is None:
        raise SystemExit("Chromium not found: `apt-get install chromium` (or set EMBEDVIZ_CHROMIUM)")
    servers = []
    try:
        for script, log in [(None, "app"), (BASELINE, "baseline"), *((s, s.stem) for s in scripts)]:
            servers.append(start_server(script, Path(f"/tmp/embedviz-feel-{log}.log")))
        if browser is not None:
            return drive(browser, servers)
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=chromium, headless=True, args=CHROMIUM_ARGS)
            try:
                return drive(browser, servers)
            finally:
                browser.close()
    finally:
        for proc, _ in servers:
            stop_process(proc)


def run(args, browser=None) -> dict:
    """Serve the app, the floor and each ``--script`` (each on its own server, measured like a page), measure them
    in ``browser`` or a Chromium launched here (see :func:`serve`), stop the servers."""
    load_before = os.getloadavg()
    results: dict[str, Timings] = {}
    base = Timings()
    serve(lambda b, servers: measure(b, servers, args, base, results), args.script or [], browser)
    return {"base": base, "pages": results, "load_before": load_before, "load_after": os.getloadavg()}


def table(res: dict) -> str:
    base: Timings = res["base"]
    b_step, b_open = median(base.steps), median(base.opens)
    cpu = next((line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines()
                if line.startswith("model name")), platform.processor())
    la, lb = res["load_before"], res["load_after"]
    bs_cpu, bo_cpu = cpu_ms(base.step_cpu), cpu_ms(base.open_cpu)
    lines = [
        f"{dt.date.today()}, {platform.system()} {platform.machine()}, {os.cpu_count()} cores ({cpu}), "
        f"load average {la[0]:.1f} before / {lb[0]:.1f} after.",
        "",
        "Wall time from the key press (page open: navigation start) to script done and charts drawn; the ratio is "
        "to the bare page's median. CPU: renderer main thread + server process per step or open (ms), and its "
        "ratio, which a loaded machine moves much less than wall time. Step phases (medians, ms from the key press): "
        "the first message back (the server has the rerun), the script shown done (its last message rendered), "
        "drawn (the step's end: charts redrawn, the page quiet). (k early): in k steps the run ended before React "
        "drew it running, so its last message's arrival stands for done.",
        "",
        "| page | step median (s) | step worst (s) | steps | **step ratio** | step phases ms: first message / done / "
        "drawn | step CPU ms browser+server | CPU ratio "
        "| open median (s) | open worst (s) | **open ratio** | open CPU ms browser+server | CPU ratio | KB per step | KB per open |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]

    def row(name: str, t: Timings) -> str:
        s_cpu, o_cpu = cpu_ms(t.step_cpu), cpu_ms(t.open_cpu)
        r_step = f"{median(t.steps) / b_step:.2f}" if t.steps else "-"
        r_scpu = f"{s_cpu[2] / bs_cpu[2]:.2f}" if t.steps else "-"
        phases = " / ".join(f"{1e3 * median(list(v)):.0f}" for v in zip(*t.step_phases))
        phases = f"{phases} / {1e3 * median(t.steps):.0f}" if t.step_phases else "-"
        phases += f" ({t.early_done} early)" if t.early_done else ""
        opens = (f"{median(t.opens):.2f} | {worst(t.opens):.2f} | **{median(t.opens) / b_open:.2f}** "
                 f"| {o_cpu[0]:.0f}+{o_cpu[1]:.0f} | {o_cpu[2] / bo_cpu[2]:.2f}") if t.opens else "- | - | **-** | - | -"
        return (
            f"| {name} | {median(t.steps):.2f} | {worst(t.steps):.2f} | {len(t.steps)} | **{r_step}** | {phases} "
            f"| {s_cpu[0]:.0f}+{s_cpu[1]:.0f} | {r_scpu} | {opens} | {median(t.step_bytes) / 1e3:.0f} "
            f"| {f'{median(t.open_bytes) / 1e3:.0f}' if t.open_bytes else '-'} |"
        )

    lines.append(row("*bare Streamlit (one slider, one heatmap)*", base))
    lines += [row(url, t) for url, t in res["pages"].items()]
    errors = [f"- {url}: {e}" for url, t in [("baseline", base), *res["pages"].items()] for e in t.errors]
    return "\n".join(lines + ([""] + errors if errors else []))


def failed(res: dict) -> bool:
    """Whether any step or open of a run failed (the floor's included): the exit status of a benchmark that ran it."""
    return any(t.errors for t in [res["base"], *res["pages"].values()])


def main(argv: list[str] | None = None) -> int:
    global QUIET_MS
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pages", nargs="*", help="url paths to measure (default: every page)")
    parser.add_argument("--steps", type=int, default=3, help="key presses per slider (default 3)")
    parser.add_argument("--sliders", type=int, default=4, help="sliders per page at most (default 4)")
    parser.add_argument("--opens", type=int, default=3, help="timed opens per page after a warm-up open (default 3)")
    parser.add_argument("--base-steps", type=int, default=3, help="baseline steps measured before each page (default 3)")
    parser.add_argument("--quiet-ms", type=int, default=QUIET_MS,
                        help=f"settled after this long without a change (default {QUIET_MS}; more on a loaded machine, "
                             "where a starved renderer can pause longer mid-draw)")
    parser.add_argument("--tabs", action="store_true",
                        help="also time switching to each tab of a page's first tab bar (a row '<page> (tab switch)')")
    parser.add_argument("--script", type=Path, action="append", metavar="PATH",
                        help="also measure this Streamlit script, served like the floor, as a row '*<name>*' "
                             "(e.g. benchmarks/framed_page.py: the floor inside the app's frame); repeatable")
    parser.add_argument("--json", type=Path, help="also write the raw timings here")
    args = parser.parse_args(argv)
    QUIET_MS = args.quiet_ms
    res = run(args)
    print(table(res))
    if args.json:
        raw = {k: v.__dict__ for k, v in [("baseline", res["base"]), *res["pages"].items()]}
        args.json.write_text(json.dumps({"load": [res["load_before"], res["load_after"]], "timings": raw}, indent=1))
    return 1 if failed(res) else 0


if __name__ == "__main__":
    sys.exit(main())
