"""Real-browser fixtures: the app server, Debian's headless Chromium driven by Playwright, and what each page shows.

Pages come from ``embedviz.app.pages.PAGES``; what a page renders at its defaults (charts, URL-bound sliders and
text inputs) comes from running it once with AppTest, so a new page is covered the moment the lead registers it.

Without Chromium (or Playwright) the browser tests skip and say how to install it; with
EMBEDVIZ_REQUIRE_BROWSER=1 (CI) that is a failure instead.
"""
from __future__ import annotations

import json
import os
import re
import shutil
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

from deploy.launcher import free_port, start_streamlit, stop_process, wait_healthy
from embedviz.app.pages import PAGES
from embedviz.app.i18n import LANG_KEY, LANGUAGES, catalog

ROOT = Path(__file__).resolve().parents[2]
SHOTS = Path(os.environ.get("EMBEDVIZ_E2E_SHOTS", "/tmp/embedviz-e2e"))
REQUIRE_BROWSER = os.environ.get("EMBEDVIZ_REQUIRE_BROWSER") == "1"
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-quic", "--no-first-run",
    "--disable-component-update", "--disable-sync",
]
VIEWPORT = {"width": 1400, "height": 1000}
# Timeouts are generous because the machine is small and shared: a cold server imports torch on its first run,
# and Chromium compiles plotly.js (~4 MB) the first time a context draws a chart.
LOAD_TIMEOUT_MS = 120_000
RERUN_TIMEOUT_MS = 60_000

IDLE = "[data-testid='stApp'][data-test-script-state='notRunning']"
EXCEPTION = "[data-testid='stException']"
SLIDER_INPUT = "[data-testid='stSlider'] input[type='range'], [data-testid='stSlider'] [role='slider']"
CJK = re.compile(r"[\u4e00-\u9fff]")

# (file, title key, icon, url path) of every registered page, in navigation order.
ENTRIES = [entry for _, entries in PAGES for entry in entries]
# frame.py makes the "home" page the default (else Streamlit takes the first); the default page lives at "/"
# whatever its url_path says (/home shows Streamlit's "Page not found" dialog and then runs it).
DEFAULT_URL = next((url for *_, url in ENTRIES if url == "home"), ENTRIES[0][3])


# helper functions


def chromium_path() -> str | None:
    """Debian's Chromium (never Playwright's own download): $EMBEDVIZ_CHROMIUM, /usr/bin/chromium, or on PATH."""
    for candidate in (os.environ.get("EMBEDVIZ_CHROMIUM"), "/usr/bin/chromium"):
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    return shutil.which("chromium") or shutil.which("chromium-browser")


def missing(what: str) -> None:
    """Skip (a user's machine) or fail (CI: EMBEDVIZ_REQUIRE_BROWSER=1) because a system tool is not installed."""
    if REQUIRE_BROWSER:
        pytest.fail(f"{what} (EMBEDVIZ_REQUIRE_BROWSER=1, so this is a failure, not a skip)", pytrace=False)
    pytest.skip(what)


def t_en(key: str) -> str:
    return catalog()[key]["en"]


def t_zh(key: str) -> str:
    return catalog()[key]["zh"]


# What a page shows at its defaults, from one AppTest run (independent of the browser).


@dataclass(frozen=True)
class SliderSpec:
    key: str  # the widget key = URL query parameter
    min: float
    max: float
    step: float
    value: float
    is_int: bool

    def on_step(self, value: float) -> float | int:
        """``value`` snapped to the slider's grid, as the slider would report it."""
        k = round((value - self.min) / self.step)
        snapped = self.min + k * self.step
        return int(round(snapped)) if self.is_int else round(snapped, 10)

    def shared_value(self) -> float | int:
        """A value a teacher might put in a link: a third of the way up, or the min if that is the default."""
        v = self.on_step(self.min + (self.max - self.min) / 3)
        return v if v != self.value else self.on_step(self.min)


@dataclass(frozen=True)
class PageSpec:
    file: str
    title_key: str
    url: str  # the url_path in PAGES
    path: str  # what a browser opens: "" for the default page, else the url_path
    charts: int  # st.plotly_chart elements at defaults
    sliders: tuple[SliderSpec, ...]  # URL-bound numeric single-value sliders
    text_inputs: tuple[str, ...]  # keys of URL-bound text inputs


_SPECS: dict[str, PageSpec] = {}


def page_spec(entry: tuple[str, str, str, str]) -> PageSpec:
    """Run the page through app.py's navigation with AppTest once and record what it renders."""
    file, title_key, _, url = entry
    if url not in _SPECS:
        from streamlit.testing.v1 import AppTest

        at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120).run()
        at.switch_page(file).run()
        assert not at.exception, f"{file} raises at its defaults under AppTest: {at.exception}"
        sliders = tuple(
            SliderSpec(
                key=s.key, min=float(s.min), max=float(s.max), step=float(s.step), value=float(s.value),
                is_int=isinstance(s.value, int),
            )
            for s in at.slider
            if s.key and s.proto.HasField("query_param_key") and isinstance(s.value, (int, float))
            and not isinstance(s.value, bool) and s.max > s.min
        )
        texts = tuple(w.key for w in at.text_input if w.key and w.proto.HasField("query_param_key"))
        _SPECS[url] = PageSpec(file, title_key, url, "" if url == DEFAULT_URL else url, len(at.get("plotly_chart")), sliders, texts)
    return _SPECS[url]


# browser helpers

# A short fingerprint of every drawn chart (data + title), computed in the page so big heatmaps stay there.
CHART_HASH_JS = """() => {
  const plots = Array.from(document.querySelectorAll("[data-testid='stPlotlyChart'] .js-plotly-plot"));
  const text = plots.map(el => JSON.stringify([el.data, el.layout && el.layout.title])).join("|");
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) { h ^= text.charCodeAt(i); h = Math.imul(h, 16777619); }
  return plots.length + ":" + text.length + ":" + (h >>> 0).toString(16);
}"""
# A drawn chart: st.plotly_chart's, or a live figure's (embedviz/app/live: plotly.js draws into its .live-chart).
CHARTS = "[data-testid='stPlotlyChart'] .js-plotly-plot, .live-chart.js-plotly-plot"
# Charts drawn, or a traceback shown (then waiting longer is pointless: the caller reports the exception).
DRAWN_JS = """(n) => document.querySelector("[data-testid='stException']") !== null ||
  Array.from(document.querySelectorAll("%s"))
    .filter(el => el.querySelector('.main-svg') && el.data).length >= n""" % CHARTS


def wait_idle(page, *, timeout: float = RERUN_TIMEOUT_MS) -> None:
    """The script finished (the app shows 'not running') and the main area has content."""
    page.wait_for_selector(IDLE, timeout=timeout)
    page.wait_for_selector("[data-testid='stMain'] [data-testid='stElementContainer']", timeout=timeout)


def wait_charts(page, n: int, *, timeout: float = LOAD_TIMEOUT_MS) -> None:
    if n:
        page.wait_for_function(DRAWN_JS, arg=n, timeout=timeout)


def chart_hash(page) -> str:
    return page.evaluate(CHART_HASH_JS)


def wait_settled(page, before: str, *, timeout: float = RERUN_TIMEOUT_MS) -> str:
    """After an interaction: wait until the charts changed from ``before``, the script is idle, and the charts
    stay the same for a moment (a second rerun queued by a second key press has also landed)."""
    page.wait_for_function(f"(b) => ({CHART_HASH_JS})() !== b", arg=before, timeout=timeout)
    deadline = time.monotonic() + timeout / 1000
    last = None
    while time.monotonic() < deadline:
        wait_idle(page, timeout=timeout)
        now = chart_hash(page)
        if now == last:
            return now
        last = now
        page.wait_for_timeout(400)
    return last


def exceptions(page) -> list[str]:
    return [e.inner_text() for e in page.locator(EXCEPTION).all()]


def open_app(page, path: str, *, charts: int = 0, timeout: float = LOAD_TIMEOUT_MS) -> float:
    """Open ``path`` (e.g. 'rope?lang=...'), wait for the script and ``charts`` drawn charts; returns seconds."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    start = time.perf_counter()
    page.goto(path, wait_until="domcontentloaded", timeout=timeout)  # relative to the context's base_url
    try:
        wait_idle(page, timeout=timeout)
        wait_charts(page, charts, timeout=timeout)
    except PlaywrightTimeout:
        shot = SHOTS / f"timeout-{re.sub(r'[^A-Za-z0-9_-]+', '_', path) or 'root'}.png"
        page.screenshot(path=str(shot), full_page=True)
        drawn = page.locator(CHARTS).locator(".main-svg").count()
        pytest.fail(
            f"/{path} not ready after {timeout / 1000:.0f} s: script state "
            f"{page.locator('[data-testid=stApp]').get_attribute('data-test-script-state')}, "
            f"{drawn} chart svgs for {charts} expected charts, title {h1_text(page)!r}, "
            f"exceptions {exceptions(page)}; screenshot {shot}"
        )
    return time.perf_counter() - start


def h1_text(page) -> str:
    heading = page.locator("[data-testid='stMain'] h1")
    return heading.first.inner_text() if heading.count() else ""


# fixtures


@dataclass
class AppServer:
    url: str
    proc: object
    log_path: Path
    cold_visit: dict | None = None  # what the very first page request (a shared deep link) showed
    context: object = None  # the browser context the tests' tabs share


@pytest.fixture(scope="session")
def chromium() -> str:
    path = chromium_path()
    if path is None:
        missing("Chromium not found: install Debian's browser with `apt-get install chromium` "
                "(or set EMBEDVIZ_CHROMIUM=/path/to/chromium)")
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        missing("Playwright's Python package is missing: `.venv/bin/pip install -r requirements-test.txt` "
                "(its browser download is not needed: the tests use Debian's Chromium)")
    return path


@pytest.fixture(scope="session")
def browser(chromium):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        chrome = pw.chromium.launch(executable_path=chromium, headless=True, args=CHROMIUM_ARGS)
        yield chrome
        chrome.close()


def new_context(browser, base_url: str):
    """A browser context: its own cookies, storage and cache, like one student's browser."""
    context = browser.new_context(viewport=VIEWPORT, locale="en-US", base_url=base_url.rstrip("/") + "/")
    context.set_default_timeout(RERUN_TIMEOUT_MS)
    return context


# The server's Content-Security-Policy (embedviz/app/serving.py) is the tightest the pages work under: a tab reports
# every violation it sees, so a page that needs what the policy forbids fails whichever test opened it.
CSP_LISTENER = """document.addEventListener("securitypolicyviolation", (e) => window.embedvizCspViolation(
  [e.effectiveDirective, e.blockedURI, e.sourceFile + ":" + e.lineNumber, (e.sample || "").slice(0, 80)].join(" | ")),
  true);"""


def new_tab(context, *, errors: list | None = None, violations: list | None = None):
    """A tab; uncaught JavaScript errors are appended to ``errors``, CSP violations (with the page's URL) to
    ``violations``."""
    page = context.new_page()
    if errors is not None:
        page.on("pageerror", lambda err: errors.append(str(err)))
    if violations is not None:
        page.expose_binding("embedvizCspViolation", lambda source, v: violations.append(f"{source['page'].url}: {v}"))
        page.add_init_script(CSP_LISTENER)
    return page


@pytest.fixture(scope="session")
def app_server(tmp_path_factory, chromium, browser):
    """`make run`'s server on a free loopback port for the whole session; the first request is a deep link."""
    port = free_port()
    log_path = tmp_path_factory.mktemp("e2e-server") / "streamlit.log"
    proc = start_streamlit(port, log_path=log_path)
    server = AppServer(f"http://127.0.0.1:{port}", proc, log_path)
    try:
        wait_healthy(f"{server.url}/_stcore/health", timeout=120, proc=proc, log_path=log_path)
        server.context = new_context(browser, server.url)
        server.cold_visit = _first_visit(server.context)
        yield server
        server.context.close()
    finally:
        stop_process(proc)


def _first_visit(context) -> dict:
    """A teacher's shared link is often the first request a fresh server sees: record what it shows, then open
    the start page once so the remaining tests see a warm server whatever that first visit did."""
    # The telling case is a page whose url path is also its file name (pages/rope.py at /rope): before any
    # session has run app.py, Streamlit serves such a path as an old-style `pages/` page without the frame.
    non_default = [e for e in ENTRIES if e[3] != DEFAULT_URL] or ENTRIES
    file, title_key, _, url = next((e for e in non_default if Path(e[0]).stem == e[3]), non_default[-1])
    page = new_tab(context)
    try:
        open_app(page, url)
        seen = {
            "url": url,
            "title_key": title_key,
            "language_switch": page.locator(f".st-key-{LANG_KEY}").count() > 0,
            "nav": nav_labels(page),
            "h1": h1_text(page),
            "exceptions": exceptions(page),
        }
        open_app(page, "")
        return seen
    finally:
        page.close()


@pytest.fixture
def tab(app_server):
    """A new tab on the session's server; uncaught JavaScript errors are collected and must stay empty.

    The tabs share one browser context: its cache keeps Chromium's compiled plotly.js, which on this 2-core
    machine saves several seconds per page (a context per test would compile it again every time)."""
    if app_server.proc.poll() is not None:
        pytest.fail(f"the app server exited with code {app_server.proc.returncode}; its log: {app_server.log_path}")
    errors: list[str] = []
    violations: list[str] = []
    page = new_tab(app_server.context, errors=errors, violations=violations)
    yield page
    page.close()
    assert not errors, f"JavaScript errors in the page: {errors}"
    assert not violations, f"Content-Security-Policy violations (embedviz/app/serving.py): {violations}"


@pytest.fixture(scope="session", autouse=True)
def _screenshot_dir():
    SHOTS.mkdir(parents=True, exist_ok=True)


def page_ids() -> list[str]:
    return [url for *_, url in ENTRIES]


def nav_labels(page) -> list[str]:
    """The sidebar navigation's page titles (each link's last line: the icon's ligature name comes first)."""
    links = page.locator("[data-testid='stSidebar'] [data-testid='stSidebarNavLink']").all()
    return [link.inner_text().strip().splitlines()[-1].strip() for link in links]


def dump(obj) -> str:
    return json.dumps(obj, ensure_ascii=False, indent=1)
