"""What one hostile client costs a server's live figures and class mode, measured at the protocol level:

    .venv/bin/python -m benchmarks.load.class_hostile [--root CHECKOUT] [--only live,start,seats,store,guess]

Against one server (serve.py from ``--root``, default this checkout, so a checkout of an older commit gives the
"before") with a loopback redis-server as its class store. Each client plays an address (X-Forwarded-For, which
uvicorn takes from loopback as it does from nginx). Printed per probe, with the load average:

- live: server CPU seconds for one rerun whose live-figure trigger list holds N "commit" events (N = 1,000, 3,000,
  10,000), and a bystander's rerun meanwhile;
- start: the classes one session makes in a Start/Leave loop (at most 250 presses), how many stay open, and whether
  a teacher at another address can then start one;
- seats: the seats a class holds after 300 sessions opened its link and closed;
- store: server CPU and status of one follow-route read and one page open of a class whose hash holds 400,000
  fields (8 MB) in Redis;
- guess: how long a new class's first follower waits for its first 200 (asking as classroom_follow.js does, backing
  off from 0.5 s to 8 s on a 429) while a guesser asks 65 codes a second.
Everything runs on 127.0.0.1, is bounded in time, and is stopped by pid at the end.
"""
from __future__ import annotations

import argparse
import json
import os
import threading
import time
from pathlib import Path
from urllib.parse import parse_qs

import requests
import websocket
from streamlit.components.v2.bidi_component.main import _make_trigger_id
from streamlit.proto.WidgetStates_pb2 import WidgetState

from benchmarks.load.class_tab import ClassSession
from benchmarks.load.follow import cpu_seconds
from deploy.launcher import free_port, start_streamlit, stop_process, wait_healthy
from deploy.redis_server import redis_server
from embedviz.classroom.checks import CODE_ALPHABET
from embedviz.classroom.state import PREFIX
from embedviz.classroom.store import REDIS_URL_ENV
from embedviz.lessons.widget_keys import Classroom

ROOT = Path(__file__).resolve().parents[2]
ROUTE = "/api/class/{code}/step"


class Tab(ClassSession):
    def __init__(self, url: str, address: str, **kw):
        super().__init__(url, timeout=900, **kw)
        self.address, self.live = address, {}

    def connect(self) -> None:
        self.ws = websocket.create_connection(self.ws_url, subprotocols=["streamlit"], timeout=self.timeout,
                                              header=[f"X-Forwarded-For: {self.address}"])

    def on_message(self, msg, kind: str) -> None:
        super().on_message(msg, kind)
        if kind == "delta" and msg.delta.WhichOneof("type") == "new_element":
            element = msg.delta.new_element
            if element.WhichOneof("type") == "bidi_component" and \
                    element.bidi_component.component_name == "embedviz.live_figure":
                self.live.setdefault(element.bidi_component.id, json.loads(element.bidi_component.json))


def load() -> str:
    return os.getloadavg().__repr__()


def probe_live(url: str, pid: int, redis) -> list[str]:
    hostile, bystander = Tab(url, "10.20.0.1"), Tab(url, "10.20.0.2")
    hostile.open("sinusoidal")
    bystander.open("sinusoidal")
    cid, data = next(iter(hostile.live.items()))
    key = data["sliders"][0]["key"]
    rows = []
    for n in (1_000, 3_000, 10_000):
        payload = json.dumps([{"event": "commit", "value": {key: 2 + n % 3}}] * n)
        cpu, began = cpu_seconds(pid), time.perf_counter()
        hostile.send_rerun([WidgetState(id=_make_trigger_id(cid, "events"), json_trigger_value=payload)])
        witness = bystander.move_slider().seconds
        hostile.read_until_finished()
        rows.append(f"live: {n:,} events ({len(payload) / 1e3:.0f} KB): server CPU {cpu_seconds(pid) - cpu:.2f} s, "
                    f"wall {time.perf_counter() - began:.2f} s, bystander's rerun {witness:.2f} s, load {load()}")
    hostile.close(), bystander.close()
    return rows


def probe_start(url: str, pid: int, redis) -> list[str]:
    flood = Tab(url, "10.21.0.1")
    flood.open("", "tour=000&step=1")
    made, presses, cpu, began = set(), 0, cpu_seconds(pid), time.perf_counter()
    while presses < 250:
        presses += 1
        flood.click(Classroom.START)
        code = parse_qs(flood.query_string).get("class", [None])[0]
        if not code or code in made:
            break
        made.add(code)
        flood.click(Classroom.LEAVE)
    spent, wall = cpu_seconds(pid) - cpu, time.perf_counter() - began
    still = sum(bool(redis.exists(PREFIX + code)) for code in made)
    flood.close()
    teacher = Tab(url, "10.21.0.2")
    teacher.open("", "tour=000&step=1")
    teacher.click(Classroom.START)
    started = bool(parse_qs(teacher.query_string).get("class"))
    teacher.close()
    return [f"start: one session made {len(made)} classes in {presses} Start presses ({wall:.1f} s, server CPU "
            f"{spent:.1f} s), {still} still open; a teacher elsewhere then started one: {started}, load {load()}"]


def probe_seats(url: str, pid: int, redis) -> list[str]:
    teacher = Tab(url, "10.22.0.1")
    teacher.open("", "tour=000&step=1")
    teacher.click(Classroom.START)
    code = parse_qs(teacher.query_string)["class"][0]
    began = time.perf_counter()
    for k in range(300):
        s = Tab(url, f"10.22.{1 + k // 200}.{2 + k % 200}")
        s.open("", f"class={code}")
        s.close()
    time.sleep(2)
    seats = redis.hlen(PREFIX + code + ":members")
    late = Tab(url, "10.22.9.9")
    late.open("", f"class={code}")
    joined = bool(parse_qs(late.query_string).get("class"))
    late.close(), teacher.close()
    return [f"seats: after 300 sessions opened the link and closed ({time.perf_counter() - began:.0f} s): {seats} "
            f"seats held; a new student joins: {joined}, load {load()}"]


def probe_store(url: str, pid: int, redis) -> list[str]:
    code = "BGHASH"
    key = PREFIX + code
    redis.delete(key)
    redis.hset(key, mapping={"lesson": "000", "step": "1", "revealed": "", "token": "0" * 64})
    for i in range(0, 400_000, 20_000):
        redis.hset(key, mapping={f"field-{j:07d}": "0123456789" for j in range(i, i + 20_000)})
    reply = sum(len(k) + len(v) for k, v in redis.hscan_iter(key))
    rows = []
    cpu = cpu_seconds(pid)
    answer = requests.get(url + ROUTE.format(code=code), headers={"X-Forwarded-For": "10.23.0.1"}, timeout=120)
    rows.append(f"store: follow route on a class of 400,004 fields ({reply / 1e6:.1f} MB of text): {answer.status_code}, server CPU "
                f"{cpu_seconds(pid) - cpu:.2f} s, CSP header: {'Content-Security-Policy' in answer.headers}, "
                f"load {load()}")
    cpu = cpu_seconds(pid)
    tab = Tab(url, "10.23.0.2")
    try:
        tab.open("", f"class={code}")
        shown = "no exception"
    except Exception as error:  # noqa: BLE001 - the measurement is what the page did
        shown = f"{type(error).__name__}: {str(error)[:60]}"
    tab.close()
    rows.append(f"store: a page opening that class: {shown}, server CPU {cpu_seconds(pid) - cpu:.2f} s")
    redis.delete(key)
    return rows


def probe_guess(url: str, pid: int, redis) -> list[str]:
    stop = threading.Event()

    def guess(offset: int):
        http, n, at = requests.Session(), offset, time.perf_counter()
        while not stop.is_set():
            n += 4
            code = "".join(CODE_ALPHABET[(n * 7 + i * i) % 32] for i in range(6))
            http.get(url + ROUTE.format(code=code), headers={"X-Forwarded-For": "10.24.0.66"}, timeout=30)
            at += 4 / 65
            stop.wait(max(0.0, at - time.perf_counter()))

    threads = [threading.Thread(target=guess, args=(k,), daemon=True) for k in range(4)]
    for th in threads:
        th.start()
    rows = []
    try:
        time.sleep(3)
        teacher = Tab(url, "10.24.0.1")
        teacher.open("", "tour=000&step=1")
        teacher.click(Classroom.START)
        code = parse_qs(teacher.query_string)["class"][0]
        for address in ("10.24.0.2", "10.24.0.66"):
            student = Tab(url, address)
            student.open("", f"class={code}")
            began, wait, statuses = time.perf_counter(), 0.5, []
            while time.perf_counter() - began < 60:  # classroom_follow.js: a 429 doubles the wait, up to 8 s
                status = requests.get(url + ROUTE.format(code=code), headers={"X-Forwarded-For": address},
                                      timeout=30).status_code
                statuses.append(status)
                if status == 200:
                    break
                time.sleep(wait)
                wait = min(8.0, wait * 2)
            rows.append(f"guess: a new class's first follower at {address} beside a 65/s guesser: "
                        f"{statuses} after {time.perf_counter() - began:.2f} s, load {load()}")
            student.close()
        teacher.close()
    finally:
        stop.set()
        for th in threads:
            th.join(10)
    return rows


PROBES = {"live": probe_live, "start": probe_start, "seats": probe_seats, "store": probe_store, "guess": probe_guess}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", default=str(ROOT), help="the checkout whose serve.py runs (default: this one)")
    parser.add_argument("--only", default=",".join(PROBES), help="comma-separated probes")
    args = parser.parse_args()
    import redis as redis_py

    with redis_server() as redis_url:
        port = free_port()
        log = Path(f"/tmp/class_hostile_{port}.log")
        proc = start_streamlit(port, log_path=log, root=Path(args.root),
                               env={REDIS_URL_ENV: redis_url, "EMBEDVIZ_WARM": "0"})
        try:
            url = f"http://127.0.0.1:{port}"
            wait_healthy(url + "/_stcore/health", timeout=180, proc=proc, log_path=log)
            client = redis_py.Redis.from_url(redis_url, decode_responses=True)
            print(f"server: {args.root} (log {log})")
            for name in args.only.split(","):
                for row in PROBES[name](url, proc.pid, client):
                    print(row, flush=True)
            print(f"tracebacks in the server's log: {log.read_text(errors='replace').count('Traceback')}")
        finally:
            stop_process(proc)


if __name__ == "__main__":
    main()
