"""A class following its teacher, measured at the protocol level (no browsers): N students + 1 teacher.

    .venv/bin/python -m benchmarks.load.follow --students 30 100 --replicas 1 2

Each student is a Streamlit session (benchmarks/load/stclient.py) that joins with ``?class=CODE`` and then does
what its browser tab does (embedviz/app/browser/classroom_follow.js): it asks the follow route (``GET
/api/class/CODE/step?seen=...`` on its own keep-alive connection, with its route cookie behind nginx) where the
class is, which the route holds until the class moves, and only when the answer is not what its page shows does it
send the follow component's trigger, a rerun of the app, as the browser does. The teacher starts the class from the tour controls, clicks Next a few times;
on each question step every student picks an option (random, remembered; at once, or with ``--think S`` within S
seconds, as a class reading the question would), and the teacher's screen must count them exactly. Measured per
class size and setup (one replica with its in-memory store; two replicas behind nginx sharing a loopback
redis-server):
- follow latency: the teacher's Next sent -> a student's session shows the new step (p50 / p95 over students x steps);
- answers: what the teacher's screen counts against what the students sent (exact, or it is a lost answer);
- server CPU (all replicas, average cores during the class) and peak RSS; script runs and asks per student;
- while the teacher stays (3 s): the asks answered a second (a held ask is answered only when the class moves, or
  after the route's hold), the script runs they cause (none is right) and the servers' CPU.
Everything runs on 127.0.0.1, is bounded in time, and is stopped by pid at the end.
"""
from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import re
import socket
import statistics
import sys
import tempfile
import threading
import time
from collections import Counter
from contextlib import ExitStack
from pathlib import Path
from urllib.parse import parse_qs, quote

ROOT = Path(__file__).resolve().parents[2]

from streamlit.proto.BackMsg_pb2 import BackMsg  # noqa: E402
from streamlit.proto.ClientState_pb2 import ClientState  # noqa: E402
from streamlit.proto.WidgetStates_pb2 import WidgetState  # noqa: E402
from streamlit.components.v2.bidi_component.main import _make_trigger_id  # noqa: E402

from benchmarks.load.stclient import StreamlitSession  # noqa: E402
from deploy.launcher import Cluster, free_port, peak_rss_bytes, start_streamlit, stop_process, wait_healthy  # noqa: E402
from deploy.redis_server import redis_server  # noqa: E402
from embedviz.lessons import tours  # noqa: E402
from embedviz.classroom.store import REDIS_URL_ENV  # noqa: E402
from embedviz.app.i18n import catalog  # noqa: E402
from embedviz.lessons.widget_keys import Classroom, Tour  # noqa: E402

LESSON, STEPS = "000", (2, 3, 4)  # Next from step 1 to 4: two questions, then a step on another page
ROUTE_COOKIE = "embedviz_route"
FOLLOW_COMPONENT = "embedviz.classroom_follow"
RETRY_SECONDS = 3.0  # classroom_follow.js: a trigger is not sent again for the same position within this


def en(key: str, **fields) -> str:
    text = catalog()[key]["en"]
    return text.format(**fields) if fields else text


PANEL_TEXTS = {en(f"tour.{LESSON}.{tours.step(LESSON, k).name}"): k for k in STEPS}  # the panel's text -> step


class ClassSession(StreamlitSession):
    """A tab that also knows its buttons, radios, markdown texts and auto-rerun fragments."""

    def __init__(self, base_url: str, *, route: str = "", **kw):
        super().__init__(base_url, **kw)
        self.base_url, self.route = base_url, route
        self.widgets: dict[str, str] = {}  # widget id -> kind
        self.in_fragment: dict[str, str] = {}  # widget id -> the fragment it was drawn in (its change reruns that)
        self.fragments: dict[str, float] = {}
        self.texts: list[str] = []
        self.follow: dict | None = None  # the follow component's id and data, as the last run sent them
        self.http: http.client.HTTPConnection | None = None
        self.runs = self.polls = 0
        self.panel_at: dict[int, float] = {}  # step -> when the tour panel's text of that step first arrived

    def connect(self) -> None:
        import websocket

        header = [f"Cookie: {ROUTE_COOKIE}={self.route}"] if self.route else None
        self.ws = websocket.create_connection(self.ws_url, subprotocols=["streamlit"], timeout=self.timeout,
                                              header=header)

    def on_message(self, msg, kind: str) -> None:
        if kind == "auto_rerun":
            self.fragments[msg.auto_rerun.fragment_id] = msg.auto_rerun.interval
        elif kind == "stop_auto_rerun":
            for fid in msg.stop_auto_rerun.fragment_ids:
                self.fragments.pop(fid, None)
        elif kind == "new_session" and not msg.metadata.run.fragment_ids:  # a fragment's run redraws only itself
            self.texts = []
            self.follow = None
        elif kind == "script_finished":
            self.runs += 1  # a full run or a fragment's: what the server's GIL paid for this tab
        elif kind == "delta" and msg.delta.WhichOneof("type") == "new_element":
            element = msg.delta.new_element
            which = element.WhichOneof("type")
            if which in ("button", "radio"):
                self.widgets[getattr(element, which).id] = which
                self.in_fragment[getattr(element, which).id] = msg.delta.fragment_id
            elif which == "markdown":
                self.texts.append(element.markdown.body)
                k = PANEL_TEXTS.get(element.markdown.body)
                if k is not None:
                    # the browser draws each element as it arrives: the panel has moved here, before the page
                    # under it has been drawn and the run has finished
                    self.panel_at.setdefault(k, time.perf_counter())
            elif which == "bidi_component" and element.bidi_component.component_name == FOLLOW_COMPONENT:
                self.follow = {"id": element.bidi_component.id, **json.loads(element.bidi_component.json)}

    def widget(self, key: str) -> str:
        return next(w for w in self.widgets if w.endswith(key))

    def send_widget(self, state: WidgetState):
        self.send_rerun([state], fragment_id=self.in_fragment.get(state.id, ""))
        return self.read_until_finished()

    def click(self, key: str):
        return self.send_widget(WidgetState(id=self.widget(key), trigger_value=True))

    def choose(self, key_prefix: str, label: str):
        """Pick a radio's option; the browser sends the option's shown text."""
        rid = next(w for w, kind in self.widgets.items() if kind == "radio" and key_prefix in w)
        return self.send_widget(WidgetState(id=rid, string_value=label))

    def poll(self) -> None:
        """What the browser's timer does: rerun each auto-rerun fragment."""
        for fid in list(self.fragments):
            state = ClientState(query_string=self.query_string, page_script_hash=self.page_script_hash,
                                fragment_id=fid, is_auto_rerun=True)
            self.ws.send_binary(BackMsg(rerun_script=state).SerializeToString())
            self.read_until_finished()

    def step(self) -> int:
        return int(parse_qs(self.query_string).get("step", ["0"])[0])

    def ask(self, seen: str | None = None) -> str:
        """What classroom_follow.js does: GET the follow route, naming what the page shows (``seen``: the route holds
        the answer while the class is there); the position it names ("gone:404" etc. when there is none)."""
        try:
            return self._ask(seen)
        except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
            # the server closed the kept-alive connection while it sat idle past uvicorn's keep-alive timeout (5 s:
            # a tab waiting that long for its rerun on a loaded machine); a browser's fetch opens a new one
            return self._ask(seen)

    def _ask(self, seen: str | None) -> str:
        if self.http is None:
            host, port = self.base_url.split("//", 1)[1].rsplit(":", 1)
            self.http = http.client.HTTPConnection(host, int(port), timeout=self.timeout)
            self.http.connect()
            # as Chromium's sockets: without it each answer on a kept-alive connection waited ~40 ms (Nagle's
            # algorithm against the delayed ACK), a latency no browser sees
            self.http.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        headers = {"Cookie": f"{ROUTE_COOKIE}={self.route}"} if self.route else {}
        try:
            query = f"?seen={quote(seen)}" if seen is not None else ""
            self.http.request("GET", self.follow["route"] + query, headers=headers)
            answer = self.http.getresponse()
            body = answer.read()
        except (OSError, http.client.HTTPException):
            self.http.close()
            self.http = None
            raise
        self.polls += 1
        if answer.status != 200:
            return f"gone:{answer.status}"
        p = json.loads(body)
        return f"{p['lesson']}|{p['step']}|{str(p['revealed']).lower()}"

    def shown(self) -> str:
        p = self.follow["seen"]
        return f"{p['lesson']}|{p['step']}|{str(p['revealed']).lower()}"

    def trigger_moved(self, there: str):
        """The component's setTriggerValue("moved", there): the browser's rerun with the trigger's widget state."""
        state = WidgetState(id=_make_trigger_id(self.follow["id"], "events"),
                            json_trigger_value=json.dumps([{"event": "moved", "value": there}]))
        return self.send_widget(state)

    def hang_up(self) -> None:
        """End a held ask from another thread (the class is over): its read fails at once."""
        sock = self.http.sock if self.http is not None else None
        if sock is not None:
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def close(self) -> None:
        if self.http is not None:
            self.http.close()
        super().close()


class Student(threading.Thread):
    def __init__(self, url: str, code: str, route: str, seed: int, stop: threading.Event, think: float = 0.0):
        super().__init__(daemon=True)
        self.think = think  # a student answers a question this many seconds (at most, uniform) after it appears
        self.session = ClassSession(url, route=route, seed=seed, timeout=60)
        self.code, self.rng, self.stop = code, random.Random(seed), stop
        self.seen: dict[int, float] = {}
        self.detected: dict[int, float] = {}  # step -> when a poll first said the class is there
        self.answer_at = 0.0
        self.picks: dict[int, str] = {}
        self.errors: list[str] = []
        self.joined = threading.Event()

    def run(self) -> None:
        s = self.session
        sent, sent_at = None, 0.0
        try:
            s.open("", f"class={self.code}")
            self.joined.set()
            while not self.stop.is_set():
                began = time.perf_counter()
                k = s.step()
                if k not in self.seen:
                    self.seen[k] = time.perf_counter()
                    self.answer_at = self.seen[k] + (self.rng.uniform(0, self.think) if self.think else 0.0)
                question = tours.step(LESSON, k).question if k else None
                if question and k not in self.picks and time.perf_counter() >= self.answer_at:
                    option = self.rng.randrange(len(question.options))
                    s.choose(Tour.QUESTION(f"{LESSON}_{k}_"), en(f"tour.q.{question.id}.{question.options[option]}"))
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


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def settle(urls: list[str], pids: list[int], *, quiet_cores: float = 0.05, timeout: float = 180.0) -> float:
    """Open a page on every replica (a served process starts its warm-up training on its first session,
    embedviz/app/warm.py) and wait until their CPU is quiet, so a class measures a server that serves only it, as
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


def run_class(url: str, students: int, pids: list[int], routes: list[str], think: float = 0.0) -> dict:
    teacher = ClassSession(url, route=routes[0], timeout=60)
    teacher.open("", f"tour={LESSON}&step=1")
    teacher.click(Classroom.START)
    code = parse_qs(teacher.query_string)["class"][0]
    stop = threading.Event()
    crowd = [Student(url, code, routes[i % len(routes)], i, stop, think) for i in range(students)]
    cpu0, t0 = sum(cpu_seconds(p) for p in pids), time.perf_counter()
    for i, s in enumerate(crowd):
        s.start()
        if i % 10 == 9:
            time.sleep(0.5)  # the class arrives over a few seconds
    for s in crowd:
        s.joined.wait(120)
    time.sleep(1)
    quiet = [(s.session.runs, s.session.polls) for s in crowd]  # the teacher stays: what do the tabs cost?
    quiet_cpu, quiet_t = sum(cpu_seconds(p) for p in pids), time.perf_counter()
    time.sleep(3)
    quiet_seconds = time.perf_counter() - quiet_t
    quiet_cpu = (sum(cpu_seconds(p) for p in pids) - quiet_cpu) / quiet_seconds
    quiet_runs = sum(s.session.runs - r for s, (r, _) in zip(crowd, quiet))
    quiet_polls = sum(s.session.polls - n for s, (_, n) in zip(crowd, quiet))
    latencies, counted, per_step, detect, rerun, phases, panel = [], [], {}, [], [], [], []
    for k in STEPS:
        cpu_a, client_a = sum(cpu_seconds(p) for p in pids), time.process_time()
        sent = time.perf_counter()  # before the click: a student may see the step before the teacher's own run ends
        teacher.click(Tour.NEXT)
        deadline = sent + 20
        while time.perf_counter() < deadline and not all(k in s.seen or s.errors for s in crowd):
            time.sleep(0.05)
        # where the time went: the servers' and this load generator's CPU while the class followed
        phases.append({"step": k, "wall": time.perf_counter() - sent,
                       "server_cpu": sum(cpu_seconds(p) for p in pids) - cpu_a,
                       "client_cpu": time.process_time() - client_a})
        panel += [s.session.panel_at[k] - sent for s in crowd if s.session.panel_at.get(k, 0) >= sent]
        detect += [s.detected[k] - sent for s in crowd if k in s.detected]  # click -> a poll saw it
        rerun += [s.seen[k] - s.detected[k] for s in crowd if k in s.seen and k in s.detected]  # -> run done
        step_lat = sorted(s.seen[k] - sent for s in crowd if k in s.seen and s.seen[k] >= sent)
        per_step[k] = round(step_lat[int(0.95 * (len(step_lat) - 1))], 2) if step_lat else None
        latencies += step_lat
        question = tours.step(LESSON, k).question
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
    pick = lambda q, xs=latencies: xs[min(len(xs) - 1, int(q * len(xs)))] if xs else float("nan")  # noqa: E731
    return {"students": students, "samples": len(latencies), "expected": students * len(STEPS),
            "p50": pick(0.5), "p95": pick(0.95), "max": latencies[-1] if latencies else float("nan"),
            "panel_samples": len(panel), "panel_p50": pick(0.5, panel), "panel_p95": pick(0.95, panel),
            "panel_max": panel[-1] if panel else float("nan"), "p95_per_step": per_step, "phases": phases,
            "detect_p50_p95": (statistics.median(detect), sorted(detect)[int(0.95 * (len(detect) - 1))]) if detect else None,
            "rerun_p50_p95": (statistics.median(rerun), sorted(rerun)[int(0.95 * (len(rerun) - 1))]) if rerun else None, "answers_ok": all(ok for _, ok, _ in counted), "answers": [n for n, _, _ in counted],
            "shown": [shown for *_, shown in counted if shown],
            "errors": sum(len(s.errors) for s in crowd), "first_error": next((s.errors[0] for s in crowd if s.errors), ""),
            "cpu_cores": cpu / elapsed, "rss_mb": max(peak_rss_bytes(p) for p in pids) / 2**20,
            "quiet_runs": quiet_runs,
            "quiet_polls_per_s": quiet_polls / quiet_seconds, "quiet_cpu_cores": quiet_cpu,
            "runs_per_student": sum(s.session.runs for s in crowd) / students,
            "polls_per_student": sum(s.session.polls for s in crowd) / students}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--students", type=int, nargs="+", default=[30, 100])
    parser.add_argument("--replicas", type=int, nargs="+", default=[1, 2], choices=[1, 2])
    parser.add_argument("--think", type=float, default=0.0,
                        help="students answer a question within this many seconds of seeing it (uniform); 0: at "
                             "once, the worst case, where a hundred answers' reruns queue with the others' follows")
    args = parser.parse_args(argv)
    if max(args.students) > 300:
        parser.error("at most 300 students (a class's limit)")
    rows, load_before, started = [], os.getloadavg(), time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    for replicas in args.replicas:
        with ExitStack() as stack:
            if replicas == 1:
                os.environ.pop(REDIS_URL_ENV, None)
                port, log = free_port(), Path(tempfile.mkdtemp(prefix="follow-")) / "server.log"
                proc = start_streamlit(port, log_path=log)
                stack.callback(stop_process, proc)
                url = f"http://127.0.0.1:{port}"
                wait_healthy(f"{url}/_stcore/health", timeout=120, proc=proc, log_path=log)
                pids, routes, replica_urls = [proc.pid], [""], [url]
            else:
                os.environ[REDIS_URL_ENV] = stack.enter_context(redis_server())
                cluster = stack.enter_context(Cluster(replicas=2))
                url, pids = cluster.url, [n.proc.pid for n in cluster.nodes]
                routes = [f"student-{i}" for i in range(64)]  # nginx hashes them over both replicas
                replica_urls = [f"http://{n.address}" for n in cluster.nodes]
            print(f"server pids: {' '.join(map(str, pids))}", flush=True)  # for a profiler to attach to
            for n in args.students:
                waited = settle(replica_urls, pids)
                load_at_start = os.getloadavg()[0]
                print(f"settled after {waited:.1f} s; a class of {n} starts", flush=True)  # a profiler's cue
                row = run_class(url, n, pids, routes, args.think)
                row["replicas"], row["settled_s"], row["load_at_start"] = replicas, round(waited, 1), load_at_start
                rows.append(row)
                print(row, flush=True)
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
    return 0


if __name__ == "__main__":
    sys.exit(main())
