"""A class in the app: the teacher's controls, students following the teacher's step, class answers and reveal.

The state lives in ``embedviz.classroom`` (memory, or Redis when $EMBEDVIZ_REDIS_URL is set). In the browser:
- the URL carries the class: ``?class=CODE`` joins it; the teacher's own link adds ``&teacher=TOKEN``; every run
  writes them back (a tour's move to another page sets only ``?tour=&step=``), so a reload stays in the class;
- a following student's run moves its URL to the teacher's step before the tour panel reads it; between runs the
  tab asks the server's follow route (embedviz/app/class_route.py) where the class is, a small HTTP answer that
  the route holds until the teacher moves, and reruns the app only when the teacher moved or revealed
  (embedviz/app/browser/class_follow.js). Where no route is served (AppTest, ``streamlit run app.py``) a fragment
  polls the store instead, one script run per poll, and switches straight to the step's page when it is another;
- on a class question the page stays hidden for everyone until the teacher's Reveal (peer instruction: predict,
  see the spread, discuss, then the figure).
A store that cannot be reached shows "not connected" once and the app goes on without a class.
"""
from __future__ import annotations

import re
from collections import Counter

import streamlit as st

from pathlib import Path

from embedviz import classroom, tours
from embedviz.app import class_route, compat, serving
from embedviz.app.pages import PAGES
from embedviz.app.i18n import t
from embedviz.app.markup import trusted
from embedviz.widget_keys import Classroom as K

CLASS_KEY, TEACHER_KEY = "class", "teacher"  # URL parameters
TOUR_KEY, STEP_KEY = "tour", "step"  # the tour's URL parameters (embedviz/app/tour.py)
MEMBER = "_cls_member"  # session state: this browser session's random id
JOINED = "_cls_joined"  # session state: (code, role) with role "teacher" or "student"
AWAY = "_cls_away"  # session state: the student explores on their own
TOKEN = "_cls_token"  # session state: the teacher's key (also in their URL; kept here when a page switch drops it)
SEEN = "_cls_seen"  # session state: (lesson, step, revealed?) the last full run showed
ERROR = "_cls_error"  # session state: (error code, the code or text it concerns) to show once
QR_PX = 150  # the projected QR code's side: about 4 px a module, scanned from a classroom's back rows
POLL_SECONDS = 0.5  # the fragment's poll, and the least time between two of a tab's asks that the route answered at once
FOLLOW_COMPONENT = "embedviz.class_follow"  # its JS: embedviz/app/browser (declared in pyproject.toml)
PACKAGE_ROOT = Path(__file__).resolve().parents[1]


@st.cache_resource(show_spinner=False)
def store() -> classroom.ClassStore:
    """The server process's one store, which its follow route reads too (the Redis client keeps its own pool)."""
    return classroom.shared_store()


def _call(fn, *args, about: str = ""):
    """A store call; a ClassError is kept to be shown in the reader's language and None returned."""
    try:
        return fn(*args)
    except classroom.ClassError as error:
        st.session_state[ERROR] = (error.code, about)
        if error.code in ("offline", "unknown"):
            _drop()
        return None


def _drop() -> None:
    st.session_state.pop(JOINED, None)
    st.session_state.pop(TOKEN, None)
    for key in (CLASS_KEY, TEACHER_KEY):
        st.query_params.pop(key, None)


def member() -> str:
    if MEMBER not in st.session_state:
        st.session_state[MEMBER] = classroom.new_member_id()
    return st.session_state[MEMBER]


def joined() -> tuple[str, str] | None:
    return st.session_state.get(JOINED)


def _token() -> str:
    return st.session_state.get(TOKEN, "")


def teaching() -> bool:
    return bool(joined()) and joined()[1] == "teacher"


def following() -> bool:
    """A student who follows the teacher (not stepped away): their own Back/Next are off."""
    return bool(joined()) and joined()[1] == "student" and not st.session_state.get(AWAY)


# joining and starting


def _shown(raw) -> str:
    """What of a refused code the message repeats: letters and digits only (no markdown or links from a URL)."""
    return re.sub(r"[^A-Za-z0-9]", "", str(raw))[:12]


def _join_from_url() -> None:
    raw = st.query_params.get(CLASS_KEY)
    if not raw or (joined() and joined()[0] == raw):
        return
    shown = _shown(raw)
    state = _call(store().join, raw, member(), about=shown)
    if state is None:
        _drop()
        return
    role = "student"
    token = st.query_params.get(TEACHER_KEY)
    if token:
        if _call(store().is_teacher, state.code, token, about=state.code):
            role = "teacher"
            st.session_state[TOKEN] = token
        else:
            st.session_state[ERROR] = ("not_teacher", state.code)
            st.query_params.pop(TEACHER_KEY, None)
    st.session_state[JOINED] = (state.code, role)
    st.session_state[AWAY] = False
    st.query_params[CLASS_KEY] = state.code


def _start() -> None:
    lesson, step = st.query_params.get(TOUR_KEY), st.query_params.get(STEP_KEY, "1")
    made = _call(store().create, lesson, int(step) if str(step).isdigit() else 1)
    if made:
        code, token = made
        st.query_params[CLASS_KEY], st.query_params[TEACHER_KEY] = code, token
        st.session_state[JOINED], st.session_state[TOKEN] = (code, "teacher"), token


def _join_typed() -> None:
    raw = str(st.session_state.get(K.CODE_INPUT, ""))
    try:
        code = classroom.normalize_code(raw)
    except classroom.ClassError as error:
        st.session_state[ERROR] = (error.code, _shown(raw))
        return
    st.query_params[CLASS_KEY] = code
    st.query_params.pop(TEACHER_KEY, None)


def _leave() -> None:
    _drop()
    st.session_state[AWAY] = False


def controls() -> None:
    """In the tour popover: start a class (on a tour), join one by code, or leave the one joined."""
    if joined():
        st.caption(t("cls.teaching" if teaching() else "cls.joined", code=joined()[0]))
        if teaching():
            st.caption(t("cls.teacher_link"))
        st.button(t("cls.leave"), key=K.LEAVE, on_click=_leave)
        return
    on_tour = bool(st.query_params.get(TOUR_KEY))
    st.button(t("cls.start"), key=K.START, on_click=_start, disabled=not on_tour, help=t("cls.start_help"),
              icon=":material/groups:")
    if not on_tour:
        st.caption(t("cls.start_needs_tour"))
    st.text_input(t("cls.code_input"), key=K.CODE_INPUT, max_chars=12, placeholder="ABC234")
    st.button(t("cls.join"), key=K.JOIN, on_click=_join_typed)


# following


def follow() -> None:
    """Before the tour panel reads the URL: join from the URL, keep the teacher's step in the store, and move a
    following student's URL to the teacher's step."""
    _join_from_url()
    if not joined():
        return
    code, _ = joined()
    if st.query_params.get(CLASS_KEY) != code:
        st.query_params[CLASS_KEY] = code
    if teaching() and st.query_params.get(TEACHER_KEY) != _token():
        st.query_params[TEACHER_KEY] = _token()
    lesson, raw = st.query_params.get(TOUR_KEY), st.query_params.get(STEP_KEY, "1")
    if teaching():
        state = _call(store().state, code, about=code)
        here = (lesson, int(raw)) if lesson and str(raw).isdigit() else None
        if state and here and (state.lesson, state.step) != here:
            _call(store().set_step, code, _token(), *here, about=code)
        return
    if st.session_state.get(AWAY):
        return
    state = _call(store().state, code, about=code)
    if state and (lesson, raw) != (state.lesson, str(state.step)):
        st.query_params[TOUR_KEY], st.query_params[STEP_KEY] = state.lesson, str(state.step)
    if state:
        st.session_state[SEEN] = state.position


def _moved() -> None:
    """The follow component's trigger: the rerun itself is the point (its ``follow`` reads the store)."""


def _follow_along(code: str) -> None:
    """A following student's tab between runs: the browser polls the follow route and reruns on a change; without
    the route (AppTest, a bare ``streamlit run app.py``) the fragment polls."""
    if not serving.routes_served():
        _poll()
        return
    lesson, step, revealed = st.session_state.get(SEEN) or ("", 0, False)
    mount = compat.component(FOLLOW_COMPONENT, package_root=PACKAGE_ROOT,
                             pyproject=PACKAGE_ROOT.parent / "pyproject.toml", js="class_follow.js")
    mount(key=K.FOLLOW, on_moved_change=_moved, data={
        "route": class_route.class_route(code), "period_ms": int(POLL_SECONDS * 1000),
        "seen": {"lesson": lesson, "step": step, "revealed": revealed}})


@st.fragment(run_every=POLL_SECONDS)
def _poll() -> None:
    """A following student's heartbeat where no follow route is served: a full rerun only when the teacher moved
    or revealed."""
    if not following():
        return
    code = joined()[0]
    state = _call(store().state, code, about=code)
    seen = st.session_state.get(SEEN)
    if state is None:
        st.rerun()
    elif state.position != seen:
        there = _page_file(state.lesson, state.step)
        if there and seen and there != _page_file(*seen[:2]):
            # the step lives on another page: go there now, or the rerun would run this page only to switch
            st.switch_page(there, query_params={TOUR_KEY: state.lesson, STEP_KEY: str(state.step), CLASS_KEY: code})
        st.rerun()


def _page_file(lesson: str, number: int) -> str | None:
    """The page script a tour step lives on (None for a step the tours do not have)."""
    try:
        url = tours.step(lesson, number).page
    except ValueError:
        return None
    return next((file for _, entries in PAGES for file, *_, path in entries if path == url), None)


def _come_back() -> None:
    st.session_state[AWAY] = False


def _step_away() -> None:
    st.session_state[AWAY] = True


def _qr_svg(link: str) -> str:
    import segno  # pure Python, drawn here: no QR service is asked

    return segno.make(link, error="m").svg_inline(scale=6, border=2, dark="#111", light="#fff", omitsize=False)


def class_line(presenting: bool) -> None:
    """Inside the tour panel: the teacher's join code, link and QR code; a student's follow / step-away line."""
    message()
    if not joined():
        return
    code, _ = joined()
    if teaching():
        base = (st.context.url or "").split("?")[0]
        link = f"{base}?{CLASS_KEY}={code}"
        if not presenting:
            st.markdown(t("cls.code_big", code=code))
            st.caption(t("cls.link", link=link))
            st.caption(t("cls.teacher_link"))
            return
        # projected: the code large, the link and a QR code the back row can scan, in one band low enough that a
        # question's spread and Reveal stay on a 720 px screen (the teacher key's warning is in the tour
        # controls: the class need not read it)
        left, right = st.columns([5, 1], vertical_alignment="center")
        with left:
            st.markdown("## " + t("cls.code_big", code=code))
            st.caption(t("cls.link", link=link) + " · " + t("cls.qr_caption"))
        right.image(_qr_svg(link), width=QR_PX)
        return
    left, right = st.columns([4, 1])
    if st.session_state.get(AWAY):
        left.info(t("cls.away", code=code))
        right.button(t("cls.come_back"), key=K.BACK, on_click=_come_back, type="primary")
    else:
        left.caption(t("cls.joined", code=code))
        right.button(t("cls.step_away"), key=K.AWAY, on_click=_step_away)
        _follow_along(code)


def message() -> None:
    """The last refused class action, in the reader's language (shown once)."""
    if ERROR in st.session_state:
        code, about = st.session_state.pop(ERROR)
        if code == "malformed" and not about:  # nothing of it is letters or digits: repeat none of it
            code = "not_a_code"
        (st.warning if code == "offline" else st.error)(t(f"cls.err.{code}", raw=about))


# questions


def send(lesson: str, number: int, option: str | None) -> None:
    """The radio's callback, in class: a student's choice goes to the store (the last one counts)."""
    if option and joined() and not teaching() and _on_class_step(lesson, number):
        _call(store().answer, joined()[0], member(), number, option)


def _on_class_step(lesson: str, number: int) -> bool:
    state = _call(store().state, joined()[0]) if joined() else None
    return bool(state) and (state.lesson, state.step) == (lesson, number)


def _spread(labels: dict[str, str], counts: Counter) -> None:
    """How many answered, the spread as a sentence and as bars (counts only, no names)."""
    names = {code: label for label, code in labels.items()}
    st.caption(t("cls.answered", n=sum(counts.values())))
    spread = (" · ".join(t("cls.spread_item", option=names.get(o, o), n=counts.get(o, 0)) for o in names) if counts
              else t("cls.none_yet"))
    st.markdown(t("cls.spread", spread=spread))
    if counts:
        # a Vega-Lite spec, not st.bar_chart: its axis cut the answers' labels to a few words, sorted them, and
        # ticked half students; here each option keeps its whole label, in the question's order
        data = {"option": [str(label) for label in names.values()], "n": [counts.get(o, 0) for o in names]}
        st.vega_lite_chart(data, {
            "mark": {"type": "bar"},
            "encoding": {
                "y": {"field": "option", "type": "nominal", "sort": None,
                      "axis": {"title": None, "labelLimit": 600, "labelFontSize": 13}},
                # no axis title: "n answered" above says what is counted, and a projected question's four bars
                # with Reveal above them must fit a 720 px screen; the tooltip names it
                "x": {"field": "n", "type": "quantitative", "axis": {"title": None, "tickMinStep": 1, "format": "d"}},
                "tooltip": [{"field": "option", "title": " "}, {"field": "n", "title": str(t("cls.count_axis"))}],
            },
            "height": {"step": 28},  # a band per option, whatever the page's font size
        }, width="stretch", alt=str(t("cls.chart_alt")))


@st.fragment(run_every=POLL_SECONDS)
def _teacher_tally(lesson: str, number: int, labels: dict[str, str]) -> None:
    code = joined()[0] if joined() else None
    counts = _call(store().tally, code, _token(), number) if code else None
    if counts is not None:
        _spread(labels, counts)
    elif not joined():
        st.rerun()  # the store was lost: the whole page says so and goes on without the class


def _reveal(number: int) -> None:
    _call(store().reveal, joined()[0], _token(), number)


def gate(lesson: str, number: int, labels: dict[str, str], picked: str | None, answer_text, *,
         beside=None) -> bool | None:
    """A question step in class. Before the reveal, in ``beside`` (the column by the question, so on a projector
    the spread and Reveal stay on the first screen): the teacher sees the count, the spread and Reveal, a student
    is told to answer or to wait; both keep the page hidden (False). After it: the spread for everyone, then
    None (the tour's own verdict follows a picked answer) or True after showing the answer to one who did not pick.
    Out of class, or when the class is on another step: None (the tour's own flow)."""
    if not joined() or not _on_class_step(lesson, number):
        return None
    state = _call(store().state, joined()[0])
    if state is None:
        return None
    if number not in state.revealed:
        with beside if beside is not None else st.container():
            if teaching():  # Reveal first: however many options the spread has, it stays on the screen
                st.button(t("cls.reveal"), key=K.reveal(lesson, number), on_click=_reveal, args=(number,),
                          type="primary", help=t("cls.teacher_wait"))
                _teacher_tally(lesson, number, labels)
            else:
                st.caption(t("cls.wait_reveal" if picked else "cls.pick_first"))
        return False
    counts = (_call(store().tally, joined()[0], _token(), number) if teaching()
              else _call(store().revealed_tally, joined()[0], number))
    _spread(labels, counts or Counter())
    if picked is None:
        st.info(trusted(answer_text()))  # tour._answer_text: catalog texts, values escaped by t()
        return True
    return None
