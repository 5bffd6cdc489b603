"""One hostile client against a real server on loopback (serve.py with a real redis-server as its class store),
speaking Streamlit's protocol (benchmarks/load's clients), a bystander's session timed beside it:

- a live figure's trigger list of thousands of commits is dropped before any callback runs (it cost seconds of CPU
  and moved the slider); a malformed component state leaves the session working (it broke it until a reload);
- a Start/Leave loop holds one class at a time and stops at the per-address limit, and a teacher at another address
  still starts a class; seats of sessions that opened and closed are given back, a reload keeps its seat, a full
  class is said to the teacher;
- a class store holding what it never writes (a step "²", a token of another shape, a hash of megabytes, a key of
  another type) reads as "not connected": the follow route answers 503 with the security headers, a page says so,
  the server's log has no traceback;
- a guesser at 65 requests a second does not delay a new class's first follower;
- ``?tour=000&step=²`` is refused in words, and Start is off on anything but a tour step.

Addresses: uvicorn takes X-Forwarded-For from loopback (its proxy headers, as behind nginx), so each client here
sends the address it plays. Each test failed on the code before (see the report of the branch that added them).
"""
from __future__ import annotations

import json
import os
import re
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import parse_qs

import pytest

websocket = pytest.importorskip("websocket", reason="pip install -r requirements-test.txt (websocket-client)")
requests = pytest.importorskip("requests")

from streamlit.components.v2.bidi_component.main import _make_trigger_id  # noqa: E402
from streamlit.proto.WidgetStates_pb2 import WidgetState  # noqa: E402

from benchmarks.load.class_tab import ClassSession  # noqa: E402
from benchmarks.load.follow import cpu_seconds  # noqa: E402
from deploy.launcher import free_port, start_streamlit, stop_process, wait_healthy  # noqa: E402
from deploy.redis_server import find_redis, redis_server  # noqa: E402
from embedviz.classroom import limits  # noqa: E402
from embedviz.classroom.checks import CODE_ALPHABET, _digest  # noqa: E402
from embedviz.classroom.state import PREFIX  # noqa: E402
from embedviz.classroom.store import REDIS_URL_ENV, open_store  # noqa: E402
from embedviz.app import classroom_route  # noqa: E402
from embedviz.app.i18n import catalog  # noqa: E402
from embedviz.lessons.widget_keys import Classroom  # noqa: E402

pytestmark = pytest.mark.slow
ROOT = Path(__file__).resolve().parents[1]
LIVE = "embedviz.live_figure"


def en(key: str, **fields) -> str:
    text = catalog()[key]["en"]
    return text.format(**fields) if fields else text


@dataclass
class Server:
    url: str
    pid: int
    log: Path
    redis: object  # a redis-py client of the server's store
    redis_url: str


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    if find_redis() is None:
        pytest.fail("redis-server is not installed (`apt-get install redis-server`; .ci/run installs it)")
    import redis

    log = tmp_path_factory.mktemp("hostile-session") / "server.log"
    with redis_server() as redis_url:
        port = free_port()
        # no warm-up in the CPU counts
        proc = start_streamlit(port, log_path=log, env={REDIS_URL_ENV: redis_url, "EMBEDVIZ_WARM": "0"})
        try:
            url = f"http://127.0.0.1:{port}"
            wait_healthy(url + "/_stcore/health", timeout=180, proc=proc, log_path=log)
            yield Server(url, proc.pid, log, redis.Redis.from_url(redis_url, decode_responses=True), redis_url)
        finally:
            stop_process(proc)


class Tab(ClassSession):
    """A tab at a given address that also records its alerts, its buttons' disabled flags and its live figures."""

    def __init__(self, url: str, address: str = "10.9.9.9", **kw):
        super().__init__(url, timeout=120, **kw)
        self.address, self.alerts, self.disabled, self.live, self.radio = address, [], {}, {}, None

    def connect(self) -> None:
        self.ws = websocket.create_connection(self.ws_url, subprotocols=["streamlit"], timeout=self.timeout,
                                              header=[f"X-Forwarded-For: {self.address}"])

    def on_message(self, msg, kind: str) -> None:
        super().on_message(msg, kind)
        if kind == "new_session":  # a fragment's run too: what it draws replaces what it drew
            self.alerts, self.radio = [], None
            if not msg.metadata.run.fragment_ids:
                self.live = {}
        elif kind == "delta" and msg.delta.WhichOneof("type") == "new_element":
            element = msg.delta.new_element
            which = element.WhichOneof("type")
            if which == "alert":
                self.alerts.append(element.alert.body)
            elif which == "button":
                self.disabled[element.button.id] = element.button.disabled
            elif which == "radio" and element.radio.set_value:
                self.radio = element.radio.raw_value  # the value the server put in the radio
            elif which == "bidi_component" and element.bidi_component.component_name == LIVE:
                self.live[element.bidi_component.id] = json.loads(element.bidi_component.json)

    def rerun(self, *states: WidgetState):
        self.send_rerun(list(states))
        return self.read_until_finished()

    def query(self, name: str) -> str | None:
        return parse_qs(self.query_string).get(name, [None])[0]


def follow(server: Server, code: str, address: str) -> tuple[int, dict]:
    answer = requests.get(server.url + classroom_route.follow_path(code), headers={"X-Forwarded-For": address},
                          timeout=30)
    return answer.status_code, answer.headers


def tracebacks(server: Server) -> int:
    return server.log.read_text(errors="replace").count("Traceback")


# live figures


def sliders(tab: Tab) -> tuple[str, dict[str, int]]:
    """The page's live figure (sinusoidal's heatmap, drawn first) and its sliders' option indices as last drawn."""
    cid, data = next(iter(tab.live.items()))
    return cid, {s["key"]: s["index"] for s in data["sliders"]}


def commit(cid: str, payload: str) -> WidgetState:
    return WidgetState(id=_make_trigger_id(cid, "events"), json_trigger_value=payload)


def test_a_trigger_list_of_thousands_of_commits_moves_nothing_and_costs_no_cpu(server):
    """Before: 5,000 commits in one 220 KB message cost ~4 s of the server's CPU (it grows with the square) and
    moved the slider."""
    hostile, bystander = Tab(server.url), Tab(server.url)
    try:
        hostile.open("sinusoidal")
        bystander.open("sinusoidal")
        cid, before = sliders(hostile)
        key = next(iter(before))
        flood = json.dumps([{"event": "commit", "value": {key: before[key] + 1}}] * 5_000)
        cpu = cpu_seconds(server.pid)
        hostile.send_rerun([commit(cid, flood)])
        witness = bystander.move_slider().seconds  # while the flood is handled
        hostile.read_until_finished()
        spent = cpu_seconds(server.pid) - cpu
        print(f"5,000 commits: server CPU {spent:.2f} s, bystander's rerun {witness:.2f} s, "
              f"load {os.getloadavg()[0]:.1f}")
        assert sliders(hostile)[1] == before, "the refused list moved the slider"
        assert spent < 1.0 and witness < 5.0
        hostile.rerun(commit(cid, json.dumps([{"event": "commit", "value": {key: before[key] + 1}}])))
        assert sliders(hostile)[1][key] == before[key] + 1  # one commit, as a browser sends it, still works
    finally:
        hostile.close()
        bystander.close()
    assert "dropped a component state" in server.log.read_text() and tracebacks(server) == 0


@pytest.mark.parametrize("field, bad", [
    ("json_value", '{"commit": [1]}'), ("json_value", "[1]"), ("json_value", "not json"),
    ("json_value", "[" * 3_000 + "]" * 3_000), ("json_trigger_value", '[{"event": "commit", "value": [1]}]'),
    ("json_trigger_value", '[{"event": "commit", "value": ' + "[" * 3_000 + "]" * 3_000 + "}]"),
    ("json_trigger_value", '[{"event": "commit", "value": {"sin_d": NaN}}]'), ("json_trigger_value", "5"),
], ids=["state-commit-list", "state-list", "state-not-json", "state-deep", "commit-list", "commit-deep",
        "commit-nan", "trigger-number"])
def test_a_malformed_component_state_leaves_the_session_working(server, field, bad):
    """Before: the state that is no JSON or nested too deep raised in this run and every later one (until a reload);
    a JSON state with a "commit" key shadowed every later commit; a commit that is a list raised."""
    tab = Tab(server.url)
    try:
        tab.open("sinusoidal")
        cid, before = sliders(tab)
        key = next(iter(before))
        state = WidgetState(id=cid if field == "json_value" else _make_trigger_id(cid, "events"))
        setattr(state, field, bad)
        tab.rerun(state)  # no exception element (read_until_finished raises on one)
        tab.rerun(commit(cid, json.dumps([{"event": "commit", "value": {key: before[key] + 2}}])))
        assert sliders(tab)[1][key] == before[key] + 2
    finally:
        tab.close()


def test_embedviz_components_keep_no_state():
    """compat drops every component state a client sends: true only while no component of ours keeps one."""
    for js in [*(ROOT / "embedviz" / "app" / "live").glob("*.js"), *(ROOT / "embedviz" / "app" / "browser").glob("*.js")]:
        if js.name != "plotly.min.js":
            assert "setStateValue" not in js.read_text(), js


# class mode


def start(tab: Tab) -> str | None:
    tab.click(Classroom.START)
    return tab.query("class")


def test_start_and_leave_in_a_loop_hold_one_class_and_stop_at_the_addresses_limit(server):
    """Before: every Start made a class and Leave closed none (193 in 16 s, then no teacher anywhere could start
    one); here the loop's classes close as it goes, it stops after STARTS_PER_CLIENT, and a teacher elsewhere
    starts a class."""
    flood = Tab(server.url, "10.3.0.1")
    teacher = Tab(server.url, "10.3.0.2")
    try:
        flood.open("", "tour=000&step=1")
        made, open_at_once = [], 0
        for _ in range(limits.STARTS_PER_CLIENT + 2):
            code = start(flood)
            if code:
                made.append(code)
                open_at_once = max(open_at_once, sum(bool(server.redis.exists(PREFIX + c)) for c in made))
                flood.click(Classroom.LEAVE)
        assert len(made) == limits.STARTS_PER_CLIENT and open_at_once == 1
        assert not any(server.redis.exists(PREFIX + c) for c in made)  # Leave closed each one
        assert en("classroom.err.client_starts") in flood.alerts
        teacher.open("", "tour=000&step=1")
        assert start(teacher)  # a class code in the teacher's link: started
    finally:
        flood.close()
        teacher.close()


def test_seats_go_back_when_sessions_end_a_reload_keeps_its_seat_and_a_full_class_is_said(server):
    """Before: each session that opened the link and closed kept its seat (298 of them filled a class of 300 in
    15 s), and a reload took a second one."""
    teacher = Tab(server.url, "10.4.0.1")
    teacher.open("", "tour=000&step=1")
    code = start(teacher)
    members = PREFIX + code + ":members"
    try:
        for _ in range(12):
            s = Tab(server.url, "10.4.0.2")
            s.open("", f"class={code}")
            assert s.query("seat") and server.redis.hexists(members, s.query("seat"))
            s.close()
        deadline = time.monotonic() + 10
        while server.redis.hlen(members) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert server.redis.hlen(members) == 0
        student = Tab(server.url, "10.4.0.2")
        student.open("", f"class={code}")
        link = student.query_string
        student.close()
        again = Tab(server.url, "10.4.0.2")
        again.open("", link)  # the reload: the same link, a new session
        assert again.query("seat") == parse_qs(link)["seat"][0] and server.redis.hlen(members) == 1
        friend = Tab(server.url, "10.4.0.3")
        friend.open("", link)  # the link passed on while its tab is open: another student, another seat
        assert friend.query("seat") != again.query("seat") and server.redis.hlen(members) == 2
        server.redis.hset(members, mapping={f"seat-{i:04d}-xxxx": "elsewhere" for i in range(limits.MAX_STUDENTS)})
        teacher.rerun()
        assert en("classroom.full_teacher", code=code, n=limits.MAX_STUDENTS) in teacher.alerts
        late = Tab(server.url, "10.4.0.4")
        late.open("", f"class={code}")
        assert en("classroom.err.full", raw=code) in late.alerts
        again.close(), friend.close(), late.close()
    finally:
        teacher.close()


HOSTILE = {
    "a step no number": {"step": "²"},
    "a step of 20 digits": {"step": "9" * 20},
    "a token of another shape": {"token": "x"},
    "a field of megabytes": {"revealed": "1," * 4_000_000},
    "a hash of 50,000 fields": {f"f{i}": "v" for i in range(50_000)},
}


@pytest.mark.parametrize("case", [*HOSTILE, "a key of another type", "bytes that are no text"])
def test_a_store_holding_what_it_never_writes_reads_as_not_connected(server, case):
    """Before: TypeError / ValueError / AttributeError (Streamlit's error box on the page, a 500 without the
    security headers from the route, ASGI tracebacks in the log) and seconds of CPU for a large hash."""
    from embedviz.app.serving import HEADERS

    import redis

    cases = [*HOSTILE, "a key of another type", "bytes that are no text"]
    code = "HSTRK" + CODE_ALPHABET[cases.index(case)]
    key = PREFIX + code
    fine = {"lesson": "000", "step": "1", "revealed": "", "token": _digest("t")}
    server.redis.delete(key)
    if case == "a key of another type":
        server.redis.set(key, "a string")
    elif case == "bytes that are no text":
        redis.Redis.from_url(server.redis_url).hset(key, mapping={**fine, "lesson": b"\xff\xfe"})
    else:
        server.redis.hset(key, mapping={**fine, **HOSTILE[case]})
    before, cpu = tracebacks(server), cpu_seconds(server.pid)
    status, headers = follow(server, code, "10.5.0.1")
    assert status == 503 and {name: headers.get(name) for name in HEADERS} == HEADERS
    tab = Tab(server.url, "10.5.0.2")
    try:
        tab.open("", f"class={code}")
        assert tab.alerts.count(en("classroom.err.offline")) == 1 and tab.query("class") is None
    finally:
        tab.close()
    spent = cpu_seconds(server.pid) - cpu
    server.redis.delete(key)
    assert tracebacks(server) == before and spent < 1.0, spent


def test_an_answer_past_the_rate_limit_is_told_beside_the_question_and_the_radio_keeps_the_counted_one(server):
    """In the browser a choice reruns the question's fragment only. Before: the refusal was kept for the next whole
    run, so nothing was said, and the radio showed the refused choice while the teacher counted the one before."""
    from embedviz.lessons import tours
    from embedviz.lessons.widget_keys import Tour

    teacher = Tab(server.url, "10.8.0.1")
    teacher.open("", "tour=000&step=2")
    code = start(teacher)
    student = Tab(server.url, "10.8.0.2")
    try:
        student.open("", f"class={code}")
        question = tours.step("000", 2).question
        labels = [en(f"tour.q.{question.id}.{o}") for o in question.options]
        for k in range(3 * limits.ANSWER_LIMIT):  # the limit's window may turn over once while we click
            student.choose(Tour.QUESTION("000_2_"), labels[k % 2])
            if student.alerts:
                break
        counted = labels[(k - 1) % 2]
        assert student.alerts == [en("classroom.answer_kept", answer=counted)] and student.radio == counted, k
        store = open_store(server.redis_url)  # the server's store, as the teacher's screen reads it
        assert store.my_answer(code, student.query("seat"), 2) == question.options[(k - 1) % 2]
    finally:
        student.close()
        teacher.close()


def test_a_guesser_at_65_requests_a_second_does_not_delay_a_new_classs_first_follower(server):
    """Before: one budget for every address, so the guesser's 429s were everyone's: the first follower of a class
    just started waited 7 s (429, 429, 429, then 200)."""
    stop = threading.Event()
    refused = []

    def guess(offset: int):  # four connections at a quarter of the rate each, on a schedule
        http, n, at = requests.Session(), offset, time.perf_counter()
        while not stop.is_set():
            n += 4
            code = "".join(CODE_ALPHABET[(n * 7 + i * i) % 32] for i in range(6))
            answer = http.get(server.url + classroom_route.follow_path(code), headers={"X-Forwarded-For": "10.6.0.66"},
                              timeout=30)
            refused.append(answer.status_code == 429)
            at += 4 / 65
            stop.wait(max(0.0, at - time.perf_counter()))

    guessers = [threading.Thread(target=guess, args=(k,), daemon=True) for k in range(4)]
    for g in guessers:
        g.start()
    try:
        time.sleep(2.0)  # the guesser has spent its budget and goes on at 65 a second
        teacher = Tab(server.url, "10.6.0.1")
        teacher.open("", "tour=000&step=1")
        code = start(teacher)
        for address in ("10.6.0.2", "10.6.0.66"):  # a student elsewhere, and one behind the guesser's NAT
            student = Tab(server.url, address)
            student.open("", f"class={code}")
            began = time.perf_counter()
            asks = []
            for _ in range(5):  # the tab's first asks (a held one would wait: these name no position)
                asks.append(follow(server, code, address)[0])
                time.sleep(0.1)
            waited = time.perf_counter() - began
            print(f"first follower at {address}: {asks} in {waited:.2f} s, load {os.getloadavg()[0]:.1f}")
            assert asks == [200] * 5
            student.close()
        teacher.close()
    finally:
        stop.set()
        for g in guessers:
            g.join(10)
    print(f"the guesser: {len(refused)} asks, {sum(refused)} refused")
    assert sum(refused) > 0


def test_a_step_that_is_no_ascii_number_is_refused_in_words_and_start_is_off_off_a_tour_step(server):
    """Before: "²" passes str.isdigit() and then int() raised: in Start's callback and in a teacher's every run.
    Start was on for any tour value."""
    tab = Tab(server.url, "10.7.0.1")
    start_id = lambda: next(w for w in tab.widgets if w.endswith(Classroom.START))  # noqa: E731
    try:
        for query in ("tour=zzz", "tour=../../x", "tour=000&step=" + "1" * 20, "tour=000&step=99",
                      "tour=000&step=²", "tour=000&step=①"):
            tab.open("", query)  # raises on an exception element
            assert tab.disabled[start_id()], query
        tab.click(Classroom.START)  # forged: a disabled button's press runs nothing
        assert tab.query("class") is None
        tab.open("", "tour=000&step=2")
        assert not tab.disabled[start_id()]
        assert start(tab)  # the teacher, then their link edited to a step that is no number
        tab.query_string = tab.query_string.replace("step=2", "step=%C2%B2")
        tab.rerun()
        assert tab.alerts and tab.query("class")
    finally:
        tab.close()
