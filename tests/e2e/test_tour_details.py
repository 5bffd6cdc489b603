"""What a projector and a phone show of a tour's details, measured in Chromium: a heatmap's every token labelled in
presenter view, an axis title on one line, the next lesson's button uncut, and a page opened from a phone's sidebar
starting at its top."""
from __future__ import annotations

import pytest

from embedviz.lessons import tours
from tests.e2e.conftest import open_app, t_en, t_zh, wait_idle
from tests.e2e.tour_screen import PHONE_CONTEXT, SCREEN, answer_first, measure, wait_for_step

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

# Each drawn chart's title, its y axes' tick labels and the lines of its y axis titles.
AXES_JS = """() => [...document.querySelectorAll("[data-testid='stMain'] [data-testid='stPlotlyChart']")].map(c => ({
  title: ((c.querySelector('.gtitle') || {}).textContent || ''),
  yticks: [...c.querySelectorAll('.main-svg .yaxislayer-above .ytick text, .main-svg .yaxislayer-above text')]
    .map(t => t.textContent.trim()).filter(Boolean),
  ytitles: [...c.querySelectorAll('.main-svg .g-ytitle text, .main-svg [class*="g-y"][class*="title"] text')]
    .map(t => ({text: t.textContent, lines: t.querySelectorAll('tspan.line').length || 1})),
}))"""
# Whether the text of the button inside ``sel`` is cut (an ellipsis: wider than its box).
CUT_JS = """(sel) => { const b = document.querySelector(sel); if (!b) return null;
  return [b, ...b.querySelectorAll('*')].some(e => e.scrollWidth > e.clientWidth + 1); }"""


def open_step(page, lesson: str, k: int, *, lang: str = "en", present: bool = True, answer: bool = True) -> None:
    page.set_viewport_size(SCREEN)
    open_app(page, f"?tour={lesson}&step={k}&lang={lang}" + ("&present=true" if present else ""))
    wait_for_step(page, lesson, k)
    box = measure(page, lesson, k)
    if answer and box.figure_top is None and box.question_top is not None:
        answer_first(page, box)


def test_presenter_heatmap_labels_every_token(tab):
    """Lesson 003 step 3: the six tokens of "the cat sat on the mat", each row labelled at the presenter's font
    (plotly had dropped 1, 3 and 5: cat, on, mat)."""
    open_step(tab, "003", 3)
    title = t_en("why.diff_title")
    (chart,) = [c for c in tab.evaluate(AXES_JS) if c["title"].startswith(title[:30])]
    assert chart["yticks"] == [f"{i}: {w}" for i, w in enumerate("the cat sat on the mat".split())], chart


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_presenter_axis_titles_stay_on_one_line(tab, lang):
    """Lesson 003 step 11, the wavelength chart: its y axis title on one line (wrapped, its second line ran into
    the tick labels and split 对数 in two)."""
    open_step(tab, "003", 11, lang=lang)
    titles = [y for c in tab.evaluate(AXES_JS) for y in c["ytitles"]]
    assert titles and all(y["lines"] == 1 for y in titles), titles


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_next_lessons_button_shows_its_whole_title(tab, lang):
    """The last step of each tour but the last offers the next lesson by its full title, in presenter view."""
    t = t_en if lang == "en" else t_zh
    order = list(tours.TOURS)
    for lesson, following in zip(order, order[1:]):
        open_step(tab, lesson, len(tours.TOURS[lesson].steps), lang=lang)
        button = tab.locator(".st-key-tour_next_lesson button")
        assert button.count() == 1, lesson
        assert t(f"tour.{following}.title") in button.inner_text(), (lesson, button.inner_text())
        assert tab.evaluate(CUT_JS, ".st-key-tour_next_lesson button") is False, (lesson, lang)


def test_a_page_opened_from_a_phones_sidebar_starts_at_its_top(app_server, browser):
    """Scrolled down a page, then another page picked in the sidebar: each opens at its top (Streamlit kept the
    main area's scroll position on some: Home opened 800 px down after the past-length page)."""
    context = browser.new_context(**PHONE_CONTEXT, locale="en-US", base_url=app_server.url + "/")
    main = "document.querySelector(\"[data-testid='stMain']\")"
    landed = {}
    try:
        page = context.new_page()
        open_app(page, "?lang=en")
        for nav in ("sin.nav", "past.nav", "home.nav"):
            page.evaluate(f"() => {main}.scrollBy(0, 800)")
            page.wait_for_timeout(300)
            assert page.evaluate(f"() => {main}.scrollTop") > 200, nav  # scrolled down
            page.locator("[data-testid='stExpandSidebarButton'], [data-testid='stSidebarCollapsedControl'] button"
                         ).first.click()
            page.wait_for_timeout(500)
            page.locator(f"[data-testid='stSidebarNav'] a:has-text('{t_en(nav)}')").first.click()
            page.wait_for_timeout(300)
            wait_idle(page)
            page.wait_for_timeout(1_000)
            landed[nav] = page.evaluate(f"() => {main}.scrollTop")
    finally:
        context.close()
    assert landed == {"sin.nav": 0, "past.nav": 0, "home.nav": 0}, landed
