"""A redis-server the test stops and starts again on the same loopback port (no persistence: it comes back empty,
as a Redis restarted without a disk does), each time stopped by its pid."""
from __future__ import annotations

import subprocess
import time

from deploy.launcher import LOOPBACK, free_port, stop_process
from deploy.redis_server import find_redis


class RestartableRedis:
    def __init__(self):
        self.port = free_port()
        self.url = f"redis://{LOOPBACK}:{self.port}/0"
        self.proc: subprocess.Popen | None = None

    def start(self, timeout: float = 10.0) -> None:
        import redis

        self.proc = subprocess.Popen(
            [find_redis(), "--port", str(self.port), "--bind", LOOPBACK, "--save", "", "--appendonly", "no",
             "--dir", "/tmp", "--protected-mode", "yes"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
        client = redis.Redis.from_url(self.url, socket_timeout=1)
        deadline = time.monotonic() + timeout
        while True:
            try:
                client.ping()
                return
            except redis.exceptions.ConnectionError:
                if self.proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"redis-server on port {self.port} did not start") from None
                time.sleep(0.05)

    def stop(self) -> None:
        stop_process(self.proc)
        self.proc = None

    def __enter__(self):
        self.start()
        return self

    def __exit__(self, *exc):
        self.stop()
