"""Every tour step is one projector screen: in presenter view at 1280x720 (the larger text, so the harder case) each
of the 46 steps, reached with the panel's Next button in one tab, shows its figure (or, while the page waits for an
answer, its question) starting on the first screen, with Next on that screen too. Measured by the boxes the browser
laid out (tests/e2e/tour_screen.py; benchmarks/tour_screen.py prints the same numbers for both views)."""
from __future__ import annotations

import pytest

from embedviz import tours
from tests.e2e.tour_screen import SCREEN, walk

pytestmark = [pytest.mark.e2e, pytest.mark.slow]


def test_every_step_starts_its_figure_on_the_first_screen_with_next_beside_it(tab):
    boxes, seconds = walk(tab, present=True, answer=False)
    assert len(boxes) == sum(len(tour.steps) for tour in tours.TOURS.values())
    height = SCREEN["height"]
    off = {f"{b.lesson}/{b.number}": b.first_top for b in boxes if b.first_top is None or b.first_top >= height}
    hidden_next = {f"{b.lesson}/{b.number}": b.next_bottom for b in boxes
                   if b.next_bottom is None or b.next_bottom > height}
    assert not off, f"figure top (px) not on the {height} px screen: {off}"
    assert not hidden_next, f"Next's bottom (px) below the screen: {hidden_next}"


# Each Home lesson button's box and whether its label's text overflows it (an ellipsis), and the tour control's box.
HOME_JS = """() => ({
  buttons: [...document.querySelectorAll(".st-key-home_lessons button")].map(b => {
    const r = b.getBoundingClientRect();
    const cut = [...b.querySelectorAll('p, div')].some(e => e.scrollWidth > e.clientWidth + 1);
    return {left: r.left, right: r.right, cut}; }),
  control: (() => { const p = document.querySelector("[data-testid='stSidebar'] [data-testid='stPopover']");
                    return p ? p.getBoundingClientRect().bottom : null; })(),
})"""


def test_home_lessons_fit_a_phone_and_the_tour_control_fits_a_projector(tab):
    from tests.e2e.conftest import open_app

    tab.set_viewport_size({"width": 390, "height": 844})
    open_app(tab, "", charts=1)
    phone = tab.evaluate(HOME_JS)
    assert len(phone["buttons"]) >= len(tours.TOURS), phone
    assert all(b["left"] >= 0 and b["right"] <= 390 and not b["cut"] for b in phone["buttons"]), phone["buttons"]
    tab.set_viewport_size(SCREEN)
    open_app(tab, "", charts=1)
    projector = tab.evaluate(HOME_JS)
    assert projector["control"] is not None and projector["control"] <= SCREEN["height"], projector["control"]
