"""A question step revealed in class, measured on a projector's screen: where the figure, the two votes' spread
and the answer sit on the teacher's tab (normal or presenter view) and on a student's, by the page's own geometry.

The teacher starts a class, one student joins from their own browser; on each question step the student answers,
the teacher asks the class to vote again, the student answers again, and the teacher reveals. The teacher moves
the class by opening the step's link with the class's code and key (the class follows the teacher's address).
Used by tests/e2e/test_tour_screen.py (the assertion) and by the screenshots of a revealed step.
"""
from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import parse_qs, urlparse

from embedviz.lessons import tours
from embedviz.app.i18n import catalog
from embedviz.lessons.widget_keys import Classroom
from tests.e2e.conftest import SHOTS, open_app, wait_idle
from tests.e2e.tour_screen import PANEL, SCREEN, click_choice, measure, wait_for_step

# the spread's chart and the answer's box inside the panel (the teacher's Reveal drew them beside the question)
BOXES_JS = """() => {
  const panel = document.querySelector('""" + PANEL + """');
  const box = el => { if (!el) return null; const r = el.getBoundingClientRect();
                      return r.width > 0 ? {top: Math.round(r.top), bottom: Math.round(r.bottom),
                                            left: Math.round(r.left), right: Math.round(r.right)} : null; };
  return {spread: box(panel && panel.querySelector("[data-testid='stVegaLiteChart']")),
          answer: box(panel && [...panel.querySelectorAll("[data-testid='stAlert']")].pop()),
          radio: box(panel && panel.querySelector("[data-testid='stRadio']"))};
}"""


@dataclass(frozen=True)
class Revealed:
    lesson: str
    number: int
    who: str  # "teacher" or "student"
    figure_top: int | None
    figure_bottom: int | None
    next_bottom: int | None
    spread: dict | None  # the votes' chart's box
    answer: dict | None  # the answer's (or the verdict's) box


def text(key: str, lang: str, **fields) -> str:
    entry = catalog()[key][lang]
    return entry.format(**fields) if fields else entry


def question_steps():
    return [(lesson, k) for lesson, tour in tours.TOURS.items() for k, step in enumerate(tour.steps, 1) if step.question]


def start_class(teacher, lesson: str, number: int, *, lang: str) -> tuple[str, str]:
    """Start a class from the sidebar's tour controls (folded away in presenter view: the step's link turns it on)."""
    open_app(teacher, f"?tour={lesson}&step={number}&lang={lang}")
    teacher.locator("[data-testid='stSidebar'] [data-testid='stPopover'] button").first.click()
    teacher.get_by_role("button", name=text("classroom.start", lang)).click()
    teacher.wait_for_function("() => new URLSearchParams(location.search).get('teacher')", timeout=60_000)
    wait_idle(teacher)
    query = parse_qs(urlparse(teacher.url).query)
    return query["class"][0], query["teacher"][0]


def _wait_text(page, words: str, timeout: float = 60_000) -> None:
    page.wait_for_function("(m) => document.body.innerText.includes(m)", arg=words, timeout=timeout)


def _pick(page, lesson: str, number: int, option: str, lang: str) -> None:
    label = text(f"tour.q.{tours.step(lesson, number).question.id}.{option}", lang)
    choice = page.locator(f"{PANEL} [data-testid='stRadio'] [role='radiogroup']").get_by_text(label, exact=True).first

    def checked() -> None:
        wait_idle(page)
        page.wait_for_function(f"() => document.querySelector(\"{PANEL} [data-testid='stRadio'] input:checked\")",
                               timeout=5_000)

    click_choice(page, choice, attempts=4, then=checked)


def _box(page, lesson, number, who) -> Revealed:
    wait_for_step(page, lesson, number)
    # the first figure shown: a step may open a page on another tab, whose hidden tabs hold figures too
    page.locator(", ".join(f"[data-testid='stMain'] {kind}:visible" for kind in (
        "[data-testid='stPlotlyChart']", ".live-figure", "[data-testid='stDataFrame']", "[data-testid='stTable']"))
                 ).first.wait_for(timeout=120_000)
    wait_for_step(page, lesson, number)
    step = measure(page, lesson, number)
    boxes = page.evaluate(BOXES_JS)
    bottom = None
    if step.figure_top is not None:
        bottom = page.evaluate("""() => { const main = document.querySelector("[data-testid='stMain']");
          const panel = document.querySelector('""" + PANEL + """');
          const els = [...main.querySelectorAll("[data-testid='stPlotlyChart'], .live-figure, [data-testid='stDataFrame'], [data-testid='stTable']")]
            .filter(e => !(panel && panel.contains(e)) && e.getBoundingClientRect().height > 0)
            .sort((a, b) => a.getBoundingClientRect().top - b.getBoundingClientRect().top);
          return els.length ? Math.round(els[0].getBoundingClientRect().bottom) : null; }""")
    return Revealed(lesson, number, who, step.figure_top, bottom, step.next_bottom, boxes["spread"], boxes["answer"])


def reveal_step(teacher, student, code: str, token: str, lesson: str, number: int, *, lang: str, present: bool,
                shot=None) -> tuple[Revealed, Revealed]:
    """The teacher moves the class to the step, the student votes twice around the teacher's Vote again, the
    teacher reveals; both tabs measured (``shot(page, who)`` is called on each, revealed, to take a picture)."""
    try:
        return _reveal_step(teacher, student, code, token, lesson, number, lang=lang, present=present, shot=shot)
    except Exception as error:
        for page, who in ((teacher, "teacher"), (student, "student")):
            page.screenshot(path=str(SHOTS / f"revealed-failed-{lesson}-{number}-{who}.png"))
        raise AssertionError(f"{lesson}/{number} ({lang}, {'presenter' if present else 'normal'}): {error}") from error


def _on_step(page, lesson: str, number: int, lang: str) -> None:
    """The panel says the step (not only the URL: a follower's URL moves at the start of the run that draws it)."""
    from tests.e2e.test_tours import wait_for_step as panel_step

    panel_step(page, lesson, number, zh=lang == "zh")
    wait_for_step(page, lesson, number)


def _reveal_step(teacher, student, code, token, lesson, number, *, lang, present, shot):
    options = tours.step(lesson, number).question.options
    open_app(teacher, f"?tour={lesson}&step={number}&class={code}&teacher={token}&lang={lang}"
             + ("&present=true" if present else ""))
    _on_step(teacher, lesson, number, lang)
    _on_step(student, lesson, number, lang)
    student.locator(f"{PANEL} [data-testid='stRadio']").first.wait_for(timeout=60_000)
    _pick(student, lesson, number, options[0], lang)
    _wait_text(teacher, text("classroom.answered", lang, n=1))
    teacher.locator(f".st-key-{Classroom.again(lesson, number)} button:visible").first.click()
    _wait_text(teacher, text("classroom.answered_second", lang, n=0))
    _wait_text(student, text("classroom.vote_again_student", lang))
    _pick(student, lesson, number, options[-1], lang)
    _wait_text(teacher, text("classroom.answered_second", lang, n=1))
    teacher.locator(f".st-key-{Classroom.reveal(lesson, number)} button:visible").first.click()
    boxes = []
    for page, who in ((teacher, "teacher"), (student, "student")):
        page.locator(f"{PANEL} [data-testid='stVegaLiteChart']").first.wait_for(timeout=60_000)
        boxes.append(_box(page, lesson, number, who))
        if shot is not None:
            shot(page, who)
    return boxes[0], boxes[1]


def walk_revealed(browser, base_url: str, *, lang: str, present: bool, steps=None, shot=None) -> list[Revealed]:
    """Every question step (or ``steps``) revealed in one class: the teacher's boxes and the student's."""
    from tests.e2e.conftest import new_context, new_tab

    steps = steps or question_steps()
    contexts = [new_context(browser, base_url) for _ in range(2)]
    try:
        teacher, student = (new_tab(c) for c in contexts)
        for page in (teacher, student):
            page.set_viewport_size(SCREEN)
        code, token = start_class(teacher, *steps[0], lang=lang)
        open_app(student, f"?class={code}&lang={lang}")
        found = []
        for lesson, number in steps:
            found += reveal_step(teacher, student, code, token, lesson, number, lang=lang, present=present,
                                 shot=shot)
        return found
    finally:
        for c in contexts:
            c.close()
