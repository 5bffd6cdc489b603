"""A following student's tab on the teacher's step: its run moves its URL to the teacher's step before the tour panel
reads it; between runs the tab asks the server's follow route (embedviz/app/classroom_route.py) where the class is,
a small HTTP answer that the route holds until the teacher moves, and reruns the app only when the teacher moved or
revealed (embedviz/app/browser/classroom_follow.js). Where no route is served (AppTest, ``streamlit run app.py``) a
fragment polls the store instead, one script run per poll, and switches straight to the step's page when it is
another.
"""
from __future__ import annotations

from pathlib import Path

import streamlit as st

from embedviz import client_limits
from embedviz.lessons import tours
from embedviz.app import classroom_route, compat, serving
from embedviz.app.classroom_controls import join_from_url
from embedviz.app.classroom_view import (
    AWAY, CLASS_KEY, SEAT_KEY, SEEN, STEP_KEY, TEACHER_KEY, TOUR_KEY, call, drop, due, following, joined, member,
    reconnected, reconnecting, seated, store, teacher_sync, teacher_token, teaching, tour_step,
)
from embedviz.app.pages import PAGES
from embedviz.lessons.widget_keys import Classroom as K

POLL_SECONDS = 0.5  # the fragment's poll, and the least time between two of a tab's asks that the route answered at once
FOLLOW_COMPONENT = "embedviz.classroom_follow"  # its JS: embedviz/app/browser (declared in pyproject.toml)
PACKAGE_ROOT = Path(__file__).resolve().parents[1]


def follow() -> None:
    """Before the tour panel reads the URL: join from the URL, keep the teacher's step in the store, and move a
    following student's URL to the teacher's step."""
    join_from_url()
    if not joined():
        return
    code, _ = joined()
    if st.query_params.get(CLASS_KEY) != code:
        st.query_params[CLASS_KEY] = code
    if teaching() and st.query_params.get(TEACHER_KEY) != teacher_token():
        st.query_params[TEACHER_KEY] = teacher_token()
    lesson, raw = st.query_params.get(TOUR_KEY), st.query_params.get(STEP_KEY, "1")
    if teaching():
        if not due() or (reconnecting() and not teacher_sync()):
            return  # the store is away: the tab keeps the class and its step, and tries again
        state = call(store().state, code, about=code)
        here = tour_step()
        if state and here and (state.lesson, state.step) != here:
            call(store().set_step, code, teacher_token(), *here, about=code)
        return
    if not seated(code):
        if not reconnecting():
            drop()
        return
    if st.query_params.get(SEAT_KEY) != member():
        st.query_params[SEAT_KEY] = member()
    if st.session_state.get(AWAY):
        return
    state = call(store().state, code, about=code)
    if state and (lesson, raw) != (state.lesson, str(state.step)):
        st.query_params[TOUR_KEY], st.query_params[STEP_KEY] = state.lesson, str(state.step)
    if state:
        st.session_state[SEEN] = state.follow
        reconnected()


def _moved() -> None:
    """The follow component's trigger: the rerun itself is the point (its ``follow`` reads the store)."""


def follow_along(code: str) -> None:
    """A following student's tab between runs: the browser polls the follow route and reruns on a change; without
    the route (AppTest, a bare ``streamlit run app.py``) the fragment polls."""
    if not serving.routes_served():
        _poll()
        return
    # reconnecting: a page that shows no position, so that the class's first answer once it is back reruns it
    lesson, step, revealed, vote, shown = (not reconnecting() and st.session_state.get(SEEN)) or ("", 0, False, 1, False)
    mount = compat.component(FOLLOW_COMPONENT, package_root=PACKAGE_ROOT,
                             pyproject=PACKAGE_ROOT.parent / "pyproject.toml", js="classroom_follow.js")
    mount(key=K.FOLLOW, on_moved_change=_moved, data={
        "route": classroom_route.follow_path(code), "period_ms": int(POLL_SECONDS * 1000),
        "seen": classroom_route.position_body(lesson, step, revealed, vote, shown), "offline": reconnecting(),
        "retry_ms": [int(client_limits.RETRY_FIRST * 1000), int(client_limits.RETRY_MOST * 1000)]})


@st.fragment(run_every=POLL_SECONDS)
def _poll() -> None:
    """A following student's heartbeat where no follow route is served: a full rerun only when the teacher moved
    or revealed."""
    if not following() or not due():
        return
    code = joined()[0]
    was = reconnecting()
    state = call(store().state, code, about=code)
    seen = st.session_state.get(SEEN)
    if state is None:
        if not (was and reconnecting()):
            st.rerun()  # the class is lost (the page says so), or the store just went away (the page says so)
    elif reconnected():
        st.rerun()
    elif state.follow != seen:
        there = _page_file(state.lesson, state.step)
        if there and seen and there != _page_file(*seen[:2]):
            # the step lives on another page: go there now, or the rerun would run this page only to switch
            st.switch_page(there, query_params={TOUR_KEY: state.lesson, STEP_KEY: str(state.step), CLASS_KEY: code,
                                                SEAT_KEY: member()})
        st.rerun()


def _page_file(lesson: str, number: int) -> str | None:
    """The page script a tour step lives on (None for a step the tours do not have)."""
    try:
        url = tours.step(lesson, number).page
    except ValueError:
        return None
    return next((file for _, entries in PAGES for file, *_, path in entries if path == url), None)

