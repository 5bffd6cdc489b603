"""A class in the app, this session's side: which class it is in and as whom, the store it reads, and what the
store refused or could not answer. The other modules of the class draw it: classroom_controls.py (start, join,
leave), classroom_follow.py (a student's tab on the teacher's step), classroom_panel.py (the class's line in the
tour panel), classroom_questions.py (answers, votes, reveal); classroom_seats.py keeps the seats of this process's
live sessions.

The state lives in the class store, embedviz/classroom/ (memory, or Redis when $EMBEDVIZ_REDIS_URL is set). In the
browser:
- the URL carries the class: ``?class=CODE`` joins it; the teacher's own link adds ``&teacher=TOKEN``; every run
  writes them back (a tour's move to another page sets only ``?tour=&step=``), so a reload stays in the class;
- a student's seat: their random id is in their link too (``&seat=``), so a reload is the same student with the
  same seat and answer; the seat belongs to the tab's live session and is given back when it ends (the server
  tells classroom_seats.py: ``compat.on_session_end``), and a seat another open tab holds (a link passed on) is
  not shared.
A store that cannot be used (down, or answering what it never writes) does not end the lesson: both sides keep
the class (and ``class=`` in every URL), say they are reconnecting, and retry with backoff (``RECONNECT``): the
teacher's tab keeps a copy of the class (classroom_panel.py's heartbeat reads it) and writes it back under the same
code and key when the store returns empty (a Redis restarted without persistence), and the students' tabs rejoin
it. A student waits ``RESTORE_WAIT`` seconds at most for a class that vanished; one its teacher closed is left at
once. Without a class yet (Start refused), "not connected" is said once and the tour goes on.
"""
from __future__ import annotations

import time

import streamlit as st

from embedviz import client_limits
from embedviz.lessons import tours
from embedviz._validate import link_number
from embedviz.app import classroom_seats, compat
from embedviz.app.i18n import t
from embedviz.classroom import limits
from embedviz.classroom.checks import ID_RE, ClassError
from embedviz.classroom.seats import new_member_id
from embedviz.classroom.state import ClassState
from embedviz.classroom.store import ClassStore, shared_store

CLASS_KEY, TEACHER_KEY, SEAT_KEY = "class", "teacher", "seat"  # URL parameters
TOUR_KEY, STEP_KEY = "tour", "step"  # the tour's URL parameters (embedviz/app/tour.py)
MEMBER = "_cls_member"  # session state: this browser session's random id
JOINED = "_cls_joined"  # session state: (code, role) with role "teacher" or "student"
AWAY = "_cls_away"  # session state: the student explores on their own
TOKEN = "_cls_token"  # session state: the teacher's key (also in their URL; kept here when a page switch drops it)
SEEN = "_cls_seen"  # session state: (lesson, step, revealed?) the last full run showed
ERROR = "_cls_error"  # session state: (error code, the code or text it concerns) to show once
RECONNECT = "_cls_reconnect"  # session state: [since, next try, tries] while the store (or the class in it) is away
MIRROR = "_cls_mirror"  # session state: the teacher's last copy of the class (embedviz/classroom/state.py)
RESTORE_WAIT = 600.0  # a student waits this long for a class that vanished with its store to be written back


@st.cache_resource(show_spinner=False)
def store() -> ClassStore:
    """The server process's one store, which its follow route reads too (the Redis client keeps its own pool)."""
    compat.on_session_end(classroom_seats.session_ended)
    return shared_store()


def call(fn, *args, about: str = "", **kwargs):
    """A store call; a ClassError is kept to be shown in the reader's language (``refused``) and None returned."""
    try:
        return fn(*args, **kwargs)
    except ClassError as error:
        refused(error, about)
        return None


def refused(error: ClassError, about: str = "") -> None:
    """A refused class action, kept to be shown once in the reader's language. A class whose store cannot be used,
    or which vanished with it (not closed by its teacher), is kept and retried (``reconnecting``); a class closed,
    or lost for longer than ``RESTORE_WAIT``, is left, and the app goes on without it."""
    if joined() and error.code in ("offline", "unknown") and _may_wait(error.code):
        away()
        return
    st.session_state[ERROR] = (error.code, about)
    if error.code in ("offline", "unknown"):
        drop()


def _may_wait(code: str) -> bool:
    """Whether a class the store cannot give now may still come back: the store is away, or the class vanished
    without its teacher closing it (then a student waits RESTORE_WAIT at most; the teacher writes it back)."""
    since = (st.session_state.get(RECONNECT) or [time.monotonic()])[0]
    if time.monotonic() - since > RESTORE_WAIT:
        return False
    if code == "offline":
        return True
    try:
        return not store().closed(joined()[0])
    except ClassError:
        return True  # the store went away again: keep trying


def reconnecting() -> bool:
    """Whether this tab waits for its class's store to come back."""
    return RECONNECT in st.session_state


def away() -> None:
    """The store failed (again): the next try after client_limits.retry_delay's backoff."""
    now = time.monotonic()
    since, _, tries = st.session_state.get(RECONNECT) or (now, now, 0)
    st.session_state[RECONNECT] = [since, now + client_limits.retry_delay(tries), tries + 1]


def due() -> bool:
    """Whether a reconnecting tab may try the store now (always, when it is not reconnecting)."""
    waiting = st.session_state.get(RECONNECT)
    return waiting is None or time.monotonic() >= waiting[1]


def reconnected() -> bool:
    """The store answered: whether this tab was reconnecting (its page then reruns to show the class again)."""
    return st.session_state.pop(RECONNECT, None) is not None


def drop() -> None:
    st.session_state.pop(JOINED, None)
    st.session_state.pop(TOKEN, None)
    st.session_state.pop(RECONNECT, None)
    st.session_state.pop(MIRROR, None)
    classroom_seats.forget(compat.session_id())
    for key in (CLASS_KEY, TEACHER_KEY, SEAT_KEY):
        st.query_params.pop(key, None)


def member() -> str:
    if MEMBER not in st.session_state:
        st.session_state[MEMBER] = new_member_id()
    return st.session_state[MEMBER]


def take_seat(raw: str, shown: str) -> ClassState | None:
    """Seat this session in class ``raw``: the seat of its link after a reload, else a new one."""
    linked = st.query_params.get(SEAT_KEY)
    if MEMBER not in st.session_state and linked and ID_RE.fullmatch(linked):
        st.session_state[MEMBER] = linked  # the student's own link: the same seat, the same answers
    session = compat.session_id()
    try:
        state = store().join(raw, member(), session, gone=classroom_seats.gone)
    except ClassError as error:
        if error.code == "offline" and error.unreachable:  # the store is away: the seat is taken when it is back
            away()
            return None
        if error.code != "seat_taken":
            refused(error, shown)
            return None
        # another open tab holds that seat (a link passed on, a second tab): this tab is another student
        st.session_state[MEMBER] = new_member_id()
        state = call(store().join, raw, member(), session, gone=classroom_seats.gone, about=shown)
        if state is None:
            return None
    classroom_seats.hold(session, state.code, member())
    st.query_params[SEAT_KEY] = member()
    return state


def seated(code: str) -> bool:
    """Whether this session holds its seat in class ``code``: a seat given back while the tab's socket was closed
    (a lost network, then a reconnect that resumed the session) is taken again at its next run or answer."""
    return classroom_seats.held(compat.session_id()) == (code, member()) or take_seat(code, code) is not None


def unseat() -> None:
    """A student's Leave: the seat goes back now."""
    session = compat.session_id()
    seat = classroom_seats.forget(session)
    if seat is not None:
        call(store().leave, *seat, session)


def tour_step() -> tuple[str, int] | None:
    """The tour step the URL names, or None when it names no step of a tour ("zzz", "../../x", a 20-digit step)."""
    lesson, raw = st.query_params.get(TOUR_KEY), st.query_params.get(STEP_KEY, "1")
    try:
        number = link_number("step", raw, max_digits=limits.STEP_DIGITS)
        if number is None:
            return None
        tours.step(lesson, number)
    except ValueError:
        return None
    return lesson, number


def joined() -> tuple[str, str] | None:
    return st.session_state.get(JOINED)


def teacher_token() -> str:
    return st.session_state.get(TOKEN, "")


def teaching() -> bool:
    return bool(joined()) and joined()[1] == "teacher"


def following() -> bool:
    """A student who follows the teacher (not stepped away): their own Back/Next are off."""
    return bool(joined()) and joined()[1] == "student" and not st.session_state.get(AWAY)


def teacher_sync() -> bool:
    """The teacher's copy of the class, read again; a class the store lost is written back from it. False when the
    store is away (retried with backoff) or the class was left (closed elsewhere, or the key is not its key)."""
    code, token = joined()[0], teacher_token()
    try:
        try:
            st.session_state[MIRROR] = store().snapshot(code, token)
        except ClassError as error:
            if error.code != "unknown":
                raise
            store().restore(code, token, st.session_state.get(MIRROR), tour_step())  # lost with the store
            st.session_state[MIRROR] = store().snapshot(code, token)
    except ClassError as error:
        refused(error, code)  # away: retried; closed or not the key: left
        return False
    reconnected()
    return True


def message() -> None:
    """The last refused class action, in the reader's language (shown once)."""
    if ERROR in st.session_state:
        say(*st.session_state.pop(ERROR))


def say(code: str, about: str = "") -> None:
    """A class refusal (a ClassError's code) in the reader's language; ``about``: the code or text it concerns."""
    if code == "malformed" and not about:  # nothing of it is letters or digits: repeat none of it
        code = "not_a_code"
    (st.warning if code == "offline" else st.error)(t(f"classroom.err.{code}", raw=about))

