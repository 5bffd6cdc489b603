"""A class's controls in the tour popover: start a class (on a tour), join one by code or link, leave the one joined.

What one client may ask: codes no class here has cost a token (per session and per address: a guesser is slowed,
never a student following their class), classes are started per address within the store's limits, a teacher
session holds one class and its Leave closes it.
"""
from __future__ import annotations

import re

import streamlit as st

from embedviz import client_limits
from embedviz.app.classroom_view import (
    AWAY, CLASS_KEY, ERROR, JOINED, SEAT_KEY, TEACHER_KEY, TOKEN, away, call, drop, joined, reconnecting, refused,
    store, take_seat, teacher_token, teaching, tour_step, unseat,
)
from embedviz.app.i18n import t
from embedviz.classroom.checks import ClassError, normalize_code
from embedviz.classroom.state import ClassState
from embedviz.lessons.widget_keys import Classroom as K

GUESSES = "_cls_guesses"  # session state: this session's budget for codes no class here has
GUESS_RATE, GUESS_BURST = 0.2, 5  # per session: a mistyped code or two, not a search of the codes


def _may_ask(code: str, shown: str) -> bool:
    """Whether this session may read a class it does not know: a code this process knows open costs nothing (a
    whole class joining, behind one address); any other costs a token of this session's budget and of its
    address's, shared with the follow route (a guesser is slowed, not the class)."""
    if store().known_open(code):
        return True
    mine = st.session_state.get(GUESSES)
    if mine is None:
        mine = st.session_state[GUESSES] = client_limits.TokenBucket(GUESS_RATE, GUESS_BURST)
    if mine.take() and client_limits.guesses().take(_client()):
        return True
    st.session_state[ERROR] = ("guesses", shown)
    return False


def _client() -> str:
    """Who asks, for the per-address limits: the address the server saw (None on loopback and under AppTest)."""
    return client_limits.address_key(st.context.ip_address)


def _shown(raw) -> str:
    """What of a refused code the message repeats: letters and digits only (no markdown or links from a URL)."""
    return re.sub(r"[^A-Za-z0-9]", "", str(raw))[:12]


def join_from_url() -> None:
    raw = st.query_params.get(CLASS_KEY)
    if not raw or (joined() and joined()[0] == raw):
        return
    shown = _shown(raw)
    try:
        code = normalize_code(raw)
    except ClassError as error:
        st.session_state[ERROR] = (error.code, shown)
        drop()
        return
    if not _may_ask(code, shown):
        drop()
        return
    if joined() and not teaching():
        unseat()  # a student who opens another class's link leaves the first one's seat
    token = st.query_params.get(TEACHER_KEY)
    if token:  # the teacher's own link: no seat (a teacher is not one of the students)
        try:
            teacher = store().restore(code, token, None, tour_step())  # the class, written back if the store lost it
        except ClassError as error:
            teacher = "away" if error.unreachable else error.code
        if teacher == "away":  # the store is away: the link keeps the class, and the tab retries
            st.session_state[JOINED], st.session_state[TOKEN], st.session_state[AWAY] = (code, "teacher"), token, False
            away()
            return
        if isinstance(teacher, ClassState):
            st.session_state[JOINED], st.session_state[TOKEN], st.session_state[AWAY] = (code, "teacher"), token, False
            st.query_params[CLASS_KEY] = code
            st.query_params.pop(SEAT_KEY, None)
            return
        if teacher != "not_teacher":
            refused(ClassError(teacher, ""), code)
            return
        st.session_state[ERROR] = ("not_teacher", code)
        st.query_params.pop(TEACHER_KEY, None)
    state = take_seat(code, shown)
    if state is None and reconnecting():  # the store is away: the link keeps the class, and the tab retries
        st.session_state[JOINED], st.session_state[AWAY] = (code, "student"), False
        return
    if state is None:
        drop()
        return
    st.session_state[JOINED] = (state.code, "student")
    st.session_state[AWAY] = False
    st.query_params[CLASS_KEY] = state.code


def _start() -> None:
    """Start a class at the tour step the URL names (the button is off on anything else). A teacher session holds
    one class: a class it taught, or a seat it held, is left first."""
    here = tour_step()
    if here is None:
        return
    if joined():
        _leave()
    made = call(store().create, *here, client=_client())
    if made:
        code, token = made
        st.query_params[CLASS_KEY], st.query_params[TEACHER_KEY] = code, token
        st.session_state[JOINED], st.session_state[TOKEN] = (code, "teacher"), token


def _join_typed() -> None:
    raw = str(st.session_state.get(K.CODE_INPUT, ""))
    try:
        code = normalize_code(raw)
    except ClassError as error:
        st.session_state[ERROR] = (error.code, _shown(raw))
        return
    st.query_params[CLASS_KEY] = code
    st.query_params.pop(TEACHER_KEY, None)


def _leave() -> None:
    """Leave: the teacher's closes the class (its code, seats and answers go now; the students are told), a
    student's gives the seat back."""
    if teaching():
        call(store().close, joined()[0], teacher_token())
    elif joined():
        unseat()
    drop()
    st.session_state[AWAY] = False


def controls() -> None:
    """In the tour popover: start a class (on a tour), join one by code, or leave the one joined."""
    if joined():
        st.caption(t("classroom.teaching" if teaching() else "classroom.joined", code=joined()[0]))
        if teaching():
            st.caption(t("classroom.teacher_link"))
        st.button(t("classroom.leave"), key=K.LEAVE, on_click=_leave)
        return
    on_tour = tour_step() is not None
    st.button(t("classroom.start"), key=K.START, on_click=_start, disabled=not on_tour, help=t("classroom.start_help"),
              icon=":material/groups:")
    if not on_tour:
        st.caption(t("classroom.start_needs_tour"))
    st.text_input(t("classroom.code_input"), key=K.CODE_INPUT, max_chars=12, placeholder="ABC234")
    st.button(t("classroom.join"), key=K.JOIN, on_click=_join_typed)

