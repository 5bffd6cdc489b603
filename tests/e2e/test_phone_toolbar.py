"""On a 390x844 phone, a chart's toolbar (plotly's modebar, and Streamlit's own above a chart) never covers the chart's
title: on Streamlit charts and on live figures, in both languages, after the reader has touched the chart (plotly
shows its toolbar on a touch). Measured by the boxes Chromium laid out. And a live figure's title is broken into the
lines Python's screen.py breaks it into at the chart's width (the browser applies the rules Python sends)."""
from __future__ import annotations

import html

import pytest

from embedviz.figures import plain
from embedviz.figures.screen import INSET, SUBTITLE_SCALE, TITLE_SCALE, wrap
from tests.e2e.test_first_screen import open_page
from tests.e2e.tour_screen import PHONE_CONTEXT

pytestmark = pytest.mark.e2e
LANGS = ("en", "zh")
# live figures (Sinusoidal's heatmap, RoPE's angles) and Streamlit charts (Why sine and cosine, Dot product)
PAGES = ("sinusoidal", "rope", "why-sine-cosine", "dot-product")
CHART = "[data-testid='stMain'] [data-testid='stPlotlyChart'], [data-testid='stMain'] .live-figure"

# Every drawn chart's title box and the boxes of whatever toolbar shows over it (plotly's modebar, Streamlit's
# element toolbar), in page px; a toolbar that is hidden or empty has no box.
BOXES_JS = """(selector) => [...document.querySelectorAll(selector)].map((chart) => {
  const shown = (e) => { const s = getComputedStyle(e), r = e.getBoundingClientRect();
    return s.display !== 'none' && s.visibility !== 'hidden' && Number(s.opacity) > 0 && r.width > 0 && r.height > 0
      ? [r.left, r.top, r.right, r.bottom] : null; };
  const holder = chart.closest("[data-testid='stElementContainer']") || chart;
  const title = chart.querySelector('.main-svg .gtitle');
  return {title: title && shown(title), live: chart.classList.contains('live-figure'),
          toolbars: [...chart.querySelectorAll('.modebar'), ...holder.querySelectorAll("[data-testid='stElementToolbar']")]
            .map(shown).filter(Boolean)};
})"""


@pytest.fixture
def phone(app_server, browser):
    """A tab of a phone's browser of its own (its user agent tells the app it is a phone)."""
    context = browser.new_context(**PHONE_CONTEXT, locale="en-US", base_url=app_server.url + "/")
    yield context.new_page()
    context.close()


def overlap(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


@pytest.mark.parametrize("lang", LANGS)
def test_no_toolbar_covers_a_chart_title_on_a_phone(phone, lang):
    seen, covered = {"live": 0, "streamlit": 0}, []
    for url in PAGES:
        open_page(phone, url, lang)
        charts = phone.locator(CHART)
        for i in range(min(charts.count(), 2)):
            chart = charts.nth(i)
            chart.scroll_into_view_if_needed()
            box = chart.bounding_box()
            # a touch in the plot area, where plotly shows its toolbar
            phone.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] * 0.6)
            phone.wait_for_timeout(300)
            got = phone.evaluate(BOXES_JS, CHART)[i]
            if not got["title"]:
                continue
            seen["live" if got["live"] else "streamlit"] += 1
            covered += [(url, i, bar, got["title"]) for bar in got["toolbars"] if overlap(bar, got["title"])]
    assert seen["live"] >= 2 and seen["streamlit"] >= 2, seen  # both kinds measured
    assert not covered, f"a toolbar covers a chart's title ({lang}): {covered}"


# A live figure's title and subtitle as drawn (their lines), as Python sent them, and the chart's width.
LIVE_TITLE_JS = """() => { const c = document.querySelector('.live-chart'), sent = c.liveSent().layout;
  return {drawn: [c.layout.title.text, c.layout.title.subtitle.text], width: c.clientWidth,
          sent: [sent.title.text, sent.title.subtitle.text], font: sent.font?.size ?? sent.template.layout.font.size}; }"""


@pytest.mark.parametrize("lang", LANGS)
def test_a_live_figure_s_title_breaks_on_a_phone_as_screen_py_breaks_it(phone, lang):
    open_page(phone, "sinusoidal", lang)
    got = phone.evaluate(LIVE_TITLE_JS)
    size = round(got["font"] * TITLE_SCALE)
    expected = [wrap(html.unescape(text), text_size, got["width"] - INSET)
                for text, text_size in zip(got["sent"], (size, round(size * SUBTITLE_SCALE)))]
    assert any(len(lines) > 1 for lines in expected), (lang, got)  # a phone's chart is narrower than the words
    assert got["drawn"] == ["<br>".join(plain(line) for line in lines) for lines in expected], (lang, got)
