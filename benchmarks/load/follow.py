"""A class following its teacher, measured at the protocol level (no browsers): N students + 1 teacher.

    .venv/bin/python -m benchmarks.load.follow --students 30 100 --replicas 1 2
    .venv/bin/python -m benchmarks.load.follow --tour 003 --fresh --runs 3 --students 30 --replicas 1

Each student is a class tab (benchmarks/load/class_tab.py, a Streamlit session of stclient.py) that joins with
``?class=CODE`` and then does what its browser tab does (embedviz/app/browser/classroom_follow.js): it asks the follow
route (``GET /api/class/CODE/step?seen=...`` on its own keep-alive connection, with its route cookie behind nginx)
where the class is, which the route holds until the class moves, and only when the answer is not what its page
shows does it send the follow component's trigger, a rerun of the app, as the browser does. The teacher starts the class from the tour controls, clicks Next a few times;
on each question step every student picks an option (random, remembered; at once, or with ``--think S`` within S
seconds, as a class reading the question would), and the teacher's screen must count them exactly. Measured per
class size and setup (one replica with its in-memory store; two replicas behind nginx sharing a loopback
redis-server):
- follow latency: the teacher's Next sent -> a student's session shows the new step (p50 / p95 over students x steps);
- answers: what the teacher's screen counts against what the students sent (exact, or it is a lost answer);
- server CPU (all replicas, average cores during the class) and peak RSS; script runs and asks per student;
- while the teacher stays (3 s): the asks answered a second (a held ask is answered only when the class moves, or
  after the route's hold), the script runs they cause (none is right) and the servers' CPU.
``--tour LESSON`` walks that lesson's whole tour instead (step 1 to the last: every page switch, every question
answered by every student and then revealed by the teacher): per move (a Next or a Reveal) the follow latency over
students, the servers' CPU it took, and the answers counted. ``--fresh`` starts the class the moment the server's
health answers, as a teacher who opens the app right after a deploy (the warm-up, embedviz/app/warm.py, starts
with the server), instead of after the server's CPU is quiet; ``--runs N``: N classes, each on a new server.
Everything runs on 127.0.0.1, is bounded in time, and is stopped by pid at the end.
"""
from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import threading
import time
from collections import Counter
from contextlib import ExitStack
from pathlib import Path
from urllib.parse import parse_qs

ROOT = Path(__file__).resolve().parents[2]

from benchmarks.load.class_tab import ClassSession, en  # noqa: E402
from deploy.launcher import Cluster, free_port, peak_rss_bytes, start_streamlit, stop_process, wait_healthy  # noqa: E402
from deploy.redis_server import redis_server  # noqa: E402
from embedviz.classroom.store import REDIS_URL_ENV  # noqa: E402
from embedviz.lessons import tours  # noqa: E402
from embedviz.lessons.widget_keys import Classroom, Tour  # noqa: E402

LESSON, STEPS = "000", (2, 3, 4)  # Next from step 1 to 4: two questions, then a step on another page
RETRY_SECONDS = 3.0  # classroom_follow.js: a trigger is not sent again for the same position within this


class Student(threading.Thread):
    def __init__(self, url: str, code: str, route: str, seed: int, stop: threading.Event, think: float = 0.0,
                 lesson: str = LESSON):
        super().__init__(daemon=True)
        self.think = think  # a student answers a question this many seconds (at most, uniform) after it appears
        self.session = ClassSession(url, route=route, seed=seed, timeout=60, lesson=lesson)
        self.code, self.rng, self.stop, self.lesson = code, random.Random(seed), stop, lesson
        self.opened_at = 0.0
        self.seen: dict[int, float] = {}  # step -> when a finished run first showed it
        self.revealed: dict[int, float] = {}  # step -> when a finished run first showed it revealed
        self.detected: dict[int, float] = {}  # step -> when a poll first said the class is there
        self.answer_at = 0.0
        self.picks: dict[int, str] = {}
        self.errors: list[str] = []
        self.joined = threading.Event()

    def run(self) -> None:
        s = self.session
        sent, sent_at = None, 0.0
        try:
            self.opened_at = time.perf_counter()
            s.open("", f"class={self.code}")
            self.joined.set()
            while not self.stop.is_set():
                began = time.perf_counter()
                k = s.step()
                if k not in self.seen:
                    self.seen[k] = time.perf_counter()
                    self.answer_at = self.seen[k] + (self.rng.uniform(0, self.think) if self.think else 0.0)
                if s.follow is not None and s.follow["seen"]["revealed"] and s.follow["seen"]["step"] == k:
                    self.revealed.setdefault(k, began)
                question = tours.step(self.lesson, k).question if k else None
                if question and k not in self.picks and time.perf_counter() >= self.answer_at:
                    option = self.rng.randrange(len(question.options))
                    s.choose(Tour.QUESTION(f"{self.lesson}_{k}_"),
                             en(f"tour.q.{question.id}.{question.options[option]}"))
                    self.picks[k] = question.options[option]
                if question and k not in self.picks:  # still reading the question: answer first, then ask
                    self.stop.wait(max(0.0, self.answer_at - time.perf_counter()))
                    continue
                if s.follow is None:  # no follow route served: the page's fragment polls (a script run each)
                    interval = min(s.fragments.values(), default=1.0)
                    self.stop.wait(max(0.0, interval - (time.perf_counter() - began)))
                    if not self.stop.is_set():
                        s.poll()
                    continue
                asked = time.perf_counter()
                there = s.ask(s.shown())  # held by the route until the class moves
                if self.stop.is_set():
                    break
                lately = sent == there and time.perf_counter() - sent_at < RETRY_SECONDS
                if there != s.shown() and not lately:
                    sent, sent_at = there, time.perf_counter()
                    if there[:1].isdigit():
                        self.detected.setdefault(int(there.split("|")[1]), sent_at)
                    s.trigger_moved(there)
                elif there == s.shown():  # a held answer: ask again at once; one that came at once, a period on
                    self.stop.wait(max(0.0, s.follow["period_ms"] / 1000 - (time.perf_counter() - asked)))
                else:
                    self.stop.wait(s.follow["period_ms"] / 1000)
        except Exception as error:  # noqa: BLE001 - a student's failure is counted, not fatal to the class
            if not self.stop.is_set():  # (the class's end hangs up a held ask)
                self.errors.append(repr(error)[:200])
            self.joined.set()
        finally:
            s.close()


def cpu_seconds(pid: int | str) -> float:
    """A process's CPU seconds so far (or a thread's: ``"PID/task/TID"``)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def settle(urls: list[str], pids: list[int], *, quiet_cores: float = 0.05, timeout: float = 180.0) -> float:
    """Open a page on every replica (a served process warms its caches from its start, embedviz/app/warm.py,
    and a first page loads what it reads) and wait until their CPU is quiet, so a class measures a server that serves only it, as
    one does minutes after its start. The seconds waited."""
    t0 = time.perf_counter()
    for u in urls:
        s = ClassSession(u, timeout=120)
        s.open("")
        s.close()
    deadline, calm = t0 + timeout, 0
    while time.perf_counter() < deadline and calm < 2:  # two quiet seconds in a row
        cpu = sum(cpu_seconds(p) for p in pids)
        time.sleep(1.0)
        calm = calm + 1 if sum(cpu_seconds(p) for p in pids) - cpu < quiet_cores else 0
    return time.perf_counter() - t0


class WarmWatch(threading.Thread):
    """When a server's warm-up thread (embedviz/app/warm.py) ends, read from /proc: Python 3.11 gives its threads no
    OS name, so it is the thread other than the main one that has taken the most CPU, past a second of it (a
    session's script thread takes milliseconds a run and ends with it); it ended when it is gone."""

    def __init__(self, pid: int, t0: float):
        super().__init__(daemon=True)
        self.pid, self.t0, self.stop = pid, t0, threading.Event()
        self.before = {str(pid)}  # the main thread: the warm-up starts with the server, before its health answers
        self.tid, self.cpu, self.ended = None, 0.0, None  # ended: seconds after t0 (the server's start)

    def run(self) -> None:
        while not self.stop.wait(0.25) and self.ended is None:
            tasks = {}
            for tid in set(os.listdir(f"/proc/{self.pid}/task")) - self.before:
                try:
                    tasks[tid] = cpu_seconds(f"{self.pid}/task/{tid}")
                except (OSError, IndexError):
                    pass  # it ended while read
            if self.tid is None:
                tid = max(tasks, key=tasks.get, default=None)
                if tid is not None and tasks[tid] > 1.0:
                    self.tid = tid
            elif self.tid in tasks:
                self.cpu = tasks[self.tid]
            else:
                self.ended = time.perf_counter() - self.t0

    def said(self) -> str:
        if self.ended is not None:
            return f"done {self.ended:.0f} s after start ({self.cpu:.0f} s CPU)"
        return f"still running at the class's end ({self.cpu:.0f} s CPU so far)" if self.tid else "not seen"


def follow_move(teacher: ClassSession, crowd: list[Student], pids: list[int], k: int, move: str) -> dict:
    """The teacher's ``move`` ("next" or "reveal") onto/at step ``k``; wait for every student's run to show it. What
    it took: the latencies over students, the servers' and this load generator's CPU, the students' script runs."""
    arrived = (lambda s: s.seen) if move == "next" else (lambda s: s.revealed)
    cpu_a, client_a = sum(cpu_seconds(p) for p in pids), time.process_time()
    runs_a = sum(s.session.runs for s in crowd)
    sent = time.perf_counter()  # before the click: a student may see the step before the teacher's own run ends
    teacher.click(Tour.NEXT if move == "next" else Classroom.reveal(teacher.lesson, k))
    deadline = sent + 20
    while time.perf_counter() < deadline and not all(k in arrived(s) or s.errors for s in crowd):
        time.sleep(0.05)
    latencies = sorted(arrived(s)[k] - sent for s in crowd if arrived(s).get(k, 0) >= sent)
    return {"step": k, "move": move, "wall": time.perf_counter() - sent, "latencies": latencies,
            "server_cpu": sum(cpu_seconds(p) for p in pids) - cpu_a, "client_cpu": time.process_time() - client_a,
            "runs": sum(s.session.runs for s in crowd) - runs_a, "sent": sent}


def pick(q: float, xs: list[float]) -> float:
    return xs[min(len(xs) - 1, int(q * len(xs)))] if xs else float("nan")


def run_class(url: str, students: int, pids: list[int], routes: list[str], think: float = 0.0, lesson: str = LESSON,
              steps=STEPS, reveal: bool = False) -> dict:
    teacher = ClassSession(url, route=routes[0], timeout=60, lesson=lesson)
    teacher.open("", f"tour={lesson}&step={steps[0] - 1}")
    teacher.click(Classroom.START)
    code = parse_qs(teacher.query_string)["class"][0]
    stop = threading.Event()
    crowd = [Student(url, code, routes[i % len(routes)], i, stop, think, lesson) for i in range(students)]
    cpu0, t0 = sum(cpu_seconds(p) for p in pids), time.perf_counter()
    for i, s in enumerate(crowd):
        s.start()
        if i % 10 == 9:
            time.sleep(0.5)  # the class arrives over a few seconds
    for s in crowd:
        s.joined.wait(120)
    time.sleep(1)
    joins = sorted(s.seen[steps[0] - 1] - s.opened_at for s in crowd if steps[0] - 1 in s.seen)
    quiet = [(s.session.runs, s.session.polls) for s in crowd]  # the teacher stays: what do the tabs cost?
    quiet_cpu, quiet_t = sum(cpu_seconds(p) for p in pids), time.perf_counter()
    time.sleep(3)
    quiet_seconds = time.perf_counter() - quiet_t
    quiet_cpu = (sum(cpu_seconds(p) for p in pids) - quiet_cpu) / quiet_seconds
    quiet_runs = sum(s.session.runs - r for s, (r, _) in zip(crowd, quiet))
    quiet_polls = sum(s.session.polls - n for s, (_, n) in zip(crowd, quiet))
    latencies, counted, per_step, detect, rerun, moves, panel = [], [], {}, [], [], [], []
    for k in steps:
        move = follow_move(teacher, crowd, pids, k, "next")
        moves.append(move)
        sent = move["sent"]
        panel += [s.session.panel_at[k] - sent for s in crowd if s.session.panel_at.get(k, 0) >= sent]
        detect += [s.detected[k] - sent for s in crowd if k in s.detected]  # click -> a poll saw it
        rerun += [s.seen[k] - s.detected[k] for s in crowd if k in s.seen and k in s.detected]  # -> run done
        step_lat = move["latencies"]
        per_step[k] = round(pick(0.95, step_lat), 2) if step_lat else None
        latencies += step_lat
        question = tours.step(lesson, k).question
        if question:
            # until every student's pick is stored (a pick is recorded once its rerun has finished), then count
            deadline = time.perf_counter() + think + 30
            while time.perf_counter() < deadline and not all(k in s.picks or s.errors for s in crowd):
                time.sleep(0.1)
            time.sleep(1)
            teacher.send_rerun()
            teacher.read_until_finished()
            picks = Counter(s.picks.get(k) for s in crowd if k in s.picks)
            expected = en("classroom.spread", spread=" · ".join(f"{en(f'tour.q.{question.id}.{o}')}: {picks.get(o, 0)}"
                                                          for o in question.options))
            counted.append((sum(picks.values()), expected in teacher.texts, next(
                (t for t in teacher.texts if t.startswith(en("classroom.spread", spread=""))), "")))
            move["answers"], move["answers_ok"] = counted[-1][:2]
            if reveal:
                moves.append(follow_move(teacher, crowd, pids, k, "reveal"))
                latencies += moves[-1]["latencies"]
    elapsed = time.perf_counter() - t0
    cpu = sum(cpu_seconds(p) for p in pids) - cpu0
    stop.set()
    for s in crowd:
        s.session.hang_up()
    for s in crowd:
        s.join(30)
    teacher.close()
    latencies.sort()
    panel.sort()
    return {"students": students, "samples": len(latencies),
            "expected": students * (len(steps) + (sum(m["move"] == "reveal" for m in moves))),
            "p50": pick(0.5, latencies), "p95": pick(0.95, latencies),
            "max": latencies[-1] if latencies else float("nan"),
            "join_p50_p95": (pick(0.5, joins), pick(0.95, joins)),
            "panel_samples": len(panel), "panel_p50": pick(0.5, panel), "panel_p95": pick(0.95, panel),
            "panel_max": panel[-1] if panel else float("nan"), "p95_per_step": per_step, "moves": moves,
            "detect_p50_p95": (statistics.median(detect), sorted(detect)[int(0.95 * (len(detect) - 1))]) if detect else None,
            "rerun_p50_p95": (statistics.median(rerun), sorted(rerun)[int(0.95 * (len(rerun) - 1))]) if rerun else None, "answers_ok": all(ok for _, ok, _ in counted), "answers": [n for n, _, _ in counted],
            "shown": [shown for *_, shown in counted if shown],
            "errors": sum(len(s.errors) for s in crowd), "first_error": next((s.errors[0] for s in crowd if s.errors), ""),
            "cpu_cores": cpu / elapsed, "rss_mb": max(peak_rss_bytes(p) for p in pids) / 2**20,
            "quiet_runs": quiet_runs,
            "quiet_polls_per_s": quiet_polls / quiet_seconds, "quiet_cpu_cores": quiet_cpu,
            "runs_per_student": sum(s.session.runs for s in crowd) / students,
            "polls_per_student": sum(s.session.polls for s in crowd) / students}


def serve(stack: ExitStack, replicas: int) -> tuple[str, list[int], list[str], list[str], float, float]:
    """One server (its in-memory store) or two behind nginx with a loopback Redis, stopped by ``stack``: the URL, the
    replicas' pids, the students' route cookies, the replicas' own URLs, when it was started and how long its
    health took to answer."""
    started = time.perf_counter()
    if replicas == 1:
        os.environ.pop(REDIS_URL_ENV, None)
        port, log = free_port(), Path(tempfile.mkdtemp(prefix="follow-")) / "server.log"
        proc = start_streamlit(port, log_path=log)
        stack.callback(stop_process, proc)
        url = f"http://127.0.0.1:{port}"
        wait_healthy(f"{url}/_stcore/health", timeout=120, proc=proc, log_path=log)
        return url, [proc.pid], [""], [url], started, time.perf_counter() - started
    os.environ[REDIS_URL_ENV] = stack.enter_context(redis_server())
    started = time.perf_counter()
    cluster = stack.enter_context(Cluster(replicas=2))
    routes = [f"student-{i}" for i in range(64)]  # nginx hashes them over both replicas
    return (cluster.url, [n.proc.pid for n in cluster.nodes], routes, [f"http://{n.address}" for n in cluster.nodes],
            started, time.perf_counter() - started)


def loadavg() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--students", type=int, nargs="+", default=[30, 100])
    parser.add_argument("--replicas", type=int, nargs="+", default=[1, 2], choices=[1, 2])
    parser.add_argument("--think", type=float, default=0.0,
                        help="students answer a question within this many seconds of seeing it (uniform); 0: at "
                             "once, the worst case, where a hundred answers' reruns queue with the others' follows")
    parser.add_argument("--tour", choices=sorted(tours.TOURS),
                        help="walk this lesson's whole tour, a Reveal after each question, instead of 000's steps 1-4")
    parser.add_argument("--fresh", action="store_true",
                        help="each class on a new server, starting the moment its health answers (not once quiet)")
    parser.add_argument("--runs", type=int, default=1, help="this many classes of each size and setup")
    args = parser.parse_args(argv)
    if max(args.students) > 300:
        parser.error("at most 300 students (a class's limit)")
    lesson = args.tour or LESSON
    steps = tuple(range(2, len(tours.TOURS[lesson].steps) + 1)) if args.tour else STEPS
    rows, load_before, started = [], os.getloadavg(), time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    classes = [(r, n) for r in args.replicas for _ in range(args.runs) for n in args.students]
    with ExitStack() as stack:
        served = None
        for i, (replicas, n) in enumerate(classes):
            if served is None or args.fresh or replicas != classes[i - 1][0]:
                stack.close()  # the last setup's servers
                served = serve(stack, replicas)
                print(f"server pids: {' '.join(map(str, served[1]))}", flush=True)  # for a profiler to attach to
            url, pids, routes, replica_urls, server_started, health_s = served
            warm = [WarmWatch(p, server_started) for p in pids] if args.fresh else []
            for w in warm:
                w.start()
            waited = 0.0 if args.fresh else settle(replica_urls, pids)
            row = {"replicas": replicas, "settled_s": round(waited, 1), "load_at_start": os.getloadavg()[0],
                   "loadavg_start": loadavg(), "class_after_start_s": time.perf_counter() - server_started,
                   "health_s": health_s}
            print(f"{'fresh' if args.fresh else f'settled after {waited:.1f} s'}; a class of {n} starts "
                  f"{row['class_after_start_s']:.1f} s after the server's start", flush=True)  # a profiler's cue
            row |= run_class(url, n, pids, routes, args.think, lesson, steps, reveal=bool(args.tour))
            row["loadavg_end"] = loadavg()
            row["first_move_after_start_s"] = row["moves"][0]["sent"] - server_started
            for w in warm:
                w.stop.set()
            row["warm"] = "; ".join(w.said() for w in warm) or f"quiet before the class ({waited:.0f} s)"
            rows.append(row)
            print({k: v for k, v in row.items() if k != "moves"}, flush=True)
            if args.fresh:
                stack.close()
        os.environ.pop(REDIS_URL_ENV, None)
    load = os.getloadavg()
    print(f"\n{started}; load average (1 min) before {load_before[0]:.1f}, after {load[0]:.1f}; at each class's start: "
          + ", ".join(f"{r['load_at_start']:.1f}" for r in rows))
    print("| replicas | store | students | panel moved p50 / p95 | run done p50 / p95 | max | answers counted | errors |"
          " server CPU | RSS peak | idle class: asks answered/s, script runs, CPU |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['replicas']} | {'Redis' if r['replicas'] > 1 else 'memory'} | {r['students']} | "
              f"{r['panel_p50']:.2f} / {r['panel_p95']:.2f} s | {r['p50']:.2f} / {r['p95']:.2f} s | {r['max']:.2f} s | "
              f"{'exact' if r['answers_ok'] else 'WRONG'} "
              f"({' + '.join(map(str, r['answers']))}) | {r['errors']} | {r['cpu_cores']:.2f} cores | "
              f"{r['rss_mb']:.0f} MB | {r['quiet_polls_per_s']:.0f}, {r['quiet_runs']}, {r['quiet_cpu_cores']:.2f} cores |")
    if args.tour:
        print_tour(lesson, rows)
    return 0


def print_tour(lesson: str, rows: list[dict]) -> None:
    """Per move, each class's follow latency p50 / p95 over students (and the servers' CPU seconds it took); then
    each class's whole tour."""
    classes = " | ".join(f"class {i}: p50 / p95, server CPU / students' runs" for i in range(1, len(rows) + 1))
    print(f"\n| step | page | move | {classes}"
          + " |\n|---|---|---|" + "---|" * len(rows))
    joins = [r["join_p50_p95"] for r in rows]
    print("| 1 | " + tours.step(lesson, 1).page + " | join (open -> step 1 shown) | "
          + " | ".join(f"{a:.2f} / {b:.2f} s" for a, b in joins) + " |")
    for j, m in enumerate(rows[0]["moves"]):
        k, page = m["step"], tours.step(lesson, m["step"]).page
        what = ("Reveal" if m["move"] == "reveal" else
                "Next" + (" (page switch)" if page != tours.step(lesson, k - 1).page else "")
                + (", question" if tours.step(lesson, k).question else ""))
        cells = []
        for r in rows:
            x = r["moves"][j]
            answers = f", {x['answers']} answers {'exact' if x['answers_ok'] else 'WRONG'}" if "answers" in x else ""
            cells.append(f"{pick(0.5, x['latencies']):.2f} / {pick(0.95, x['latencies']):.2f} s, "
                         f"{x['server_cpu']:.1f} s / {x['runs']} runs{answers}")
        print(f"| {k} | {page} | {what} | " + " | ".join(cells) + " |")
    print("\n| class | replicas | health after start | class, first Next after start | warm-up | samples |"
          " p50 / p95 / max | moves with p95 > 1.5 s | errors | server CPU | RSS peak | load at start -> end |\n"
          "|---|---|---|---|---|---|---|---|---|---|---|---|")
    for i, r in enumerate(rows, 1):
        slow = [f"{m['step']}{'R' if m['move'] == 'reveal' else ''}" for m in r["moves"]
                if pick(0.95, m["latencies"]) > 1.5]
        print(f"| {i} | {r['replicas']} | {r['health_s']:.1f} s | {r['class_after_start_s']:.1f} s, "
              f"{r['first_move_after_start_s']:.1f} s | {r['warm']} | "
              f"{r['samples']} of {r['expected']} | {r['p50']:.2f} / {r['p95']:.2f} / {r['max']:.2f} s | "
              f"{', '.join(slow) or 'none'} | {r['errors']} | {r['cpu_cores']:.2f} cores | {r['rss_mb']:.0f} MB | "
              f"{r['loadavg_start']} -> {r['loadavg_end']} |")


if __name__ == "__main__":
    sys.exit(main())
