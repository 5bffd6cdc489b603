"""Lesson tours and the presenter view in the app. The tours themselves are data in ``embedviz.lessons.tours``.

How a step is shown:
- the URL says which step: ``?tour=003&step=4`` (plain query parameters, not widgets, so a link opens the step on a
  fresh server, and a reload or the language switch keeps it);
- when the URL's step is not the one this session last applied, the step's settings are written into session
  state *before* the page creates its widgets (a keyed widget takes a value set in session state before it is
  created), then, if the step lives on another page, ``st.switch_page`` goes there with ``?tour=&step=``;
- after that the student owns the widgets: the panel compares them with the step's settings, says so when they
  differ, and offers to restore them (the restore re-applies the step on the next run);
- a step with a question hides the page until the student picks an answer (the page's widgets are not created
  meanwhile, so choosing an answer re-applies the step's settings);
- while a tour runs, a step is one screen: the panel's bar (where, Back, Next) first, then the page's figure, and
  the page's intro and controls after it (``TOUR_CSS``; tests/e2e/test_tour_screen.py measures it).
"""
from __future__ import annotations

import json
from typing import Any

import streamlit as st

from embedviz.lessons import tours
from embedviz._validate import link_number
from embedviz.app import (
    a11y, classroom_controls, classroom_follow, classroom_panel, classroom_questions, classroom_view, compat,
)
from embedviz.app.i18n import catalog, current_language, t
from embedviz.app.markup import trusted
from embedviz.app.serving import PRESENTER_KEYS_JS, TOUR_FIT_JS
from embedviz.app.tour_answers import answer  # the question's right option, cached per step
from embedviz.app.widgets import BIND, IMAGE_KEY, PRESENT_KEY, show_error
from embedviz.errors import InputError
from embedviz.figures import screen
from embedviz.lessons.widget_keys import Tour as K, Training

TOUR_KEY, STEP_KEY = "tour", "step"  # URL parameters
APPLIED = "_tour_applied"  # session state: (lesson, step) whose settings were last written into the widgets
REVEALED = "_tour_revealed"  # session state: set of (lesson, step) shown without answering
ANSWERS = "_tour_answers"  # session state: {(lesson, step): the option code the student picked}
SHOWN = "_tour_shown"  # session state: (lesson, step, whether the last whole run showed the page under the question)
_STEP_DIGITS = 6  # a ?step= longer than this (leading zeros aside) is no step of any tour
_PANEL, _BAR = f".st-key-{K.PANEL}", f".st-key-{K.BAR}"  # Streamlit's classes for the keyed containers
PRESENT_CSS = f"""<style>
html {{ font-size: 20px; }}
.stMainBlockContainer {{ max-width: 100%; padding-left: 2rem; padding-right: 2rem; }}
{_PANEL} p, {_PANEL} li {{ font-size: 1.05rem; line-height: 1.2; }}
{_PANEL} :is([data-testid='stRadio'], [data-testid='stAlert']) p {{ font-size: 1rem; }}
{_PANEL} h3 {{ font-size: 1.6rem; }}
</style>"""
# A tour step is one screen: the panel, the page's title, then the page's first figure (a chart, a table, a set of
# tabs, a refusal), then what the page put before it (its intro, formula, Details, controls, a section's subheader)
# and the rest. The same inside a tab, a container or a fragment: its first figure first. By CSS order only: the
# script, its widgets and their URL state stay as they are. (A question step's hidden page has no figure, so nothing
# moves there.) :has() cannot nest, so each kind of figure is named in the selectors.
_MAIN = ".stMainBlockContainer > [data-testid='stVerticalBlock']"
_NESTED = (f"{_MAIN} > [data-testid='stLayoutWrapper'] > [data-testid='stVerticalBlock']:not({_PANEL})",
           "[data-testid='stTabPanel'] > [data-testid='stVerticalBlock']",
           "[data-testid='stTabPanel'] > [data-testid='stVerticalBlock'] > [data-testid='stLayoutWrapper']"
           " > [data-testid='stVerticalBlock']")
_CHARTS = ("[data-testid='stPlotlyChart']", ".live-figure", "[data-testid='stDataFrame']", "[data-testid='stTable']")
_ALERTS = ("[data-testid='stAlertContentWarning']", "[data-testid='stAlertContentError']")


def _first(charts: str, later_chart: str) -> tuple[str, str]:
    """The first figure of a block: its first chart (a block that holds ``charts``, with none before it), or in a
    block without any chart, its first refusal (a warning or an error shown where the figure would be)."""
    alert = ":has(" + ", ".join(_ALERTS) + ")"
    return (f"{charts}:not({charts} ~ *)",
            f"{alert}:not({alert} ~ *):not({charts}):not({charts} ~ *):not(:has({later_chart}))")


# (the panel is never a figure, though it holds a warning when an answer was wrong)
_FIRST = _first(":is(.stTabs, :has(" + ", ".join(_CHARTS) + f")):not(:has({_PANEL}))",
                ", ".join(["~ .stTabs", *(f"~ * {c}" for c in _CHARTS)]))
_TAB_FIRST = _first(":has(" + ", ".join(_CHARTS) + ")", ", ".join(f"~ * {c}" for c in _CHARTS))
_SAME = ", ".join(f"{block} > *" for block in (_MAIN, *_NESTED))
# Projected, the page's title gives its line to the figure: the panel names the lesson and the tabs the section.
# A screen reader still reads it (out of the layout, not display: none).
_SCREEN_READER_ONLY = ("position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0);"
                       " white-space: nowrap;")
TOUR_CSS = f"""<style>
.stMainBlockContainer {{ padding-top: 3.9rem; padding-bottom: 2rem; }}  /* the header is 3.75rem */
{_SAME} {{ order: 2; }}
{", ".join(f"{_MAIN} > {first}" for first in _FIRST)} {{ order: 1; }}
{", ".join(f"{block} > {first}" for block in _NESTED for first in _TAB_FIRST)} {{ order: 1; }}
{_MAIN} > :is(:has({_PANEL}), :has(h1)) {{ order: 0 !important; }}
{_MAIN} {{ gap: 0.35rem; }}
{_MAIN} h1 {{ font-size: 1.15rem; padding: 0; }}
/* a heading's block is pulled up by -1rem to cancel the padding a heading has outside a tour: without that padding
   the compact title sat on the figure under it */
{_MAIN} [data-testid='stHeading'] [data-testid='stMarkdownContainer'] {{ margin-bottom: 0; }}
:root:has(#embedviz-presenting) {_MAIN} > :has(h1) {{ {_SCREEN_READER_ONLY} }}
{_MAIN} [data-testid='stTabPanel'] {{ padding-top: 0.1rem; }}
{_MAIN} :is(h2, h3) {{ font-size: 1.2rem; padding: 0.25rem 0; }}
{_PANEL} [role='radiogroup'] {{ row-gap: 0.3rem; }}
{_PANEL} {{ gap: 0.2rem; padding-top: 0.3rem; padding-bottom: 0.3rem; }}
{_BAR} button {{ min-height: 1.8rem; padding-top: 0.15rem; padding-bottom: 0.15rem; }}
/* Streamlit pulls a text block up by -1rem to cancel its paragraph's 1rem margin: with that margin gone too, one
   text's last line sat on the next one */
{_PANEL} [data-testid='stMarkdownContainer'] {{ margin-bottom: 0; }}
{_PANEL} [data-testid='stMarkdownContainer'] p {{ margin-bottom: 0; }}
{_PANEL} [data-testid='stAlertContainer'] {{ padding: 0.4rem 0.8rem; }}
{_PANEL} [data-testid='stAlertContainer'] p {{ font-size: 0.9rem; }}
</style>"""
# A step whose figure is the tab it opens (tours.Step.tabs_first): the block holding the tabs before the rest.
TABS_FIRST_CSS = f"""<style>
{_MAIN} > :is(.stTabs, :has(.stTabs)):not(:has({_PANEL})) {{ order: 1 !important; }}
{_MAIN} > :not(:is(.stTabs, :has(.stTabs), :has({_PANEL}), :has(h1))) {{ order: 2 !important; }}
</style>"""
# The clicker's keys (embedviz/app/browser/presenter_keys.js; the served CSP allows it by its hash), and the marker
# the script checks for presenter view.
PRESENT_KEYS = f'<span id="embedviz-presenting"></span><script>{PRESENTER_KEYS_JS}</script>'
# The fitter's rules (embedviz.figures.screen's TOUR_*) on a marker it reads: the script itself stays the file whose
# hash the CSP allows.
TOUR_FIT = (f"<span id=\"embedviz-tour-fit\" hidden data-rules='{json.dumps(screen.tour_rules())}'></span>"
            f"<script>{TOUR_FIT_JS}</script>")


def presenting() -> bool:
    """The presenter switch, or before it exists (the first run) the URL's ?present=true (or =1)."""
    if PRESENT_KEY in st.session_state:
        return bool(st.session_state[PRESENT_KEY])
    return str(st.query_params.get(PRESENT_KEY, "")).lower() in ("1", "true")


def _seed_presenting() -> None:
    if PRESENT_KEY not in st.session_state and presenting():
        st.session_state[PRESENT_KEY] = True  # ?present=1 is not a boolean the bound toggle accepts


def sidebar_state() -> str:
    """st.set_page_config's initial_sidebar_state: collapsed when projecting."""
    return "collapsed" if presenting() else "auto"


def _pick_tour(codes: dict[str, str]) -> None:
    """Callback of the tour picker (its options are the translated titles: ``codes`` maps them back)."""
    lesson = codes.get(st.session_state[K.PICK], "")
    if lesson:
        start_tour(lesson)
    else:
        leave()


def start_tour(lesson: str) -> None:
    """Button callback: open the first step of another lesson's tour."""
    st.query_params[TOUR_KEY], st.query_params[STEP_KEY] = lesson, "1"
    st.session_state[APPLIED] = None


def _finished(lesson: str) -> None:
    """The end of a tour: say so, and offer the next lesson's tour (the lessons build on each other in order); a
    teacher's class summary sits in the same row (a popover: the figure under the panel keeps its place)."""
    order = list(tours.TOURS)
    following = order[order.index(lesson) + 1] if order.index(lesson) + 1 < len(order) else None
    teaching = classroom_view.teaching()
    if following is None and not teaching:
        st.success(t("tour.done_all"))
        return
    # one row whose button takes its label's whole width (the message gives way, onto two lines if it must): in a
    # fixed column a presenter's larger text cut the next lesson's title short
    with st.container(horizontal=True, vertical_alignment="center"):
        st.success(t("tour.done", lesson=lesson) if following else t("tour.done_all"))
        if teaching:
            questions = {k: s.question.id for k, s in enumerate(tours.TOURS[lesson].steps, 1) if s.question}
            classroom_questions.summary(lesson, questions, lambda k: answer(lesson, k)[0])
        if following:
            st.button(t("tour.next_lesson", title=t(f"tour.{following}.title")), key=K.NEXT_LESSON,
                      on_click=start_tour, args=(following,), type="primary", width="content")


def leave() -> None:
    """Button callback: end the tour (the page keeps its current settings)."""
    for key in (TOUR_KEY, STEP_KEY):
        st.query_params.pop(key, None)
    st.session_state[APPLIED] = None


def sidebar_controls() -> None:
    """The tour picker, the presenter switch and the toolbar's image format, in the sidebar (the frame calls this
    once per run, before the page)."""
    _seed_presenting()
    # options are the titles themselves, not codes with a format_func: the picker follows the language switch
    titles = {t(f"tour.{code}.title") if code else t("tour.none"): code for code in ["", *tours.TOURS]}
    current = st.query_params.get(TOUR_KEY) if st.query_params.get(TOUR_KEY) in tours.TOURS else ""
    st.session_state[K.PICK] = next(title for title, code in titles.items() if code == current)
    # In a popover: its widgets are drawn only when it is opened. Drawn in the open sidebar they cost every page
    # open ~250 ms of browser CPU (a selectbox, a toggle and a segmented control, each loading its code), about a
    # third of a bare Streamlit page's open (measured in Chromium against a one-slider page; benchmarks/README.md).
    label = t("tour.controls") if not current else f"{t('tour.controls')}: {t(f'tour.{current}.title')}"
    with st.sidebar, st.popover(label, icon=":material/school:", width="stretch"):
        st.selectbox(t("tour.pick"), list(titles), key=K.PICK, on_change=_pick_tour, args=(titles,))
        st.toggle(t("tour.present"), key=PRESENT_KEY, help=t("tour.present_help"), bind=BIND)
        st.segmented_control(t("tour.image"), ("png", "svg"), default="png", key=IMAGE_KEY, required=True,
                             format_func=lambda f: t(f"tour.image_{f}"), help=t("tour.image_help"), bind=BIND)
        classroom_controls.controls()  # start, join or leave a class
    if presenting():
        st.html(PRESENT_CSS)  # style only: takes no place on the page
        with st.sidebar:  # folded away when projecting, so the script's block takes no room above the panel
            st.html(PRESENT_KEYS, unsafe_allow_javascript=True)  # our own file: no reader's value in it


def _value(value: Any) -> Any:
    """A step's setting as the widget holds it (a Label is the current language's text of its key)."""
    return t(value) if isinstance(value, tours.Label) else value


def _apply(lesson: str, number: int) -> None:
    for key, value in tours.step(lesson, number).settings.items():
        st.session_state[key] = _value(value)
    st.session_state[APPLIED] = (lesson, number)


def _reapply() -> None:
    """Callback: write the step's settings again on this rerun (restore, or reveal after the page was hidden)."""
    st.session_state[APPLIED] = None


def _go(number: int) -> None:
    st.query_params[STEP_KEY] = str(number)


def _reveal(lesson: str, number: int) -> None:
    st.session_state[REVEALED] = st.session_state.get(REVEALED, set()) | {(lesson, number)}
    _reapply()


def _holds(held: Any, value: Any) -> bool:
    """Whether a widget holding ``held`` shows the step's setting ``value``. A Label (a tab) matches its text in
    any language: right after the language switch the panel runs before the page has redrawn its tabs in the new
    language, and a tab still named in the old one is the same tab, not a change the student made."""
    if isinstance(value, tours.Label):
        return held in catalog()[value].values()
    return held == value


def differing(lesson: str, number: int) -> list[str]:
    """Widget keys whose current value is not the step's setting (widgets the page has not created are skipped)."""
    return [key for key, value in tours.step(lesson, number).settings.items()
            if key in st.session_state and not _holds(st.session_state[key], value)]



def _train_the_pages_run(lesson: str, number: int) -> None:
    """An answer about a training run quotes the whole run (the core trains every step): train the page's run in
    full too, so the table beside the answer shows the same run, not one the link's CPU budget cut short. Cached
    for every session after the first, and the same seed trains the same numbers."""
    step = tours.step(lesson, number)
    if step.page != "trained-embedding":
        return
    from embedviz.app import trained_embedding_view as trained  # only tours on this page need the training code

    s = step.settings
    trained.group_experiment(s[Training.STEPS], s[Training.D_MODEL], s[Training.LR], s[Training.SEED],
                             trained.parse_groups(s[Training.GROUPS]), s[Training.SOFTMAX], full=True)


def _answered(lesson: str, number: int, key: str, codes: dict[str, str]) -> None:
    """Callback of a question: keep the chosen option's code (it outlives the language switch), show the page. In a
    class the teacher counts it, and a choice the class refuses goes back to the one it counts."""
    st.session_state.setdefault(ANSWERS, {})[(lesson, number)] = classroom_questions.send(lesson, number, key, codes)
    _reapply()


def question_key(lesson: str, number: int) -> str:
    """The radio's key; per language, because its options are the translated answers."""
    return K.question(lesson, number, current_language())


@st.fragment
def _question(lesson: str, number: int, question: tours.Question) -> bool:
    """The question and, once answered, whether it was right. True when the page may be shown.

    A fragment: picking an answer reruns this block alone (a class's hundred answers to one question are a hundred
    such runs on the server at once, where whole reruns of the app cost several times more), and the whole app only
    when the answer shows or hides the page below."""
    show = _asked(lesson, number, question)
    if not compat.fragment_rerun():
        st.session_state[SHOWN] = (lesson, number, show)  # what this run's page does
    elif st.session_state.get(SHOWN) != (lesson, number, show):
        st.rerun()  # the page appears (or hides) under the panel: the whole app runs
    return show


def _asked(lesson: str, number: int, question: tours.Question) -> bool:
    labels = {t(f"tour.q.{question.id}.{o}"): o for o in question.options}
    picked = st.session_state.get(ANSWERS, {}).get((lesson, number))
    key = question_key(lesson, number)
    if classroom_questions.fresh_vote(lesson, number, picked):  # the class votes again: this radio starts empty
        st.session_state[ANSWERS].pop((lesson, number), None)
        st.session_state[key] = None  # set, not dropped: the browser's radio is told to clear too
        picked = None
    # the verdict beside the question, not under it: an answered step's figure stays on the first screen
    ask, say = st.columns([3, 2], vertical_alignment="center")
    ask.radio(t(f"tour.q.{question.id}"), list(labels), index=question.options.index(picked) if picked else None,
              key=key, on_change=_answered, args=(lesson, number, key, labels), horizontal=True)
    in_class = classroom_questions.gate(lesson, number, labels, picked, lambda: _answer_text(lesson, number, question),
                                    beside=say, under=ask, presenting=presenting())
    if in_class is not None:
        return in_class
    if picked is None:
        if (lesson, number) in st.session_state.get(REVEALED, set()):
            return True
        with say.container(horizontal=True, vertical_alignment="center"):
            st.caption(t("tour.predict_first"))
            st.button(t("tour.reveal"), key=K.reveal(lesson, number), on_click=_reveal,
                      args=(lesson, number))
        return False
    _train_the_pages_run(lesson, number)
    right, facts = answer(lesson, number)
    why = _why(lesson, number, question, facts)
    verdict = t("tour.right", why=why) if picked == right else t(
        "tour.wrong", answer=t(f"tour.q.{question.id}.{right}"), why=why)
    # revealed in class, the votes' spread is beside the question: the verdict goes under the answers
    with ask if classroom_view.following() else say:
        (st.success if picked == right else st.warning)(verdict)
        a11y.announce(verdict, f"{lesson}:{number}:{picked}")  # the page's live region says it (a11y.py)
    return True


def _why(lesson: str, number: int, question: tours.Question, facts: dict) -> str:
    """The verdict's explanation: the question's numbers, then what the step found (``tour.<lesson>.<name>.found``,
    kept out of the step's text so the question does not answer itself before it is asked)."""
    why = t(f"tour.q.{question.id}.why", **facts)
    found = f"tour.{lesson}.{tours.step(lesson, number).name}.found"
    return t("tour.why_found", why=why, found=t(found)) if found in catalog() else why


def _answer_text(lesson: str, number: int, question: tours.Question) -> str:
    right, facts = answer(lesson, number)
    return t("classroom.answer_is", answer=t(f"tour.q.{question.id}.{right}"),
             why=_why(lesson, number, question, facts))


def _url_step():
    """(lesson, number, step) the URL names, or None without a tour; a ValueError (InputError) for a step that is
    not a whole number, is absurdly long, or is not in the tour."""
    lesson = st.query_params.get(TOUR_KEY)
    if not lesson:
        return None
    raw = st.query_params.get(STEP_KEY, "1")
    number = link_number("step", raw, max_digits=_STEP_DIGITS)  # ASCII digits: "²" and "①" are no step
    if number is None:  # no tour has a million steps
        tours.step(lesson, 1)  # an unknown tour is named first
        raise InputError("huge_at_most", name="step", digits=len(raw.lstrip("0")), limit=len(tours.TOURS[lesson].steps))
    return lesson, number, tours.step(lesson, number)


def where() -> tuple[str, int, int, str] | None:
    """The step the URL names as (lesson, its number, the tour's length, what the step says), or None (no tour, or
    no valid step): the frame titles the document with it and announces a new step (embedviz/app/a11y.py)."""
    try:
        named = _url_step()
    except ValueError:
        return None
    if named is None:
        return None
    lesson, number, step = named
    total = len(tours.TOURS[lesson].steps)
    return lesson, number, total, ". ".join(_step_words(lesson, number, step, total))


def _step_words(lesson: str, number: int, step: tours.Step, total: int) -> tuple[str, str]:
    """Where the step is ("Lesson 003 · step 8 of 12") and what it says: the panel shows them, the frame says them."""
    return t("tour.where", title=t(f"tour.{lesson}.title"), k=number, n=total), t(f"tour.{lesson}.{step.name}")


def arrive(current, pages: dict[str, Any]) -> None:
    """Before anything of the run is drawn (the frame calls this right after the navigation): a following student's
    URL moves to the teacher's step, a step this session has not applied yet writes its settings, and a step on
    another page switches there now. A switch throws away the run that asked for it, so whatever was drawn before it
    was server CPU for nothing: drawn first, the sidebar's widgets and the panel were paid twice by every follower
    whose teacher moved onto another page, a whole class at once. A URL that names no valid step is left to
    ``panel``, which says so."""
    _seed_presenting()  # first: with a step's settings written before it, a ?present=1 link opened with the switch off
    classroom_follow.follow()  # a following student's URL moves to the teacher's step first
    try:
        named = _url_step()
    except ValueError:  # the panel names what is wrong
        return
    if named is None:
        return
    lesson, number, step = named
    if st.session_state.get(APPLIED) != (lesson, number):
        _apply(lesson, number)
        target = pages[step.page]
        if target.url_path != current.url_path:
            st.switch_page(target, query_params={TOUR_KEY: lesson, STEP_KEY: str(number)})


def panel(current, pages: dict[str, Any]) -> bool:
    """The tour's panel above the page (when the URL names a tour); False when the page must stay hidden. The frame
    calls ``arrive`` before it, so the step's settings are written and its page is the one running.

    ``current`` is the page st.navigation chose; ``pages`` maps the frame's url paths to its st.Page objects.
    """
    lesson = st.query_params.get(TOUR_KEY)
    if not lesson:
        classroom_view.message()
        return True
    try:
        lesson, number, step = _url_step()
    except ValueError as error:
        show_error(error)
        return True
    target = pages[step.page]
    total = len(tours.TOURS[lesson].steps)
    st.html(TOUR_CSS)  # style only: takes no place on the page
    if step.tabs_first:
        st.html(TABS_FIRST_CSS)
    # the step's chart sized to the room left under the panel (browser/tour_fit.js): our own file, no reader's value
    with st.sidebar:  # out of the panel's layout (the sidebar is folded away when projecting; the script still runs)
        st.html(TOUR_FIT, unsafe_allow_javascript=True)
    following = classroom_view.following()
    with st.container(border=True, key=K.PANEL):
        classroom_panel.class_line(presenting())
        # where you are and Back / Next on one line, first: Next stays on the screen however long the step's text
        with st.container(horizontal=True, vertical_alignment="center", key=K.BAR):
            where_words, step_words = _step_words(lesson, number, step, total)
            st.caption(trusted(where_words), help=t("tour.link", lesson=lesson, k=number))  # catalog texts (t)
            st.button(t("tour.back"), key=K.BACK, on_click=_go, args=(number - 1,),
                      disabled=number == 1 or following)
            st.button(t("tour.next"), key=K.NEXT, on_click=_go, args=(number + 1,),
                      disabled=number == total or following, type="primary")
            st.button(t("tour.leave"), key=K.LEAVE, on_click=leave)
        st.markdown(trusted(step_words))
        st.markdown(f"**{t('tour.look')}** {t(f'tour.{lesson}.{step.name}.look')}")
        if target.url_path != current.url_path:
            left, right = st.columns([4, 1])
            left.info(t("tour.elsewhere"))
            right.button(t("tour.go"), key=K.GO, on_click=_reapply)
        elif moved := differing(lesson, number):
            left, right = st.columns([4, 1])
            left.warning(t("tour.differs", n=len(moved)))
            right.button(t("tour.restore"), key=K.RESTORE, on_click=_reapply)
        here = target.url_path == current.url_path
        show = _question(lesson, number, step.question) if step.question and here else True
        if number == total and show:
            _finished(lesson)
    return show
