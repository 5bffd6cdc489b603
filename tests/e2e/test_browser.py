"""The app as people use it: a real server, headless Chromium, every page in the navigation.

For each page of ``embedviz.app.pages.PAGES``: it opens without a traceback and draws its charts; a slider moved
with the keyboard changes a chart; the language switch changes the text; a shared link with query parameters
reopens the same view. Screenshots go to /tmp/embedviz-e2e/ (not committed).
"""
from __future__ import annotations

import json
import urllib.request

import pytest

try:
    from playwright.sync_api import TimeoutError as PlaywrightTimeout
except ImportError:  # the `chromium` fixture then skips (or fails in CI) and says how to install Playwright
    PlaywrightTimeout = TimeoutError

from embedviz.app.i18n import LANG_KEY, LANGUAGES
from tests.e2e.conftest import (
    CJK, ENTRIES, EXCEPTION, LOAD_TIMEOUT_MS, SHOTS, SLIDER_INPUT, chart_hash, dump, exceptions, h1_text, nav_labels,
    open_app, page_ids, page_spec, t_en, t_zh, wait_charts, wait_idle, wait_settled,
)

pytestmark = pytest.mark.e2e

SHARED_TEXT = "狗咬人"  # the seed lesson's example sentence: a shared link must carry CJK text intact
ZH = LANGUAGES["zh"]  # a bound widget keeps its displayed label in the URL: ?lang=简体中文


def test_a_shared_link_on_a_fresh_server_shows_the_whole_app(app_server):
    """The first request a new server sees is a deep link to a page: it must come inside the app's frame
    (navigation + language switch), not as a bare page script."""
    seen = app_server.cold_visit
    assert not seen["exceptions"], dump(seen)
    assert seen["language_switch"], (
        f"/{seen['url']} on a fresh server has no language switch: the page ran without app.py's frame "
        f"(Streamlit treats a `pages/` folder next to app.py as old-style multipage until st.navigation runs "
        f"once). Seen: {dump(seen)}"
    )
    if len(ENTRIES) > 1:  # Streamlit hides the navigation when there is a single page
        assert seen["nav"] == [t_en(title) for _, title, _, _ in ENTRIES], dump(seen)


@pytest.mark.parametrize("entry", ENTRIES, ids=page_ids())
def test_page_renders_reacts_to_a_slider_and_switches_language(tab, entry):
    spec = page_spec(entry)
    seconds = open_app(tab, spec.path, charts=spec.charts)
    assert not exceptions(tab), f"/{spec.url}: {exceptions(tab)}"
    drawn = tab.locator("[data-testid='stPlotlyChart'] .js-plotly-plot .main-svg").count()
    plots = tab.locator("[data-testid='stPlotlyChart'] .js-plotly-plot").count()
    assert plots >= spec.charts, f"/{spec.url}: {plots} charts drawn, the page renders {spec.charts}"
    if spec.charts:
        assert drawn >= spec.charts
    tab.screenshot(path=str(SHOTS / f"{spec.url}.png"), full_page=True)
    print(f"/{spec.url}: loaded with {plots} charts in {seconds:.1f} s")

    # A slider moved with the keyboard (focus, ArrowRight, then End) redraws a chart; a page whose sliders all sit
    # in a form (Trained embedding: training is an explicit action) redraws when the form is submitted.
    sliders = tab.locator(SLIDER_INPUT)
    in_form = [sliders.nth(i).evaluate("e => !!e.closest(\"[data-testid='stForm']\")") for i in range(sliders.count())]
    if spec.charts and not all(in_form):
        _slider_changes_a_chart(tab, spec, sliders)
    elif spec.charts and in_form:
        _submitted_form_changes_a_chart(tab, spec, sliders.nth(0))

    # The language switch in the sidebar: the title turns Chinese, and so does the rest of the page.
    english_title, english_text = h1_text(tab), tab.locator("[data-testid='stMain']").inner_text()
    tab.locator(f".st-key-{LANG_KEY}").get_by_role("radio", name=ZH).click()
    tab.wait_for_function(
        "() => { const h = document.querySelector(\"[data-testid='stMain'] h1\"); return h && /[\\u4e00-\\u9fff]/.test(h.innerText); }",
        timeout=LOAD_TIMEOUT_MS,
    )
    wait_idle(tab)
    wait_charts(tab, spec.charts)
    chinese_title = h1_text(tab)
    assert chinese_title != english_title and CJK.search(chinese_title), (english_title, chinese_title)
    assert tab.locator("[data-testid='stMain']").inner_text() != english_text
    nav = nav_labels(tab)
    if nav:
        assert nav == [t_zh(title) for _, title, _, _ in ENTRIES], nav
    assert not exceptions(tab), f"/{spec.url} in Chinese: {exceptions(tab)}"


def _submitted_form_changes_a_chart(tab, spec, slider) -> None:
    """Move a slider inside a form: nothing reruns until the form's submit button is pressed, then a chart redraws."""
    start, before = float(slider.input_value()), chart_hash(tab)
    lo, hi = float(slider.get_attribute("min")), float(slider.get_attribute("max"))
    slider.focus()
    tab.keyboard.press("ArrowRight" if start < hi else "ArrowLeft")
    assert float(slider.input_value()) != start and lo <= float(slider.input_value()) <= hi
    tab.wait_for_timeout(1_000)
    assert chart_hash(tab) == before, f"/{spec.url}: a slider inside a form reran the page before its submit"
    slider.locator("xpath=ancestor::*[@data-testid='stForm']").locator("[data-testid='stFormSubmitButton'] button").first.click()
    wait_settled(tab, before, timeout=60_000)
    wait_idle(tab)
    assert not tab.locator(EXCEPTION).count(), f"/{spec.url} after submitting its form: {exceptions(tab)}"


def _slider_changes_a_chart(tab, spec, sliders) -> None:
    """Try the page's sliders outside forms in order (at most 3): one must redraw a chart when moved by keyboard."""
    tried = []
    free = [sliders.nth(i) for i in range(sliders.count())
            if not sliders.nth(i).evaluate("e => !!e.closest(\"[data-testid='stForm']\")")]
    for i, slider in enumerate(free[:3]):
        lo, hi = float(slider.get_attribute("min")), float(slider.get_attribute("max"))
        start = float(slider.input_value())
        before = chart_hash(tab)
        slider.focus()
        # ArrowRight then End; a slider that starts at its max goes the other way (ArrowLeft, Home).
        step_key, end_key, end = ("ArrowRight", "End", hi) if start < hi else ("ArrowLeft", "Home", lo)
        tab.keyboard.press(step_key)
        try:
            after_step = wait_settled(tab, before, timeout=20_000)
        except PlaywrightTimeout:  # this slider changes no chart (e.g. it only changes a table): try the next one
            tried.append(f"slider {i}: {start} -> {slider.input_value()}, no chart change")
            continue
        stepped = float(slider.input_value())
        assert stepped != start
        tab.keyboard.press(end_key)
        if stepped != pytest.approx(end):  # End moved it further: wait for that rerun too
            try:
                wait_settled(tab, after_step, timeout=20_000)
            except PlaywrightTimeout:
                pass  # the end may draw the same chart as the step (e.g. a clipped range); the value still counts
        assert float(slider.input_value()) == pytest.approx(end), f"slider {i} did not reach {end}"
        wait_idle(tab)
        assert not tab.locator(EXCEPTION).count(), f"/{spec.url} after moving slider {i}: {exceptions(tab)}"
        print(f"/{spec.url}: slider {i} {start} -> {end} redrew the charts {tried}")
        return
    pytest.fail(f"/{spec.url}: no slider redrew a chart: {tried}")


@pytest.mark.parametrize("entry", ENTRIES, ids=page_ids())
def test_a_shared_link_reopens_the_same_view(tab, entry):
    """?lang=简体中文 plus the page's own bound widgets (a slider value, a Chinese text) in the URL."""
    spec = page_spec(entry)
    params = {LANG_KEY: ZH}
    slider = spec.sliders[0] if spec.sliders else None
    if slider:
        params[slider.key] = slider.shared_value()
    text_key = spec.text_inputs[0] if spec.text_inputs else None
    if text_key:
        params[text_key] = SHARED_TEXT
    query = "&".join(f"{k}={v}" for k, v in params.items())
    open_app(tab, f"{spec.path}?{query}", charts=spec.charts)
    assert not exceptions(tab), f"/{spec.url}?{query}: {exceptions(tab)}"
    assert CJK.search(h1_text(tab)), f"/{spec.url}?{query}: title {h1_text(tab)!r} is not Chinese"
    chosen = tab.locator(f".st-key-{LANG_KEY} [role='radio'][aria-checked='true']")
    assert chosen.inner_text().strip() == ZH
    if slider:
        shown = tab.locator(f".st-key-{slider.key} input[type='range'], .st-key-{slider.key} [role='slider']")
        assert float(shown.first.input_value()) == pytest.approx(float(params[slider.key])), (
            f"/{spec.url}?{query}: slider {slider.key} shows {shown.first.input_value()}"
        )
    if text_key:
        field = tab.locator(f".st-key-{text_key} input").first
        shown_text = field.input_value()
        for _ in range(40):  # the frontend may fill a bound input a moment after the run ends; wait up to ~20 s
            if shown_text == SHARED_TEXT:
                break
            tab.wait_for_timeout(500)
            shown_text = field.input_value()
        assert shown_text == SHARED_TEXT, f"/{spec.url}?{query}: {text_key} shows {shown_text!r}"


def test_a_chart_stays_usable_inside_its_layout_boundary(tab):
    """frame.CHART_CSS makes each chart a layout and paint boundary (a step redraws faster); paint
    containment clips whatever a chart draws outside its box. A hover label at the chart's corner must stay inside the
    box; the modebar and Streamlit's full-screen button must be what the browser's hit test finds at their centres
    (it follows the clipping); full screen must still enlarge the chart. A clip over the toolbar fails this test."""
    open_app(tab, "sinusoidal?sin_tab=Similarity+of+positions", charts=1)  # a heatmap st.plotly_chart draws
    chart = tab.locator("[data-testid='stPlotlyChart']").first
    chart.scroll_into_view_if_needed()
    box = chart.bounding_box()
    heat = chart.locator(".nsewdrag").first.bounding_box()  # the plot area (hover target)
    tab.mouse.move(heat["x"] + heat["width"] - 3, heat["y"] + heat["height"] - 3)  # the bottom-right cell
    label = chart.locator(".hoverlayer .hovertext").first
    label.wait_for(state="attached", timeout=10_000)
    hit = """(e) => { const r = e.getBoundingClientRect(), x = r.x + r.width / 2, y = r.y + r.height / 2;
                        const at = document.elementFromPoint(x, y);
                        return {box: [r.x, r.y, r.width, r.height], painted: !!at && (e === at || e.contains(at))}; }"""
    seen = label.evaluate(hit)
    # plotly's hover layer ignores the pointer, so no hit test: paint containment clips at the chart's box
    x, y, w, h = seen["box"]
    right, bottom = box["x"] + box["width"] + 1, box["y"] + box["height"] + 1
    inside = box["x"] <= x and x + w <= right and box["y"] <= y and y + h <= bottom
    assert w > 0 and inside, f"the corner's hover label reaches outside the chart's box (clipped there): {seen}"
    modebar = chart.locator(".modebar-btn").first
    assert modebar.evaluate(hit)["painted"], "the modebar is clipped"
    tab.mouse.move(box["x"] + box["width"] - 60, box["y"] + 20)  # over the chart's top-right corner: its toolbars
    full = tab.get_by_role("button", name="Fullscreen").first  # Streamlit's, beside plotly's modebar
    full.wait_for(state="visible", timeout=10_000)
    assert full.evaluate(hit)["painted"], "the full-screen button is clipped or covered"
    full.click()
    tab.wait_for_timeout(1_000)
    assert chart.bounding_box()["height"] > box["height"] * 1.2, "full screen did not enlarge the chart"


def test_no_other_site_may_control_the_app_through_postmessage(app_server):
    """The served app (`make run`'s .streamlit/config.toml) allows no origin to send it control messages (stop,
    rerun, auth tokens): it is never embedded in another site's page. Streamlit's default list names Community
    Cloud's domains, and with any list the page checks each message it posts to itself against every pattern."""
    with urllib.request.urlopen(f"{app_server.url}/_stcore/host-config", timeout=10) as response:
        assert json.load(response)["allowedOrigins"] == []


def test_a_teachers_screen_shows_no_developer_menu(tab):
    """`client.toolbarMode = "viewer"`: a projected laptop shows the app, not Streamlit's Deploy button."""
    open_app(tab, "/", charts=1)
    tab.get_by_test_id("stMainMenu").wait_for(state="attached", timeout=10_000)  # the toolbar itself is drawn
    assert tab.get_by_test_id("stAppDeployButton").count() == 0
    assert tab.get_by_role("button", name="Deploy").count() == 0
