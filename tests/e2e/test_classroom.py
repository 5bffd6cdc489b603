"""A class in real browsers, scaled out: two replicas behind nginx sharing a real redis-server (loopback).

The teacher and two students are on one replica, a third student on the other (route cookies, checked by their
websockets in nginx's log): while the teacher stays, each student's tab holds one request to the follow route (HTTP,
through nginx, read from Redis on the second replica) and runs no script; the students follow Next, answer, the
teacher sees 3 answers with the right spread, Reveal reaches all three; they follow on to a step on another page
(the follow switches the page) and the teacher's
address keeps the class and its key; a student cannot drive the class (their Next is off, a forged teacher key is
refused); the code of a class that expired in Redis is refused with a message.

Peer instruction across the replicas: the spread stays off the class's screens until the teacher shows it, Vote
again empties every student's choice and keeps the first vote, Reveal shows both votes, and the class summary's CSV
at the end of the tour counts them (and names nobody). And a class that survives its store: the redis-server is
stopped mid-class and started again empty; everyone says they are reconnecting meanwhile and is back on the
teacher's step within 10 s of the restart.
"""
from __future__ import annotations

import os
import time
from collections import Counter
from urllib.parse import parse_qs, urlparse

import pytest

from deploy.launcher import Cluster, find_nginx
from deploy.redis_server import find_redis
from embedviz.lessons import tours
from embedviz.classroom.state import PREFIX
from embedviz.classroom.store import REDIS_URL_ENV, open_store
from embedviz.lessons.widget_keys import Classroom
from tests.e2e.conftest import SHOTS, exceptions, missing, new_tab, open_app, t_en, wait_idle
from tests.e2e.test_scale_out import route_per_replica, streams, student
from tests.e2e.test_tours import panel_text, wait_for_step
from tests.e2e.tour_screen import SCREEN
from tests.redis_restart import RestartableRedis

pytestmark = [pytest.mark.e2e, pytest.mark.slow]
LESSON, QUESTION = "000", 2


def count_reruns(page) -> list[int]:
    """The script runs a tab asks its server for: each ``rerun_script`` BackMsg it sends on its websocket (a full
    run or a fragment's). Counted from what the tab sends, not from the page's running state, which a fast run can
    pass through between two renders without a trace. A list of one, updated as frames go out."""
    from streamlit.proto.BackMsg_pb2 import BackMsg

    sent = [0]

    def on_socket(ws):
        def frame(payload):
            if isinstance(payload, (bytes, bytearray)) and BackMsg.FromString(bytes(payload)).WhichOneof("type") \
                    == "rerun_script":
                sent[0] += 1

        ws.on("framesent", frame)

    page.on("websocket", on_socket)
    return sent


@pytest.fixture(scope="module")
def class_redis(chromium):
    """The cluster's redis-server, which a test may stop and start again on its port (tests/redis_restart.py)."""
    if find_nginx() is None or find_redis() is None:
        missing("nginx and redis-server are needed: `apt-get install nginx redis-server`")
    with RestartableRedis() as running:
        yield running


@pytest.fixture(scope="module")
def class_cluster(class_redis, tmp_path_factory):
    os.environ[REDIS_URL_ENV] = class_redis.url  # the replicas inherit it (deploy/launcher.start_streamlit)
    try:
        with Cluster(replicas=2, prefix=tmp_path_factory.mktemp("nginx-class")) as running:
            yield running
    finally:
        os.environ.pop(REDIS_URL_ENV, None)


def en(key: str, **fields) -> str:
    return t_en(key).format(**fields) if fields else t_en(key)


def wait_text(page, text: str, *, timeout: float = 60_000) -> None:
    page.wait_for_function("(m) => document.body.innerText.includes(m)", arg=text, timeout=timeout)


def option(k: int, code: str) -> str:
    return en(f"tour.q.{tours.step(LESSON, k).question.id}.{code}")


def test_a_class_across_two_replicas(class_cluster, browser):
    routes = route_per_replica(class_cluster)
    first, second = list(routes)
    contexts = [student(browser, class_cluster, routes[first]) for _ in range(3)]
    contexts.append(student(browser, class_cluster, routes[second]))
    try:
        teacher, *students = [new_tab(c) for c in contexts]
        reruns = {id(s): count_reruns(s) for s in students}
        asked = {id(s): [] for s in students}  # the follow route's requests, and each one's answer when it came
        for s in students:
            s.on("request", lambda r, mine=asked[id(s)]: mine.append([r.url, None]) if "/api/class/" in r.url else None)
            s.on("response", lambda r, mine=asked[id(s)]: next(
                (a.__setitem__(1, r.status) for a in mine if a[0] == r.url and a[1] is None), None))
        open_app(teacher, f"?tour={LESSON}&step={QUESTION - 1}")
        teacher.locator("[data-testid='stSidebar'] [data-testid='stPopover'] button").first.click()
        teacher.get_by_role("button", name=en("classroom.start")).click()
        wait_text(teacher, en("classroom.code_big", code="§").split("§")[0].replace("**", ""))
        query = parse_qs(urlparse(teacher.url).query)
        code, token = query["class"][0], query["teacher"][0]
        for s in students:
            open_app(s, f"?class={code}")
            wait_for_step(s, LESSON, QUESTION - 1)
            assert en("classroom.joined", code=code) in s.inner_text("body")
            assert s.get_by_role("button", name=en("tour.next")).is_disabled()  # a student cannot drive

        # the teacher stays: each student's tab holds a request to the follow route, naming the step it shows, and
        # runs no script; the route answers it only when the class moves (or after its hold, 20 s)
        before = [reruns[id(s)][0] for s in students]
        students[0].wait_for_timeout(3000)  # (not time.sleep: Playwright delivers the tabs' events while it waits)
        for s, runs in zip(students, before):
            held = [url for url, status in asked[id(s)] if status is None]
            assert len(held) == 1 and f"seen={LESSON}%7C{QUESTION - 1}%7Cfalse" in held[0], asked[id(s)]
            assert {status for _, status in asked[id(s)]} <= {200, None}, asked[id(s)]
            assert reruns[id(s)][0] == runs, "a held follow request ran the script"

        teacher.get_by_role("button", name=en("tour.next")).click()
        clicked = time.monotonic()
        for s in students:
            wait_for_step(s, LESSON, QUESTION, timeout=60_000)
        follow = time.monotonic() - clicked
        print(f"students followed Next in {follow:.1f} s")  # the latency is benchmarks/load/follow.py's; the machine is shared
        for s, runs in zip(students, before):  # the move reached each tab as one rerun it asked for
            assert reruns[id(s)][0] > runs, "a student's tab followed without asking for a run"

        picks = ["used", "used", "all"]
        for s, pick in zip(students, picks):
            s.get_by_text(option(QUESTION, pick), exact=True).click()
            wait_text(s, en("classroom.wait_reveal"))
        counts = Counter(picks)
        spread = " · ".join(f"{option(QUESTION, o)}: {counts.get(o, 0)}"
                            for o in tours.step(LESSON, QUESTION).question.options)
        wait_text(teacher, en("classroom.answered", n=3), timeout=60_000)
        wait_text(teacher, en("classroom.spread", spread=spread), timeout=60_000)
        # projected (the teacher's link reopened in presenter view, on a 1280x720 projector): under the join code,
        # link and QR code, Reveal and the spread's chart are still on the first screen
        teacher.set_viewport_size(SCREEN)
        where = urlparse(teacher.url)
        open_app(teacher, f"{where.path.lstrip('/')}?{where.query}&present=1")
        wait_text(teacher, en("classroom.answered", n=3), timeout=60_000)
        # projected, the class sees how many answered, not how, until the teacher shows the spread
        assert en("classroom.spread", spread=spread) not in teacher.inner_text("body")
        teacher.locator(f".st-key-{Classroom.show(LESSON, QUESTION)} label").first.click()
        wait_text(teacher, en("classroom.spread", spread=spread), timeout=60_000)
        reveal = teacher.get_by_role("button", name=en("classroom.reveal"))
        teacher.locator("[data-testid='stVegaLiteChart'] canvas, [data-testid='stVegaLiteChart'] svg").first.wait_for()
        boxes = {name: teacher.locator(selector).first.bounding_box() for name, selector in (
            ("QR code", "[data-testid='stImage']"), ("Reveal", f".st-key-{Classroom.reveal(LESSON, QUESTION)} button"),
            ("spread", "[data-testid='stVegaLiteChart']"))}
        assert all(boxes.values()), boxes
        below = {name: box["y"] + box["height"] for name, box in boxes.items() if box["y"] + box["height"] > SCREEN["height"]}
        assert not below, f"bottom (px) below the 720 px screen in presenter view: {below}"
        teacher.screenshot(path=str(SHOTS / "class-teacher-presenting.png"))
        reveal.click()
        for s in students:
            wait_text(s, en("classroom.spread", spread=spread), timeout=60_000)
            assert not exceptions(s)
        teacher.screenshot(path=str(SHOTS / "class-teacher.png"), full_page=True)
        students[2].screenshot(path=str(SHOTS / "class-student.png"), full_page=True)

        # on through the next question to a step on another page: everyone follows the switch
        teacher.get_by_role("button", name=en("tour.next")).click()
        wait_for_step(teacher, LESSON, QUESTION + 1)
        teacher.get_by_role("button", name=en("tour.next")).click()
        for s in students:
            wait_for_step(s, LESSON, QUESTION + 2, timeout=60_000)
            assert parse_qs(urlparse(s.url).query)["class"] == [code] and not exceptions(s)
        query = parse_qs(urlparse(teacher.url).query)
        assert (query["class"], query["teacher"]) == ([code], [token])

        # a forged teacher key joins as a student: refused, and the class stays where the teacher put it
        forged = new_tab(contexts[1])
        open_app(forged, f"?class={code}&teacher={token[:-3]}abc")
        wait_text(forged, en("classroom.err.not_teacher", raw=code))
        assert forged.get_by_role("button", name=en("tour.next")).is_disabled()
        assert f"step {QUESTION + 2} of" in panel_text(teacher)

        # a class whose keys Redis expired (its TTL cut from hours to a millisecond) is refused by code
        import redis

        url = os.environ[REDIS_URL_ENV]
        old, _ = open_store(url).create(LESSON, 1)
        client = redis.Redis.from_url(url, decode_responses=True)
        for key in client.keys(f"{PREFIX}{old}*"):
            client.pexpire(key, 1)
        time.sleep(0.05)
        assert not client.keys(f"{PREFIX}{old}*")
        expired = new_tab(contexts[2])
        open_app(expired, f"?class={old}")
        wait_text(expired, en("classroom.err.unknown", raw=old))
        assert not exceptions(expired) and not exceptions(teacher)
    finally:
        for c in contexts:
            c.close()
    assert streams(class_cluster, routes[second]) == {second}, "the third student was not on the second replica"
    assert streams(class_cluster, routes[first]) == {first}


def start_class(teacher, lesson: str, step: int) -> tuple[str, str]:
    open_app(teacher, f"?tour={lesson}&step={step}")
    teacher.locator("[data-testid='stSidebar'] [data-testid='stPopover'] button").first.click()
    teacher.get_by_role("button", name=en("classroom.start")).click()
    teacher.wait_for_function("() => new URLSearchParams(location.search).get('teacher')", timeout=60_000)
    wait_text(teacher, en("classroom.code_big", code="§").split("§")[0].replace("**", ""))
    query = parse_qs(urlparse(teacher.url).query)
    return query["class"][0], query["teacher"][0]


def class_of_three(browser, cluster):
    """A teacher and a student on one replica, a second student on the other (their route cookies)."""
    routes = route_per_replica(cluster)
    first, second = list(routes)
    contexts = [student(browser, cluster, routes[first]), student(browser, cluster, routes[first]),
                student(browser, cluster, routes[second])]
    return routes, contexts, [new_tab(c) for c in contexts]


def pick(page, k: int, code: str) -> None:
    """Pick an option, retried until the radio shows it picked: a follow's run landing (after Vote again, the
    student's page reruns) can replace the radio under the pointer and lose the click."""
    from tests.e2e.tour_screen import click_choice

    choice = page.locator("[data-testid='stRadio'] [role='radiogroup'] label").filter(has_text=option(k, code)).first
    click_choice(page, choice, attempts=4, then=lambda: page.wait_for_function(
        "() => document.querySelector(\"[data-testid='stRadio'] input:checked\")", timeout=5_000))


def plain(key: str, **fields) -> str:
    """A catalog text as the page shows it: its markdown (bold, colour) rendered away."""
    import re

    text = en(key, **fields)
    return re.sub(r":\w+\[(.*?)\]", r"\1", text).replace("**", "")


def test_peer_instruction_and_the_class_summary_csv_across_two_replicas(class_cluster, browser, tmp_path):
    routes, contexts, (teacher, *students) = class_of_three(browser, class_cluster)
    first, second = list(routes)
    step = tours.step(LESSON, QUESTION)
    right, _ = tours.answer(LESSON, QUESTION)
    wrong = next(o for o in step.question.options if o != right)
    try:
        code, token = start_class(teacher, LESSON, QUESTION - 1)
        for s in students:
            open_app(s, f"?class={code}")
            wait_for_step(s, LESSON, QUESTION - 1)
        teacher.get_by_role("button", name=en("tour.next")).click()
        for s in students:
            wait_for_step(s, LESSON, QUESTION, timeout=60_000)
        for s, o in zip(students, (right, wrong)):
            pick(s, QUESTION, o)
            wait_text(s, en("classroom.wait_reveal"))
        first_vote = Counter([right, wrong])
        spread = " · ".join(f"{option(QUESTION, o)}: {first_vote.get(o, 0)}" for o in step.question.options)
        wait_text(teacher, en("classroom.answered", n=2))
        # the switch is off: the students' screens show no spread; on, they do (each one's next run)
        for s in students:
            assert en("classroom.spread", spread=spread) not in s.inner_text("body")
        teacher.locator(f".st-key-{Classroom.show(LESSON, QUESTION)} label").first.click()
        for s in students:
            wait_text(s, en("classroom.spread", spread=spread))
        # vote again: every student's choice is empty again, the first vote is kept
        teacher.locator(f".st-key-{Classroom.again(LESSON, QUESTION)} button:visible").first.click()
        wait_text(teacher, en("classroom.answered_second", n=0))
        for s in students:
            wait_text(s, en("classroom.vote_again_student"))
            wait_idle(s)
            assert not s.locator("[data-testid='stRadio'] input:checked").count()
            assert en("classroom.spread", spread=spread) not in s.inner_text("body")  # hidden again
            pick(s, QUESTION, right)
            wait_text(s, en("classroom.wait_reveal"))
        wait_text(teacher, en("classroom.answered_second", n=2))
        teacher.locator(f".st-key-{Classroom.reveal(LESSON, QUESTION)} button:visible").first.click()
        second_vote = Counter([right, right])
        items = lambda c: " · ".join(f"{option(QUESTION, o)}: {c[o]}" for o in step.question.options if c[o])  # noqa: E731
        both = plain("classroom.spread_votes", first=items(first_vote), second=items(second_vote))
        for page in (teacher, *students):
            wait_text(page, both)
            page.locator("[data-testid='stMain'] [data-testid='stPlotlyChart']").first.wait_for(timeout=120_000)
            assert not exceptions(page)
        # the summary on the tour's last step: the teacher's link opened there, the class follows
        total = len(tours.TOURS[LESSON].steps)
        open_app(teacher, f"?tour={LESSON}&step={total}&class={code}&teacher={token}")
        for s in students:
            wait_for_step(s, LESSON, total, timeout=60_000)
            assert en("classroom.summary") not in s.inner_text("body")
        teacher.get_by_text(en("classroom.summary"), exact=True).click()
        with teacher.expect_download() as downloaded:
            teacher.get_by_role("button", name=en("classroom.summary_csv")).click()
        path = tmp_path / "summary.csv"
        downloaded.value.save_as(path)
        text = path.read_text()
        import csv
        import io

        rows = list(csv.DictReader(io.StringIO(text)))
        by_step = {int(r["step"]): r for r in rows}
        questions = [k for k, s in enumerate(tours.TOURS[LESSON].steps, 1) if s.question]
        assert sorted(by_step) == questions
        assert {k: by_step[QUESTION][k] for k in ("answered_first", "right_first", "answered_second", "right_second")} \
            == {"answered_first": "2", "right_first": "1", "answered_second": "2", "right_second": "2"}
        seats = {parse_qs(urlparse(s.url).query)["seat"][0] for s in students}
        assert not any(seat in text for seat in seats) and token not in text  # no ids, no key
        assert {r["answered_first"] for k, r in by_step.items() if k != QUESTION} == {"0"}
    finally:
        for c in contexts:
            c.close()
    assert streams(class_cluster, routes[second]) == {second}, "the second student was not on the second replica"


def test_a_class_survives_its_store_stopped_and_restarted_mid_class(class_cluster, class_redis, browser):
    """Redis stopped with a teacher and two students on two replicas, the teacher moving on meanwhile; started
    again empty: within 10 s everyone is back in the same class on the teacher's step, with the answers held."""
    routes, contexts, (teacher, *students) = class_of_three(browser, class_cluster)
    first, second = list(routes)
    try:
        code, token = start_class(teacher, LESSON, QUESTION)
        for s in students:
            open_app(s, f"?class={code}")
            wait_for_step(s, LESSON, QUESTION)
        for s in students:
            pick(s, QUESTION, "used")
            wait_text(s, en("classroom.wait_reveal"))
        wait_text(teacher, en("classroom.answered", n=2))
        teacher.wait_for_timeout(1500)  # the teacher's heartbeat has copied the class with its answers

        class_redis.stop()
        stopped = time.monotonic()
        wait_text(teacher, en("classroom.reconnecting_teacher", code=code), timeout=20_000)
        for s in students:
            wait_text(s, en("classroom.reconnecting", code=code), timeout=20_000)
        reached = time.monotonic() - stopped
        teacher.get_by_role("button", name=en("tour.next")).click()  # the teacher moves on while the store is away
        wait_for_step(teacher, LESSON, QUESTION + 1)
        for page in (teacher, *students):  # every address keeps the class
            assert parse_qs(urlparse(page.url).query)["class"] == [code], page.url
        assert parse_qs(urlparse(teacher.url).query)["teacher"] == [token]
        teacher.wait_for_timeout(4000)  # an outage of a few seconds more: the retries back off meanwhile

        class_redis.start()  # back on its port, empty
        restarted = time.monotonic()
        for s in students:
            wait_for_step(s, LESSON, QUESTION + 1, timeout=10_000)
            s.wait_for_function("(m) => !document.body.innerText.includes(m)",
                                arg=en("classroom.reconnecting", code=code), timeout=10_000)
        teacher.wait_for_function("(m) => !document.body.innerText.includes(m)",
                                  arg=en("classroom.reconnecting_teacher", code=code), timeout=10_000)
        back = time.monotonic() - restarted
        print(f"reconnecting shown {reached:.1f} s after the stop; everyone back {back:.1f} s after the restart")
        assert back <= 10.0
        store = open_store(class_redis.url)
        assert store.state(code).position == (LESSON, QUESTION + 1, False)
        assert store.votes(code, token, QUESTION).first == Counter(used=2)  # the answers the teacher's tab held
        for s in students:
            assert f"step {QUESTION + 1} of" in panel_text(s) and not exceptions(s)
            assert s.get_by_role("button", name=en("tour.next")).is_disabled()  # still following
    finally:
        for c in contexts:
            c.close()
        if class_redis.proc is None:
            class_redis.start()
    assert streams(class_cluster, routes[second]) == {second}
