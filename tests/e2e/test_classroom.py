"""A class in real browsers, scaled out: two replicas behind nginx sharing a real redis-server (loopback).

The teacher and two students are on one replica, a third student on the other (route cookies, checked by their
websockets in nginx's log): while the teacher stays, each student's tab holds one request to the follow route (HTTP,
through nginx, read from Redis on the second replica) and runs no script; the students follow Next, answer, the
teacher sees 3 answers with the right spread, Reveal reaches all three; they follow on to a step on another page
(the follow switches the page) and the teacher's
address keeps the class and its key; a student cannot drive the class (their Next is off, a forged teacher key is
refused); the code of a class that expired in Redis is refused with a message.
"""
from __future__ import annotations

import os
import time
from collections import Counter
from urllib.parse import parse_qs, urlparse

import pytest

from deploy.launcher import Cluster, find_nginx
from deploy.redis_server import find_redis, redis_server
from embedviz import classroom, tours
from embedviz.widget_keys import Classroom
from tests.e2e.conftest import SHOTS, exceptions, missing, new_tab, open_app, t_en
from tests.e2e.test_scale_out import route_per_replica, streams, student
from tests.e2e.test_tours import panel_text, wait_for_step
from tests.e2e.tour_screen import SCREEN

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
def class_cluster(chromium, tmp_path_factory):
    if find_nginx() is None or find_redis() is None:
        missing("nginx and redis-server are needed: `apt-get install nginx redis-server`")
    with redis_server() as url:
        os.environ[classroom.REDIS_URL_ENV] = url  # the replicas inherit it (deploy/launcher.start_streamlit)
        try:
            with Cluster(replicas=2, prefix=tmp_path_factory.mktemp("nginx-class")) as running:
                yield running
        finally:
            os.environ.pop(classroom.REDIS_URL_ENV, None)


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
        teacher.get_by_role("button", name=en("cls.start")).click()
        wait_text(teacher, en("cls.code_big", code="§").split("§")[0].replace("**", ""))
        query = parse_qs(urlparse(teacher.url).query)
        code, token = query["class"][0], query["teacher"][0]
        for s in students:
            open_app(s, f"?class={code}")
            wait_for_step(s, LESSON, QUESTION - 1)
            assert en("cls.joined", code=code) in s.inner_text("body")
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
            wait_text(s, en("cls.wait_reveal"))
        counts = Counter(picks)
        spread = " · ".join(f"{option(QUESTION, o)}: {counts.get(o, 0)}"
                            for o in tours.step(LESSON, QUESTION).question.options)
        wait_text(teacher, en("cls.answered", n=3), timeout=60_000)
        wait_text(teacher, en("cls.spread", spread=spread), timeout=60_000)
        # projected (the teacher's link reopened in presenter view, on a 1280x720 projector): under the join code,
        # link and QR code, Reveal and the spread's chart are still on the first screen
        teacher.set_viewport_size(SCREEN)
        where = urlparse(teacher.url)
        open_app(teacher, f"{where.path.lstrip('/')}?{where.query}&present=1")
        wait_text(teacher, en("cls.spread", spread=spread), timeout=60_000)
        reveal = teacher.get_by_role("button", name=en("cls.reveal"))
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
            wait_text(s, en("cls.spread", spread=spread), timeout=60_000)
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
        wait_text(forged, en("cls.err.not_teacher", raw=code))
        assert forged.get_by_role("button", name=en("tour.next")).is_disabled()
        assert f"step {QUESTION + 2} of" in panel_text(teacher)

        # a class whose keys Redis expired (its TTL cut from hours to a millisecond) is refused by code
        import redis

        url = os.environ[classroom.REDIS_URL_ENV]
        old, _ = classroom.open_store(url).create(LESSON, 1)
        client = redis.Redis.from_url(url, decode_responses=True)
        for key in client.keys(f"{classroom.PREFIX}{old}*"):
            client.pexpire(key, 1)
        time.sleep(0.05)
        assert not client.keys(f"{classroom.PREFIX}{old}*")
        expired = new_tab(contexts[2])
        open_app(expired, f"?class={old}")
        wait_text(expired, en("cls.err.unknown", raw=old))
        assert not exceptions(expired) and not exceptions(teacher)
    finally:
        for c in contexts:
            c.close()
    assert streams(class_cluster, routes[second]) == {second}, "the third student was not on the second replica"
    assert streams(class_cluster, routes[first]) == {first}
