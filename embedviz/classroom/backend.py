"""Where the class store (store.py) keeps its state: a few Redis-shaped calls (hashes, a counter, a sorted set, TTLs)
that a backend answers. :class:`MemoryBackend`, here, keeps them in this process (one server); ``RedisBackend``
(redis_backend.py) in Redis (replicas share it).

The store trusts neither: whatever a backend cannot do or answers in a shape it never writes raises
:class:`StoreError`, which the store reads as "store unavailable", the path of a Redis that is down. In particular
every read is bounded before it is made: a hash is read whole only when it holds at most ``fields`` fields and
``size`` bytes, so a hash that grew (or was written) to megabytes costs one small check, not seconds of parsing.
"""
from __future__ import annotations

import threading
import time
from typing import Any, Protocol


class StoreError(RuntimeError):
    """The backend failed or answered what the store never writes (wrong type, too large, not text)."""


class StoreUnreachable(StoreError):
    """The backend could not be reached at all (a Redis that is down or restarting): worth trying again soon, unlike
    a store that answers what it never writes."""


class Backend(Protocol):
    def hgetall(self, key: str, *, fields: int, size: int) -> dict[str, str]: ...
    def hget(self, key: str, field: str) -> str | None: ...
    def hset(self, key: str, mapping: dict[str, str], ttl: int) -> None: ...
    def hdel(self, key: str, field: str) -> None: ...
    def hlen(self, key: str) -> int: ...
    def hexists(self, key: str, field: str) -> bool: ...
    def incr(self, key: str, ttl: int) -> int: ...
    def touch(self, keys: list[str], ttl: int) -> None: ...
    def delete(self, keys: list[str]) -> None: ...
    def zadd(self, key: str, member: str, score: float, ttl: int) -> None: ...
    def zrem(self, key: str, member: str) -> None: ...
    def zcount_live(self, key: str, now: float) -> int: ...
    def now(self) -> float: ...


def _bounded(data: dict, key: str, fields: int, size: int) -> dict[str, str]:
    if len(data) > fields:
        raise StoreError(f"{key} holds {len(data)} fields, more than the {fields} the store writes")
    if sum(len(k) + len(v) for k, v in data.items()) > size:
        raise StoreError(f"{key} holds more than {size} bytes")
    return data


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

    def hgetall(self, key, *, fields, size):
        with self._lock:
            return _bounded(dict(self._live(key, {})), key, fields, size)

    def hget(self, key, field):
        with self._lock:
            return self._live(key, {}).get(field)

    def hset(self, key, mapping, ttl):
        with self._lock:
            self._live(key, None)
            self._data.setdefault(key, {}).update(mapping)
            self._expires[key] = self._clock() + ttl

    def hdel(self, key, field):
        with self._lock:
            self._live(key, {}).pop(field, None)

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

    def delete(self, keys):
        with self._lock:
            for key in keys:
                self._data.pop(key, None)
                self._expires.pop(key, None)

    def zadd(self, key, member, score, ttl):
        with self._lock:
            self._live(key, None)
            self._data.setdefault(key, {})[member] = score
            self._expires[key] = self._clock() + ttl

    def zrem(self, key, member):
        with self._lock:
            self._live(key, {}).pop(member, None)

    def zcount_live(self, key, now):
        with self._lock:
            zset = self._live(key, {})
            for member in [m for m, score in zset.items() if score <= now]:
                del zset[member]
            return len(zset)

    def now(self) -> float:
        return self._clock()
