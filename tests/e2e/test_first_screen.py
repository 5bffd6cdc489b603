"""Every page's first screen, outside a tour: opened at its defaults at 1280x720 in both languages, the page's first
figure (a chart, a live figure or a table) starts in the top 60% of the screen, after the title and a sentence or
two; formulas, settings and details follow it or sit beside it. On a 390x844 phone, Home's figure title is drawn
inside the chart and the screen in both languages (wrapped, not cut). Measured by the boxes the browser laid out,
one tab walking every page once per language (the tour steps have their own walk: tests/e2e/test_tour_screen.py)."""
from __future__ import annotations

import pytest

from tests.e2e.conftest import ENTRIES, wait_idle
from tests.e2e.tour_screen import CHARTS_DRAWN_JS, GEOMETRY_JS, PHONE, PHONE_CONTEXT, SCREEN

pytestmark = [pytest.mark.e2e, pytest.mark.slow]
TOP = round(0.6 * SCREEN["height"])  # 432 px
LANGS = ("en", "zh")

# The first chart's title box against the chart's own box and the window (px; None: no chart or no title).
TITLE_JS = """() => {
  const chart = document.querySelector("[data-testid='stMain'] [data-testid='stPlotlyChart'], "
                                       + "[data-testid='stMain'] .live-figure");
  const title = chart && chart.querySelector('.main-svg .gtitle');
  if (!title) return null;
  const r = title.getBoundingClientRect(), c = chart.getBoundingClientRect();
  return {left: r.left, right: r.right, chart_left: c.left, chart_right: c.right, window: window.innerWidth,
          lines: title.querySelectorAll('tspan.line').length || 1, text: title.textContent};
}"""


# What the page has drawn so far: its figures' kinds and tops, and whether every chart has its SVG.
DRAWN_JS = """() => ({figures: [...document.querySelectorAll("[data-testid='stMain'] [data-testid='stPlotlyChart'], "
    + "[data-testid='stMain'] .live-figure, [data-testid='stMain'] [data-testid='stDataFrame'], "
    + "[data-testid='stMain'] [data-testid='stTable']")].map(e => [e.getAttribute('data-testid') || 'live',
                                                             Math.round(e.getBoundingClientRect().top)]),
  drawn: (""" + CHARTS_DRAWN_JS + """)()})"""


def open_page(page, url: str, lang: str, *, timeout: float = 90.0) -> None:
    """Open ``url`` and wait until it has settled: a figure is there, every chart has drawn its SVG, and nothing
    moved for half a second. A page's elements arrive one by one after its script goes idle (a table below a
    chart can be mounted before the chart), so "a figure is there and every chart drawn" can hold too early."""
    import time

    page.goto(("" if url == "home" else url) + f"?lang={lang}", wait_until="domcontentloaded")
    wait_idle(page, timeout=120_000)
    deadline, last = time.monotonic() + timeout, None
    while time.monotonic() < deadline:
        now = page.evaluate(DRAWN_JS)
        if now["figures"] and now["drawn"] and now == last:
            return
        last = now
        page.wait_for_timeout(500)
    pytest.fail(f"/{url}?lang={lang} did not settle in {timeout:.0f} s: {last}")


def test_every_pages_first_figure_starts_on_the_first_screen(tab):
    tab.set_viewport_size(SCREEN)
    tops = {}
    for lang in LANGS:
        for *_, url in ENTRIES:
            open_page(tab, url, lang)
            box = tab.evaluate(GEOMETRY_JS)["figure"]
            tops[f"{url} {lang}"] = box["top"] if box else None
    assert len(tops) == 2 * len(ENTRIES)
    off = {where: top for where, top in tops.items() if top is None or top >= TOP}
    assert not off, f"first figure's top (px) not in the top {TOP} px of a 1280x720 screen: {off}"


@pytest.mark.parametrize("lang", LANGS)
def test_homes_figure_title_fits_a_phone(app_server, browser, lang):
    context = browser.new_context(**PHONE_CONTEXT, locale="en-US", base_url=app_server.url + "/")
    try:
        phone = context.new_page()
        open_page(phone, "home", lang)
        title = phone.evaluate(TITLE_JS)
    finally:
        context.close()
    assert title is not None, "Home draws no chart title on a phone"
    inside = (title["left"] >= max(title["chart_left"], 0) - 1
              and title["right"] <= min(title["chart_right"], PHONE["width"]) + 1)
    assert inside, title
