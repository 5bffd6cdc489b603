"""A class's seats: a random id per student (no names) -> the browser session that holds it, at most
``limits.MAX_STUDENTS``. A seat is given back when its session ends (the app calls ``leave``) and taken again by the
same student after a reload (their id is in their link); a seat another live session holds is not handed to a
second tab."""
from __future__ import annotations

import re
import secrets
from collections.abc import Callable

from embedviz.classroom import limits
from embedviz.classroom.backend import StoreError
from embedviz.classroom.checks import HOLDER_RE, ClassError, _check_id, _guarded, normalize_code
from embedviz.classroom.state import ClassState, _key


def new_member_id() -> str:
    """A random id for one student's seat: it identifies an answer, not a person."""
    return secrets.token_urlsafe(12)


def seat_holder(session: str) -> str:
    """How a seat names the browser session holding it (Streamlit's session id, letters, digits and '-' kept)."""
    return re.sub(r"[^A-Za-z0-9_-]", "", str(session))[:64] or "-"


class Seating:
    """The seat calls of ``ClassStore`` (store.py), which reads the class and proves the teacher for them."""

    @_guarded
    def join(self, raw_code: str, member: str, session: str = "", *,
             gone: Callable[[str], bool] | None = None) -> ClassState:
        """Seat ``member`` (the student's id, from their link after a reload) in the class for browser ``session``.
        A seat held by another session is refused (``seat_taken``: the caller draws a new id; a link passed on to
        a friend must not share one seat) unless ``gone(holder)`` says that session has ended (a reload on this
        server: the old tab's end may not be written yet)."""
        code = normalize_code(raw_code)
        _check_id("member id", member)
        found = self._class(code)
        members, mine = _key(code, "members"), seat_holder(session)
        holder = self.backend.hget(members, member)
        if holder is not None and not HOLDER_RE.fullmatch(holder):
            raise StoreError(f"class {code}'s seats hold what the store never writes")
        if holder is not None and holder != mine and not (gone and gone(holder)):
            raise ClassError("seat_taken", "another open tab holds this seat")
        if holder is None and self.backend.hlen(members) >= limits.MAX_STUDENTS:
            raise ClassError("full", f"the class already has {limits.MAX_STUDENTS} students")
        self.backend.hset(members, {member: mine}, limits.TTL_SECONDS)
        self._touch(code, found.client)
        return found.state

    @_guarded
    def leave(self, code: str, member: str, session: str = "") -> None:
        """Give the seat back: the student left, or their session ended (their tab closed, or a reload that takes it
        again). Only the session holding it gives it back (``session`` "" : whoever holds it)."""
        members = _key(normalize_code(code), "members")
        holder = self.backend.hget(members, _check_id("member id", member))
        if holder is not None and (not session or holder == seat_holder(session)):
            self.backend.hdel(members, member)

    @_guarded
    def seats(self, code: str, token: str) -> int:
        """How many seats are taken (the teacher's view: a full class is said to the teacher)."""
        self._teacher(code, token)
        return self.backend.hlen(_key(code, "members"))
