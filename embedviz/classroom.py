"""A class following its teacher: join codes, the teacher's step, the students' answers, the reveal.

State shared by the sessions of a class (and, behind a load balancer, by the replicas serving them) lives in a
store. :class:`ClassStore` is the one code path; it talks to a backend through a handful of Redis-shaped calls
(embedviz/class_backends.py): :class:`MemoryBackend` keeps them in this process (one server), :class:`RedisBackend`
in Redis (replicas). :func:`open_store` picks one from ``EMBEDVIZ_REDIS_URL``.

What is kept, per class, and nothing on disk (Redis is started without persistence in the tests and the recipe):
- the class: lesson, step, which steps are revealed, a SHA-256 of the teacher's token (the token itself is only in
  the teacher's link), and the client that started it (a hash of its address: ``client_limits.address_key``);
- the seats: a random id per student (no names) -> the browser session that holds it, at most ``MAX_STUDENTS``.
  A seat is given back when its session ends (the app calls ``leave``) and taken again by the same student after a
  reload (their id is in their link); a seat another live session holds is not handed to a second tab;
- per question step: member id -> option code, one per member (a new choice replaces the old) until the reveal; the
  teacher's "vote again" keeps those as the step's first vote and opens a second, empty one (peer instruction:
  answer alone, discuss, answer again), and whether the teacher shows the spread to the class.
A class is at one lesson: a teacher who moves it to another lesson's step starts that lesson's questions afresh.
Every key expires ``TTL_SECONDS`` after the class's last activity; the teacher's Leave deletes the class at once
and leaves a mark that it was closed (``embedviz:class:closed:CODE``, for ``TTL_SECONDS``).

A class survives its store: a Redis restarted without persistence comes back empty, and the teacher's tab, which
keeps the last :class:`ClassSnapshot` it read, writes the class back under the same code and key (``restore``).
A class that was closed is not written back; nor is one whose teacher this process never saw prove their key.

Nothing the store reads is trusted: a backend that fails, or a field of another type or shape than the store
writes (a step that is no number, a hash of megabytes), raises ``ClassError("offline")``, as a Redis that is down.
"""
from __future__ import annotations

import collections
import functools
import hashlib
import hmac
import logging
import os
import re
import secrets
import threading
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from embedviz._validate import link_number
from embedviz.class_backends import (  # noqa: F401 - the store's API
    Backend, MemoryBackend, RedisBackend, StoreError, StoreUnreachable,
)

REDIS_URL_ENV = "EMBEDVIZ_REDIS_URL"
TTL_SECONDS = 4 * 3600  # a class lives a few hours after its last activity (a lesson, with a break)
MAX_STUDENTS = 300  # per class: a lecture hall
MAX_CLASSES = 200  # open at once per store: bounds memory whatever strangers do
# per client (an address: a school's teachers share one behind its NAT): classes open at once, and classes started
# per START_WINDOW seconds. A Start/Leave loop made 193 classes in 16 s and closed class mode for everyone. A class
# whose teacher closed the tab without Leave stays open for TTL_SECONDS: a school's day of such classes fits.
OPEN_PER_CLIENT = 30
STARTS_PER_CLIENT = 20
START_WINDOW = 600
ANSWER_LIMIT = 20  # answers per member per RATE_WINDOW seconds: a person clicks a few times, a script many
RATE_WINDOW = 10
STEP_DIGITS = 6  # a step written with more digits is no step of any tour
REVEALED_MAX = 64  # question steps one class can reveal (a tour has a few)
CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I: read off a projector
CODE_LENGTH = 6
# matched with fullmatch: "$" would also accept a trailing newline
CODE_RE = re.compile(rf"[{CODE_ALPHABET}]{{{CODE_LENGTH}}}")
ID_RE = re.compile(r"[A-Za-z0-9_-]{8,64}")  # member ids
OPTION_RE = re.compile(r"[A-Za-z0-9_]{1,40}")  # a question's option codes (embedviz/tours.py)
LESSON_RE = re.compile(r"[A-Za-z0-9_]{1,32}")  # a tour's code (embedviz/tours.py)
TOKEN_RE = re.compile(r"[0-9a-f]{64}")  # a teacher token's SHA-256
HOLDER_RE = re.compile(r"[A-Za-z0-9_-]{1,64}")  # a seat's session
CLIENT_RE = re.compile(r"[0-9a-f]{16}|local")  # client_limits.address_key
CLASS_FIELDS, CLASS_BYTES = 10, 2_048  # what a class's own hash may hold (it holds 7 short fields)
STEP_SETS = ("revealed", "shown", "second")  # the class's sets of question steps: revealed, spread shown, voting again
ANSWER_BYTES = 128  # per answer: a member id, an option code and room
PREFIX = "embedviz:class:"
OPEN = PREFIX + "open"  # the sorted set of open classes (score: when each expires)
KNOWN_OPEN = 2 * MAX_CLASSES  # codes this process saw open, kept to spare their readers the guessing limits
_LOG = logging.getLogger(__name__)


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


@dataclass(frozen=True)
class ClassState:
    """What every member may see: where the teacher is and which question steps are revealed."""

    code: str
    lesson: str
    step: int
    revealed: frozenset[int]
    shown: frozenset[int] = frozenset()  # question steps whose spread the teacher shows the class before the reveal
    second: frozenset[int] = frozenset()  # question steps on their second vote

    @property
    def position(self) -> tuple[str, int, bool]:
        """Where the class is: the lesson, the step, and whether that step is revealed."""
        return self.lesson, self.step, self.step in self.revealed

    def vote(self, step: int) -> int:
        """Which vote a question step is on: 1, or 2 once the teacher asked the class to vote again."""
        return 2 if step in self.second else 1

    @property
    def follow(self) -> tuple[str, int, bool, int, bool]:
        """What a follower's page shows: the position, the step's vote and whether its spread is shown. A follower
        reruns when it changes, and only then."""
        return (*self.position, self.vote(self.step), self.step in self.shown)


@dataclass(frozen=True)
class Votes:
    """A question step's answers, counted (option code -> members): the first vote, and the second once the teacher
    asked the class to vote again (None before)."""

    first: Counter
    second: Counter | None = None

    @property
    def current(self) -> Counter:
        """The vote the class is answering now (the one the tally and the spread show before the reveal)."""
        return self.first if self.second is None else self.second


@dataclass(frozen=True)
class ClassSnapshot:
    """All a class holds, as its teacher's tab last read it (``ClassStore.snapshot``), to write it back after the
    store lost it (``ClassStore.restore``): its own fields, the seats, and each question step's answers and first
    vote. Member ids stay on the server (the tab's session state), never in a page or a file."""

    code: str
    fields: dict[str, str]  # the class's hash: lesson, step, the step sets, the token's digest, who started it
    members: dict[str, str]
    answers: dict[int, dict[str, str]]
    first: dict[int, dict[str, str]]

    @property
    def place(self) -> tuple[str, int]:
        return self.fields["lesson"], int(self.fields["step"])


@dataclass(frozen=True)
class SummaryRow:
    """One question of a class's tour, counted (no names, no ids): how many answered and how many were right on the
    first vote and, where the class voted again, on the second."""

    step: int
    question: str  # the question's id (embedviz/tours.py)
    answered_first: int
    right_first: int
    answered_second: int | None = None  # None: no second vote on this step
    right_second: int | None = None


SUMMARY_COLUMNS = ("lesson", "step", "question", "answered_first", "right_first", "answered_second", "right_second")


def summary_csv(lesson: str, rows: list[SummaryRow]) -> str:
    """The class summary as CSV (one row per question; a step with no second vote leaves those cells empty)."""
    import csv
    import io

    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(SUMMARY_COLUMNS)
    for r in rows:
        writer.writerow([lesson, r.step, r.question, r.answered_first, r.right_first,
                         "" if r.answered_second is None else r.answered_second,
                         "" if r.right_second is None else r.right_second])
    return out.getvalue()


@dataclass(frozen=True)
class _Class:
    state: ClassState
    token: str  # the SHA-256 of the teacher's token
    client: str  # who started it ("" when the store does not say)


# helper functions


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def normalize_code(raw: str) -> str:
    """A typed or linked join code, upper-cased and stripped; a ClassError names a malformed one."""
    code = str(raw).strip().upper().replace(" ", "").replace("-", "")[:64]
    if not CODE_RE.fullmatch(code):
        shown = code[:12] + ("…" if len(code) > 12 else "")
        raise ClassError("malformed", f"class code ({shown!r}) must be {CODE_LENGTH} letters or digits")
    return code


def _check_id(name: str, value: str) -> str:
    if not isinstance(value, str) or not ID_RE.fullmatch(value):
        raise ClassError("malformed", f"{name} must be 8 to 64 letters, digits, '-' or '_'")
    return value


def _check_place(lesson, step) -> tuple[str, int]:
    if not (isinstance(lesson, str) and LESSON_RE.fullmatch(lesson)) or isinstance(step, bool) \
            or not isinstance(step, int) or not 1 <= step < 10 ** STEP_DIGITS:
        raise ClassError("malformed", "a class is at a tour's step: a tour code and a step number")
    return lesson, step


def new_member_id() -> str:
    """A random id for one student's seat: it identifies an answer, not a person."""
    return secrets.token_urlsafe(12)


def seat_holder(session: str) -> str:
    """How a seat names the browser session holding it (Streamlit's session id, letters, digits and '-' kept)."""
    return re.sub(r"[^A-Za-z0-9_-]", "", str(session))[:64] or "-"


def _steps(text: str | None) -> list[int | None]:
    """A comma list of step numbers as the store writes it (None for an item that is none)."""
    return [link_number("steps", s, max_digits=STEP_DIGITS) for s in text.split(",") if s]


def _parse(code: str, data: dict[str, str]) -> _Class:
    """A class's hash as the store writes it, or a StoreError: a field of another shape is a store not to trust."""
    lesson, step, token, client = (data.get(f) for f in ("lesson", "step", "token", "by"))
    try:
        number = link_number("step", step, max_digits=STEP_DIGITS)
        # "revealed" is always written; "shown" and "second" only once a teacher used them
        sets = [_steps(data.get(name, "" if name != "revealed" else None)) for name in STEP_SETS]
    except (ValueError, AttributeError):
        number, sets = None, [[None]]
    if not (isinstance(lesson, str) and LESSON_RE.fullmatch(lesson) and number
            and all(None not in steps and len(steps) <= REVEALED_MAX for steps in sets)
            and isinstance(token, str) and TOKEN_RE.fullmatch(token)
            and (client is None or CLIENT_RE.fullmatch(client))):
        raise StoreError(f"class {code} holds fields the store never writes")
    return _Class(ClassState(code, lesson, number, *map(frozenset, sets)), token, client or "")


def _closed_key(code: str) -> str:
    """The mark a closed class leaves (beside, not under, the class's keys: Leave deletes those)."""
    return f"{PREFIX}closed:{code}"


def _written(steps) -> str:
    return ",".join(map(str, sorted(steps)))


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


# the store


class ClassStore:
    def __init__(self, backend: Backend):
        self.backend = backend
        self._move_listeners: list[Callable[[str], None]] = []
        self._open: collections.OrderedDict[str, None] = collections.OrderedDict()  # codes seen open here
        self._open_lock = threading.Lock()
        # code -> the digest of the teacher key a session of this process proved (create, is_teacher, restore): a
        # class the store lost is written back from a link only with that key
        self._teachers: collections.OrderedDict[str, str] = collections.OrderedDict()

    def on_move(self, listener: Callable[[str], None]) -> None:
        """Call ``listener(code)`` after this store object moves a class (a teacher's step or reveal, or Leave): a
        server that holds its followers' requests answers them at once. A move made by another process (a replica
        sharing Redis) is not seen here; that server reads the store itself."""
        self._move_listeners.append(listener)

    def _moved(self, code: str) -> None:
        for listener in list(self._move_listeners):
            try:
                listener(code)
            except Exception:  # noqa: BLE001 - the move is stored; a listener's failure must not undo the teacher's step
                _LOG.exception("a class move listener failed")

    def known_open(self, code: str) -> bool:
        """Whether this process saw class ``code`` open (started, joined or read here) and not closed since: asking
        for it is no guess, whoever asks. A class that expired or closed elsewhere is forgotten at its next read."""
        with self._open_lock:
            return code in self._open

    def _seen(self, code: str, open_: bool) -> None:
        with self._open_lock:
            if not open_:
                self._open.pop(code, None)
                return
            self._open[code] = None
            self._open.move_to_end(code)
            while len(self._open) > KNOWN_OPEN:
                self._open.popitem(last=False)

    @staticmethod
    def _key(code: str, part: str = "") -> str:
        return f"{PREFIX}{code}{':' + part if part else ''}"

    def _class(self, code: str) -> _Class:
        data = self.backend.hgetall(self._key(code), fields=CLASS_FIELDS, size=CLASS_BYTES)
        if not data:
            self._seen(code, False)
            raise ClassError("unknown", f"class code ({code!r}) names no open class (it may have expired)")
        found = _parse(code, data)
        self._seen(code, True)
        return found

    def _teacher(self, code: str, token: str) -> _Class:
        found = self._class(code)
        if not isinstance(token, str) or not hmac.compare_digest(_digest(token), found.token):
            raise ClassError("not_teacher", "only the teacher's link can drive the class")
        self._proved(code, found.token)
        return found

    def _proved(self, code: str, digest: str) -> None:
        with self._open_lock:
            self._teachers[code] = digest
            self._teachers.move_to_end(code)
            while len(self._teachers) > KNOWN_OPEN:
                self._teachers.popitem(last=False)

    def _touch(self, code: str, client: str, extra: tuple[str, ...] = ()) -> None:
        keys = [self._key(code), self._key(code, "members"), self._key(code, "asked"), *extra]
        self.backend.touch(keys, TTL_SECONDS)
        until = self.backend.now() + TTL_SECONDS
        self.backend.zadd(OPEN, code, until, TTL_SECONDS)
        if client:
            self.backend.zadd(PREFIX + "by:" + client, code, until, TTL_SECONDS)

    def _question_keys(self, code: str) -> list[str]:
        """The keys of a class's questions: the steps asked, and each one's answers and first vote."""
        asked = self.backend.hgetall(self._key(code, "asked"), fields=REVEALED_MAX * 4, size=REVEALED_MAX * 64)
        steps = [s for s in asked if s.isascii() and s.isdigit()]
        return [self._key(code, "asked"), *(self._key(code, f"{part}:{s}") for s in steps
                                             for part in ("answers", "first"))]

    # the teacher

    @_guarded
    def create(self, lesson: str, step: int, *, client: str = "local") -> tuple[str, str]:
        """A new class at the tour's step: (join code, secret teacher token). ``client`` is who asks
        (``client_limits.address_key``): at most OPEN_PER_CLIENT of its classes open at once, STARTS_PER_CLIENT
        started per START_WINDOW."""
        lesson, step = _check_place(lesson, step)
        if not CLIENT_RE.fullmatch(str(client)):
            raise ClassError("malformed", "client must be an address key (client_limits.address_key)")
        now = self.backend.now()
        if self.backend.zcount_live(OPEN, now) >= MAX_CLASSES:
            raise ClassError("too_many_classes", f"at most {MAX_CLASSES} classes may be open at once")
        if self.backend.zcount_live(PREFIX + "by:" + client, now) >= OPEN_PER_CLIENT:
            raise ClassError("client_classes", f"at most {OPEN_PER_CLIENT} classes per address may be open at once")
        starts = self.backend.incr(f"{PREFIX}starts:{client}:{int(now // START_WINDOW)}", START_WINDOW * 2)
        if starts > STARTS_PER_CLIENT:
            raise ClassError("client_starts", f"at most {STARTS_PER_CLIENT} classes per address per {START_WINDOW} s")
        token = secrets.token_urlsafe(16)
        for _ in range(20):  # 32**6 ~ 1e9 codes: a collision is rare, and then we draw again
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            if not self.backend.hlen(self._key(code)):
                break
        else:
            raise StoreError("twenty join codes in a row are taken")  # a store that says every key exists
        self.backend.hset(self._key(code), {"lesson": lesson, "step": str(step), "revealed": "",
                                            "token": _digest(token), "by": client}, TTL_SECONDS)
        self._touch(code, client)
        self._seen(code, True)
        self._proved(code, _digest(token))
        return code, token

    @_guarded
    def close(self, code: str, token: str) -> None:
        """The teacher's Leave: the class, its seats and its answers are deleted now, not hours later, and its
        followers are told (the move listeners)."""
        found = self._teacher(code, token)
        self.backend.delete([self._key(code), self._key(code, "members"), *self._question_keys(code)])
        self.backend.hset(_closed_key(code), {"closed": "1"}, TTL_SECONDS)  # not to be written back
        self.backend.zrem(OPEN, code)
        if found.client:
            self.backend.zrem(PREFIX + "by:" + found.client, code)
        self._seen(code, False)
        self._moved(code)

    @_guarded
    def closed(self, code: str) -> bool:
        """Whether class ``code`` was closed by its teacher (not lost by a store that restarted)."""
        return bool(self.backend.hlen(_closed_key(normalize_code(code))))

    @_guarded
    def snapshot(self, code: str, token: str) -> ClassSnapshot:
        """The teacher's copy of everything the class holds (bounded as every read: a class of MAX_STUDENTS)."""
        self._teacher(code, token)
        fields = self.backend.hgetall(self._key(code), fields=CLASS_FIELDS, size=CLASS_BYTES)
        most = 2 * MAX_STUDENTS
        members = self.backend.hgetall(self._key(code, "members"), fields=most, size=most * ANSWER_BYTES)
        asked = self.backend.hgetall(self._key(code, "asked"), fields=REVEALED_MAX * 4, size=REVEALED_MAX * 64)
        steps = [int(s) for s in asked if s.isascii() and s.isdigit() and len(s) <= STEP_DIGITS]
        return ClassSnapshot(code, fields, members, {s: self._answers(code, s) for s in steps},
                             {s: self._answers(code, s, "first") for s in steps})

    @_guarded
    def restore(self, code: str, token: str, snapshot: ClassSnapshot | None = None,
                place: tuple[str, int] | None = None) -> ClassState:
        """The teacher's tab rejoins its class: as it is when the store still holds it; else, when the store lost it
        (a Redis restarted empty), written back under the same code and key from ``snapshot`` (the teacher's last
        copy) or, without one, empty at ``place``, for a key this process saw proved. A closed class stays closed
        ("unknown"); a key that is not the class's is refused ("not_teacher")."""
        code = normalize_code(code)
        try:
            return self._teacher(code, token).state
        except ClassError as error:
            if error.code != "unknown":
                raise
        digest = _digest(token) if isinstance(token, str) else ""
        known = self._teachers.get(code)
        mine = snapshot is not None and snapshot.code == code and hmac.compare_digest(
            snapshot.fields.get("token", ""), digest)
        if self.closed(code) or not (mine or (known and hmac.compare_digest(known, digest))):
            raise ClassError("unknown", f"class code ({code!r}) names no open class (it may have expired)")
        if self.backend.zcount_live(OPEN, self.backend.now()) >= MAX_CLASSES:
            raise ClassError("too_many_classes", f"at most {MAX_CLASSES} classes may be open at once")
        if mine:
            fields = dict(snapshot.fields)
        else:
            lesson, step = _check_place(*(place or ("", 0)))
            fields = {"lesson": lesson, "step": str(step), "revealed": "", "token": digest, "by": "local"}
        found = _parse(code, fields)  # what is written back is what the store writes
        self.backend.hset(self._key(code), fields, TTL_SECONDS)
        extra = []
        if mine:
            if snapshot.members:
                self.backend.hset(self._key(code, "members"), dict(snapshot.members), TTL_SECONDS)
            for part, votes in (("answers", snapshot.answers), ("first", snapshot.first)):
                for step, answers in votes.items():
                    if answers:
                        self.backend.hset(self._key(code, f"{part}:{int(step)}"), dict(answers), TTL_SECONDS)
                        extra.append(self._key(code, f"{part}:{int(step)}"))
            steps = set(snapshot.answers) | set(snapshot.first)
            if steps:
                self.backend.hset(self._key(code, "asked"), {str(s): "1" for s in steps}, TTL_SECONDS)
        self._touch(code, found.client, tuple(extra))
        self._seen(code, True)
        self._proved(code, digest)
        self._moved(code)
        return found.state

    @_guarded
    def is_teacher(self, code: str, token: str) -> bool:
        try:
            self._teacher(code, token)
            return True
        except ClassError as error:
            if error.code == "offline":
                raise
            return False

    @_guarded
    def set_step(self, code: str, token: str, lesson: str, step: int) -> None:
        found = self._teacher(code, token)
        lesson, step = _check_place(lesson, step)
        fields = {"lesson": lesson, "step": str(step)}
        if lesson != found.state.lesson:
            # another lesson's step 2 is another question: its answers, votes and reveal start empty
            self.backend.delete(self._question_keys(code))
            fields.update({name: "" for name in STEP_SETS})
        self.backend.hset(self._key(code), fields, TTL_SECONDS)
        self._touch(code, found.client)
        self._moved(code)

    @_guarded
    def reveal(self, code: str, token: str, step: int) -> None:
        found = self._teacher(code, token)
        _check_place(found.state.lesson, step)
        revealed = found.state.revealed | {step}
        if len(revealed) > REVEALED_MAX:
            raise ClassError("malformed", f"at most {REVEALED_MAX} steps of a class can be revealed")
        self.backend.hset(self._key(code), {"revealed": _written(revealed)}, TTL_SECONDS)
        self._touch(code, found.client)
        self._moved(code)

    @_guarded
    def show_spread(self, code: str, token: str, step: int, shown: bool) -> None:
        """Whether the class sees the spread of a question step before its reveal (off until the teacher says)."""
        found = self._teacher(code, token)
        _check_place(found.state.lesson, step)
        steps = found.state.shown | {step} if shown else found.state.shown - {step}
        if len(steps) > REVEALED_MAX:
            raise ClassError("malformed", f"at most {REVEALED_MAX} steps of a class can show their spread")
        self.backend.hset(self._key(code), {"shown": _written(steps)}, TTL_SECONDS)
        self._touch(code, found.client)
        self._moved(code)

    @_guarded
    def vote_again(self, code: str, token: str, step: int) -> None:
        """The second vote of the class's question step (peer instruction: after the discussion): the answers so far
        are kept as the first vote and the class answers again from none; the spread is hidden again. Asked again
        during the second vote, it clears the second vote and keeps the first."""
        found = self._teacher(code, token)
        _check_place(found.state.lesson, step)
        if step in found.state.revealed:
            raise ClassError("revealed", f"step {step} is revealed: answers are closed")
        if step != found.state.step:
            raise ClassError("moved", f"the class is on step {found.state.step}, not {step}")
        answers = self._key(code, f"answers:{step}")
        if step not in found.state.second:
            first = self._answers(code, step)
            if first:
                self.backend.hset(self._key(code, f"first:{step}"), first, TTL_SECONDS)
        second = found.state.second | {step}
        if len(second) > REVEALED_MAX:
            raise ClassError("malformed", f"at most {REVEALED_MAX} steps of a class can vote twice")
        self.backend.delete([answers])
        self.backend.hset(self._key(code, "asked"), {str(step): "1"}, TTL_SECONDS)
        self.backend.hset(self._key(code), {"second": _written(second), "shown": _written(found.state.shown - {step})},
                          TTL_SECONDS)
        self._touch(code, found.client, (self._key(code, f"first:{step}"),))
        self._moved(code)

    @_guarded
    def tally(self, code: str, token: str, step: int) -> Counter:
        """Option code -> how many members chose it in the vote under way (the teacher's view; a member sees it
        when the teacher shows it, and after the reveal)."""
        self._teacher(code, token)
        return self._count(code, step)

    @_guarded
    def votes(self, code: str, token: str, step: int) -> Votes:
        """The teacher's view of a question step: its first vote and, once asked, its second."""
        return self._votes(self._teacher(code, token).state, step)

    @_guarded
    def summary(self, code: str, token: str, questions: dict[int, str], right: Callable[[int], str]
                ) -> list[SummaryRow]:
        """Per question step of the class's lesson (``questions``: step -> question id), how many answered and how
        many picked ``right(step)`` on each vote. ``right`` is asked only for steps someone answered (an answer
        may cost the core a computation)."""
        state = self._teacher(code, token).state
        rows = []
        for step, question in sorted(questions.items()):
            votes = self._votes(state, step)
            good = right(step) if sum(votes.first.values()) or sum((votes.second or Counter()).values()) else None
            second = votes.second
            rows.append(SummaryRow(step, question, sum(votes.first.values()), votes.first.get(good, 0),
                                   None if second is None else sum(second.values()),
                                   None if second is None else second.get(good, 0)))
        return rows

    @_guarded
    def seats(self, code: str, token: str) -> int:
        """How many seats are taken (the teacher's view: a full class is said to the teacher)."""
        self._teacher(code, token)
        return self.backend.hlen(self._key(code, "members"))

    # everyone

    @_guarded
    def state(self, code: str) -> ClassState:
        return self._class(code).state

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
        members, mine = self._key(code, "members"), seat_holder(session)
        holder = self.backend.hget(members, member)
        if holder is not None and not HOLDER_RE.fullmatch(holder):
            raise StoreError(f"class {code}'s seats hold what the store never writes")
        if holder is not None and holder != mine and not (gone and gone(holder)):
            raise ClassError("seat_taken", "another open tab holds this seat")
        if holder is None and self.backend.hlen(members) >= MAX_STUDENTS:
            raise ClassError("full", f"the class already has {MAX_STUDENTS} students")
        self.backend.hset(members, {member: mine}, TTL_SECONDS)
        self._touch(code, found.client)
        return found.state

    @_guarded
    def leave(self, code: str, member: str, session: str = "") -> None:
        """Give the seat back: the student left, or their session ended (their tab closed, or a reload that takes it
        again). Only the session holding it gives it back (``session`` "" : whoever holds it)."""
        members = self._key(normalize_code(code), "members")
        holder = self.backend.hget(members, _check_id("member id", member))
        if holder is not None and (not session or holder == seat_holder(session)):
            self.backend.hdel(members, member)

    @_guarded
    def answer(self, code: str, member: str, step: int, option: str) -> None:
        """The member's choice on the class's question step (replaces their earlier one) until it is revealed."""
        if not isinstance(option, str) or not OPTION_RE.fullmatch(option):
            raise ClassError("malformed", "option must be an option code")
        found = self._class(code)
        members = self._key(code, "members")
        if not self.backend.hexists(members, _check_id("member id", member)):
            raise ClassError("unknown", "this browser has not joined the class")
        if step in found.state.revealed:
            raise ClassError("revealed", f"step {step} is revealed: answers are closed")
        if step != found.state.step:
            raise ClassError("moved", f"the class is on step {found.state.step}, not {step}")
        window = int(self.backend.now() // RATE_WINDOW)
        if self.backend.incr(self._key(code, f"rate:{member}:{window}"), RATE_WINDOW * 2) > ANSWER_LIMIT:
            raise ClassError("rate", f"at most {ANSWER_LIMIT} answers per {RATE_WINDOW} s")
        answers = self._key(code, f"answers:{step}")
        # seats come and go (a tab closes, another opens): answers are bounded too, at twice a full class
        if self.backend.hlen(answers) >= 2 * MAX_STUDENTS and self.backend.hget(answers, member) is None:
            raise ClassError("full", f"the class already has {2 * MAX_STUDENTS} answers")
        self.backend.hset(answers, {member: option}, TTL_SECONDS)
        self.backend.hset(self._key(code, "asked"), {str(step): "1"}, TTL_SECONDS)
        self._touch(code, found.client, (answers,))

    @_guarded
    def my_answer(self, code: str, member: str, step: int) -> str | None:
        """The option the class counts for ``member`` on ``step`` (None before they answer)."""
        option = self.backend.hget(self._key(code, f"answers:{int(step)}"), member)
        if option is not None and not OPTION_RE.fullmatch(option):
            raise StoreError(f"class {code}'s answers hold what the store never writes")
        return option

    @_guarded
    def revealed_tally(self, code: str, step: int) -> Counter | None:
        """The spread for a member: only once the teacher revealed the step, else None."""
        return self._count(code, step) if step in self._class(code).state.revealed else None

    @_guarded
    def shown_votes(self, code: str, step: int) -> Votes | None:
        """What a member may see of a question step's answers: both votes once it is revealed, the vote under way
        while the teacher shows its spread, else None."""
        state = self._class(code).state
        if step in state.revealed:
            return self._votes(state, step)
        if step in state.shown:
            return Votes(self._count(code, step))
        return None

    def _votes(self, state: ClassState, step: int) -> Votes:
        if step not in state.second:
            return Votes(self._count(state.code, step))
        return Votes(self._count(state.code, step, "first"), self._count(state.code, step))

    def _answers(self, code: str, step: int, part: str = "answers") -> dict[str, str]:
        most = 2 * MAX_STUDENTS
        answers = self.backend.hgetall(self._key(code, f"{part}:{int(step)}"), fields=most, size=most * ANSWER_BYTES)
        if not all(OPTION_RE.fullmatch(option) for option in answers.values()):
            raise StoreError(f"class {code}'s answers hold what the store never writes")
        return answers

    def _count(self, code: str, step: int, part: str = "answers") -> Counter:
        return Counter(self._answers(code, step, part).values())


def open_store(url: str | None = None) -> ClassStore:
    """The store this server uses: Redis at ``url`` (default $EMBEDVIZ_REDIS_URL) or, without one, memory."""
    url = url if url is not None else os.environ.get(REDIS_URL_ENV, "")
    return ClassStore(RedisBackend(url) if url else MemoryBackend())


_SHARED: dict[str, ClassStore] = {}
_SHARED_LOCK = threading.Lock()


def shared_store(url: str | None = None) -> ClassStore:
    """This process's one store for ``url`` (default $EMBEDVIZ_REDIS_URL): the pages' sessions and the server's
    follow route must read the same one (in memory, a second store would be a second, empty set of classes)."""
    url = url if url is not None else os.environ.get(REDIS_URL_ENV, "")
    with _SHARED_LOCK:
        if url not in _SHARED:
            _SHARED[url] = open_store(url)
        return _SHARED[url]
