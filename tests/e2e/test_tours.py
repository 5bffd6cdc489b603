"""Lesson tours in a real browser: a tour link is the first request a fresh server sees and opens its step; Next
moves to the next step's page with its settings; a reload and the language switch keep the step.

The server here is this module's own (not the session's shared one), so the tour link really is its first request.
"""
from __future__ import annotations

import re

import pytest

from deploy.launcher import free_port, start_streamlit, stop_process, wait_healthy
from embedviz.lessons import tours
from embedviz.app.i18n import LANG_KEY, LANGUAGES
from tests.e2e.conftest import (
    CJK, SHOTS, exceptions, h1_text, new_context, new_tab, open_app, t_en, t_zh, wait_idle,
)
from tests.e2e.tour_screen import PANEL

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def fresh_server(tmp_path_factory, chromium, browser):
    port = free_port()
    log_path = tmp_path_factory.mktemp("e2e-tours") / "streamlit.log"
    proc = start_streamlit(port, log_path=log_path)
    try:
        url = f"http://127.0.0.1:{port}"
        wait_healthy(f"{url}/_stcore/health", timeout=120, proc=proc, log_path=log_path)
        context = new_context(browser, url)
        yield context
        context.close()
    finally:
        stop_process(proc)


def panel_text(page) -> str:
    box = page.locator(PANEL)
    return box.first.inner_text() if box.count() else ""


def chart_titles(page) -> list[str]:
    """Plotly's chart titles (SVG text, so read as textContent)."""
    return page.evaluate(
        "() => [...document.querySelectorAll('[data-testid=stPlotlyChart] .gtitle')].map(e => e.textContent)")


def wait_for_step(page, lesson: str, k: int, *, zh: bool = False, timeout: float = 120_000) -> None:
    """Until the panel says "step k of n" (in the language asked for) and the script is idle."""
    n = len(tours.TOURS[lesson].steps)
    marker = f"第 {k} 步，共 {n} 步" if zh else f"step {k} of {n}"
    page.wait_for_function(
        f"(m) => {{ const b = document.querySelector('{PANEL}'); return b && b.innerText.includes(m); }}",
        arg=marker, timeout=timeout,
    )
    wait_idle(page, timeout=timeout)


def test_tour_link_on_a_fresh_server_then_next_reload_and_language(fresh_server):
    errors: list[str] = []
    page = new_tab(fresh_server, errors=errors)
    try:
        # the first request this server sees: lesson 003, step 4 (Why sine and cosine, the index / length tab)
        open_app(page, "?tour=003&step=4", charts=1)
        wait_for_step(page, "003", 4)
        assert not exceptions(page), exceptions(page)
        assert h1_text(page) == t_en("why_sinusoidal.title")
        assert re.search(r"[?&]tour=003", page.url) and re.search(r"[?&]step=4", page.url), page.url
        page.screenshot(path=str(SHOTS / "tour-003-4.png"), full_page=True)

        # Next: step 5 is the Sinusoidal page at D = 8, on the tab with lesson 003's tables and distance curve
        page.get_by_role("button", name=t_en("tour.next")).click()
        wait_for_step(page, "003", 5)
        page.wait_for_function(
            "(t) => [...document.querySelectorAll('.gtitle')].some(e => e.textContent === t)",
            arg=t_en("sin.distance_title"), timeout=60_000,
        )
        assert h1_text(page) == t_en("sin.title")
        assert re.search(r"[?&]step=5", page.url), page.url

        # a reload keeps the step
        page.reload(wait_until="domcontentloaded")
        wait_for_step(page, "003", 5)
        assert h1_text(page) == t_en("sin.title")

        # the language switch keeps it too
        page.locator(f".st-key-{LANG_KEY}").get_by_text(LANGUAGES["zh"]).click()
        wait_for_step(page, "003", 5, zh=True)
        assert h1_text(page) == t_zh("sin.title") and CJK.search(panel_text(page))
        assert re.search(r"[?&]step=5", page.url), page.url
        assert not exceptions(page) and not errors, (exceptions(page), errors)
    finally:
        page.close()


def test_next_moves_to_another_page_with_its_settings(fresh_server):
    """Lesson 003 step 1 (parameter calculator at Qwen3-0.6B) -> step 2 (the real model page, on e5)."""
    errors: list[str] = []
    page = new_tab(fresh_server, errors=errors)
    try:
        open_app(page, "?tour=003&step=1", charts=1)
        wait_for_step(page, "003", 1)
        assert h1_text(page) == t_en("tok.title")
        assert "155,582,464" in page.locator("[data-testid='stMain']").inner_text()  # 151,936 x 1,024
        page.get_by_role("button", name=t_en("tour.next")).click()
        wait_for_step(page, "003", 2)
        page.wait_for_function("(t) => { const h = document.querySelector('[data-testid=stMain] h1');"
                               " return h && h.innerText === t; }", arg=t_en("multi.title"), timeout=60_000)  # the step shows e5
        assert "/real-model" in page.url and re.search(r"[?&]step=2", page.url), page.url
        assert not exceptions(page) and not errors, (exceptions(page), errors)
        page.screenshot(path=str(SHOTS / "tour-003-2.png"), full_page=True)
    finally:
        page.close()


def test_presenter_view_folds_the_sidebar(fresh_server):
    page = new_tab(fresh_server)
    try:
        page.set_viewport_size({"width": 1280, "height": 720})
        open_app(page, "?tour=000&step=1&present=true", charts=1)
        wait_for_step(page, "000", 1)
        page.screenshot(path=str(SHOTS / "tour-present-1280x720.png"))
        box = page.locator("[data-testid='stSidebar']").bounding_box()
        assert box is None or box["x"] + box["width"] <= 1 or box["width"] <= 1, f"sidebar open: {box}"
        size = page.evaluate(f"() => getComputedStyle(document.querySelector('{PANEL} p')).fontSize")
        # 1.05rem at presenter view's 20px root: a third larger than a normal page's 16 px, and small enough that
        # every step's figure still starts in the top 60% of the screen (tests/e2e/test_tour_screen.py)
        assert float(size.rstrip("px")) >= 20, size
        main = page.locator("[data-testid='stMainBlockContainer']").bounding_box()
        assert main["width"] >= 1200, main  # full width at 1280
    finally:
        page.close()
