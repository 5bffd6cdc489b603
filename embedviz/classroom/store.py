"""The class store: :class:`ClassStore`, the one code path for a class, and the store this server uses
(:func:`open_store`, :func:`shared_store`: Redis when ``EMBEDVIZ_REDIS_URL`` names one, else memory).

The teacher's calls are here: start a class (within the limits per store and per client), move it, reveal a step,
close it, and keep and write back the teacher's copy (``snapshot``, ``restore``). A class is at one lesson: a
teacher who moves it to another lesson's step starts that lesson's questions afresh. Every key expires
``limits.TTL_SECONDS`` after the class's last activity; the teacher's Leave deletes the class at once and leaves a
mark that it was closed (``embedviz:class:closed:CODE``, for ``TTL_SECONDS``).
"""
from __future__ import annotations

import collections
import hmac
import logging
import os
import secrets
import threading
from collections.abc import Callable

from embedviz.classroom import limits
from embedviz.classroom.backend import Backend, MemoryBackend, StoreError
from embedviz.classroom.checks import (
    CLIENT_RE, CODE_ALPHABET, CODE_LENGTH, ClassError, _check_place, _digest, _guarded, normalize_code,
)
from embedviz.classroom.redis_backend import RedisBackend
from embedviz.classroom.seats import Seating
from embedviz.classroom.state import (
    OPEN, PREFIX, STEP_SETS, ClassSnapshot, ClassState, _Class, _closed_key, _key, _parse, _written,
)
from embedviz.classroom.votes import Voting

REDIS_URL_ENV = "EMBEDVIZ_REDIS_URL"
_LOG = logging.getLogger(__name__)


class ClassStore(Seating, Voting):
    """The one code path for a class, on a backend (backend.py, redis_backend.py): the teacher's calls here, the
    seats' in seats.py, the questions' in votes.py."""

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
            while len(self._open) > limits.KNOWN_OPEN:
                self._open.popitem(last=False)

    def _class(self, code: str) -> _Class:
        data = self.backend.hgetall(_key(code), fields=limits.CLASS_FIELDS, size=limits.CLASS_BYTES)
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
            while len(self._teachers) > limits.KNOWN_OPEN:
                self._teachers.popitem(last=False)

    def _touch(self, code: str, client: str, extra: tuple[str, ...] = ()) -> None:
        keys = [_key(code), _key(code, "members"), _key(code, "asked"), *extra]
        self.backend.touch(keys, limits.TTL_SECONDS)
        until = self.backend.now() + limits.TTL_SECONDS
        self.backend.zadd(OPEN, code, until, limits.TTL_SECONDS)
        if client:
            self.backend.zadd(PREFIX + "by:" + client, code, until, limits.TTL_SECONDS)

    # the teacher

    @_guarded
    def create(self, lesson: str, step: int, *, client: str = "local") -> tuple[str, str]:
        """A new class at the tour's step: (join code, secret teacher token). ``client`` is who asks
        (``client_limits.address_key``): at most ``limits.OPEN_PER_CLIENT`` of its classes open at once,
        ``STARTS_PER_CLIENT`` started per ``START_WINDOW``."""
        lesson, step = _check_place(lesson, step)
        if not CLIENT_RE.fullmatch(str(client)):
            raise ClassError("malformed", "client must be an address key (client_limits.address_key)")
        now = self.backend.now()
        if self.backend.zcount_live(OPEN, now) >= limits.MAX_CLASSES:
            raise ClassError("too_many_classes", f"at most {limits.MAX_CLASSES} classes may be open at once")
        if self.backend.zcount_live(PREFIX + "by:" + client, now) >= limits.OPEN_PER_CLIENT:
            raise ClassError("client_classes",
                             f"at most {limits.OPEN_PER_CLIENT} classes per address may be open at once")
        window = limits.START_WINDOW
        starts = self.backend.incr(f"{PREFIX}starts:{client}:{int(now // window)}", window * 2)
        if starts > limits.STARTS_PER_CLIENT:
            raise ClassError("client_starts", f"at most {limits.STARTS_PER_CLIENT} classes per address per {window} s")
        token = secrets.token_urlsafe(16)
        for _ in range(20):  # 32**6 ~ 1e9 codes: a collision is rare, and then we draw again
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            if not self.backend.hlen(_key(code)):
                break
        else:
            raise StoreError("twenty join codes in a row are taken")  # a store that says every key exists
        self.backend.hset(_key(code), {"lesson": lesson, "step": str(step), "revealed": "",
                                       "token": _digest(token), "by": client}, limits.TTL_SECONDS)
        self._touch(code, client)
        self._seen(code, True)
        self._proved(code, _digest(token))
        return code, token

    @_guarded
    def close(self, code: str, token: str) -> None:
        """The teacher's Leave: the class, its seats and its answers are deleted now, not hours later, and its
        followers are told (the move listeners)."""
        found = self._teacher(code, token)
        self.backend.delete([_key(code), _key(code, "members"), *self._question_keys(code)])
        self.backend.hset(_closed_key(code), {"closed": "1"}, limits.TTL_SECONDS)  # not to be written back
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
        fields = self.backend.hgetall(_key(code), fields=limits.CLASS_FIELDS, size=limits.CLASS_BYTES)
        most = 2 * limits.MAX_STUDENTS
        members = self.backend.hgetall(_key(code, "members"), fields=most, size=most * limits.ANSWER_BYTES)
        asked = self.backend.hgetall(_key(code, "asked"), fields=limits.REVEALED_MAX * 4,
                                     size=limits.REVEALED_MAX * 64)
        steps = [int(s) for s in asked if s.isascii() and s.isdigit() and len(s) <= limits.STEP_DIGITS]
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
        if self.backend.zcount_live(OPEN, self.backend.now()) >= limits.MAX_CLASSES:
            raise ClassError("too_many_classes", f"at most {limits.MAX_CLASSES} classes may be open at once")
        if mine:
            fields = dict(snapshot.fields)
        else:
            lesson, step = _check_place(*(place or ("", 0)))
            fields = {"lesson": lesson, "step": str(step), "revealed": "", "token": digest, "by": "local"}
        found = _parse(code, fields)  # what is written back is what the store writes
        self.backend.hset(_key(code), fields, limits.TTL_SECONDS)
        extra = []
        if mine:
            if snapshot.members:
                self.backend.hset(_key(code, "members"), dict(snapshot.members), limits.TTL_SECONDS)
            for part, votes in (("answers", snapshot.answers), ("first", snapshot.first)):
                for step, answers in votes.items():
                    if answers:
                        self.backend.hset(_key(code, f"{part}:{int(step)}"), dict(answers), limits.TTL_SECONDS)
                        extra.append(_key(code, f"{part}:{int(step)}"))
            steps = set(snapshot.answers) | set(snapshot.first)
            if steps:
                self.backend.hset(_key(code, "asked"), {str(s): "1" for s in steps}, limits.TTL_SECONDS)
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
        self.backend.hset(_key(code), fields, limits.TTL_SECONDS)
        self._touch(code, found.client)
        self._moved(code)

    @_guarded
    def reveal(self, code: str, token: str, step: int) -> None:
        self._mark_step(code, token, step, "revealed", True, "be revealed")

    def _mark_step(self, code: str, token: str, step: int, field: str, on: bool, what: str) -> None:
        """Put a step into (or take it out of) one of the class's sets of steps (``revealed``, ``shown``): the
        teacher's call, bounded, and the class told it moved."""
        found = self._teacher(code, token)
        _check_place(found.state.lesson, step)
        steps = getattr(found.state, field)
        steps = steps | {step} if on else steps - {step}
        if len(steps) > limits.REVEALED_MAX:
            raise ClassError("malformed", f"at most {limits.REVEALED_MAX} steps of a class can {what}")
        self.backend.hset(_key(code), {field: _written(steps)}, limits.TTL_SECONDS)
        self._touch(code, found.client)
        self._moved(code)

    # everyone

    @_guarded
    def state(self, code: str) -> ClassState:
        return self._class(code).state


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
