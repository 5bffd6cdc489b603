"""Every tour step is one projector screen: in presenter view at 1280x720 (the larger text, so the harder case) each
of the 46 steps, reached with the panel's Next button in one tab, shows its figure (or, while the page waits for an
answer, its question) starting in the top 60% of the screen, with Next on that screen too, and so does a question
step's figure once it is answered. Measured by the boxes the browser laid out (tests/e2e/tour_screen.py;
benchmarks/tour_screen.py prints the same numbers for both views).

The same walk reads every chart it draws for clashing text: SVG text boxes (titles, subtitles, axis titles, tick
labels, legend entries, annotations) that overlap, or that the chart's edge cuts; and one more tab opens every page
at its defaults on a projector and on a phone (a phone's browser, which the app fits its charts to) for the same
check. A clash is text on text or text past the chart's edge; only a live figure's known ones are tolerated."""
from __future__ import annotations

import pytest

from embedviz import tours
from tests.e2e.tour_screen import PHONE, PHONE_CONTEXT, SCREEN, read_pages, walk

pytestmark = [pytest.mark.e2e, pytest.mark.slow]
TOP = round(0.6 * SCREEN["height"])  # 432 px: the figure starts in the top 60% of the screen


def clashes(charts) -> dict[str, list[str]]:
    """Every chart with overlapping or cut text, the server's and the live figures' alike."""
    return {f"{c.where}: {c.title}": list(c.problems) for c in charts if c.problems}


def test_every_step_in_normal_view_starts_its_figure_on_the_first_screen_and_its_charts_read(tab):
    """The view a student has: the same first-screen rule and clean charts at the normal font size (questions not
    answered here: the presenter walk below answers them, with its larger text the harder case)."""
    boxes, _ = walk(tab, present=False, answer=False)
    assert len(boxes) == sum(len(tour.steps) for tour in tours.TOURS.values())
    off = {f"{b.lesson}/{b.number}": (b.first_top, b.next_bottom) for b in boxes if b.first_top is None
           or b.first_top >= TOP or b.next_bottom is None or b.next_bottom > SCREEN["height"]}
    assert not off, f"figure top or Next's bottom (px) off the first screen: {off}"
    charts = [c for b in boxes for c in b.charts]
    assert charts and not clashes(charts), clashes(charts)


def test_every_step_starts_its_figure_on_the_first_screen_with_next_beside_it(tab):
    """Presenter view, every question answered: the figure under the answer still on the first screen."""
    boxes, seconds = walk(tab, present=True, answer=True)
    assert len(boxes) == sum(len(tour.steps) for tour in tours.TOURS.values())
    height = SCREEN["height"]
    off = {f"{b.lesson}/{b.number}": b.first_top for b in boxes if b.first_top is None or b.first_top >= TOP}
    answered_off = {f"{b.lesson}/{b.number}": b.answered_top for b in boxes
                    if b.figure_top is None and (b.answered_top is None or b.answered_top >= TOP)}
    hidden_next = {f"{b.lesson}/{b.number}": b.next_bottom for b in boxes
                   if b.next_bottom is None or b.next_bottom > height or (b.answered_next or 0) > height}
    assert not off, f"figure top (px) not in the top {TOP} px of the screen: {off}"
    assert not answered_off, f"an answered question's figure top (px) not in the top {TOP} px: {answered_off}"
    assert not hidden_next, f"Next's bottom (px) below the screen: {hidden_next}"
    charts = [c for b in boxes for c in b.charts]
    drawn = sum(b.kind in ("stPlotlyChart", "live-figure") for b in boxes)  # steps whose figure is a chart
    assert len(charts) >= drawn > 0, (len(charts), drawn)  # each of those read, and the charts after them
    assert not clashes(charts), clashes(charts)


# Each Home lesson button's box and whether its label's text overflows it (an ellipsis), and the tour control's box.
HOME_JS = """() => ({
  buttons: [...document.querySelectorAll(".st-key-home_lessons button")].map(b => {
    const r = b.getBoundingClientRect();
    const cut = [...b.querySelectorAll('p, div')].some(e => e.scrollWidth > e.clientWidth + 1);
    return {left: r.left, right: r.right, cut}; }),
  control: (() => { const p = document.querySelector("[data-testid='stSidebar'] [data-testid='stPopover']");
                    return p ? p.getBoundingClientRect().bottom : null; })(),
})"""


def test_every_pages_charts_read_on_a_projector_and_a_phone_and_home_fits_both(tab, app_server, browser):
    """Each page opened at its defaults on a projector, then on a phone (its own browser context: a phone says what
    it is in its user agent, and the app fits its charts to it). On the same visits: Home's lesson buttons fit the
    phone's width uncut, and its sidebar's tour control is on a projector's screen."""
    home = {}
    tab.set_viewport_size(SCREEN)
    charts = read_pages(tab, on_page=lambda url: url == "home" and home.update(projector=tab.evaluate(HOME_JS)))
    context = browser.new_context(**PHONE_CONTEXT, locale="en-US", base_url=app_server.url + "/")
    try:
        phone = context.new_page()
        charts += read_pages(phone, on_page=lambda url: url == "home" and home.update(phone=phone.evaluate(HOME_JS)))
    finally:
        context.close()
    from tests.e2e.conftest import ENTRIES

    assert len(charts) >= len(ENTRIES), len(charts)
    assert not clashes(charts), clashes(charts)
    assert len(home["phone"]["buttons"]) >= len(tours.TOURS), home["phone"]
    assert all(b["left"] >= 0 and b["right"] <= PHONE["width"] and not b["cut"] for b in home["phone"]["buttons"]), \
        home["phone"]["buttons"]
    assert home["projector"]["control"] is not None and home["projector"]["control"] <= SCREEN["height"], home
