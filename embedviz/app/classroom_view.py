"""A class in the app: the teacher's controls, students following the teacher's step, class answers and reveal.

The state lives in the class store, embedviz/classroom/ (memory, or Redis when $EMBEDVIZ_REDIS_URL is set). In the browser:
- the URL carries the class: ``?class=CODE`` joins it; the teacher's own link adds ``&teacher=TOKEN``; every run
  writes them back (a tour's move to another page sets only ``?tour=&step=``), so a reload stays in the class;
- a following student's run moves its URL to the teacher's step before the tour panel reads it; between runs the
  tab asks the server's follow route (embedviz/app/class_route.py) where the class is, a small HTTP answer that
  the route holds until the teacher moves, and reruns the app only when the teacher moved or revealed
  (embedviz/app/browser/class_follow.js). Where no route is served (AppTest, ``streamlit run app.py``) a fragment
  polls the store instead, one script run per poll, and switches straight to the step's page when it is another;
- on a class question the page stays hidden for everyone until the teacher's Reveal (peer instruction: predict,
  see the spread, discuss, then the figure).
- a student's seat: their random id is in their link too (``&seat=``), so a reload is the same student with the
  same seat and answer; the seat belongs to the tab's live session and is given back when it ends (the server
  tells this module: ``compat.on_session_end``), and a seat another open tab holds (a link passed on) is not shared;
- what one client may ask: codes no class here has cost a token (per session and per address: a guesser is slowed,
  never a student following their class), classes are started per address within the store's limits, a teacher
  session holds one class and its Leave closes it.
A store that cannot be used (down, or answering what it never writes) does not end the lesson: both sides keep
the class (and ``class=`` in every URL), say they are reconnecting, and retry with backoff (``RECONNECT_*``): the
teacher's tab keeps a copy of the class (a heartbeat reads it every ``HEARTBEAT_SECONDS``) and writes it back
under the same code and key when the store returns empty (a Redis restarted without persistence), and the
students' tabs rejoin it. A student waits ``RESTORE_WAIT`` seconds at most for a class that vanished; one its
teacher closed is left at once. Without a class yet (Start refused), "not connected" is said once and the tour
goes on. The questions of a class (answers, votes, reveal) are embedviz/app/class_questions.py.
"""
from __future__ import annotations

import collections
import concurrent.futures
import re
import threading
import time
from pathlib import Path

import streamlit as st

from embedviz import client_limits, tours
from embedviz.classroom import limits
from embedviz.classroom.checks import ID_RE, ClassError, normalize_code
from embedviz.classroom.seats import new_member_id, seat_holder
from embedviz.classroom.state import ClassState
from embedviz.classroom.store import ClassStore, shared_store
from embedviz._validate import link_number
from embedviz.app import class_route, compat, serving
from embedviz.app.pages import PAGES
from embedviz.app.i18n import t
from embedviz.widget_keys import Classroom as K

CLASS_KEY, TEACHER_KEY, SEAT_KEY = "class", "teacher", "seat"  # URL parameters
TOUR_KEY, STEP_KEY = "tour", "step"  # the tour's URL parameters (embedviz/app/tour.py)
MEMBER = "_cls_member"  # session state: this browser session's random id
JOINED = "_cls_joined"  # session state: (code, role) with role "teacher" or "student"
AWAY = "_cls_away"  # session state: the student explores on their own
TOKEN = "_cls_token"  # session state: the teacher's key (also in their URL; kept here when a page switch drops it)
SEEN = "_cls_seen"  # session state: (lesson, step, revealed?) the last full run showed
ERROR = "_cls_error"  # session state: (error code, the code or text it concerns) to show once
GUESSES = "_cls_guesses"  # session state: this session's budget for codes no class here has
RECONNECT = "_cls_reconnect"  # session state: [since, next try, tries] while the store (or the class in it) is away
MIRROR = "_cls_mirror"  # session state: the teacher's last copy of the class (embedviz/classroom/state.py)
RESTORE_WAIT = 600.0  # a student waits this long for a class that vanished with its store to be written back
HEARTBEAT_SECONDS = 1.0  # the teacher's tab reads (and keeps a copy of) its class this often
GUESS_RATE, GUESS_BURST = 0.2, 5  # per session: a mistyped code or two, not a search of the codes
QR_PX = 150  # the projected QR code's side: about 4 px a module, scanned from a classroom's back rows
POLL_SECONDS = 0.5  # the fragment's poll, and the least time between two of a tab's asks that the route answered at once
FOLLOW_COMPONENT = "embedviz.class_follow"  # its JS: embedviz/app/browser (declared in pyproject.toml)
PACKAGE_ROOT = Path(__file__).resolve().parents[1]


@st.cache_resource(show_spinner=False)
def store() -> ClassStore:
    """The server process's one store, which its follow route reads too (the Redis client keeps its own pool)."""
    compat.on_session_end(_session_ended)
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
        _away()
        return
    st.session_state[ERROR] = (error.code, about)
    if error.code in ("offline", "unknown"):
        _drop()


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


def _away() -> None:
    """The store failed (again): the next try after client_limits.retry_delay's backoff."""
    now = time.monotonic()
    since, _, tries = st.session_state.get(RECONNECT) or (now, now, 0)
    st.session_state[RECONNECT] = [since, now + client_limits.retry_delay(tries), tries + 1]


def _due() -> bool:
    """Whether a reconnecting tab may try the store now (always, when it is not reconnecting)."""
    waiting = st.session_state.get(RECONNECT)
    return waiting is None or time.monotonic() >= waiting[1]


def _reconnected() -> bool:
    """The store answered: whether this tab was reconnecting (its page then reruns to show the class again)."""
    return st.session_state.pop(RECONNECT, None) is not None


def _drop() -> None:
    st.session_state.pop(JOINED, None)
    st.session_state.pop(TOKEN, None)
    st.session_state.pop(RECONNECT, None)
    st.session_state.pop(MIRROR, None)
    _SEATS.pop(compat.session_id(), None)
    for key in (CLASS_KEY, TEACHER_KEY, SEAT_KEY):
        st.query_params.pop(key, None)


def member() -> str:
    if MEMBER not in st.session_state:
        st.session_state[MEMBER] = new_member_id()
    return st.session_state[MEMBER]


# seats: held by live sessions

_SEATS: dict[str, tuple[str, str]] = {}  # session id -> (code, member): the seats this process's live sessions hold
_ENDED: collections.OrderedDict[str, None] = collections.OrderedDict()  # seat holders whose session ended here
_ENDED_KEPT = 4_096
_LOCK = threading.Lock()
# a seat is given back off the event loop (a Redis call may wait up to its timeout); one thread keeps them in order
_RELEASES = concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="embedviz-seats")


def _session_ended(session_id: str) -> None:
    """On the event loop, when a session's websocket closed: its seat goes back to the class."""
    with _LOCK:
        seat = _SEATS.pop(session_id, None)
        if seat is None:
            return
        _ENDED[seat_holder(session_id)] = None
        while len(_ENDED) > _ENDED_KEPT:
            _ENDED.popitem(last=False)
    _RELEASES.submit(_release, *seat, session_id)


def _release(code: str, seat: str, session_id: str) -> None:
    try:
        shared_store().leave(code, seat, session_id)
    except ClassError:
        pass  # the store is lost or the class gone: the seat goes with it


def _gone(holder: str) -> bool:
    """A seat's holder whose session ended on this server (its release may not be written yet: a reload)."""
    with _LOCK:
        return holder in _ENDED


def _seat(raw: str, shown: str) -> ClassState | None:
    """Seat this session in class ``raw``: the seat of its link after a reload, else a new one."""
    linked = st.query_params.get(SEAT_KEY)
    if MEMBER not in st.session_state and linked and ID_RE.fullmatch(linked):
        st.session_state[MEMBER] = linked  # the student's own link: the same seat, the same answers
    session = compat.session_id()
    try:
        state = store().join(raw, member(), session, gone=_gone)
    except ClassError as error:
        if error.code == "offline" and error.unreachable:  # the store is away: the seat is taken when it is back
            _away()
            return None
        if error.code != "seat_taken":
            refused(error, shown)
            return None
        # another open tab holds that seat (a link passed on, a second tab): this tab is another student
        st.session_state[MEMBER] = new_member_id()
        state = call(store().join, raw, member(), session, gone=_gone, about=shown)
        if state is None:
            return None
    with _LOCK:
        _SEATS[session] = (state.code, member())
        _ENDED.pop(seat_holder(session), None)  # reconnected after its socket closed: live again
    st.query_params[SEAT_KEY] = member()
    return state


def seated(code: str) -> bool:
    """Whether this session holds its seat in class ``code``: a seat given back while the tab's socket was closed
    (a lost network, then a reconnect that resumed the session) is taken again at its next run or answer."""
    return _SEATS.get(compat.session_id()) == (code, member()) or _seat(code, code) is not None


def _unseat() -> None:
    """A student's Leave: the seat goes back now."""
    session = compat.session_id()
    with _LOCK:
        seat = _SEATS.pop(session, None)
    if seat is not None:
        call(store().leave, *seat, session)


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


def _tour_step() -> tuple[str, int] | None:
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


# joining and starting


def _shown(raw) -> str:
    """What of a refused code the message repeats: letters and digits only (no markdown or links from a URL)."""
    return re.sub(r"[^A-Za-z0-9]", "", str(raw))[:12]


def _join_from_url() -> None:
    raw = st.query_params.get(CLASS_KEY)
    if not raw or (joined() and joined()[0] == raw):
        return
    shown = _shown(raw)
    try:
        code = normalize_code(raw)
    except ClassError as error:
        st.session_state[ERROR] = (error.code, shown)
        _drop()
        return
    if not _may_ask(code, shown):
        _drop()
        return
    if joined() and not teaching():
        _unseat()  # a student who opens another class's link leaves the first one's seat
    token = st.query_params.get(TEACHER_KEY)
    if token:  # the teacher's own link: no seat (a teacher is not one of the students)
        try:
            teacher = store().restore(code, token, None, _tour_step())  # the class, written back if the store lost it
        except ClassError as error:
            teacher = "away" if error.unreachable else error.code
        if teacher == "away":  # the store is away: the link keeps the class, and the tab retries
            st.session_state[JOINED], st.session_state[TOKEN], st.session_state[AWAY] = (code, "teacher"), token, False
            _away()
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
    state = _seat(code, shown)
    if state is None and reconnecting():  # the store is away: the link keeps the class, and the tab retries
        st.session_state[JOINED], st.session_state[AWAY] = (code, "student"), False
        return
    if state is None:
        _drop()
        return
    st.session_state[JOINED] = (state.code, "student")
    st.session_state[AWAY] = False
    st.query_params[CLASS_KEY] = state.code


def _start() -> None:
    """Start a class at the tour step the URL names (the button is off on anything else). A teacher session holds
    one class: a class it taught, or a seat it held, is left first."""
    here = _tour_step()
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
        _unseat()
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
    on_tour = _tour_step() is not None
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
    if teaching() and st.query_params.get(TEACHER_KEY) != teacher_token():
        st.query_params[TEACHER_KEY] = teacher_token()
    lesson, raw = st.query_params.get(TOUR_KEY), st.query_params.get(STEP_KEY, "1")
    if teaching():
        if not _due() or (reconnecting() and not _teacher_sync()):
            return  # the store is away: the tab keeps the class and its step, and tries again
        state = call(store().state, code, about=code)
        here = _tour_step()
        if state and here and (state.lesson, state.step) != here:
            call(store().set_step, code, teacher_token(), *here, about=code)
        return
    if not seated(code):
        if not reconnecting():
            _drop()
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
        _reconnected()


def _moved() -> None:
    """The follow component's trigger: the rerun itself is the point (its ``follow`` reads the store)."""


def _follow_along(code: str) -> None:
    """A following student's tab between runs: the browser polls the follow route and reruns on a change; without
    the route (AppTest, a bare ``streamlit run app.py``) the fragment polls."""
    if not serving.routes_served():
        _poll()
        return
    # reconnecting: a page that shows no position, so that the class's first answer once it is back reruns it
    lesson, step, revealed, vote, shown = (not reconnecting() and st.session_state.get(SEEN)) or ("", 0, False, 1, False)
    mount = compat.component(FOLLOW_COMPONENT, package_root=PACKAGE_ROOT,
                             pyproject=PACKAGE_ROOT.parent / "pyproject.toml", js="class_follow.js")
    mount(key=K.FOLLOW, on_moved_change=_moved, data={
        "route": class_route.class_route(code), "period_ms": int(POLL_SECONDS * 1000),
        "seen": class_route.position_body(lesson, step, revealed, vote, shown), "offline": reconnecting(),
        "retry_ms": [int(client_limits.RETRY_FIRST * 1000), int(client_limits.RETRY_MOST * 1000)]})


@st.fragment(run_every=POLL_SECONDS)
def _poll() -> None:
    """A following student's heartbeat where no follow route is served: a full rerun only when the teacher moved
    or revealed."""
    if not following() or not _due():
        return
    code = joined()[0]
    was = reconnecting()
    state = call(store().state, code, about=code)
    seen = st.session_state.get(SEEN)
    if state is None:
        if not (was and reconnecting()):
            st.rerun()  # the class is lost (the page says so), or the store just went away (the page says so)
    elif _reconnected():
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
        st.warning(t("cls.reconnecting_teacher" if teaching() else "cls.reconnecting", code=code),
                   icon=":material/sync_problem:")
    if teaching():
        if reconnecting():
            return
        base = (st.context.url or "").split("?")[0]
        link = f"{base}?{CLASS_KEY}={code}"
        seats = call(store().seats, code, teacher_token(), about=code)
        if seats is not None and seats >= limits.MAX_STUDENTS:
            st.warning(t("cls.full_teacher", code=code, n=limits.MAX_STUDENTS))
        if _revealed_here():
            # the class looks at the figure now: the code and link for a latecomer in one line, the figure under
            # the question's answer stays on the first screen (the QR code comes back on the next step)
            st.caption(t("cls.code_big", code=code) + " · " + t("cls.link", link=link) + " · "
                       + t("cls.seats", n=seats or 0))
            return
        if not presenting:
            st.markdown(t("cls.code_big", code=code))
            st.caption(t("cls.link", link=link) + " · " + t("cls.seats", n=seats or 0))
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


@st.fragment(run_every=HEARTBEAT_SECONDS)
def _heartbeat() -> None:
    """The teacher's tab between runs: a copy of the class (for the store to be given back if it loses it), and
    while the store is away a retry with backoff; the first answer after an outage writes the class back if the
    store came back without it, and reruns the page."""
    if not teaching() or not _due():
        return
    was = reconnecting()
    if _teacher_sync() == was or not joined():  # back, just lost, or left: the whole page says so
        st.rerun()


def _teacher_sync() -> bool:
    """The teacher's copy of the class, read again; a class the store lost is written back from it. False when the
    store is away (retried with backoff) or the class was left (closed elsewhere, or the key is not its key)."""
    code, token = joined()[0], teacher_token()
    try:
        try:
            st.session_state[MIRROR] = store().snapshot(code, token)
        except ClassError as error:
            if error.code != "unknown":
                raise
            store().restore(code, token, st.session_state.get(MIRROR), _tour_step())  # lost with the store
            st.session_state[MIRROR] = store().snapshot(code, token)
    except ClassError as error:
        refused(error, code)  # away: retried; closed or not the key: left
        return False
    _reconnected()
    return True


def _revealed_here() -> bool:
    """Whether the teacher's tab shows the class's step and the class has revealed it."""
    state = call(store().state, joined()[0], about=joined()[0]) if joined() else None
    return bool(state) and _tour_step() == (state.lesson, state.step) and state.step in state.revealed


def message() -> None:
    """The last refused class action, in the reader's language (shown once)."""
    if ERROR in st.session_state:
        say(*st.session_state.pop(ERROR))


def say(code: str, about: str = "") -> None:
    """A class refusal (a ClassError's code) in the reader's language; ``about``: the code or text it concerns."""
    if code == "malformed" and not about:  # nothing of it is letters or digits: repeat none of it
        code = "not_a_code"
    (st.warning if code == "offline" else st.error)(t(f"cls.err.{code}", raw=about))


