"""The class store (embedviz/classroom.py) on both backends: in memory, and a real redis-server on loopback."""
from __future__ import annotations

import random
from collections import Counter

import pytest

from deploy.redis_server import find_redis, redis_server
from embedviz import classroom
from embedviz.classroom import ClassError, ClassStore, MemoryBackend, RedisBackend, new_member_id, open_store


class Clock:
    def __init__(self):
        self.now = 1_000.0

    def __call__(self):
        return self.now


@pytest.fixture(scope="module")
def redis_url():
    if find_redis() is None:
        pytest.fail("redis-server is not installed (`apt-get install redis-server`; .ci/run installs it)")
    with redis_server() as url:
        yield url


@pytest.fixture(params=["memory", "redis"])
def store(request) -> ClassStore:
    if request.param == "memory":
        return open_store("")
    url = request.getfixturevalue("redis_url")
    import redis

    redis.Redis.from_url(url).flushdb()
    return open_store(url)


def code_of(error) -> str:
    return error.value.code


def test_open_store_picks_the_backend_from_the_setting(redis_url, monkeypatch):
    monkeypatch.setenv(classroom.REDIS_URL_ENV, redis_url)
    assert isinstance(open_store().backend, RedisBackend)
    monkeypatch.delenv(classroom.REDIS_URL_ENV)
    assert isinstance(open_store().backend, MemoryBackend)


def test_teacher_drives_members_follow_and_tallies_match_a_naive_count(store):
    code, token = store.create("000", 2)
    assert classroom.CODE_RE.match(code) and token not in code
    members = [new_member_id() for _ in range(40)]
    for m in members:
        assert store.join(code.lower(), m).step == 2  # a typed code in lower case is the same code
    rng = random.Random(0)
    last: dict[str, str] = {}
    for _ in range(120):  # members change their minds; only each one's last choice counts
        m, option = rng.choice(members), rng.choice(["used", "all"])
        store.answer(code, m, 2, option)
        last[m] = option
    assert store.tally(code, token, 2) == Counter(last.values())
    assert sum(store.tally(code, token, 2).values()) == len(last)
    assert store.my_answer(code, members[0], 2) == last.get(members[0])
    store.set_step(code, token, "000", 3)
    assert store.state(code).step == 3 and store.state(code).lesson == "000"


def test_the_store_tells_its_listeners_of_each_move_and_of_nothing_else(store):
    heard: list[str] = []
    store.on_move(heard.append)
    store.on_move(lambda code: 1 / 0)  # a broken listener neither stops the move nor the others
    code, token = store.create("000", 1)
    member = new_member_id()
    store.join(code, member)
    store.answer(code, member, 1, "used")
    assert heard == []  # joining and answering move nobody
    store.set_step(code, token, "000", 2)
    store.reveal(code, token, 2)
    assert heard == [code, code] and store.state(code).position == ("000", 2, True)
    with pytest.raises(ClassError):
        store.set_step(code, "not-the-token", "000", 3)
    assert heard == [code, code]  # a refused move is no move


def test_a_member_cannot_drive_or_see_the_spread_before_the_reveal(store):
    code, token = store.create("003", 6)
    member = new_member_id()
    store.join(code, member)
    store.answer(code, member, 6, "near")
    for wrong in (member, "x" * 22, token[:-1] + ("A" if token[-1] != "A" else "B"), ""):
        with pytest.raises(ClassError) as e:
            store.set_step(code, wrong, "003", 7)
        assert code_of(e) == "not_teacher"
        with pytest.raises(ClassError):
            store.tally(code, wrong, 6)
        with pytest.raises(ClassError):
            store.reveal(code, wrong, 6)
    assert store.state(code).step == 6
    assert store.revealed_tally(code, 6) is None
    store.reveal(code, token, 6)
    assert store.revealed_tally(code, 6) == Counter({"near": 1})
    with pytest.raises(ClassError) as e:  # answers close at the reveal
        store.answer(code, member, 6, "far")
    assert code_of(e) == "revealed" and store.tally(code, token, 6) == Counter({"near": 1})


@pytest.mark.parametrize("raw", ["", "ABC", "ABCDEFG", "ABCD0O", "'; DROP", "*", "AB:CD:", "Ａ" * 6, "A" * 10_000,
                                 "embedviz:class:*"])
def test_hostile_or_malformed_codes_are_refused_before_the_store(raw):
    store = open_store("")
    with pytest.raises(ClassError) as e:
        store.join(raw, new_member_id())
    assert code_of(e) == "malformed" and len(str(e.value)) < 120


def test_member_ids_and_options_must_match_whole(store):
    code, token = store.create("000", 2)
    member = new_member_id()
    store.join(code, member)
    for bad_member in (member + "\n", "x" * 65, "ab:cd*ef"):
        with pytest.raises(ClassError) as e:
            store.join(code, bad_member)
        assert code_of(e) == "malformed"
    for bad_option in ("used\n", "used all", "a" * 41, ""):
        with pytest.raises(ClassError) as e:
            store.answer(code, member, 2, bad_option)
        assert code_of(e) == "malformed"
    assert store.tally(code, token, 2) == Counter()


def test_a_well_formed_code_of_no_class_is_unknown(store):
    with pytest.raises(ClassError) as e:
        store.join("ABCDEF", new_member_id())
    assert code_of(e) == "unknown"


def test_bounds_students_classes_and_answer_rate(store, monkeypatch):
    monkeypatch.setattr(classroom, "MAX_STUDENTS", 5)
    monkeypatch.setattr(classroom, "MAX_CLASSES", 3)
    code, token = store.create("000", 2)
    members = [new_member_id() for _ in range(5)]
    for m in members:
        store.join(code, m)
    store.join(code, members[0])  # joining again is not a new student
    with pytest.raises(ClassError) as e:
        store.join(code, new_member_id())
    assert code_of(e) == "full"
    store.create("000", 1), store.create("000", 1)
    with pytest.raises(ClassError) as e:
        store.create("000", 1)
    assert code_of(e) == "too_many_classes"
    with pytest.raises(ClassError) as e:
        for _ in range(classroom.ANSWER_LIMIT + 1):
            store.answer(code, members[1], 2, "used")
    assert code_of(e) == "rate"
    with pytest.raises(ClassError) as e:
        store.answer(code, new_member_id(), 2, "used")  # not joined
    assert code_of(e) == "unknown"


def test_a_class_expires_after_its_last_activity_in_memory():
    clock = Clock()
    store = ClassStore(MemoryBackend(clock))
    code, token = store.create("000", 2)
    member = new_member_id()
    clock.now += classroom.TTL_SECONDS - 10
    store.join(code, member)  # activity: the class lives on
    clock.now += classroom.TTL_SECONDS - 10
    assert store.state(code).step == 2
    clock.now += 11
    with pytest.raises(ClassError) as e:
        store.state(code)
    assert code_of(e) == "unknown"
    assert store.backend.zcount_live(classroom.PREFIX + "open", clock.now) == 0


def test_redis_keys_carry_the_ttl_and_nothing_lives_forever(redis_url):
    import redis

    client = redis.Redis.from_url(redis_url, decode_responses=True)
    client.flushdb()
    store = open_store(redis_url)
    code, token = store.create("000", 2)
    member = new_member_id()
    store.join(code, member)
    store.answer(code, member, 2, "all")
    keys = client.keys("*")
    assert classroom.PREFIX + "open" in keys
    for key in keys:  # the set of open classes too
        assert 0 < client.ttl(key) <= classroom.TTL_SECONDS, key
    assert token not in str([client.hgetall(k) for k in client.keys("*") if client.type(k) == "hash"])


def test_a_lost_store_says_offline():
    from deploy.launcher import free_port

    store = open_store(f"redis://127.0.0.1:{free_port()}/0")  # nobody listens there
    for call in (lambda: store.create("000", 1), lambda: store.state("ABCDEF"),
                 lambda: store.join("ABCDEF", new_member_id())):
        with pytest.raises(ClassError) as e:
            call()
        assert code_of(e) == "offline"
