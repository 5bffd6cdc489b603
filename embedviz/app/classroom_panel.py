"""The class's line in the tour panel: the teacher's join code, link and QR code (large when projected), a full class
said to the teacher, and the heartbeat that keeps the teacher's copy of the class; a student's follow or step-away
line."""
from __future__ import annotations

import streamlit as st

from embedviz.app.classroom_follow import follow_along
from embedviz.app.classroom_view import (
    AWAY, CLASS_KEY, call, due, joined, message, reconnecting, store, teacher_sync, teacher_token, teaching,
    tour_step,
)
from embedviz.app.i18n import t
from embedviz.classroom import limits
from embedviz.lessons.widget_keys import Classroom as K

HEARTBEAT_SECONDS = 1.0  # the teacher's tab reads (and keeps a copy of) its class this often
QR_PX = 150  # the projected QR code's side: about 4 px a module, scanned from a classroom's back rows


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
        _heartbeat()
    if reconnecting():
        st.warning(t("classroom.reconnecting_teacher" if teaching() else "classroom.reconnecting", code=code),
                   icon=":material/sync_problem:")
    if teaching():
        if reconnecting():
            return
        base = (st.context.url or "").split("?")[0]
        link = f"{base}?{CLASS_KEY}={code}"
        seats = call(store().seats, code, teacher_token(), about=code)
        if seats is not None and seats >= limits.MAX_STUDENTS:
            st.warning(t("classroom.full_teacher", code=code, n=limits.MAX_STUDENTS))
        if _revealed_here():
            # the class looks at the figure now: the code and link for a latecomer in one line, the figure under
            # the question's answer stays on the first screen (the QR code comes back on the next step)
            st.caption(t("classroom.code_big", code=code) + " · " + t("classroom.link", link=link) + " · "
                       + t("classroom.seats", n=seats or 0))
            return
        if not presenting:
            st.markdown(t("classroom.code_big", code=code))
            st.caption(t("classroom.link", link=link) + " · " + t("classroom.seats", n=seats or 0))
            st.caption(t("classroom.teacher_link"))
            return
        # projected: the code large, the link and a QR code the back row can scan, in one band low enough that a
        # question's spread and Reveal stay on a 720 px screen (the teacher key's warning is in the tour
        # controls: the class need not read it)
        left, right = st.columns([5, 1], vertical_alignment="center")
        with left:
            st.markdown("## " + t("classroom.code_big", code=code))
            st.caption(t("classroom.link", link=link) + " · " + t("classroom.qr_caption"))
        right.image(_qr_svg(link), width=QR_PX)
        return
    left, right = st.columns([4, 1])
    if st.session_state.get(AWAY):
        left.info(t("classroom.away", code=code))
        right.button(t("classroom.come_back"), key=K.BACK, on_click=_come_back, type="primary")
    else:
        left.caption(t("classroom.joined", code=code))
        right.button(t("classroom.step_away"), key=K.AWAY, on_click=_step_away)
        follow_along(code)


@st.fragment(run_every=HEARTBEAT_SECONDS)
def _heartbeat() -> None:
    """The teacher's tab between runs: a copy of the class (for the store to be given back if it loses it), and
    while the store is away a retry with backoff; the first answer after an outage writes the class back if the
    store came back without it, and reruns the page."""
    if not teaching() or not due():
        return
    was = reconnecting()
    if teacher_sync() == was or not joined():  # back, just lost, or left: the whole page says so
        st.rerun()


def _revealed_here() -> bool:
    """Whether the teacher's tab shows the class's step and the class has revealed it."""
    state = call(store().state, joined()[0], about=joined()[0]) if joined() else None
    return bool(state) and tour_step() == (state.lesson, state.step) and state.step in state.revealed

