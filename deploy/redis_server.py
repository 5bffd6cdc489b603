"""A throwaway redis-server on loopback for the tests and the classroom benchmark (Debian's `redis-server`).

No persistence (nothing on disk: --save "" --appendonly no), a free port, stopped by its pid.
"""
from __future__ import annotations

import shutil
import subprocess
import time
from contextlib import contextmanager
from pathlib import Path

from deploy.launcher import LOOPBACK, free_port, stop_process


def find_redis() -> str | None:
    return shutil.which("redis-server") or next((p for p in ("/usr/bin/redis-server", "/usr/sbin/redis-server")
                                                 if Path(p).exists()), None)


def start_redis(port: int, *, timeout: float = 10.0) -> subprocess.Popen:
    """A redis-server on LOOPBACK:port that answers PING, or RuntimeError (and the process stopped) within timeout."""
    exe = find_redis()
    if exe is None:
        raise RuntimeError("redis-server not found: install it with `apt-get install redis-server`")
    proc = subprocess.Popen([exe, "--port", str(port), "--bind", LOOPBACK, "--save", "", "--appendonly", "no",
                             "--dir", "/tmp", "--protected-mode", "yes"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
    import redis

    client = redis.Redis.from_url(f"redis://{LOOPBACK}:{port}/0", socket_timeout=1)
    deadline = time.monotonic() + timeout
    while True:
        try:
            client.ping()
            return proc
        except redis.exceptions.ConnectionError:
            if proc.poll() is not None or time.monotonic() > deadline:
                stop_process(proc)
                raise RuntimeError(f"redis-server on port {port} did not start") from None
            time.sleep(0.05)


@contextmanager
def redis_server(*, timeout: float = 10.0):
    """Yields ``redis://127.0.0.1:PORT/0`` of a redis-server started for the block, stopped after it."""
    port = free_port()
    proc = start_redis(port, timeout=timeout)
    try:
        yield f"redis://{LOOPBACK}:{port}/0"
    finally:
        stop_process(proc)
