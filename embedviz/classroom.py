"""A class following its teacher: join codes, the teacher's step, the students' answers, the reveal.

State shared by the sessions of a class (and, behind a load balancer, by the replicas serving them) lives in a
store. :class:`ClassStore` is the one code path; it talks to a backend through a handful of Redis-shaped calls
(hashes, a counter, a sorted set, TTLs). :class:`MemoryBackend` keeps them in this process (one server);
:class:`RedisBackend` keeps them in Redis (replicas). :func:`open_store` picks one from ``EMBEDVIZ_REDIS_URL``.

What is kept, per class, and nothing on disk (Redis is started without persistence in the tests and the recipe):
- the class: lesson, step, which steps are revealed, a SHA-256 of the teacher's token (the token itself is only in
  the teacher's link);
- the members: a random id per browser session (no names), at most ``MAX_STUDENTS``;
- per question step: member id -> option code, one per member (a new choice replaces the old) until the reveal.
Every key expires ``TTL_SECONDS`` after the class's last activity.
"""
from __future__ import annotations

import hashlib
import hmac
import logging
import os
import re
import secrets
import threading
import time
from collections import Counter
from dataclasses import dataclass
from collections.abc import Callable
from typing import Any, Protocol

REDIS_URL_ENV = "EMBEDVIZ_REDIS_URL"
TTL_SECONDS = 4 * 3600  # a class lives a few hours after its last activity (a lesson, with a break)
MAX_STUDENTS = 300  # per class: a lecture hall
MAX_CLASSES = 200  # open at once per store: bounds memory whatever strangers do
ANSWER_LIMIT = 20  # answers per member per RATE_WINDOW seconds: a person clicks a few times, a script many
RATE_WINDOW = 10
CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I: read off a projector
CODE_LENGTH = 6
# matched with fullmatch: "$" would also accept a trailing newline
CODE_RE = re.compile(rf"[{CODE_ALPHABET}]{{{CODE_LENGTH}}}")
ID_RE = re.compile(r"[A-Za-z0-9_-]{8,64}")  # member ids
OPTION_RE = re.compile(r"[A-Za-z0-9_]{1,40}")  # a question's option codes (embedviz/tours.py)
PREFIX = "embedviz:class:"
_LOG = logging.getLogger(__name__)


class ClassError(ValueError):
    """A refused class action. ``code`` is stable (the app translates it); the message is for notebooks/logs.

    codes: malformed (not a join code), unknown (no such class, or it expired), full (MAX_STUDENTS),
    too_many_classes (MAX_CLASSES), not_teacher (wrong teacher token), revealed (answers closed),
    rate (too many answers), offline (the store cannot be reached).
    """

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code


@dataclass(frozen=True)
class ClassState:
    """What every member may see: where the teacher is and which question steps are revealed."""

    code: str
    lesson: str
    step: int
    revealed: frozenset[int]

    @property
    def position(self) -> tuple[str, int, bool]:
        """What a follower's page shows: the lesson, the step, and whether that step is revealed. A follower reruns
        when it changes, and only then."""
        return self.lesson, self.step, self.step in self.revealed


# backends: a few Redis-shaped calls


class Backend(Protocol):
    def hgetall(self, key: str) -> dict[str, str]: ...
    def hset(self, key: str, mapping: dict[str, str], ttl: int) -> None: ...
    def hlen(self, key: str) -> int: ...
    def hexists(self, key: str, field: str) -> bool: ...
    def incr(self, key: str, ttl: int) -> int: ...
    def touch(self, keys: list[str], ttl: int) -> None: ...
    def zadd(self, key: str, member: str, score: float) -> None: ...
    def zcount_live(self, key: str, now: float) -> int: ...


class MemoryBackend:
    """The backend for one server process: dicts with expiry times, swept on every call (cheap: few classes)."""

    def __init__(self, clock=time.monotonic):
        self._data: dict[str, Any] = {}
        self._expires: dict[str, float] = {}
        self._lock = threading.Lock()  # sessions run in the server's threads
        self._clock = clock
        self._next_sweep = float("-inf")

    def _sweep(self) -> None:
        """Drop expired keys: the key read now always, all of them at most once a second (a poll per student per
        second must not walk every key of every class)."""
        now = self._clock()
        if now < self._next_sweep:
            return
        self._next_sweep = now + 1.0
        for key in [k for k, at in self._expires.items() if at <= now]:
            self._data.pop(key, None)
            self._expires.pop(key, None)

    def _live(self, key: str, default):
        self._sweep()
        if self._expires.get(key, float("inf")) <= self._clock():
            self._data.pop(key, None)
            self._expires.pop(key, None)
        return self._data.get(key, default)

    def hgetall(self, key):
        with self._lock:
            return dict(self._live(key, {}))

    def hset(self, key, mapping, ttl):
        with self._lock:
            self._live(key, None)
            self._data.setdefault(key, {}).update(mapping)
            self._expires[key] = self._clock() + ttl

    def hlen(self, key):
        with self._lock:
            return len(self._live(key, {}))

    def hexists(self, key, field):
        with self._lock:
            return field in self._live(key, {})

    def incr(self, key, ttl):
        with self._lock:
            value = int(self._live(key, 0)) + 1
            self._data[key] = value
            self._expires.setdefault(key, self._clock() + ttl)
            return value

    def touch(self, keys, ttl):
        with self._lock:
            for key in keys:
                if self._live(key, None) is not None:
                    self._expires[key] = self._clock() + ttl

    def zadd(self, key, member, score):
        with self._lock:
            self._data.setdefault(key, {})[member] = score

    def zcount_live(self, key, now):
        with self._lock:
            zset = self._data.get(key, {})
            for member in [m for m, score in zset.items() if score <= now]:
                del zset[member]
            return len(zset)

    def now(self) -> float:
        return self._clock()


class RedisBackend:
    """The same calls on a Redis server (replicas share it). Short timeouts: a dead store must not hang a page."""

    def __init__(self, url: str):
        import redis  # only when configured: one process needs no Redis

        self._errors = (redis.exceptions.RedisError, OSError)
        self._r = redis.Redis.from_url(url, socket_timeout=1.0, socket_connect_timeout=1.0, decode_responses=True)

    def _call(self, fn, *args):
        try:
            return fn(*args)
        except self._errors as error:
            raise ClassError("offline", f"the class store is not reachable ({type(error).__name__})") from None

    def hgetall(self, key):
        return self._call(self._r.hgetall, key)

    def hset(self, key, mapping, ttl):
        def run():
            with self._r.pipeline() as p:
                p.hset(key, mapping=mapping).expire(key, ttl).execute()
        self._call(run)

    def hlen(self, key):
        return self._call(self._r.hlen, key)

    def hexists(self, key, field):
        return bool(self._call(self._r.hexists, key, field))

    def incr(self, key, ttl):
        def run():
            with self._r.pipeline() as p:
                return p.incr(key).expire(key, ttl, nx=True).execute()[0]
        return int(self._call(run))

    def touch(self, keys, ttl):
        def run():
            with self._r.pipeline() as p:
                for key in keys:
                    p.expire(key, ttl)
                p.execute()
        self._call(run)

    def zadd(self, key, member, score):
        def run():  # the set of open classes expires too, when no class was active for TTL_SECONDS
            with self._r.pipeline() as p:
                p.zadd(key, {member: score}).expire(key, TTL_SECONDS).execute()
        self._call(run)

    def zcount_live(self, key, now):
        def run():
            with self._r.pipeline() as p:
                return p.zremrangebyscore(key, "-inf", now).zcard(key).execute()[1]
        return int(self._call(run))

    def now(self) -> float:
        return time.time()  # replicas share wall-clock time, not one process's monotonic clock


# the store


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


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


def new_member_id() -> str:
    """A random id for one browser session: it identifies an answer, not a person."""
    return secrets.token_urlsafe(12)


class ClassStore:
    def __init__(self, backend: Backend):
        self.backend = backend
        self._move_listeners: list[Callable[[str], None]] = []

    def on_move(self, listener: Callable[[str], None]) -> None:
        """Call ``listener(code)`` after this store object moves a class (a teacher's step or reveal): a server that
        holds its followers' requests answers them at once. A move made by another process (a replica sharing
        Redis) is not seen here; that server reads the store itself."""
        self._move_listeners.append(listener)

    def _moved(self, code: str) -> None:
        for listener in list(self._move_listeners):
            try:
                listener(code)
            except Exception:  # noqa: BLE001 - the move is stored; a listener's failure must not undo the teacher's step
                _LOG.exception("a class move listener failed")

    @staticmethod
    def _key(code: str, part: str = "") -> str:
        return f"{PREFIX}{code}{':' + part if part else ''}"

    def _class(self, code: str) -> dict[str, str]:
        data = self.backend.hgetall(self._key(code))
        if not data:
            raise ClassError("unknown", f"class code ({code!r}) names no open class (it may have expired)")
        return data

    def _teacher(self, code: str, token: str) -> dict[str, str]:
        data = self._class(code)
        if not isinstance(token, str) or not hmac.compare_digest(_digest(token), data["token"]):
            raise ClassError("not_teacher", "only the teacher's link can drive the class")
        return data

    def _touch(self, code: str, extra: tuple[str, ...] = ()) -> None:
        self.backend.touch([self._key(code), self._key(code, "members"), *extra], TTL_SECONDS)
        self.backend.zadd(PREFIX + "open", code, self.backend.now() + TTL_SECONDS)

    # the teacher

    def create(self, lesson: str, step: int) -> tuple[str, str]:
        """A new class at the tour's step: (join code, secret teacher token)."""
        if self.backend.zcount_live(PREFIX + "open", self.backend.now()) >= MAX_CLASSES:
            raise ClassError("too_many_classes", f"at most {MAX_CLASSES} classes may be open at once")
        token = secrets.token_urlsafe(16)
        for _ in range(20):  # 32**6 ~ 1e9 codes: a collision is rare, and then we draw again
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            if not self.backend.hgetall(self._key(code)):
                break
        self.backend.hset(self._key(code), {"lesson": str(lesson), "step": str(int(step)), "revealed": "",
                                            "token": _digest(token)}, TTL_SECONDS)
        self._touch(code)
        return code, token

    def is_teacher(self, code: str, token: str) -> bool:
        try:
            self._teacher(code, token)
            return True
        except ClassError as error:
            if error.code == "offline":
                raise
            return False

    def set_step(self, code: str, token: str, lesson: str, step: int) -> None:
        self._teacher(code, token)
        self.backend.hset(self._key(code), {"lesson": str(lesson), "step": str(int(step))}, TTL_SECONDS)
        self._touch(code)
        self._moved(code)

    def reveal(self, code: str, token: str, step: int) -> None:
        data = self._teacher(code, token)
        revealed = self._revealed(data) | {int(step)}
        self.backend.hset(self._key(code), {"revealed": ",".join(map(str, sorted(revealed)))}, TTL_SECONDS)
        self._touch(code)
        self._moved(code)

    def tally(self, code: str, token: str, step: int) -> Counter:
        """Option code -> how many members chose it (the teacher's view; a member sees it after the reveal)."""
        self._teacher(code, token)
        return self._count(code, step)

    # everyone

    @staticmethod
    def _revealed(data: dict[str, str]) -> frozenset[int]:
        return frozenset(int(s) for s in data.get("revealed", "").split(",") if s)

    def state(self, code: str) -> ClassState:
        data = self._class(code)
        return ClassState(code, data["lesson"], int(data["step"]), self._revealed(data))

    def join(self, raw_code: str, member: str) -> ClassState:
        code = normalize_code(raw_code)
        _check_id("member id", member)
        state = self.state(code)
        members = self._key(code, "members")
        if not self.backend.hexists(members, member) and self.backend.hlen(members) >= MAX_STUDENTS:
            raise ClassError("full", f"the class already has {MAX_STUDENTS} students")
        self.backend.hset(members, {member: "1"}, TTL_SECONDS)
        self._touch(code)
        return state

    def answer(self, code: str, member: str, step: int, option: str) -> None:
        """The member's choice on a question step (replaces their earlier one) until the step is revealed."""
        if not isinstance(option, str) or not OPTION_RE.fullmatch(option):
            raise ClassError("malformed", "option must be an option code")
        state = self.state(code)
        members = self._key(code, "members")
        if not self.backend.hexists(members, _check_id("member id", member)):
            raise ClassError("unknown", "this browser has not joined the class")
        if int(step) in state.revealed:
            raise ClassError("revealed", f"step {step} is revealed: answers are closed")
        window = int(self.backend.now() // RATE_WINDOW)
        if self.backend.incr(self._key(code, f"rate:{member}:{window}"), RATE_WINDOW * 2) > ANSWER_LIMIT:
            raise ClassError("rate", f"at most {ANSWER_LIMIT} answers per {RATE_WINDOW} s")
        answers = self._key(code, f"answers:{int(step)}")
        self.backend.hset(answers, {member: option}, TTL_SECONDS)
        self._touch(code, (answers,))

    def my_answer(self, code: str, member: str, step: int) -> str | None:
        return self.backend.hgetall(self._key(code, f"answers:{int(step)}")).get(member)

    def revealed_tally(self, code: str, step: int) -> Counter | None:
        """The spread for a member: only once the teacher revealed the step, else None."""
        return self._count(code, step) if int(step) in self.state(code).revealed else None

    def _count(self, code: str, step: int) -> Counter:
        return Counter(self.backend.hgetall(self._key(code, f"answers:{int(step)}")).values())


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
