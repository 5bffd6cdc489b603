"""Live figures in Chromium, every live view in one browser tab: a drag redraws the chart in the browser while the
thumb moves, the release puts the value in the URL (and the figure Python then draws has the browser's data), and a
reload shows the same figure; then, on one tour step, a key step and a thumb held still reach the URL too, and the
tour's Restore moves the mounted figure's slider.
"""
from __future__ import annotations

import math

import pytest

from tests.e2e.conftest import VIEWPORT, open_app, t_en, wait_idle
from embedviz.lessons.widget_keys import Context, Rope, Sinusoidal

pytestmark = pytest.mark.e2e

LESSON = "sin_tab=Frequencies+and+distance+%28lesson+003%29"
DECAY = "rope_tab=Long-range+decay"
# (page path with the view's tab, the slider the test drags). Each view's reload is checked: the URL-to-widget path
# is the page's, but what a reload must draw again (the open tab, the view's other settings) is the view's
LIVE = [("sinusoidal", Sinusoidal.D_MODEL), (f"sinusoidal?{LESSON}", Sinusoidal.BASE), ("rope", Rope.HEAD_DIM),
        (f"rope?{DECAY}", Rope.THETA), ("context-extension", Context.THETA)]
STATE = """() => { const c = document.querySelector('.live-chart');
    return c ? {redraws: Number(c.dataset.redraws), title: c.dataset.title || '', digest: c.liveDigest()} : null; }"""

DRAWN_AT_REST = """() => { const c = document.querySelector('.live-chart');
    const at = Object.fromEntries([...document.querySelectorAll('.live-figure input[data-key]')]
      .map((e) => [e.dataset.key, Number(e.value)]));
    return c.dataset.full === '1' && c.dataset.state === JSON.stringify(at); }"""


# boxes of the chart, its sliders, and the title's and subtitle's drawn text, in the page's pixels
GEOMETRY = """() => {
    const box = (e) => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
    const c = document.querySelector('.live-chart');
    return {chart: box(c), controls: box(document.querySelector('.live-controls')), redraws: Number(c.dataset.redraws),
            texts: [...c.querySelectorAll('.infolayer .gtitle, .infolayer .gtitle-subtitle')].map(box)}; }"""


def live_state(page) -> dict:
    return page.evaluate(STATE)


def wait_live(page) -> dict:
    page.wait_for_function("() => Number(document.querySelector('.live-chart')?.dataset.redraws) > 0",
                           timeout=120_000)
    return live_state(page)


def wait_url(page, key: str, value: str) -> None:
    """Until the URL holds ``value`` (the slider's shown label) for ``key``: a select slider's URL holds the
    option's label ("131,072"), a number box's the number ("500000.0")."""
    page.wait_for_function("([k, v]) => { const u = new URL(location.href).searchParams.get(k);"
                           " const n = (x) => Number(x.replace(/,/g, ''));"
                           " return u === v || (u !== null && n(u) === n(v)); }", arg=[key, value], timeout=60_000)


def shown(handle) -> str:
    """The label the live slider shows beside its name."""
    return handle.evaluate("e => e.parentElement.querySelector('output').textContent")


def same_figure(a: list, b: list) -> bool:
    """Per trace the same number count and sum of magnitudes (Python's float32 against formulas.js's float64), and
    the same line width (the decay chart's chosen theta is the thick one, as Python draws it)."""
    return len(a) == len(b) and all(n == m and math.isclose(s, t, rel_tol=1e-5, abs_tol=1e-6) and w == v
                                    for (n, s, w), (m, t, v) in zip(a, b))


def test_every_live_view_redraws_during_a_drag_and_its_release_goes_to_the_url(tab):
    for path, slider in LIVE:
        open_app(tab, path)
        start = wait_live(tab)
        handle = tab.locator(f"input[data-key='{slider}']")
        handle.scroll_into_view_if_needed()  # the lesson tab's chart sits below its table
        box = handle.bounding_box()
        # from the track's end farther from the thumb, 40% of the way back: the release lands off the default
        # (a default value is not written to the URL, and an unchanged value is not committed)
        at = handle.evaluate("e => Number(e.value) / Number(e.max)")
        way = 1 if at >= 0.5 else -1
        y, x0 = box["y"] + box["height"] / 2, box["x"] + (8 if way > 0 else box["width"] - 8)
        tab.mouse.move(x0, y)
        tab.mouse.down()
        digests, redraws = [], []
        for i in range(1, 11):  # a frame or two per move
            tab.mouse.move(x0 + way * i * box["width"] * 0.04, y)
            tab.wait_for_timeout(50)
            s = live_state(tab)
            digests.append(s["title"] + repr(s["digest"]))  # at large D the strided heatmap repeats: D is in the title
            redraws.append(s["redraws"])
        assert len(set(digests)) >= 4, (path, digests)  # the chart's data followed the thumb before release
        assert redraws[-1] - start["redraws"] >= 4, (path, redraws)
        tab.mouse.up()
        # the release's redraw, at the figure's own resolution (a moving thumb draws a curve from fewer points), of
        # the value the thumb rests at (on a loaded machine a pause during the drag may have drawn one whole before)
        tab.wait_for_function(DRAWN_AT_REST, timeout=30_000)
        rest = tab.evaluate("() => document.querySelector('.live-chart').dataset.state")
        # the browser's whole figure at rest, kept by the chart (Python's rerun may already have drawn over it)
        dragged = tab.evaluate("() => document.querySelector('.live-chart').browserDrawn")
        assert dragged and dragged["state"] == rest, (path, dragged, rest)
        wait_url(tab, slider, shown(handle))
        wait_idle(tab)
        # the rerun's figure, drawn as Python sent it for the resting settings (however soon the rerun came back)
        tab.wait_for_function("(rest) => { const c = document.querySelector('.live-chart');"
                              " return c && c.dataset.full === '1' && c.dataset.state === rest"
                              " && c.dataset.sent === rest; }", arg=rest, timeout=60_000)
        after = live_state(tab)
        assert after["title"] == dragged["title"] and same_figure(after["digest"], dragged["digest"]), (path, after,
                                                                                                       dragged)
        url = tab.url
        tab.reload()
        wait_idle(tab)
        reloaded = wait_live(tab)
        assert tab.url == url and reloaded["title"] == dragged["title"] and same_figure(
            reloaded["digest"], dragged["digest"]), (path, reloaded, dragged)

    # Lesson 003's step 5: the distance curves at D = 8. No two steps in a row share a live view, so the tour's
    # Restore stands for a step that moves a mounted figure: both write the widgets before the rerun.
    open_app(tab, "sinusoidal?tour=003&step=5")
    wait_live(tab)
    tab.evaluate("() => { document.querySelector('.live-figure').kept = true; }")  # a rebuilt figure loses it
    d_model = tab.locator(f"input[data-key='{Sinusoidal.D_MODEL}']")
    d_model.scroll_into_view_if_needed()
    eight = d_model.evaluate("e => e.value")
    d_model.focus()
    tab.keyboard.press("ArrowRight")  # a key step commits after the pause, as a run of steps does
    tab.wait_for_function(DRAWN_AT_REST, timeout=30_000)
    assert shown(d_model) != "8"
    wait_url(tab, Sinusoidal.D_MODEL, shown(d_model))
    tab.get_by_role("button", name=t_en("tour.restore")).click()
    wait_url(tab, Sinusoidal.D_MODEL, "8")
    # the same figure (not built again), its slider moved, drawing the figure Python sent
    tab.wait_for_function("([k, i]) => { const f = document.querySelector('.live-figure');"
                          " const c = f.querySelector('.live-chart');"
                          " return f.kept && f.querySelector(`input[data-key='${k}']`).value === i"
                          " && c.dataset.state === c.dataset.sent; }", arg=[Sinusoidal.D_MODEL, eight],
                          timeout=60_000)
    assert shown(d_model) == "8"
    wait_idle(tab)  # the run's end takes the panel's Restore row away, which moves the sliders up
    # a thumb held still commits after the pause, and the rerun it causes leaves the held thumb where it is
    base = tab.locator(f"input[data-key='{Sinusoidal.BASE}']")
    base.scroll_into_view_if_needed()
    before = base.evaluate("e => e.value")
    box = base.bounding_box()
    y = box["y"] + box["height"] / 2
    tab.mouse.move(box["x"] + 8, y)
    tab.mouse.down()
    try:
        tab.mouse.move(box["x"] + 8 + box["width"] * 0.1, y)
        held = base.evaluate("e => e.value")
        assert held != before, (held, before)
        tab.wait_for_function(DRAWN_AT_REST, timeout=30_000)  # the pause drew the held value whole
        wait_url(tab, Sinusoidal.BASE, shown(base))  # before the release
        wait_idle(tab)
        assert base.evaluate("e => e.value") == held
    finally:
        tab.mouse.up()


def test_on_a_phone_the_title_wraps_inside_the_chart_and_the_sliders_sit_under_it(tab):
    """The longest live title (Sinusoidal at D 4,096 with its striding note) at a phone's width: every line of the
    title and subtitle inside the chart's box, the sliders below the chart."""
    open_app(tab, "sinusoidal?sin_d=4096")
    wait_live(tab)
    before = tab.evaluate(GEOMETRY)
    tab.set_viewport_size({"width": 390, "height": 844})
    try:
        tab.wait_for_function("(n) => Number(document.querySelector('.live-chart').dataset.redraws) > n",
                              arg=before["redraws"], timeout=30_000)  # redrawn for the new width
        tab.wait_for_timeout(300)
        g = tab.evaluate(GEOMETRY)
    finally:
        tab.set_viewport_size(VIEWPORT)
    left, top, right, bottom = g["chart"]
    assert right - left < 400 and len(g["texts"]) == 2, g
    inside = [left - 1 <= x0 and x1 <= right + 1 and top - 1 <= y0 and y1 <= bottom for x0, y0, x1, y1 in g["texts"]]
    assert all(inside), g
    assert g["controls"][1] >= bottom - 1, g  # the figure first, its sliders under it
