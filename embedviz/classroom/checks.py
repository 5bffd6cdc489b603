"""What the class store takes from outside, checked, and how it says no: join codes, member ids, a tour's place,
option codes; :class:`ClassError` with a stable code; a backend that failed read as "offline"."""
from __future__ import annotations

import functools
import hashlib
import re

from embedviz.classroom import limits
from embedviz.classroom.backend import StoreError, StoreUnreachable

CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I: read off a projector
CODE_LENGTH = 6
# matched with fullmatch: "$" would also accept a trailing newline
CODE_RE = re.compile(rf"[{CODE_ALPHABET}]{{{CODE_LENGTH}}}")
ID_RE = re.compile(r"[A-Za-z0-9_-]{8,64}")  # member ids
OPTION_RE = re.compile(r"[A-Za-z0-9_]{1,40}")  # a question's option codes (embedviz/lessons/tours.py)
LESSON_RE = re.compile(r"[A-Za-z0-9_]{1,32}")  # a tour's code (embedviz/lessons/tours.py)
TOKEN_RE = re.compile(r"[0-9a-f]{64}")  # a teacher token's SHA-256
HOLDER_RE = re.compile(r"[A-Za-z0-9_-]{1,64}")  # a seat's session
CLIENT_RE = re.compile(r"[0-9a-f]{16}|local")  # client_limits.address_key


class ClassError(ValueError):
    """A refused class action. ``code`` is stable (the app translates it); the message is for notebooks/logs.

    codes: malformed (not a join code), unknown (no such class, or it expired), full (MAX_STUDENTS),
    too_many_classes (MAX_CLASSES), client_classes (OPEN_PER_CLIENT), client_starts (STARTS_PER_CLIENT),
    not_teacher (wrong teacher token), revealed (answers closed), moved (the class is on another step),
    rate (too many answers), seat_taken (another open tab holds this seat), offline (the store cannot be used).
    """

    def __init__(self, code: str, message: str, *, unreachable: bool = False):
        super().__init__(message)
        self.code = code
        self.unreachable = unreachable  # "offline" because the store could not be reached (not what it answered)


def normalize_code(raw: str) -> str:
    """A typed or linked join code, upper-cased and stripped; a ClassError names a malformed one."""
    code = str(raw).strip().upper().replace(" ", "").replace("-", "")[:64]
    if not CODE_RE.fullmatch(code):
        shown = code[:12] + ("…" if len(code) > 12 else "")
        raise ClassError("malformed", f"class code ({shown!r}) must be {CODE_LENGTH} letters or digits")
    return code


# the package's own helpers (its modules share them; a notebook has no use for them)


def _digest(token: str) -> str:
    """What the store keeps of a teacher's token: its SHA-256 (the token itself is only in the teacher's link)."""
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def _check_id(name: str, value: str) -> str:
    if not isinstance(value, str) or not ID_RE.fullmatch(value):
        raise ClassError("malformed", f"{name} must be 8 to 64 letters, digits, '-' or '_'")
    return value


def _check_place(lesson, step) -> tuple[str, int]:
    if not (isinstance(lesson, str) and LESSON_RE.fullmatch(lesson)) or isinstance(step, bool) \
            or not isinstance(step, int) or not 1 <= step < 10 ** limits.STEP_DIGITS:
        raise ClassError("malformed", "a class is at a tour's step: a tour code and a step number")
    return lesson, step


def _guarded(method):
    """A store method whose backend failed, or answered what the store never writes, raises ClassError("offline"):
    the page and the follow route say "not connected" and go on, as for a Redis that is down."""

    @functools.wraps(method)
    def guarded(self, *args, **kwargs):
        try:
            return method(self, *args, **kwargs)
        except StoreError as error:
            raise ClassError("offline", f"the class store cannot be used: {error}",
                             unreachable=isinstance(error, StoreUnreachable)) from None

    return guarded
