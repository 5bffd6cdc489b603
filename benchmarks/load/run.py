"""How many students one server serves: Locust students (protocol level, no browsers) against 1 and 2 replicas.

    .venv/bin/python -m benchmarks.load.run                                   # the README's table, ~10 minutes
    .venv/bin/python -m benchmarks.load.run --students 10 30 --replicas 1 --duration 30

For each replica count it starts the servers itself (1: one `streamlit run`; more: deploy/launcher.py's nginx
recipe), on 127.0.0.1 only, opens every slider page once (a teacher's warm-up), then for each class size runs
Locust headless for --duration seconds: the students arrive over the first 10 s, each opens a page and then moves
a slider every 3-8 s (see locustfile.py). It prints, as Markdown, the step latency (slider move sent -> script
finished) p50/p95/p99, the page-open p95, errors, each replica's peak RSS, the servers' CPU seconds per finished
run (opens and steps; a cost that does not depend on what else loads the machine) and its load average, and the
knee: the smallest class whose step p95 passes 1 s. Everything it starts it stops; it ends by itself.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]

from deploy.launcher import Cluster, free_port, rss_bytes, start_streamlit, stop_process, wait_healthy  # noqa: E402
from benchmarks.load.locustfile import SLIDER_PAGES  # noqa: E402
from benchmarks.load.stclient import StreamlitSession  # noqa: E402

KNEE_SECONDS = 1.0


def percentile(values: list[float], q: float) -> float:
    """Nearest-rank percentile (q in 0..100) of a non-empty list."""
    ordered = sorted(values)
    rank = max(1, min(len(ordered), round(q / 100 * len(ordered) + 0.5)))
    return ordered[rank - 1]


class Servers:
    """One replica, or N behind nginx; ``url`` to reach them, ``pids`` to measure them."""

    def __init__(self, replicas: int, log_dir: Path):
        self.replicas, self.log_dir = replicas, log_dir
        self.proc: subprocess.Popen | None = None
        self.cluster: Cluster | None = None

    def __enter__(self) -> Servers:
        if self.replicas == 1:
            port = free_port()
            log = self.log_dir / "replica.log"
            self.proc = start_streamlit(port, log_path=log)
            self.url = f"http://127.0.0.1:{port}"
            try:
                wait_healthy(f"{self.url}/_stcore/health", timeout=120, proc=self.proc, log_path=log)
            except BaseException:
                stop_process(self.proc)
                raise
        else:
            self.cluster = Cluster(replicas=self.replicas, prefix=self.log_dir / "cluster").start()
            self.url = self.cluster.url
        return self

    @property
    def pids(self) -> list[int]:
        return [self.proc.pid] if self.proc else [n.proc.pid for n in self.cluster.nodes]

    def __exit__(self, *exc) -> None:
        if self.cluster:
            self.cluster.stop()
        stop_process(self.proc)


def warm_up(url: str, pages: list[str], rounds: int) -> None:
    """Open every page (rounds times: behind nginx each connection may land on another replica)."""
    for _ in range(rounds):
        for page in pages:
            session = StreamlitSession(url, timeout=180)
            try:
                session.open(page)
            finally:
                session.close()


def cpu_seconds(pid: int) -> float:
    """User + system CPU time a process has used so far (from /proc/<pid>/stat; 0 if it is gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return 0.0


class RssSampler(threading.Thread):
    """Peak RSS of each pid, sampled every 0.5 s until stopped."""

    def __init__(self, pids: list[int]):
        super().__init__(daemon=True)
        self.pids = pids
        self.peak = {pid: rss_bytes(pid) for pid in pids}
        self.done = threading.Event()

    def run(self) -> None:
        while not self.done.wait(0.5):
            for pid in self.pids:
                self.peak[pid] = max(self.peak[pid], rss_bytes(pid))


def run_class(url: str, students: int, duration: float, think: tuple[float, float], pages: list[str],
              pids: list[int], out: Path) -> dict:
    samples_path = out / f"samples-{students}.json"
    env = dict(os.environ, EMBEDVIZ_LOAD_SAMPLES=str(samples_path), EMBEDVIZ_LOAD_PAGES=",".join(pages),
               EMBEDVIZ_LOAD_THINK=f"{think[0]},{think[1]}")
    spawn_rate = max(1.0, students / 10)  # the class arrives over ~10 s
    cmd = [sys.executable, "-m", "locust", "-f", str(HERE / "locustfile.py"), "--headless", "--only-summary",
           "-u", str(students), "-r", str(spawn_rate), "-t", f"{int(duration)}s", "--stop-timeout", "70",
           "--host", url, "--loglevel", "WARNING"]
    sampler = RssSampler(pids)
    load_before = os.getloadavg()[0]
    cpu_before = sum(cpu_seconds(pid) for pid in pids)
    sampler.start()
    try:
        subprocess.run(cmd, cwd=ROOT, env=env, stdout=open(out / f"locust-{students}.log", "w"), stderr=subprocess.STDOUT,
                       stdin=subprocess.DEVNULL, timeout=duration + 180, check=False)
    finally:
        sampler.done.set()
        sampler.join()
    cpu = sum(cpu_seconds(pid) for pid in pids) - cpu_before
    samples = json.loads(samples_path.read_text()) if samples_path.exists() else []
    steps = [s["seconds"] for s in samples if s["kind"] == "step" and not s["error"]]
    opens = [s["seconds"] for s in samples if s["kind"] == "open" and not s["error"]]
    trains = [s["seconds"] for s in samples if s["kind"] == "train" and not s["error"]]
    errors = [s for s in samples if s["error"]]
    return {
        "students": students, "steps": len(steps), "opens": len(opens), "errors": len(errors),
        "error_examples": sorted({e["error"][:120] for e in errors})[:3],
        "p50": percentile(steps, 50) if steps else float("nan"),
        "p95": percentile(steps, 95) if steps else float("nan"),
        "p99": percentile(steps, 99) if steps else float("nan"),
        "open_p95": percentile(opens, 95) if opens else float("nan"),
        "trains": len(trains),
        "train_p50": percentile(trains, 50) if trains else float("nan"),
        "train_p95": percentile(trains, 95) if trains else float("nan"),
        "rss_mb": [sampler.peak[pid] / 2**20 for pid in pids],
        # The servers' CPU per finished run (opens and steps): what a step costs whatever else loads the machine.
        "cpu_per_run": cpu / max(1, len(steps) + len(opens) + len(trains)),
        "load": (load_before, os.getloadavg()[0]),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--students", type=int, nargs="+", default=[10, 20, 30, 50])
    parser.add_argument("--replicas", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--duration", type=float, default=50.0, help="seconds of load per class size (default 50)")
    parser.add_argument("--think", type=float, nargs=2, default=(3.0, 8.0), help="think time range, s (3 8)")
    parser.add_argument("--pages", nargs="+", default=SLIDER_PAGES, help="URL paths the students spread over")
    parser.add_argument("--out", type=Path, help="directory for logs and samples (default: a temp dir)")
    args = parser.parse_args(argv)
    if max(args.students) > 200 or args.duration > 600:
        parser.error("bounded on purpose: at most 200 students and 600 s per class size")
    out = args.out or Path(tempfile.mkdtemp(prefix="embedviz-load-"))
    out.mkdir(parents=True, exist_ok=True)

    started = time.monotonic()
    rows = []
    for replicas in args.replicas:
        log_dir = out / f"replicas-{replicas}"
        log_dir.mkdir(exist_ok=True)
        with Servers(replicas, log_dir) as servers:
            warm_up(servers.url, args.pages, rounds=replicas)
            for students in args.students:
                row = run_class(servers.url, students, args.duration, tuple(args.think), args.pages, servers.pids, log_dir)
                row["replicas"] = replicas
                rows.append(row)
                print(f"# {replicas} replica(s), {students} students: p95 {row['p95']:.2f} s, {row['errors']} errors",
                      file=sys.stderr, flush=True)

    print(f"\nLoad test {time.strftime('%Y-%m-%d %H:%M')}, {platform.system()} {platform.machine()}, "
          f"{os.cpu_count()} cores, Python {platform.python_version()}; think time {args.think[0]:g}-{args.think[1]:g} s, "
          f"{args.duration:.0f} s per class size; students spread over: {', '.join(args.pages)}. "
          f"Run time {time.monotonic() - started:.0f} s.\n")
    print("| replicas | students | steps | step p50 (s) | step p95 (s) | step p99 (s) | open p95 (s) | Train presses | Train p50 / p95 (s) | errors | peak RSS per replica (MB) | server CPU per run (s) | load avg (1 min, before/after) |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|---|")
    for r in rows:
        print(f"| {r['replicas']} | {r['students']} | {r['steps']} | {r['p50']:.2f} | {r['p95']:.2f} | {r['p99']:.2f} | "
              f"{r['open_p95']:.2f} | {r['trains']} | {r['train_p50']:.2f} / {r['train_p95']:.2f} | {r['errors']} | {', '.join(f'{m:.0f}' for m in r['rss_mb'])} | {r['cpu_per_run']:.2f} | "
              f"{r['load'][0]:.1f} / {r['load'][1]:.1f} |")
    print()
    for replicas in args.replicas:
        over = [r["students"] for r in rows if r["replicas"] == replicas and not r["p95"] <= KNEE_SECONDS]
        under = [r["students"] for r in rows if r["replicas"] == replicas and r["p95"] <= KNEE_SECONDS]
        knee = f"p95 passes {KNEE_SECONDS:g} s at {min(over)} students" if over else f"p95 <= {KNEE_SECONDS:g} s up to {max(under)} students"
        print(f"- {replicas} replica(s): {knee}")
    for r in rows:
        for example in r["error_examples"]:
            print(f"- error ({r['replicas']} replica(s), {r['students']} students): {example}")
    print(f"\nlogs and raw samples: {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
