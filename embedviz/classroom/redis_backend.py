"""The class store's backend on a Redis server (replicas share it): the calls of backend.py's ``Backend``, each reply
checked for the type the call expects, and a hash measured before it is read."""
from __future__ import annotations

import logging
import time

from embedviz.classroom.backend import StoreError, StoreUnreachable, _bounded

_LOG = logging.getLogger(__name__)


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
