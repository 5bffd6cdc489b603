"""The follow route (embedviz/app/classroom_route.py) through Starlette's router, as the server mounts it: what a class's
followers are told, what a wrong, expired or hostile code gets, how long a request is held and what ends the hold,
and how many store reads any number of requests cost. A real server and Chromium use it in
tests/e2e/test_classroom.py."""
from __future__ import annotations

import asyncio
import json
from urllib.parse import unquote

import pytest
from starlette.routing import Route, Router

from embedviz import client_limits
from embedviz.classroom import limits
from embedviz.classroom.backend import MemoryBackend
from embedviz.classroom.checks import CODE_ALPHABET, _digest
from embedviz.classroom.store import ClassStore, open_store
from embedviz.app import classroom_route
from tests.conftest import run_async


class Clock:
    def __init__(self):
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class CountingBackend(MemoryBackend):
    """Memory, counting the reads of a class's own hash (what the route's ``state`` costs the store)."""

    def __init__(self, clock):
        super().__init__(clock)
        self.reads = 0

    def hgetall(self, key, **bounds):
        if key.count(":") == 2:  # embedviz:class:CODE, not its members or answers
            self.reads += 1
        return super().hgetall(key, **bounds)


def server(store, clock, **kw) -> Router:
    kw.setdefault("guesses", client_limits.Buckets(client_limits.GUESS_RATE, client_limits.GUESS_BURST, clock=clock))
    route = classroom_route.ClassFollowRoute(store, clock=clock, **kw)
    return Router(routes=[Route(classroom_route.CLASS_ROUTE, route.endpoint, methods=["GET"])])


async def _request(app, path: str, method: str = "GET", query: str = "", client: str = "127.0.0.1"
                   ) -> tuple[int, dict[str, str], bytes]:
    sent = []

    async def receive():
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message):
        sent.append(message)

    await app({"type": "http", "method": method, "path": unquote(path), "raw_path": path.encode(), "query_string": query.encode(),
               "headers": [], "scheme": "http", "server": ("127.0.0.1", 80), "client": (client, 5000),
               "root_path": ""}, receive, send)
    start = next(m for m in sent if m["type"] == "http.response.start")
    body = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    return start["status"], {k.decode(): v.decode() for k, v in start["headers"]}, body


def get(app, path: str, method: str = "GET", client: str = "127.0.0.1"):
    return run_async(_request(app, path, method, client=client))


def path(code: str) -> str:
    return classroom_route.follow_path(code)


@pytest.fixture
def setup():
    clock = Clock()
    backend = CountingBackend(clock)
    store = ClassStore(backend)
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
    clock.now += classroom_route.FRESH_SECONDS
    status, _, body = get(app, path(code))
    assert json.loads(body) == {"lesson": "000", "step": 2, "revealed": True}
    # no teacher token (nor its digest), no member, no answer: what a stranger with the code may know anyway
    for secret in (token, _digest(token), "member-aaaa-1111", "used"):
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
    clock.now += limits.TTL_SECONDS + 1  # nobody touched the class for hours: its keys are gone
    status, _, body = get(app, path(code))
    assert (status, json.loads(body)) == (404, {"error": "unknown"})


def test_a_lost_store_answers_503_not_a_traceback():
    from deploy.launcher import free_port

    store = open_store(f"redis://127.0.0.1:{free_port()}/0")  # nothing listens there
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

    answers = run_async(class_of_300())  # at once: one read answers every request waiting for it
    assert {(s, b) for s, _, b in answers} == {(200, b'{"lesson":"000","step":1,"revealed":false}')}
    assert backend.reads == 1
    for _ in range(50):
        get(app, path(code))
    assert backend.reads == 1
    store.set_step(code, token, "000", 3)
    clock.now += classroom_route.FRESH_SECONDS  # the next window reads again and sees the teacher's move
    assert json.loads(get(app, path(code))[2])["step"] == 3
    assert backend.reads == 3  # set_step read the class once itself


def test_guessing_is_limited_per_address_and_never_slows_another_address_or_a_class_known_open(setup):
    """A guesser's address gets its burst of codes no class here has, then 429 (Retry-After), refilling at the rate;
    a refused guess reads nothing. A second address is not slowed, nor the followers of a class this server knows
    open, whatever the guesser does (before, one budget for everyone: a guesser at 65 requests/s made a new class's
    first follower wait 7 s)."""
    clock, backend, store, app = setup
    code, _ = store.create("000", 1)  # started on this server: known open, so its followers cost no budget
    backend.reads = 0
    burst, rate = client_limits.GUESS_BURST, client_limits.GUESS_RATE
    guesses = [get(app, path(f"GUESS{c}"), client="10.0.0.66") for c in CODE_ALPHABET] + \
              [get(app, path(f"HUESS{c}"), client="10.0.0.66") for c in CODE_ALPHABET]
    statuses = [s for s, _, _ in guesses]
    assert statuses[:burst] == [404] * burst and set(statuses[burst:]) == {429}
    assert all(h["retry-after"] == "1" for s, h, _ in guesses if s == 429)
    assert backend.reads == burst  # a refused guess read nothing
    for _ in range(3):  # the class's followers, from the guesser's own address too (one school, one NAT)
        clock.now += classroom_route.FRESH_SECONDS
        assert get(app, path(code), client="10.0.0.66")[0] == 200
    assert [get(app, path(f"JUESS{c}"), client="10.0.0.7")[0] for c in CODE_ALPHABET[:5]] == [404] * 5
    clock.now += 5 / rate  # five seconds' worth of refill for the guesser, not more
    assert [get(app, path(f"KUESS{c}"), client="10.0.0.66")[0] for c in CODE_ALPHABET[:6]] == \
        [404] * 5 + [429]


def test_all_addresses_together_read_unknown_codes_within_the_stores_budget(setup):
    """Many addresses each within their own budget still share one bound on the store's reads."""
    clock, backend, store, app = setup
    backend.reads = 0
    statuses = [get(app, path(f"GUES{a}{b}"), client=f"10.1.{i}.1")[0]
                for i, (a, b) in enumerate((a, b) for a in CODE_ALPHABET for b in CODE_ALPHABET[:5])]
    assert statuses.count(404) == classroom_route.NEW_READS_BURST == backend.reads
    assert set(statuses[classroom_route.NEW_READS_BURST:]) == {429}


def test_the_positions_kept_are_bounded(setup):
    clock, backend, store, app = setup
    small = server(store, clock, known=3, burst=100)
    codes = [store.create("000", 1)[0] for _ in range(5)]
    for code in codes:
        assert get(small, path(code))[0] == 200
    route = small.routes[0].endpoint.__self__
    assert list(route._positions) == codes[-3:]


# holding: a request that names what its tab shows (?seen=) waits for the class to move


HOLD, WATCH = 2.0, 0.05  # real seconds (the hold is a real wait): long enough that answering before it proves a wake


def held_server(store, **kw):
    import time

    route = classroom_route.ClassFollowRoute(store, clock=time.monotonic, hold=kw.pop("hold", HOLD),
                                         watch=kw.pop("watch", WATCH), **kw)
    return route, Router(routes=[Route(classroom_route.CLASS_ROUTE, route.endpoint, methods=["GET"])])


def seen(lesson: str, step: int, revealed: bool = False) -> str:
    return f"seen={lesson}%7C{step}%7C{str(revealed).lower()}"  # what classroom_follow.js sends: "000|1|false"


async def timed(app, code: str, query: str) -> tuple[float, int, dict]:
    import time

    began = time.monotonic()
    status, _, body = await _request(app, path(code), query=query)
    return time.monotonic() - began, status, json.loads(body)


def test_a_held_request_is_answered_the_moment_this_servers_teacher_moves():
    store = ClassStore(MemoryBackend())
    code, token = store.create("000", 1)
    _, app = held_server(store, watch=HOLD)  # it does not read the store again in time: only the store's word wakes it

    async def class_moves():
        waiting = [asyncio.ensure_future(timed(app, code, seen("000", 1))) for _ in range(50)]
        await asyncio.sleep(0.2)
        assert not any(w.done() for w in waiting)  # the class stays: nobody is answered
        # the teacher's run calls the store in its own script thread, as on a server
        await asyncio.get_running_loop().run_in_executor(None, store.set_step, code, token, "000", 2)
        return await asyncio.gather(*waiting)

    answers = run_async(class_moves())
    assert {(s, json.dumps(b)) for _, s, b in answers} == {(200, json.dumps({"lesson": "000", "step": 2, "revealed": False}))}
    assert max(took for took, _, _ in answers) < 0.2 + HOLD / 4  # woken by the move, not by the hold running out


def test_a_move_made_by_another_replica_is_seen_by_reading_the_store():
    backend = MemoryBackend()  # one store, two servers: the teacher's replica is not this one
    here, there = ClassStore(backend), ClassStore(backend)
    code, token = there.create("000", 1)
    _, app = held_server(here)

    async def class_moves():
        waiting = asyncio.ensure_future(timed(app, code, seen("000", 1)))
        await asyncio.sleep(0.2)
        there.reveal(code, token, 1)  # no listener of this server's hears it
        return await waiting

    took, status, body = run_async(class_moves())
    assert (status, body) == (200, {"lesson": "000", "step": 1, "revealed": True})
    assert 0.2 <= took < 0.2 + HOLD / 4


def test_a_class_that_stays_is_answered_after_the_hold_and_a_tab_behind_it_at_once():
    store = ClassStore(MemoryBackend())
    code, _ = store.create("000", 3)
    _, app = held_server(store, hold=0.3)
    took, status, body = run_async(timed(app, code, seen("000", 3)))
    assert (status, body["step"]) == (200, 3) and 0.3 <= took < 1.0  # the same position: the tab asks again
    took, _, body = run_async(timed(app, code, seen("000", 2)))  # the tab shows step 2: it is behind
    assert body["step"] == 3 and took < 0.2
    took, _, _ = run_async(timed(app, code, ""))  # no seen: a plain ask (an old tab, a script)
    assert took < 0.2
    took, status, _ = run_async(timed(app, "ZZZZZZ", seen("000", 3)))  # no such class: said at once
    assert status == 404 and took < 0.2


def test_held_requests_are_bounded_and_a_stop_answers_them_all():
    store = ClassStore(MemoryBackend())
    code, _ = store.create("000", 1)
    route, app = held_server(store, max_held=3, hold=30.0)

    async def crowd_then_stop():
        held = [asyncio.ensure_future(timed(app, code, seen("000", 1))) for _ in range(3)]
        await asyncio.sleep(0.2)
        took, status, _ = await timed(app, code, seen("000", 1))  # the fourth is past the bound: answered at once
        assert status == 200 and took < 0.2 and not any(h.done() for h in held)
        route.stop()  # what the server's stop signal does first
        answers = await asyncio.gather(*held)
        after, _, _ = await timed(app, code, seen("000", 1))  # a stopping server holds nothing new
        return answers, after

    answers, after = run_async(crowd_then_stop())
    assert [s for _, s, _ in answers] == [200] * 3 and max(t for t, _, _ in answers) < 1.0 and after < 0.2


def test_held_requests_cost_one_store_read_per_watch_not_per_request():
    import time

    backend = CountingBackend(time.monotonic)
    store = ClassStore(backend)
    code, _ = store.create("000", 1)
    _, app = held_server(store, hold=0.5)
    backend.reads = 0

    async def class_of_300():
        return await asyncio.gather(*(timed(app, code, seen("000", 1)) for _ in range(300)))

    answers = run_async(class_of_300())
    assert {s for _, s, _ in answers} == {200}
    # 0.5 s held at a read per 0.05 s, whatever the class's size (plus the first read and the answer's)
    assert backend.reads <= 0.5 / WATCH + 3


def test_a_teacher_who_clicks_fast_costs_no_guessing_budget():
    """Each move makes the held requests read the class again: a class known open is read without a token, so a
    teacher clicking through forty steps in a row does not spend the budget meant for codes nobody opened."""
    store = ClassStore(MemoryBackend())
    code, token = store.create("000", 1)
    route, app = held_server(store, burst=2, rate=0.001)  # two unknown codes' worth, and nearly no refill

    async def forty_moves():
        statuses = []
        for k in range(2, 42):
            waiting = asyncio.ensure_future(timed(app, code, seen("000", k - 1)))
            await asyncio.sleep(0.01)
            await asyncio.get_running_loop().run_in_executor(None, store.set_step, code, token, "000", k)
            statuses.append((await waiting)[1])
        return statuses

    assert run_async(forty_moves()) == [200] * 40
