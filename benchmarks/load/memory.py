"""Are sessions freed? 50 students open a page, move sliders and leave; the server's RSS before and after.

    .venv/bin/python -m benchmarks.load.memory                 # 2 batches of 50 sessions, ~6 minutes
    .venv/bin/python -m benchmarks.load.memory --sessions 50 --batches 1 --ttl 10

Starts the app on 127.0.0.1 (its own server, stopped at the end), opens every slider page once (the warm caches
a class meets), then runs --batches batches of --sessions sessions, --concurrency at a time: each opens a page
(the pages in turn), moves a slider --steps times, and closes its websocket. Streamlit keeps a disconnected
session for server.disconnectedSessionTTL seconds (120 by default, so a student whose wifi drops gets the same
session back), so RSS is read right after each batch and again after the TTL has passed. The goal:
within 100 MB of the start. A second batch shows whether memory keeps growing (a leak) or stays (bounded caches).
"""
from __future__ import annotations

import argparse
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]

from deploy.launcher import free_port, rss_bytes, stop_process, streamlit_command, wait_healthy  # noqa: E402
from benchmarks.load.locustfile import SLIDER_PAGES  # noqa: E402
from benchmarks.load.stclient import StreamlitSession  # noqa: E402

GOAL_MB = 100


def student(url: str, page: str, steps: int, seed: int) -> str | None:
    session = StreamlitSession(url, timeout=180, seed=seed)
    try:
        session.open(page)
        for _ in range(steps):
            session.move_slider()
        return None
    except Exception as exc:  # noqa: BLE001 - counted and shown
        return f"{page}: {exc}"
    finally:
        session.close()


def _progress(row: tuple[str, int]) -> None:
    print(f"# {time.strftime('%H:%M:%S')} {row[0]}: RSS {row[1] / 2**20:.0f} MB", file=sys.stderr, flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sessions", type=int, default=50)
    parser.add_argument("--batches", type=int, default=2)
    parser.add_argument("--concurrency", type=int, default=5)
    parser.add_argument("--steps", type=int, default=3, help="slider moves per session (3)")
    parser.add_argument("--ttl", type=int, default=120, help="server.disconnectedSessionTTL, s (Streamlit's 120)")
    args = parser.parse_args(argv)

    import subprocess

    log = Path(tempfile.mkdtemp(prefix="embedviz-mem-")) / "server.log"
    port = free_port()
    cmd = streamlit_command(port) + ["--server.disconnectedSessionTTL", str(args.ttl)]
    server = subprocess.Popen(cmd, cwd=ROOT, stdout=open(log, "ab"), stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    rows = []
    errors: list[str] = []
    try:
        wait_healthy(f"{url}/_stcore/health", timeout=180, proc=server, log_path=log)
        for page in SLIDER_PAGES:  # warm: every page's defaults computed once, as after a teacher's tour
            errors += [e for e in [student(url, page, 1, 0)] if e]
        start = rss_bytes(server.pid)
        rows.append(("after warm-up (start)", start))
        _progress(rows[-1])
        for batch in range(1, args.batches + 1):
            with ThreadPoolExecutor(args.concurrency) as pool:
                jobs = [pool.submit(student, url, SLIDER_PAGES[i % len(SLIDER_PAGES)], args.steps, batch * 1000 + i)
                        for i in range(args.sessions)]
                errors += [e for e in (j.result() for j in jobs) if e]
            rows.append((f"batch {batch}: {args.sessions} sessions closed", rss_bytes(server.pid)))
            _progress(rows[-1])
            time.sleep(args.ttl + 15)  # past the TTL, and a few of the runtime's cleanup rounds
            rows.append((f"batch {batch}: {args.ttl + 15} s later (sessions past their TTL)", rss_bytes(server.pid)))
            _progress(rows[-1])
    finally:
        stop_process(server)

    print(f"\n{args.batches} x {args.sessions} sessions ({args.concurrency} at a time, {args.steps} slider moves each), "
          f"server.disconnectedSessionTTL {args.ttl} s\n")
    print("| when | server RSS (MB) | vs start (MB) |")
    print("|---|---:|---:|")
    for label, rss in rows:
        print(f"| {label} | {rss / 2**20:.0f} | {(rss - start) / 2**20:+.0f} |")
    worst = max(rss - start for _, rss in rows[1:]) / 2**20 if len(rows) > 1 else float("nan")
    print(f"\nworst growth {worst:+.0f} MB (goal: within {GOAL_MB} MB); errors: {len(errors)}")
    for e in errors[:5]:
        print(f"- {e}")
    return 0 if worst <= GOAL_MB and not errors else 1


if __name__ == "__main__":
    sys.exit(main())
