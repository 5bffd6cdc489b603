"""Where the class store (embedviz/classroom.py) keeps its state: a few Redis-shaped calls (hashes, a counter, a
sorted set, TTLs) on two backends. :class:`MemoryBackend` keeps them in this process (one server);
:class:`RedisBackend` in Redis (replicas share it).

The store trusts neither: whatever a backend cannot do or answers in a shape it never writes raises
:class:`StoreError`, which the store reads as "store unavailable", the path of a Redis that is down. In particular
every read is bounded before it is made: a hash is read whole only when it holds at most ``fields`` fields and
``size`` bytes, so a hash that grew (or was written) to megabytes costs one small check, not seconds of parsing.
"""
from __future__ import annotations

import logging
import threading
import time
from typing import Any, Protocol

_LOG = logging.getLogger(__name__)


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


class RedisBackend:
    """The same calls on a Redis server (replicas share it). Short timeouts: a dead store must not hang a page. Every
    reply is checked for the type the call expects, and a hash is measured (HLEN, MEMORY USAGE) before it is read."""

    def __init__(self, url: str):
        import redis  # only when configured: one process needs no Redis

        self._redis_errors = (redis.exceptions.RedisError, OSError)
        # not reachable (down, restarting, loading), as opposed to a reply of another kind (WRONGTYPE, ...)
        self._unreachable = (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError, OSError)
        self._r = redis.Redis.from_url(url, socket_timeout=1.0, socket_connect_timeout=1.0, decode_responses=True)

    def _call(self, fn, *args):
        try:
            return fn(*args)
        except StoreError:
            raise
        except self._unreachable as error:
            raise StoreUnreachable(f"the class store is not reachable ({type(error).__name__})") from None
        except self._redis_errors as error:
            raise StoreError(f"the class store refused the call ({type(error).__name__})") from None
        except (UnicodeError, ValueError, TypeError) as error:  # bytes that are not UTF-8, a reply of another shape
            _LOG.warning("the class store answered what it never writes: %s", type(error).__name__)
            raise StoreError(f"the class store answered what it never writes ({type(error).__name__})") from None

    @staticmethod
    def _int(value) -> int:
        if not isinstance(value, int) or isinstance(value, bool):
            raise StoreError(f"the class store answered {type(value).__name__} for a count")
        return value

    def hgetall(self, key, *, fields, size):
        def run():
            with self._r.pipeline(transaction=False) as p:
                n, used = p.hlen(key).memory_usage(key, samples=0).execute()
            # MEMORY USAGE counts what Redis holds for the key: the fields, the values and its own overhead (up to
            # a few times the text of tiny fields). The reply is smaller than that, so a hash far past ``size`` is
            # never asked for, and one that passes is measured exactly once read.
            if self._int(n) > fields or (used is not None and self._int(used) > 4 * size + 1_024):
                raise StoreError(f"{key} is larger than anything the store writes ({n} fields, {used} bytes)")
            data = self._r.hgetall(key)
            if not isinstance(data, dict) or not all(isinstance(k, str) and isinstance(v, str)
                                                     for k, v in data.items()):
                raise StoreError(f"{key} is not a hash of texts")
            return _bounded(data, key, fields, size)
        return self._call(run)

    def hget(self, key, field):
        def run():
            with self._r.pipeline(transaction=False) as p:
                length, value = p.hstrlen(key, field).hget(key, field).execute()
            if self._int(length) > 256 or not (value is None or isinstance(value, str)):
                raise StoreError(f"{key}'s {field} is not a short text")
            return value
        return self._call(run)

    def hset(self, key, mapping, ttl):
        def run():
            with self._r.pipeline() as p:
                p.hset(key, mapping=mapping).expire(key, ttl).execute()
        self._call(run)

    def hdel(self, key, field):
        self._call(self._r.hdel, key, field)

    def hlen(self, key):
        return self._int(self._call(self._r.hlen, key))

    def hexists(self, key, field):
        found = self._call(self._r.hexists, key, field)
        if not isinstance(found, (bool, int)):  # redis-py answers a bool
            raise StoreError(f"the class store answered {type(found).__name__} for HEXISTS")
        return bool(found)

    def incr(self, key, ttl):
        def run():
            with self._r.pipeline() as p:
                return p.incr(key).expire(key, ttl, nx=True).execute()[0]
        return self._int(self._call(run))

    def touch(self, keys, ttl):
        def run():
            with self._r.pipeline() as p:
                for key in keys:
                    p.expire(key, ttl)
                p.execute()
        self._call(run)

    def delete(self, keys):
        if keys:
            self._call(self._r.delete, *keys)

    def zadd(self, key, member, score, ttl):
        def run():  # a sorted set expires too, once nothing was added to it for ``ttl``
            with self._r.pipeline() as p:
                p.zadd(key, {member: score}).expire(key, ttl).execute()
        self._call(run)

    def zrem(self, key, member):
        self._call(self._r.zrem, key, member)

    def zcount_live(self, key, now):
        def run():
            with self._r.pipeline() as p:
                return p.zremrangebyscore(key, "-inf", now).zcard(key).execute()[1]
        return self._int(self._call(run))

    def now(self) -> float:
        return time.time()  # replicas share wall-clock time, not one process's monotonic clock
