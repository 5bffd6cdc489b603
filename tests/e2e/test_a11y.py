"""What a screen reader and a keyboard meet, in Chromium: axe-core's rules over every page in both languages and a
sample of tour steps, and Chromium's own accessibility tree (CDP's Accessibility domain): every slider named with
its real value, the document's language, one title per view, headings in order, a live region that says a new step
and a verdict, a live chart's text alternative that follows its slider, text and focus colours that pass WCAG AA,
no hidden Tab stops at 640 x 360.

axe-core comes from the npm registry at the version tests/e2e/package-lock.json pins (``npm ci`` in tests/e2e, run
by ``make test``); it is read from node_modules and evaluated in the page, nothing is fetched at run time.
"""
from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import quote

import pytest

try:
    from playwright.sync_api import TimeoutError as PlaywrightTimeout
except ImportError:  # the `chromium` fixture then skips (or fails in CI) and says how to install Playwright
    PlaywrightTimeout = TimeoutError

from embedviz.lessons import tours
from embedviz.app.i18n import LANGUAGE_TAGS, catalog
from tests.e2e.conftest import ENTRIES, dump, missing, open_app, page_spec, t_en, wait_idle

pytestmark = pytest.mark.e2e

AXE = Path(__file__).parent / "node_modules" / "axe-core" / "axe.min.js"
# Tour steps checked besides the pages: a step on each kind of page a tour visits, a question before and after its
# answer (tests/e2e/test_tours.py walks every step for other reasons); every step costs ~4 s here.
STEPS = (("003", 3), ("003", 6), ("003", 8), ("001", 4), ("000", 10))

RUN_AXE = """async () => {
  const r = await axe.run(document, { resultTypes: ["violations"] });
  return r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.slice(0, 5).map((n) => [n.target.join(" "), n.failureSummary.slice(0, 200)]) }));
}"""
# every live chart drawn at Python's settings: its label is Python's text alternative, and the browser's own
# sentence for the same figure must be that one (the port in livefig.js)
LIVE_ALTS = """() => Array.from(document.querySelectorAll(".live-chart.js-plotly-plot"))
  .filter((c) => c.dataset.state === c.dataset.sent)
  .map((c) => [c.getAttribute("aria-label"), c.liveAlt()])"""


@pytest.fixture(scope="module")
def axe_source() -> str:
    if not AXE.is_file():
        missing(f"axe-core is not installed: run `npm ci` in {AXE.parents[2]} (make test does)")
    return AXE.read_text(encoding="utf-8")


def ax_tree(page) -> list[dict]:
    """Chromium's accessibility tree as (role, name, value, properties) of each node it does not ignore."""
    cdp = page.context.new_cdp_session(page)
    try:
        cdp.send("Accessibility.enable")
        nodes = cdp.send("Accessibility.getFullAXTree")["nodes"]
    finally:
        cdp.detach()
    out = []
    for node in nodes:
        if node.get("ignored"):
            continue
        props = {p["name"]: p["value"].get("value") for p in node.get("properties", [])}
        out.append({"role": node.get("role", {}).get("value"), "name": node.get("name", {}).get("value", ""),
                    "value": node.get("value", {}).get("value"), **props})
    return out


def check_view(page, axe_source: str, lang: str, where: str) -> dict:
    """What one view says to assistive technology; fails on an axe violation or a broken tree."""
    # a live figure drawn (a tour step's page is not waited for by its chart count)
    page.wait_for_function("() => Array.from(document.querySelectorAll('.live-chart'))"
                           ".every((c) => Number(c.dataset.redraws) > 0)", timeout=60_000)
    page.evaluate(axe_source)
    violations = page.evaluate(RUN_AXE)
    assert not violations, f"axe on {where}: {dump(violations)}"
    labels = page.evaluate("() => Array.from(document.querySelectorAll('.live-figure label'), (l) => l.textContent)")
    for _ in range(20):  # Chromium builds its tree of new nodes a moment after they are in the DOM
        tree = ax_tree(page)
        if set(labels) <= {n["name"] for n in tree if n["role"] == "slider"}:
            break
        page.wait_for_timeout(250)
    root = next(n for n in tree if n["role"] == "RootWebArea")
    assert page.evaluate("document.documentElement.lang") == LANGUAGE_TAGS[lang], where
    levels = [n["level"] for n in tree if n["role"] == "heading"]
    assert levels and levels[0] == 1, f"{where}: headings {levels}"
    assert all(b - a <= 1 for a, b in zip(levels, levels[1:])), f"{where}: a heading skips a level: {levels}"
    sliders = [n for n in tree if n["role"] == "slider"]
    assert all(s["name"].strip() for s in sliders), f"{where}: a slider without a name: {sliders}"
    live = page.evaluate("""() => Array.from(document.querySelectorAll(".live-figure input[type=range]")).map((e) =>
      [document.querySelector(`label[for="${e.id}"]`)?.textContent, e.getAttribute("aria-valuetext"),
       e.parentElement.querySelector("output").textContent, Number(e.getAttribute("aria-valuenow"))])""")
    by_name = {s["name"]: s for s in sliders}
    for label, spoken, shown, now in live:
        # named by its own label (the output not in the name), its value the option itself (not the index, which
        # the range runs over), said as it is shown
        assert label in by_name, f"{where}: no slider named {label!r} in {list(by_name)}"
        assert spoken == shown and by_name[label]["value"] == now, (where, by_name[label], spoken, shown, now)
    for label, browsers in page.evaluate(LIVE_ALTS):
        assert label == browsers, f"{where}: livefig.js's text alternative differs from Python's"
    assert page.locator("#embedviz-live[role='status'][aria-live='polite']").count() == 1, where
    return {"title": root["name"], "title_js": page.title()}


@pytest.mark.slow  # a sweep of the whole app (~2 s a view on an idle machine)
def test_every_page_in_both_languages_passes_axe_and_reads_well(tab, axe_source):
    titles = {}
    for lang in ("en", "zh"):
        for entry in ENTRIES:
            spec = page_spec(entry)
            where = f"/{spec.path}?lang={lang}"
            open_app(tab, f"{spec.path}?lang={lang}", charts=spec.charts)
            tab.wait_for_timeout(300)  # page_a11y.js looks at the page a moment after it changes
            seen = check_view(tab, axe_source, lang, where)
            assert seen["title"] == seen["title_js"], where
            assert catalog()[entry[1]][lang] in seen["title"], (where, seen["title"])
            titles[where] = seen["title"]
    assert len(set(titles.values())) == len(titles), f"titles repeat: {dump(titles)}"


@pytest.mark.slow  # a sweep of the whole app (~2 s a view on an idle machine)
def test_tour_steps_pass_axe_and_each_has_its_own_title(tab, axe_source):
    titles = {}
    for lang in ("en", "zh"):
        for lesson, number in STEPS:
            where = f"?tour={lesson}&step={number}&lang={lang}"
            open_app(tab, where)
            tab.wait_for_timeout(300)
            titles[where] = check_view(tab, axe_source, lang, where)["title"]
            assert f"{lesson}" in titles[where] and str(number) in titles[where], titles[where]
    assert len(set(titles.values())) == len(titles), f"titles repeat: {dump(titles)}"
    # a question answered: its verdict is said in the page's live region, and the page still passes
    open_app(tab, "?tour=003&step=3&lang=en")
    tab.locator("[data-testid='stRadio'] [role='radiogroup'] label").first.click()
    verdicts = (t_en("tour.right").split("{")[0].strip(), t_en("tour.wrong").split("{")[0].strip())
    tab.wait_for_function("(v) => v.some((w) => document.getElementById('embedviz-live').textContent.startsWith(w))",
                          arg=list(verdicts), timeout=60_000)
    wait_idle(tab)
    check_view(tab, axe_source, "en", "an answered question")


def test_a_new_step_is_said_in_the_live_region_that_was_there_before(tab):
    open_app(tab, "?tour=003&step=5", charts=1)
    region = tab.locator("#embedviz-live")
    assert region.count() == 1  # before the step changes: a region created with its words is often not read
    tab.get_by_role("button", name=t_en("tour.next")).click()
    said = t_en("tour.where").format(title=t_en("tour.003.title"), k=6, n=len(tours.TOURS["003"].steps))
    tab.wait_for_function("(s) => document.getElementById('embedviz-live').textContent.startsWith(s)", arg=said,
                          timeout=60_000)
    tree = ax_tree(tab)
    # Chromium exposes it as a polite live region whose text is the step's words
    assert any(n["role"] == "status" and n.get("live") == "polite" and n.get("atomic") for n in tree)
    assert any(n["role"] == "StaticText" and n["name"].startswith(said) for n in tree), said


def test_a_live_charts_text_alternative_follows_its_slider_before_python_answers(tab):
    label = quote(t_en("sin.tab_lesson"))
    open_app(tab, f"sinusoidal?sin_tab={label}", charts=1)
    chart = tab.locator(".live-chart").first
    tab.wait_for_function("() => { const c = document.querySelector('.live-chart');"
                          " return c && c.dataset.state === c.dataset.sent && c.getAttribute('aria-label'); }")
    before = chart.get_attribute("aria-label")
    slider = tab.locator(".live-figure input[type='range']").first
    slider.focus()
    tab.keyboard.press("ArrowRight")
    # the label changes with the drawn frame, while the figure is still the browser's own (Python has not drawn it)
    tab.wait_for_function("(b) => { const c = document.querySelector('.live-chart');"
                          " return c.dataset.state !== c.dataset.sent && c.getAttribute('aria-label') !== b; }",
                          arg=before, timeout=5_000)
    said, drawn = chart.evaluate("c => [c.getAttribute('aria-label'), c.liveAlt()]")  # one moment: frames go on
    assert said == drawn
    # at rest Python's own sentence for the new settings is the browser's (the port of describe.text_alternative)
    tab.wait_for_function("() => { const c = document.querySelector('.live-chart');"
                          " return c.dataset.state === c.dataset.sent; }", timeout=60_000)
    wait_idle(tab)
    tab.wait_for_timeout(500)
    said, drawn = chart.evaluate("c => [c.getAttribute('aria-label'), c.liveAlt()]")
    assert said == drawn != before


# Computed colours: the text colour against the first opaque background behind it, as WCAG 2 measures contrast.
CONTRAST_JS = """(selector) => {
  const rgb = (s) => (s.match(/[\\d.]+/g) || []).map(Number);
  const lum = ([r, g, b]) => [r, g, b].map((v) => { v /= 255; return v <= 0.04045 ? v / 12.92
    : ((v + 0.055) / 1.055) ** 2.4; }).reduce((s, v, i) => s + v * [0.2126, 0.7152, 0.0722][i], 0);
  const over = (fg, bg) => { const a = fg[3] ?? 1; return [0, 1, 2].map((i) => fg[i] * a + bg[i] * (1 - a)); };
  const background = (el) => { for (let e = el; e; e = e.parentElement) { const c = rgb(getComputedStyle(e)
    .backgroundColor); if (c.length && (c[3] ?? 1) > 0) return (c[3] ?? 1) < 1 ? over(c, [255, 255, 255]) : c; }
    return [255, 255, 255]; };
  const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
  return Array.from(document.querySelectorAll(selector)).filter((e) => e.checkVisibility()).map((e) => {
    const bg = background(e), s = getComputedStyle(e);
    const text = over(rgb(s.color), bg);
    // an outline is drawn outside the element (offset): against what is around it, not the element's own fill
    const around = background(e.parentElement);
    const outline = s.outlineStyle !== "none" ? ratio(over(rgb(s.outlineColor), around), around) : null;
    return { text: ratio(text, bg), outline, width: parseFloat(s.outlineWidth),
      what: (e.innerText || "").slice(0, 40) };
  });
}"""
TEXTS = {  # what the default theme drew under 4.5:1
    "a caption": "[data-testid='stMain'] [data-testid='stCaptionContainer'] p",
    "the sidebar's caption": "[data-testid='stSidebar'] [data-testid='stCaptionContainer'] p",
    "the selected language": ".st-key-lang button[aria-checked='true'] p",
    "the tour bar's step": ".st-key-tour_bar [data-testid='stCaptionContainer'] p",
}


def test_the_themes_text_and_focus_colours_pass_wcag_aa(tab):
    open_app(tab, "?tour=003&step=5", charts=1)
    for what, selector in TEXTS.items():
        measured = tab.evaluate(CONTRAST_JS, selector)
        assert measured, f"nothing on the page for {what} ({selector})"
        assert all(m["text"] >= 4.5 for m in measured), f"{what}: {measured}"
    # the focus indicator of a button, a link and a live slider: a solid outline, 3:1 against what is around it
    for target in (tab.get_by_role("button", name=t_en("tour.next")), tab.locator("[data-testid='stSidebarNavLink']").first,
                   tab.locator(".live-figure input[type='range']").first):
        target.focus()
        tab.keyboard.press("Shift+Tab")
        tab.keyboard.press("Tab")  # focused from the keyboard: :focus-visible
        (ring,) = tab.evaluate(CONTRAST_JS.replace("document.querySelectorAll(selector)", "[document.activeElement]"), "")
        assert ring["outline"] and ring["outline"] >= 3 and ring["width"] >= 2, ring


def test_a_collapsed_sidebar_keeps_no_tab_stops_at_200_percent_zoom(app_server, browser):
    # 1280 x 720 at 200 %: a 640 x 360 viewport, where Streamlit folds the sidebar away
    context = browser.new_context(viewport={"width": 640, "height": 360}, base_url=app_server.url + "/")
    try:
        page = context.new_page()
        open_app(page, "?tour=003&step=3")
        assert page.locator("[data-testid='stSidebar'][data-collapsed='true']").count() == 1
        page.wait_for_function("() => getComputedStyle(document.querySelector('[data-testid=stSidebar]'))"
                               ".visibility === 'hidden'")
        next_button = t_en("tour.next")
        for presses in range(1, 13):
            page.keyboard.press("Tab")
            where = page.evaluate("() => [!!document.activeElement.closest('[data-testid=stSidebar]'),"
                                  " document.activeElement.innerText || '']")
            assert not where[0], f"Tab press {presses} reached the hidden sidebar"
            if where[1].strip() == next_button:
                break
        else:
            pytest.fail("Next was not reached within 12 Tab presses")
    finally:
        context.close()


def test_the_chinese_ui_draws_plotlys_toolbar_in_chinese_from_the_apps_copy_of_its_locale(tab):
    """The copy (embedviz/app/browser/plotly-locale-zh-cn.json) is plotly.js-locales' file, and the toolbar of both
    kinds of chart speaks it."""
    import shutil
    import subprocess

    node = shutil.which("node")
    if node is None:
        missing("node is not installed (it reads the npm package's locale file)")
    source = Path(__file__).parent / "node_modules" / "plotly.js-locales" / "zh-cn.js"
    if not source.is_file():
        missing(f"plotly.js-locales is not installed: run `npm ci` in {source.parents[2]}")
    upstream = json.loads(subprocess.run([node, "-e", f"console.log(JSON.stringify(require({str(source)!r})))"],
                                         capture_output=True, text=True, check=True).stdout)
    ours = json.loads((Path(__file__).parents[2] / "embedviz" / "app" / "browser" / "plotly-locale-zh-cn.json")
                      .read_text(encoding="utf-8"))
    assert {k: ours[k] for k in ("name", "dictionary", "format")} == {k: upstream[k] for k in ("name", "dictionary", "format")}
    zoom = upstream["dictionary"]["Zoom"]
    for path in ("?lang=zh", "sinusoidal?lang=zh"):  # a Streamlit chart, a live figure
        open_app(tab, path, charts=1)
        tab.wait_for_selector(".modebar-btn", state="attached")
        names = tab.evaluate("() => Array.from(document.querySelectorAll('.modebar-btn'), (b) => b.getAttribute('data-title'))")
        assert zoom in names and "Zoom" not in names, (path, names)
        assert not any("Share" in (n or "") for n in names), names  # the Plotly Cloud upload is not offered
        # only the first button (the image download) is a Tab stop; the drag tools are not. page_a11y.js tidies a
        # Streamlit chart's toolbar a quarter second after the chart's last change, so the count is waited for
        count = ("() => Array.from(document.querySelectorAll('.modebar'), (bar) =>"
                 " Array.from(bar.querySelectorAll('.modebar-btn')).filter((b) => b.tabIndex >= 0).length)")
        try:
            tab.wait_for_function(f"() => {{ const s = ({count})(); return s.length && s.every((n) => n === 1); }}",
                                  timeout=5000)
        except PlaywrightTimeout:
            pass  # the assertion below says what the toolbars hold
        stops = tab.evaluate(count)
        assert stops and all(n == 1 for n in stops), (path, stops)
