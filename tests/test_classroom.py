"""The class store (embedviz/classroom/) on both backends: in memory, and a real redis-server on loopback."""
from __future__ import annotations

import random
from collections import Counter

import pytest

from deploy.redis_server import find_redis, redis_server
from embedviz.classroom import limits
from embedviz.classroom.backend import MemoryBackend
from embedviz.classroom.checks import CLIENT_RE, CODE_RE, ClassError, _digest
from embedviz.classroom.redis_backend import RedisBackend
from embedviz.classroom.seats import new_member_id
from embedviz.classroom.state import OPEN, PREFIX
from embedviz.classroom.store import REDIS_URL_ENV, ClassStore, open_store
from embedviz.classroom.votes import SUMMARY_COLUMNS, Votes, summary_csv


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
    monkeypatch.setenv(REDIS_URL_ENV, redis_url)
    assert isinstance(open_store().backend, RedisBackend)
    monkeypatch.delenv(REDIS_URL_ENV)
    assert isinstance(open_store().backend, MemoryBackend)


def test_teacher_drives_members_follow_and_tallies_match_a_naive_count(store):
    code, token = store.create("000", 2)
    assert CODE_RE.match(code) and token not in code
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
    monkeypatch.setattr(limits, "MAX_STUDENTS", 5)
    monkeypatch.setattr(limits, "MAX_CLASSES", 3)
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
        for _ in range(limits.ANSWER_LIMIT + 1):
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
    clock.now += limits.TTL_SECONDS - 10
    store.join(code, member)  # activity: the class lives on
    clock.now += limits.TTL_SECONDS - 10
    assert store.state(code).step == 2
    clock.now += 11
    with pytest.raises(ClassError) as e:
        store.state(code)
    assert code_of(e) == "unknown"
    assert store.backend.zcount_live(PREFIX + "open", clock.now) == 0


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
    assert PREFIX + "open" in keys
    for key in keys:  # the set of open classes too
        assert 0 < client.ttl(key) <= limits.TTL_SECONDS, key
    assert token not in str([client.hgetall(k) for k in client.keys("*") if client.type(k) == "hash"])


def test_a_lost_store_says_offline():
    from deploy.launcher import free_port

    store = open_store(f"redis://127.0.0.1:{free_port()}/0")  # nobody listens there
    for call in (lambda: store.create("000", 1), lambda: store.state("ABCDEF"),
                 lambda: store.join("ABCDEF", new_member_id())):
        with pytest.raises(ClassError) as e:
            call()
        assert code_of(e) == "offline"


# seats, Leave, limits per client


def test_leave_closes_the_class_and_its_followers_are_told(store):
    heard: list[str] = []
    store.on_move(heard.append)
    code, token = store.create("000", 2)
    member = new_member_id()
    store.join(code, member)
    store.answer(code, member, 2, "used")
    with pytest.raises(ClassError) as e:
        store.close(code, "not-the-token")
    assert code_of(e) == "not_teacher" and store.state(code).step == 2
    store.close(code, token)
    assert heard == [code] and not store.known_open(code)
    for call in (lambda: store.state(code), lambda: store.join(code, new_member_id())):
        with pytest.raises(ClassError) as e:
            call()
        assert code_of(e) == "unknown"
    if isinstance(store.backend, RedisBackend):  # nothing of it is left in Redis but answer-rate counters (seconds)
        import redis

        client = redis.Redis.from_url(_url(store), decode_responses=True)
        left = client.keys(f"{PREFIX}{code}*")
        assert all(":rate:" in k and client.ttl(k) <= 2 * limits.RATE_WINDOW for k in left), left


def _url(store) -> str:
    kwargs = store.backend._r.connection_pool.connection_kwargs
    return f"redis://{kwargs['host']}:{kwargs['port']}/{kwargs.get('db', 0)}"


def test_a_seat_belongs_to_one_session_comes_back_when_it_ends_and_a_full_class_refuses_only_newcomers(store, monkeypatch):
    monkeypatch.setattr(limits, "MAX_STUDENTS", 3)
    code, token = store.create("000", 1)
    seats = [new_member_id() for _ in range(3)]
    for k, seat in enumerate(seats):
        store.join(code, seat, f"session-{k}")
    assert store.seats(code, token) == 3
    store.join(code, seats[0], "session-0")  # the same tab again (a rerun): the same seat
    with pytest.raises(ClassError) as e:
        store.join(code, seats[0], "session-9")  # another live tab with that seat's link
    assert code_of(e) == "seat_taken"
    store.join(code, seats[0], "session-9", gone=lambda holder: holder == "session-0")  # a reload: it ended here
    with pytest.raises(ClassError) as e:
        store.join(code, new_member_id(), "session-5")
    assert code_of(e) == "full"
    store.leave(code, seats[1], "session-8")  # not the holder: nothing happens
    assert store.seats(code, token) == 3
    store.leave(code, seats[1], "session-1")  # its session ended
    assert store.seats(code, token) == 2
    store.join(code, new_member_id(), "session-5")
    with pytest.raises(ClassError) as e:
        store.seats(code, "x" * 22)
    assert code_of(e) == "not_teacher"


def test_classes_per_client_open_at_once_and_started_per_window(store, monkeypatch):
    monkeypatch.setattr(limits, "OPEN_PER_CLIENT", 2)
    monkeypatch.setattr(limits, "STARTS_PER_CLIENT", 4)
    a, b = "a" * 16, "b" * 16
    made = [store.create("000", 1, client=a) for _ in range(2)]
    with pytest.raises(ClassError) as e:
        store.create("000", 1, client=a)
    assert code_of(e) == "client_classes"
    store.create("000", 1, client=b)  # another address is not held back
    store.close(*made[0])  # Leave gives the client's place back
    for _ in range(2):
        store.close(*store.create("000", 1, client=a))
    with pytest.raises(ClassError) as e:  # 4 started in this window (a refused one is not a start)
        store.create("000", 1, client=a)
    assert code_of(e) == "client_starts"
    for client in ("10.0.0.1", "A" * 16, ""):
        with pytest.raises(ClassError) as e:
            store.create("000", 1, client=client)
        assert code_of(e) == "malformed"
    for lesson, step in (("../../x", 1), ("000", 0), ("000", 10 ** 6), ("000", True), ("000", "2")):
        with pytest.raises(ClassError) as e:
            store.create(lesson, step, client=b)
        assert code_of(e) == "malformed"


def test_an_answer_counts_only_on_the_classs_step_and_answers_are_bounded(store, monkeypatch):
    monkeypatch.setattr(limits, "MAX_STUDENTS", 2)
    code, token = store.create("000", 2)
    members = [new_member_id() for _ in range(5)]
    store.join(code, members[0])
    with pytest.raises(ClassError) as e:
        store.answer(code, members[0], 3, "used")
    assert code_of(e) == "moved"
    for m in members[:4]:  # seats come and go: each answer is kept, up to twice a full class
        store.join(code, m)
        store.answer(code, m, 2, "used")
        store.leave(code, m)
    store.join(code, members[4])
    with pytest.raises(ClassError) as e:
        store.answer(code, members[4], 2, "used")
    assert code_of(e) == "full"
    store.join(code, members[0])
    store.answer(code, members[0], 2, "all")  # one already counted may still change their mind
    assert store.tally(code, token, 2) == Counter({"used": 3, "all": 1})
    assert store.my_answer(code, members[0], 2) == "all" and store.my_answer(code, members[4], 2) is None


def test_codes_seen_open_are_known_until_they_close_or_expire():
    clock = Clock()
    store = ClassStore(MemoryBackend(clock))
    code, token = store.create("000", 1)
    other = ClassStore(store.backend)  # another replica of the same store
    assert store.known_open(code) and not other.known_open(code)
    other.join(code, new_member_id())
    assert other.known_open(code)
    clock.now += limits.TTL_SECONDS + 1
    with pytest.raises(ClassError):
        other.state(code)
    assert not other.known_open(code)


# a store that answers what it never writes


def _seed(client, code: str, case: str) -> None:
    """Write class ``code`` into Redis as the store never would (``case`` says how)."""
    key = PREFIX + code
    fine = {"lesson": "000", "step": "2", "revealed": "", "token": _digest("t")}
    members, answers = key + ":members", key + ":answers:2"
    client.delete(key, members, answers, OPEN)
    seeds = {
        "step ²": {**fine, "step": "²"}, "step ①": {**fine, "step": "①"}, "step abc": {**fine, "step": "abc"},
        "step 0": {**fine, "step": "0"}, "step of 20 digits": {**fine, "step": "9" * 20},
        "revealed x": {**fine, "revealed": "1,x"}, "no token": {k: v for k, v in fine.items() if k != "token"},
        "token not hex": {**fine, "token": "é" * 64}, "lesson ../x": {**fine, "lesson": "../x"},
        "a 4 MB field": {**fine, "revealed": "1," * 2_000_000},
        "50,000 fields": {**fine, **{f"f{i}": "v" for i in range(50_000)}},
        "an unknown client": {**fine, "by": "not-a-client"},
    }
    if case in seeds:
        client.hset(key, mapping=seeds[case])
    elif case == "a class of another type":
        client.rpush(key, "a", "b")
    elif case == "bytes that are no UTF-8":
        client.hset(key, mapping={**fine, "lesson": b"\xff\xfe\xfd"})
    elif case == "seats of another type":
        client.hset(key, mapping=fine)
        client.set(members, "x")
    elif case == "a seat held by a megabyte":
        client.hset(key, mapping=fine)
        client.hset(members, "member-aaaa-1111", "s" * 1_000_000)
    elif case == "answers of megabytes":
        client.hset(key, mapping=fine)
        client.hset(answers, mapping={f"member-{i:06d}": "o" * 10_000 for i in range(500)})
    elif case == "answers that are no option":
        client.hset(key, mapping=fine)
        client.hset(answers, mapping={"member-aaaa-2222": "<script>"})
    elif case == "open classes of another type":
        client.set(OPEN, "x")
    else:
        raise AssertionError(case)


HOSTILE_SEEDS = ["step ²", "step ①", "step abc", "step 0", "step of 20 digits", "revealed x", "no token",
                 "token not hex", "lesson ../x", "a 4 MB field", "50,000 fields", "an unknown client",
                 "a class of another type", "bytes that are no UTF-8", "seats of another type",
                 "a seat held by a megabyte", "answers of megabytes", "answers that are no option",
                 "open classes of another type"]


@pytest.mark.parametrize("case", HOSTILE_SEEDS)
def test_a_store_holding_what_it_never_writes_is_offline_for_every_call_and_each_read_is_bounded(redis_url, case):
    """Before: TypeError / ValueError / KeyError / UnicodeDecodeError escaped the store (Streamlit's error box, a 500
    from the follow route), and a hash of 200,000 fields cost 0.4 s of CPU per read (create() read up to 20)."""
    import time

    import redis

    client = redis.Redis.from_url(redis_url)
    code = "HSTRK2"
    _seed(client, code, case)
    store = open_store(redis_url)
    calls = {
        "state": lambda: store.state(code), "join": lambda: store.join(code, "member-aaaa-1111", "s1"),
        "is_teacher": lambda: store.is_teacher(code, "t"), "set_step": lambda: store.set_step(code, "t", "000", 3),
        "reveal": lambda: store.reveal(code, "t", 2), "tally": lambda: store.tally(code, "t", 2),
        "answer": lambda: store.answer(code, "member-aaaa-2222", 2, "used"),
        "my_answer": lambda: store.my_answer(code, "member-aaaa-2222", 2),
        "revealed_tally": lambda: store.revealed_tally(code, 2), "seats": lambda: store.seats(code, "t"),
        "close": lambda: store.close(code, "t"), "create": lambda: store.create("000", 1),
    }
    offline = []
    began = time.process_time()
    for name, call in calls.items():
        try:
            call()
        except ClassError as error:
            offline.append(name) if error.code == "offline" else None
    spent = time.process_time() - began
    # whatever the seed broke answers "offline"; the calls it does not concern may work (a class's answers are not
    # read to join it), but none raises anything but a ClassError
    assert offline, case
    assert spent < 0.5, f"{case}: {spent:.2f} s of CPU for {len(calls)} calls"
    client.flushdb()


def test_every_field_the_store_writes_reads_back(redis_url):
    """The oracle of the checks above: what the store itself writes passes them (a class in every state)."""
    import redis

    redis.Redis.from_url(redis_url).flushdb()
    store = open_store(redis_url)
    code, token = store.create("000", 2, client="f" * 16)
    for k in range(1, 4):
        m = new_member_id()
        store.join(code, m, f"session-{k}")
        store.answer(code, m, 2, "used")
    store.show_spread(code, token, 2, True)
    store.vote_again(code, token, 2)
    store.show_spread(code, token, 2, True)
    store.answer(code, m, 2, "all")
    store.reveal(code, token, 2)
    store.set_step(code, token, "000", 999_999)
    assert store.state(code).position == ("000", 999_999, False) and store.tally(code, token, 2) == Counter(all=1)
    assert store.votes(code, token, 2) == Votes(Counter(used=3), Counter(all=1))
    assert store.state(code).follow == ("000", 999_999, False, 1, False) and store.state(code).shown == {2}


def test_addresses_are_kept_as_clients_loopback_as_local_and_ipv6_by_its_64():
    from embedviz.client_limits import address_key

    assert address_key(None) == address_key("") == address_key("127.0.0.1") == address_key("::1") == "local"
    assert address_key("10.0.0.1") == address_key("::ffff:10.0.0.1") != address_key("10.0.0.2")
    assert address_key("2001:db8::1") == address_key("2001:db8::ffff:1") != address_key("2001:db8:0:1::1")
    assert CLIENT_RE.fullmatch(address_key("10.0.0.1")) and "10.0.0.1" not in address_key("10.0.0.1")


def test_keyed_buckets_stay_bounded_and_forget_only_what_a_new_bucket_repeats():
    from embedviz.client_limits import Buckets

    clock = Clock()
    buckets = Buckets(1.0, 2, keys=4, clock=clock)
    assert [buckets.take("a") for _ in range(3)] == [True, True, False]
    for k in range(20):  # many other clients, each once
        buckets.take(f"k{k}")
    assert len(buckets._buckets) <= 4
    clock.now += 2
    assert [buckets.take("a") for _ in range(3)] == [True, True, False]  # refilled: the same as a new bucket


def test_a_waiting_request_queues_behind_those_already_waiting_and_gives_up_past_its_wait():
    from embedviz.client_limits import Buckets

    clock = Clock()
    buckets = Buckets(2.0, 2, clock=clock)  # 2 a second, 2 at once
    waits = [buckets.wait("a", 1.0) for _ in range(5)]
    # two tokens are there; the next ones wait 0.5 s, 1.0 s behind each other; the fifth would wait 1.5 s > 1.0 s
    assert waits == [0.0, 0.0, 0.5, 1.0, None]
    assert buckets.wait("b", 1.0) == 0.0  # another address has its own bucket
    clock.now += 1.0  # the two that waited have had their tokens
    assert buckets.wait("a", 1.0) == 0.5 and not buckets.take("a")


# peer instruction: vote, discuss, vote again, reveal; the class summary


def test_vote_again_keeps_the_first_vote_and_counts_the_second_from_none(store):
    code, token = store.create("000", 2)
    members = [new_member_id() for _ in range(5)]
    for m in members:
        store.join(code, m)
    first = dict(zip(members, ["used", "all", "all", "all", "used"]))
    for m, option in first.items():
        store.answer(code, m, 2, option)
    assert store.state(code).vote(2) == 1 and store.votes(code, token, 2) == Votes(Counter(first.values()))
    before = store.state(code).follow
    store.vote_again(code, token, 2)
    assert store.state(code).follow != before and store.state(code).vote(2) == 2  # the followers rerun
    assert store.my_answer(code, members[0], 2) is None and store.tally(code, token, 2) == Counter()
    second = dict(zip(members[:4], ["used", "used", "used", "all"]))  # one student does not answer again
    for m, option in second.items():
        store.answer(code, m, 2, option)
    votes = store.votes(code, token, 2)
    assert (votes.first, votes.second) == (Counter(first.values()), Counter(second.values()))
    assert votes.current == store.tally(code, token, 2)
    store.vote_again(code, token, 2)  # asked again: the second vote starts over, the first is still the first
    assert store.votes(code, token, 2) == Votes(Counter(first.values()), Counter())
    for m, option in second.items():
        store.answer(code, m, 2, option)
    # a member sees nothing before the reveal, both votes after it
    assert store.shown_votes(code, 2) is None and store.revealed_tally(code, 2) is None
    store.reveal(code, token, 2)
    assert store.shown_votes(code, 2) == Votes(Counter(first.values()), Counter(second.values()))
    with pytest.raises(ClassError) as e:
        store.vote_again(code, token, 2)
    assert code_of(e) == "revealed"
    with pytest.raises(ClassError) as e:
        store.vote_again(code, "not-the-token", 2)
    assert code_of(e) == "not_teacher"


def test_the_spread_is_shown_to_the_class_only_while_the_teacher_shows_it(store):
    code, token = store.create("000", 2)
    m = new_member_id()
    store.join(code, m)
    store.answer(code, m, 2, "all")
    assert store.shown_votes(code, 2) is None and not store.state(code).follow[-1]  # off by default
    store.show_spread(code, token, 2, True)
    assert store.shown_votes(code, 2) == Votes(Counter(all=1)) and store.state(code).follow[-1]
    with pytest.raises(ClassError):
        store.show_spread(code, m, 2, False)  # a member cannot
    store.vote_again(code, token, 2)  # a second vote hides the spread again: students answer without it
    assert store.shown_votes(code, 2) is None
    store.show_spread(code, token, 2, True)
    store.show_spread(code, token, 2, False)
    assert store.shown_votes(code, 2) is None


def test_the_summary_counts_each_question_on_both_votes_against_a_naive_count_and_names_nobody(store):
    questions = {2: "gradient_rows", 3: "gradient_rows", 6: "fastest_pair", 10: "concat"}
    right = {2: "used", 3: "all", 6: "first", 10: "same"}
    code, token = store.create("000", 1)
    rng = random.Random(1)
    members = [new_member_id() for _ in range(12)]
    for m in members:
        store.join(code, m)
    expected, asked = {}, []
    for step, options in ((2, ["used", "all"]), (6, ["first", "middle", "last"]), (10, ["same", "twice", "four"])):
        store.set_step(code, token, "000", step)
        first = {m: rng.choice(options) for m in members if rng.random() < 0.9}
        for m, o in first.items():
            store.answer(code, m, step, o)
        second = None
        if step != 10:  # step 10: one vote only
            store.vote_again(code, token, step)
            second = {m: rng.choice(options) for m in members if rng.random() < 0.8}
            for m, o in second.items():
                store.answer(code, m, step, o)
        store.reveal(code, token, step)
        expected[step] = (len(first), sum(o == right[step] for o in first.values()),
                          None if second is None else len(second),
                          None if second is None else sum(o == right[step] for o in second.values()))
    rows = store.summary(code, token, questions, lambda step: asked.append(step) or right[step])
    assert [r.step for r in rows] == [2, 3, 6, 10]
    got = {r.step: (r.answered_first, r.right_first, r.answered_second, r.right_second) for r in rows}
    assert got == {**expected, 3: (0, 0, None, None)}
    assert sorted(asked) == [2, 6, 10]  # step 3 had no answers: its right answer was never computed
    text = summary_csv("000", rows)
    import csv
    import io

    table = list(csv.reader(io.StringIO(text)))
    assert table[0] == list(SUMMARY_COLUMNS) and len(table) == 5
    assert table[4] == ["000", "10", "concat", str(expected[10][0]), str(expected[10][1]), "", ""]
    assert not any(m in text for m in members) and token not in text and code not in text
    with pytest.raises(ClassError):
        store.summary(code, members[0], questions, right.get)


def test_a_class_moved_to_another_lesson_starts_its_questions_afresh(store):
    code, token = store.create("000", 2)
    m = new_member_id()
    store.join(code, m)
    store.answer(code, m, 2, "used")
    store.vote_again(code, token, 2)
    store.show_spread(code, token, 2, True)
    store.reveal(code, token, 2)
    store.set_step(code, token, "001", 2)  # lesson 001's step 2 is another question
    state = store.state(code)
    assert (state.revealed, state.shown, state.second) == (frozenset(), frozenset(), frozenset())
    assert store.votes(code, token, 2) == Votes(Counter())


# a class that survives its store


def test_a_class_the_store_lost_is_written_back_by_its_teacher_under_the_same_code_and_nothing_else_is(redis_url):
    import redis

    client = redis.Redis.from_url(redis_url)
    client.flushdb()
    store = open_store(redis_url)
    code, token = store.create("000", 1)
    members = [new_member_id() for _ in range(3)]
    for k, m in enumerate(members):
        store.join(code, m, f"session-{k}")
    store.set_step(code, token, "000", 2)
    for m, o in zip(members, ["used", "all", "all"]):
        store.answer(code, m, 2, o)
    store.vote_again(code, token, 2)
    store.answer(code, members[0], 2, "used")
    store.show_spread(code, token, 2, True)
    before, votes, seats = store.state(code), store.votes(code, token, 2), store.seats(code, token)
    kept = store.snapshot(code, token)
    assert not any(token in v for v in kept.fields.values())  # the key's digest, not the key
    client.flushdb()  # the store restarted without persistence
    with pytest.raises(ClassError) as e:
        store.state(code)
    assert code_of(e) == "unknown" and not store.closed(code)
    other = open_store(redis_url)  # another replica, where no teacher of this class proved their key
    for wrong in (lambda: other.restore(code, token), lambda: store.restore(code, token[:-1] + "x", kept),
                  lambda: other.restore(code, "x" * 22, None, ("000", 2))):
        with pytest.raises(ClassError) as e:
            wrong()
        assert code_of(e) == "unknown"
    heard = []
    store.on_move(heard.append)
    assert store.restore(code, token, kept) == before and heard == [code]  # the followers are told at once
    assert store.votes(code, token, 2) == votes and store.seats(code, token) == seats
    store.answer(code, members[1], 2, "all")  # a seated student answers on as before
    assert store.tally(code, token, 2) == Counter(used=1, all=1)
    assert store.restore(code, token, kept).step == 2  # a class the store holds is not written over
    assert store.tally(code, token, 2) == Counter(used=1, all=1)
    # a link alone (a teacher's reload while the store was away): empty at the link's step, on the process where
    # the key was proved; never with another key
    client.flushdb()
    assert store.restore(code, token, None, ("000", 3)).position == ("000", 3, False)
    # a class its teacher closed stays closed
    store.close(code, token)
    with pytest.raises(ClassError) as e:
        store.restore(code, token, kept)
    assert code_of(e) == "unknown" and store.closed(code)
    client.flushdb()


def test_a_lost_store_is_retried_half_a_second_then_doubling_up_to_three():
    from embedviz.client_limits import retry_delay

    assert [retry_delay(n) for n in range(6)] == [0.5, 1.0, 2.0, 3.0, 3.0, 3.0]
