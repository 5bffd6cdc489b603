"""Presenter view steps with a presentation clicker's keys: ArrowRight / PageDown press Next, ArrowLeft / PageUp
press Back; a key meant for a focused control (a slider) moves the control, not the tour; outside presenter view
the keys do nothing to the tour."""
from __future__ import annotations

import re

import pytest

from tests.e2e.conftest import SLIDER_INPUT, open_app
from tests.e2e.test_tours import wait_for_step

pytestmark = pytest.mark.e2e


def step_in_url(page) -> int:
    return int(re.search(r"[?&]step=(\d+)", page.url).group(1))


def press_on_page(page, key: str) -> None:
    page.evaluate("() => document.activeElement && document.activeElement.blur()")
    page.keyboard.press(key)


def test_clicker_keys_step_the_tour_in_presenter_view(tab):
    open_app(tab, "?tour=003&step=5&present=true", charts=1)  # Sinusoidal at D = 8: a page with sliders
    wait_for_step(tab, "003", 5)
    for key, expected in (("ArrowRight", 6), ("PageUp", 5), ("PageDown", 6), ("ArrowLeft", 5)):
        press_on_page(tab, key)
        wait_for_step(tab, "003", expected)
        assert step_in_url(tab) == expected, (key, tab.url)
    # a slider on the screen: Streamlit's, or a live figure's native range input (the page's own are hidden then)
    slider = tab.locator(f"{SLIDER_INPUT}, .live-figure input[type='range']").filter(visible=True).first
    slider.focus()
    before = slider.evaluate("e => e.value ?? e.getAttribute('aria-valuenow')")
    tab.keyboard.press("ArrowRight")  # the slider's key: the slider moves, the tour stays
    assert slider.evaluate("e => e.value ?? e.getAttribute('aria-valuenow')") != before
    tab.wait_for_timeout(1_500)
    wait_for_step(tab, "003", 5)
    assert step_in_url(tab) == 5


def test_without_presenter_view_the_keys_leave_the_tour_alone(tab):
    open_app(tab, "?tour=003&step=5", charts=1)
    wait_for_step(tab, "003", 5)
    press_on_page(tab, "ArrowRight")
    tab.wait_for_timeout(1_500)
    assert step_in_url(tab) == 5
