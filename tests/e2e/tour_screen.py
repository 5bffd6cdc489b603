"""Where a tour step's figure and its Next button sit on a projector's screen, by the page's own geometry.

Shared by ``tests/e2e/test_tour_screen.py`` (the assertion) and ``benchmarks/tour_screen.py`` (the numbers).
A step's figure is the first chart or table below the tour panel; a question step whose page waits for the answer
shows its question instead, so there the question's choices are what must be on the screen.
"""
from __future__ import annotations

import time
from dataclasses import dataclass

from embedviz.lessons import tours
from embedviz.lessons.widget_keys import Tour
from tests.e2e.conftest import open_app, wait_idle

SCREEN = {"width": 1280, "height": 720}  # a classroom projector
PHONE = {"width": 390, "height": 844}
PANEL = f".st-key-{Tour.PANEL}"  # Streamlit's class for a keyed element: the tour panel, and its Next button
NEXT = f".st-key-{Tour.NEXT} button"
# The topmost chart or table of the main area outside the panel (plotly charts, live figures, data grids, HTML tables).
GEOMETRY_JS = """() => {
  const main = document.querySelector("[data-testid='stMain']");
  const panel = document.querySelector('""" + PANEL + """');
  const visible = el => { const r = el.getBoundingClientRect(); return r.width > 0 && r.height > 0; };
  const figures = [...main.querySelectorAll(
      "[data-testid='stPlotlyChart'], .live-figure, [data-testid='stDataFrame'], [data-testid='stTable']")]
    .filter(el => !(panel && panel.contains(el)) && visible(el));
  // a step whose page refuses its input shows the refusal where the figure would be
  if (!figures.length) figures.push(...[...main.querySelectorAll(
      "[data-testid='stAlertContentWarning'], [data-testid='stAlertContentError']")]
    .filter(el => !(panel && panel.contains(el)) && visible(el)));
  // first on the screen, not in the document: while a tour runs, CSS order draws the page's parts out of order
  figures.sort((a, b) => a.getBoundingClientRect().top - b.getBoundingClientRect().top);
  const question = panel && [...panel.querySelectorAll("[data-testid='stRadio']")].find(visible);
  const next = document.querySelector('""" + NEXT + """');
  const box = el => { if (!el) return null; const r = el.getBoundingClientRect();
                      return {top: Math.round(r.top), bottom: Math.round(r.bottom), height: Math.round(r.height)}; };
  return {figure: box(figures[0]), question: box(question), next: box(next), panel: box(panel),
          kind: figures[0] ? (figures[0].getAttribute('data-testid') || figures[0].className) : null,
          scroll: document.querySelector("[data-testid='stMain']").scrollTop + window.scrollY};
}"""
# Every chart in the main area has drawn its SVG (a step's charts arrive a moment after the script goes idle).
CHARTS_DRAWN_JS = """() => [...document.querySelectorAll(
    "[data-testid='stMain'] [data-testid='stPlotlyChart'], [data-testid='stMain'] .live-figure")]
  .every(el => el.querySelector('.main-svg'))"""

# Every drawn chart's SVG texts (titles, subtitles, axis titles, tick labels, legend entries, annotations such as
# subplot titles and reference-line labels): pairs whose boxes overlap, and texts cut by the chart's edge. A chart
# is named by its title. Hover labels are not drawn yet, points' data labels are not the chart's words, and a text
# with no box (an empty or hidden one) is skipped. A tilted text (plotly turns crowded tick labels by 30° on a narrow
# chart) is its box turned with it, not the upright box around that: two tilted neighbours' upright boxes overlap
# where their letters are far apart. Two boxes clash when no direction separates them by more than SLACK
# (the separating axis test of two convex outlines).
TEXT_CLASH_JS = """() => {
  const charts = [...document.querySelectorAll(
      "[data-testid='stMain'] [data-testid='stPlotlyChart'], [data-testid='stMain'] .live-figure")]
    .filter(el => { const r = el.getBoundingClientRect(); return r.width > 0 && r.height > 0
                    && el.querySelector('.main-svg'); });
  const kind = t => { const c = t.getAttribute('class') || ''; if (c) return c.split(' ')[0];
                      const g = t.closest('g[class]'); return g ? g.getAttribute('class').split(' ')[0] : 'text'; };
  const shown = t => { for (let e = t; e && e.tagName !== 'svg'; e = e.parentElement) {
                         const s = getComputedStyle(e);
                         if (s.display === 'none' || s.visibility === 'hidden' || s.opacity === '0') return false; }
                       return true; };
  // the text's four corners on the screen: its own box through its transforms (turned if it is turned)
  const outline = (t, r) => {
    const m = t.getScreenCTM();
    if (!m || (Math.abs(m.b) < 1e-6 && Math.abs(m.c) < 1e-6))
      return [[r.left, r.top], [r.right, r.top], [r.right, r.bottom], [r.left, r.bottom]];
    const b = t.getBBox();
    return [[b.x, b.y], [b.x + b.width, b.y], [b.x + b.width, b.y + b.height], [b.x, b.y + b.height]]
      .map(([x, y]) => [m.a * x + m.c * y + m.e, m.b * x + m.d * y + m.f]); };
  const SLACK = 2;  // px: a glyph box's own padding, not a clash
  const apart = (p, q) => [p, q].some(poly => poly.some((a, i) => {
    const b = poly[(i + 1) % poly.length], n = [a[1] - b[1], b[0] - a[0]], len = Math.hypot(n[0], n[1]) || 1;
    const span = s => s.map(v => (v[0] * n[0] + v[1] * n[1]) / len);
    const sp = span(p), sq = span(q);
    return Math.min(Math.max(...sp), Math.max(...sq)) - Math.max(Math.min(...sp), Math.min(...sq)) <= SLACK; }));
  return charts.map(chart => {
    const edge = (chart.querySelector('.svg-container') || chart).getBoundingClientRect();
    // the chart's own words, not its data's point labels (a scatter's token labels may crowd where points do)
    const texts = [...chart.querySelectorAll('.main-svg text')]
      .filter(t => !t.closest('.hoverlayer, .textpoint') && t.textContent.trim() && shown(t))
      .map(t => ({el: t, r: t.getBoundingClientRect(), what: kind(t) + ' ' + JSON.stringify(t.textContent.trim().slice(0, 40))}))
      .filter(t => t.r.width > 0 && t.r.height > 0)
      .map(t => ({...t, outline: outline(t.el, t.r)}));
    const title = (chart.querySelector('.gtitle') || {}).textContent || '(untitled)';
    const problems = [];
    texts.forEach((a, i) => {
      if (a.outline.some(([x, y]) => x < edge.left - SLACK || x > edge.right + SLACK || y < edge.top - SLACK
                                     || y > edge.bottom + SLACK)) problems.push('cut by the edge: ' + a.what);
      texts.slice(i + 1).forEach(b => { if (!apart(a.outline, b.outline)) problems.push(a.what + ' on ' + b.what); });
    });
    return {title: title.slice(0, 70), texts: texts.length, problems, live: chart.classList.contains('live-figure')};
  });
}"""


@dataclass(frozen=True)
class ChartText:
    """One drawn chart's texts: how many, and what clashes (empty when it reads cleanly)."""
    where: str  # the step or page and view it was drawn on
    title: str
    texts: int
    problems: tuple[str, ...]
    live: bool = False  # drawn by the browser's own code (embedviz/app/live), not by plotly from the server's figure


def text_clashes(page, where: str) -> list[ChartText]:
    return [ChartText(where, c["title"], c["texts"], tuple(c["problems"]), c["live"])
            for c in page.evaluate(TEXT_CLASH_JS)]


@dataclass(frozen=True)
class StepBox:
    lesson: str
    number: int
    figure_top: int | None  # px from the top of the window; None: no chart or table on the step
    question_top: int | None  # a question's choices, when the page waits for the answer
    next_bottom: int | None
    panel_height: int | None
    kind: str | None
    answered_top: int | None = None  # a question step's figure once an answer is picked
    answered_next: int | None = None
    charts: tuple[ChartText, ...] = ()  # the step's drawn charts' texts (answered, for a question)
    figure_bottom: int | None = None  # where the figure ends (px from the window's top), and once answered
    answered_bottom: int | None = None

    @property
    def whole_bottom(self) -> int | None:
        """Where the step's figure ends: the figure shown, or a question step's once answered."""
        return self.figure_bottom if self.figure_top is not None else self.answered_bottom

    @property
    def first_top(self) -> int | None:
        """What the reader must meet first: the figure, or while the page waits for an answer, the question."""
        return self.figure_top if self.figure_top is not None else self.question_top


def wait_for_step(page, lesson: str, k: int, *, timeout: float = 120_000) -> None:
    """Until the panel's Back/Next belong to step k (the URL says it, the script is idle, the charts are drawn)."""
    page.wait_for_function(
        "(k) => new URLSearchParams(location.search).get('step') === String(k) &&"
        f" document.querySelector('{PANEL}')", arg=k, timeout=timeout)
    wait_idle(page, timeout=timeout)
    try:  # something to measure (a step's page draws its charts a moment after the script went idle)
        page.wait_for_function(f"() => {{ const g = ({GEOMETRY_JS})(); return (g.figure || g.question) &&"
                               f" ({CHARTS_DRAWN_JS})(); }}", timeout=90_000)  # a loaded CI machine's big first draw
    except Exception:  # noqa: BLE001 - a chart that never draws is reported by the geometry (no figure)
        pass
    page.wait_for_timeout(150)  # plotly's last relayout after its first paint
    try:  # the tour's fitter has sized the step's chart to the screen (embedviz/app/browser/tour_fit.js)
        page.wait_for_function("() => !window.embedvizTourFitQueued", timeout=5_000)
        page.wait_for_timeout(150)
    except Exception:  # noqa: BLE001 - a fitter still busy is measured as it is
        pass


def measure(page, lesson: str, number: int, *, view: str = "") -> StepBox:
    g = page.evaluate(GEOMETRY_JS)
    top = lambda name: g[name]["top"] if g[name] else None  # noqa: E731
    return StepBox(lesson, number, top("figure"), top("question"), g["next"]["bottom"] if g["next"] else None,
                   g["panel"]["height"] if g["panel"] else None, g["kind"],
                   charts=tuple(text_clashes(page, f"{lesson}/{number} {view}".strip())),
                   figure_bottom=g["figure"]["bottom"] if g["figure"] else None)


def click_choice(page, choice, *, attempts: int = 3, then=None) -> None:
    """Click a question's option (and run ``then``), retried: a run still landing (a heavy page's first) can
    replace the radio under the pointer. The last failure is raised."""
    for attempt in range(attempts):
        try:
            choice.click(timeout=10_000)
            if then is not None:
                then()
            return
        except Exception:  # noqa: BLE001 - retried
            if attempt == attempts - 1:
                raise
            wait_idle(page)


def answer_first(page, box: StepBox, *, view: str = "") -> StepBox:
    """Pick a question's first choice (right or wrong: the page shows either way) and measure the figure again."""
    click_choice(page, page.locator(f"{PANEL} [data-testid='stRadio'] [role='radiogroup'] label").first)
    figure = ", ".join([*(f"[data-testid='stMain'] [data-testid='{kind}']" for kind in ("stPlotlyChart", "stDataFrame",
                                                                                      "stTable")),
                        "[data-testid='stMain'] .live-figure"])  # the page, shown once answered
    page.wait_for_function(f"() => document.querySelectorAll({figure!r}).length > 0", timeout=120_000)
    wait_for_step(page, box.lesson, box.number)
    after = measure(page, box.lesson, box.number, view=view)
    return StepBox(**{**box.__dict__, "answered_top": after.figure_top, "answered_next": after.next_bottom,
                      "charts": after.charts, "answered_bottom": after.figure_bottom})


def walk(page, *, present: bool, lang: str = "en", answer: bool = True) -> tuple[list[StepBox], float]:
    """Every step of every tour with the panel's Next button, one browser tab; the boxes and the seconds taken."""
    start = time.perf_counter()
    boxes = []
    page.set_viewport_size(SCREEN)
    for lesson, tour in tours.TOURS.items():
        query = f"?tour={lesson}&step=1&lang={lang}" + ("&present=true" if present else "")
        open_app(page, query)
        for k in range(1, len(tour.steps) + 1):
            if k > 1:
                page.locator(NEXT).click()
            wait_for_step(page, lesson, k)
            view = "presenter" if present else "normal"
            box = measure(page, lesson, k, view=view)
            if answer and box.figure_top is None and box.question_top is not None:
                box = answer_first(page, box, view=view)
            boxes.append(box)
    return boxes, time.perf_counter() - start


# A phone as its browser presents itself: 390x844 CSS px (an iPhone 12 to 15), touch, and the user agent by which
# the app knows to fit its charts to a phone (embedviz.app.widgets.on_phone). Drawn at 1 device pixel per CSS px:
# the boxes are measured in CSS px either way, and a 3x raster is only slower.
PHONE_CONTEXT = dict(viewport=PHONE, is_mobile=True, has_touch=True, user_agent=(
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5"
    " Mobile/15E148 Safari/604.1"))


def read_pages(page, *, lang: str = "en", on_page=None) -> list[ChartText]:
    """Every page at its defaults, each opened afresh at the tab's size: each chart's texts (``where`` says the page
    and the size). ``on_page(url)`` runs on each page once its charts are drawn (another check on the same visit)."""
    from tests.e2e.conftest import ENTRIES

    size = page.viewport_size
    charts = []
    for *_, url in ENTRIES:
        page.goto(("" if url == "home" else url) + f"?lang={lang}", wait_until="domcontentloaded")
        wait_idle(page, timeout=120_000)
        page.wait_for_function(f"() => ({CHARTS_DRAWN_JS})()", timeout=90_000)
        page.wait_for_timeout(150)  # plotly's last relayout after its first paint
        charts += text_clashes(page, f"{url} {size['width']}x{size['height']}")
        if on_page is not None:
            on_page(url)
    return charts
