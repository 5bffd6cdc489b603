"""The seats this process's live sessions hold (embedviz/app/classroom_view.py takes them): a seat goes back to its
class when its session ends (the server says so: ``compat.on_session_end``), off the event loop, and a seat whose
holder ended here may be taken again at once by the same student's reload (``gone``)."""
from __future__ import annotations

import collections
import concurrent.futures
import threading

from embedviz.classroom.checks import ClassError
from embedviz.classroom.seats import seat_holder
from embedviz.classroom.store import shared_store

_SEATS: dict[str, tuple[str, str]] = {}  # session id -> (code, member): the seats this process's live sessions hold
_ENDED: collections.OrderedDict[str, None] = collections.OrderedDict()  # seat holders whose session ended here
_ENDED_KEPT = 4_096
_LOCK = threading.Lock()
# a seat is given back off the event loop (a Redis call may wait up to its timeout); one thread keeps them in order
_RELEASES = concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="embedviz-seats")


def session_ended(session_id: str) -> None:
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


def gone(holder: str) -> bool:
    """A seat's holder whose session ended on this server (its release may not be written yet: a reload)."""
    with _LOCK:
        return holder in _ENDED


def hold(session_id: str, code: str, member: str) -> None:
    """Session ``session_id`` holds seat ``member`` of class ``code`` (live again if its socket closed before)."""
    with _LOCK:
        _SEATS[session_id] = (code, member)
        _ENDED.pop(seat_holder(session_id), None)


def held(session_id: str) -> tuple[str, str] | None:
    """(code, member) of the seat the session holds, or None."""
    with _LOCK:
        return _SEATS.get(session_id)


def forget(session_id: str) -> tuple[str, str] | None:
    """The session holds no seat any more (it left, or its class is gone): the seat it held, or None."""
    with _LOCK:
        return _SEATS.pop(session_id, None)
