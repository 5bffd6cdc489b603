"""Live figures in Chromium: a drag redraws the chart in the browser while the thumb moves, the release puts the
value in the URL (and the figure Python then draws agrees with the browser's), and a reload shows the same figure.
"""
from __future__ import annotations

import re

import pytest

from tests.e2e.conftest import open_app, wait_idle

pytestmark = pytest.mark.e2e

# (page path, component key, the slider the test drags, its URL parameter's option values by index)
LIVE = [("sinusoidal", "sin_live_heatmap", "sin_d")]
CHART = ".live-chart"


def live_state(page) -> dict:
    return page.evaluate("""() => { const c = document.querySelector('.live-chart');
        return c ? {redraws: Number(c.dataset.redraws), title: c.dataset.title || '', state: c.dataset.state || ''}
                 : null; }""")


def wait_live(page) -> dict:
    page.wait_for_function("() => Number(document.querySelector('.live-chart')?.dataset.redraws) > 0",
                           timeout=120_000)
    return live_state(page)


@pytest.mark.parametrize("path, key, slider", LIVE, ids=[p for p, *_ in LIVE])
def test_a_drag_redraws_in_the_browser_and_the_release_goes_to_the_url(tab, path, key, slider):
    open_app(tab, path)
    start = wait_live(tab)
    handle = tab.locator(f"{CHART}").locator("xpath=..").locator(f"input[data-key='{slider}']")
    box = handle.bounding_box()
    y = box["y"] + box["height"] / 2
    x0 = box["x"] + 8
    tab.mouse.move(x0, y)
    tab.mouse.down()
    titles, redraws = [], []
    for i in range(1, 13):  # across about half the track, a frame or two per move
        tab.mouse.move(x0 + i * box["width"] * 0.04, y)
        tab.wait_for_timeout(60)
        s = live_state(tab)
        titles.append(s["title"])
        redraws.append(s["redraws"])
    assert len(set(titles)) >= 4, titles  # the title names d_model: it followed the thumb
    assert redraws[-1] - start["redraws"] >= 4, redraws
    tab.mouse.up()
    dragged = live_state(tab)
    value = tab.locator(f"input[data-key='{slider}']").evaluate("e => e.parentElement.querySelector('output').textContent")
    tab.wait_for_function("(v) => new URL(location.href).searchParams.get('sin_d') === v", arg=value.replace(",", ""),
                          timeout=60_000)
    wait_idle(tab)
    tab.wait_for_timeout(500)
    after = live_state(tab)
    assert after["title"] == dragged["title"], (after, dragged)  # Python's figure at the value = the browser's
    url = tab.url
    tab.reload()
    wait_idle(tab)
    reloaded = wait_live(tab)
    assert tab.url == url and reloaded["title"] == dragged["title"], (reloaded, dragged)
    assert re.search(r"\d", reloaded["title"])
