"""The follow route (embedviz/app/serving.py) through Starlette's router, as the server mounts it: what a class's
followers are told, what a wrong, expired or hostile code gets, and how many store reads any number of requests
cost. A real server and Chromium use it in tests/e2e/test_classroom.py."""
from __future__ import annotations

import asyncio
import json
from urllib.parse import unquote

import pytest
from starlette.routing import Route, Router

from embedviz import classroom
from embedviz.app import serving


class Clock:
    def __init__(self):
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class CountingBackend(classroom.MemoryBackend):
    """Memory, counting the reads of a class's own hash (what the route's ``state`` costs the store)."""

    def __init__(self, clock):
        super().__init__(clock)
        self.reads = 0

    def hgetall(self, key):
        if key.count(":") == 2:  # embedviz:class:CODE, not its members or answers
            self.reads += 1
        return super().hgetall(key)


def server(store, clock, **kw) -> Router:
    route = serving.ClassFollowRoute(store, clock=clock, **kw)
    return Router(routes=[Route(serving.CLASS_ROUTE, route.endpoint, methods=["GET"])])


async def _request(app, path: str, method: str = "GET") -> tuple[int, dict[str, str], bytes]:
    sent = []

    async def receive():
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message):
        sent.append(message)

    await app({"type": "http", "method": method, "path": unquote(path), "raw_path": path.encode(), "query_string": b"",
               "headers": [], "scheme": "http", "server": ("127.0.0.1", 80), "client": ("127.0.0.1", 5000),
               "root_path": ""}, receive, send)
    start = next(m for m in sent if m["type"] == "http.response.start")
    body = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    return start["status"], {k.decode(): v.decode() for k, v in start["headers"]}, body


def get(app, path: str, method: str = "GET"):
    return asyncio.run(_request(app, path, method))


def path(code: str) -> str:
    return serving.class_route(code)


@pytest.fixture
def setup():
    clock = Clock()
    backend = CountingBackend(clock)
    store = classroom.ClassStore(backend)
    return clock, backend, store, server(store, clock)


def test_a_follower_is_told_the_lesson_the_step_and_whether_it_is_revealed_and_nothing_else(setup):
    clock, backend, store, app = setup
    code, token = store.create("000", 1)
    store.join(code, "member-aaaa-1111")
    status, headers, body = get(app, path(code))
    assert status == 200 and headers["content-type"] == "application/json"
    assert headers["cache-control"] == "no-store"  # no proxy or browser answers from an old copy
    assert json.loads(body) == {"lesson": "000", "step": 1, "revealed": False}
    store.set_step(code, token, "000", 2)
    store.answer(code, "member-aaaa-1111", 2, "used")
    store.reveal(code, token, 2)
    clock.now += serving.FRESH_SECONDS
    status, _, body = get(app, path(code))
    assert json.loads(body) == {"lesson": "000", "step": 2, "revealed": True}
    # no teacher token (nor its digest), no member, no answer: what a stranger with the code may know anyway
    for secret in (token, classroom._digest(token), "member-aaaa-1111", "used"):
        assert secret not in body.decode()


@pytest.mark.parametrize("raw", ["abcdef", "ABCDE", "ABCDEFG", "ABCDE0", "ABCDE%3C", "%3Cscript%3E",
                                 "ABC%25..", "课堂代码", "ＡＢＣ２３４", "A" * 5000, "ABCDEF%0A", "embedviz:*"])
def test_a_string_that_is_no_join_code_is_refused_without_reading_the_store(setup, raw):
    clock, backend, store, app = setup
    status, headers, body = get(app, path(raw))
    assert (status, json.loads(body)) == (400, {"error": "malformed"})
    assert backend.reads == 0


def test_no_class_and_an_expired_class_are_not_found(setup):
    clock, backend, store, app = setup
    assert get(app, path("ZZZZZZ"))[0] == 404
    code, _ = store.create("000", 1)
    assert get(app, path(code))[0] == 200
    clock.now += classroom.TTL_SECONDS + 1  # nobody touched the class for hours: its keys are gone
    status, _, body = get(app, path(code))
    assert (status, json.loads(body)) == (404, {"error": "unknown"})


def test_a_lost_store_answers_503_not_a_traceback():
    from deploy.launcher import free_port

    store = classroom.open_store(f"redis://127.0.0.1:{free_port()}/0")  # nothing listens there
    status, _, body = get(server(store, Clock()), path("ABCDEF"))
    assert (status, json.loads(body)) == (503, {"error": "offline"})


def test_only_get(setup):
    clock, backend, store, app = setup
    code, _ = store.create("000", 1)
    assert get(app, path(code), "POST")[0] == 405


def test_any_number_of_followers_cost_one_store_read_per_fresh_window(setup):
    clock, backend, store, app = setup
    code, token = store.create("000", 1)
    backend.reads = 0

    async def class_of_300():
        return await asyncio.gather(*(_request(app, path(code)) for _ in range(300)))

    answers = asyncio.run(class_of_300())  # at once: one read answers every request waiting for it
    assert {(s, b) for s, _, b in answers} == {(200, b'{"lesson":"000","step":1,"revealed":false}')}
    assert backend.reads == 1
    for _ in range(50):
        get(app, path(code))
    assert backend.reads == 1
    store.set_step(code, token, "000", 3)
    clock.now += serving.FRESH_SECONDS  # the next window reads again and sees the teacher's move
    assert json.loads(get(app, path(code))[2])["step"] == 3
    assert backend.reads == 3  # set_step read the class once itself


def test_guessing_codes_is_rate_limited_and_an_open_class_is_still_followed(setup):
    clock, backend, store, app = setup
    code, _ = store.create("000", 1)
    backend.reads = 0
    assert get(app, path(code))[0] == 200  # its first ask took a token too: it was not yet known open
    guesses = [get(app, path(f"GUESS{c}")) for c in classroom.CODE_ALPHABET[:30]] + \
              [get(app, path(f"HUESS{c}")) for c in classroom.CODE_ALPHABET[:30]]
    statuses = [s for s, _, _ in guesses]
    assert statuses[:serving.NEW_READS_BURST - 1] == [404] * (serving.NEW_READS_BURST - 1)
    assert set(statuses[serving.NEW_READS_BURST - 1:]) == {429}
    assert all(h["retry-after"] == "1" for s, h, _ in guesses if s == 429)
    assert backend.reads == serving.NEW_READS_BURST  # a refused guess read nothing
    clock.now += serving.FRESH_SECONDS  # the open class's followers are still answered, and see its changes
    assert get(app, path(code))[0] == 200
    clock.now += 1.0 - serving.FRESH_SECONDS  # a second after the budget ran out it has refilled by the rate
    assert [get(app, path(f"JUESS{c}"))[0] for c in classroom.CODE_ALPHABET[:serving.NEW_READS_PER_SECOND]] == \
        [404] * serving.NEW_READS_PER_SECOND
    assert get(app, path("KUESSA"))[0] == 429


def test_the_positions_kept_are_bounded(setup):
    clock, backend, store, app = setup
    small = server(store, clock, known=3, burst=100)
    codes = [store.create("000", 1)[0] for _ in range(5)]
    for code in codes:
        assert get(small, path(code))[0] == 200
    route = small.routes[0].endpoint.__self__
    assert list(route._positions) == codes[-3:]
