"""One client holding many sockets against a server with few files: health, the page and a new session timed while
it does, with the server's CPU and log growth. The A/B of embedviz/app/connections.py.

    .venv/bin/python -m benchmarks.slow_loris                      # this checkout, 1,100 sockets, ulimit -n 1024
    .venv/bin/python -m benchmarks.slow_loris --root /work/main    # another checkout (the code before)

Every other socket sends nothing; the rest send a request head one header line every 5 s. Loopback only; the server
is stopped by its pid at the end.
"""
from __future__ import annotations

import argparse
import socket
import threading
import time
import urllib.request
from pathlib import Path

from deploy.launcher import ROOT, cpu_seconds, serving_process


def timed(url: str) -> str:
    t0 = time.monotonic()
    try:
        with urllib.request.urlopen(url, timeout=20) as answer:
            answer.read()
            return f"{time.monotonic() - t0:.2f} s ({answer.status})"
    except Exception as error:  # noqa: BLE001 - a benchmark reports whatever happened
        return f"{time.monotonic() - t0:.2f} s ({type(error).__name__})"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", type=Path, default=ROOT)
    parser.add_argument("--sockets", type=int, default=1_100)
    parser.add_argument("--nofile", type=int, default=1_024)
    parser.add_argument("--seconds", type=float, default=20.0)
    args = parser.parse_args(argv)
    log = Path("/tmp") / f"embedviz-slow-loris-{time.time_ns()}.log"
    with serving_process(log, nofile=args.nofile, root=args.root.resolve()) as (url, proc):
        port = int(url.rsplit(":", 1)[1])
        cpu0, log0 = cpu_seconds(proc.pid), log.stat().st_size
        held = []
        for i in range(args.sockets):
            s = socket.create_connection(("127.0.0.1", port), timeout=5)
            if i % 2:
                s.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")
            held.append(s)
        stop = threading.Event()

        def trickle() -> None:
            while not stop.wait(5.0):
                for s in held[1::2]:
                    try:
                        s.sendall(b"X-Slow: 1\r\n")
                    except OSError:
                        pass

        threading.Thread(target=trickle, daemon=True).start()
        time.sleep(2.0)
        print(f"{args.root}: {args.sockets} sockets, ulimit -n {args.nofile}, load {open('/proc/loadavg').read().split()[:3]}")
        print(f"  health {timed(url + '/_stcore/health')}, / {timed(url + '/')}")
        from benchmarks.load.stclient import StreamlitSession

        t0 = time.monotonic()
        student = StreamlitSession(url, timeout=60)
        try:
            student.connect()
            student.open("home")
            print(f"  a new session's first run: {time.monotonic() - t0:.2f} s")
        except Exception as error:  # noqa: BLE001
            print(f"  a new session: {type(error).__name__} after {time.monotonic() - t0:.2f} s")
        finally:
            student.close()
        time.sleep(max(0.0, args.seconds - (time.monotonic() - t0)))
        print(f"  after {args.seconds:.0f} s: server CPU {cpu_seconds(proc.pid) - cpu0:.1f} s, "
              f"log +{(log.stat().st_size - log0) / 1e6:.2f} MB, health {timed(url + '/_stcore/health')}")
        stop.set()
        for s in held:
            s.close()
    log.unlink(missing_ok=True)


if __name__ == "__main__":
    main()
