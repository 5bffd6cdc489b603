"""A redis-server the test stops and starts again on the same loopback port (no persistence: it comes back empty,
as a Redis restarted without a disk does), each time stopped by its pid."""
from __future__ import annotations

import subprocess

from deploy.launcher import LOOPBACK, free_port, stop_process
from deploy.redis_server import start_redis


class RestartableRedis:
    def __init__(self):
        self.port = free_port()
        self.url = f"redis://{LOOPBACK}:{self.port}/0"
        self.proc: subprocess.Popen | None = None

    def start(self, timeout: float = 10.0) -> None:
        self.proc = start_redis(self.port, timeout=timeout)

    def stop(self) -> None:
        stop_process(self.proc)
        self.proc = None

    def __enter__(self):
        self.start()
        return self

    def __exit__(self, *exc):
        self.stop()
