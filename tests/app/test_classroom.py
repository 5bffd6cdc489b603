"""A class through the whole app (app.py) in AppTest: the teacher starts it from the tour controls, students join
by link or code and follow, answers are counted for the teacher only, the reveal reaches everyone; bad codes,
bad teacher keys and a lost store are refused in the reader's language."""
from __future__ import annotations

from collections import Counter

import pytest
from streamlit.testing.v1 import AppTest

from embedviz import client_limits
from embedviz.lessons import tours
from embedviz.classroom import limits
from embedviz.classroom.checks import CODE_ALPHABET, ClassError
from embedviz.classroom.store import REDIS_URL_ENV
from embedviz.app import classroom_controls, classroom_seats, classroom_view
from embedviz.lessons.widget_keys import Classroom, Tour
from tests.app.pagetest import ok
from tests.app.test_tours import app, option_text, text

LESSON, QUESTION = "000", 2  # step 2 of tour 000 asks which rows get a gradient


@pytest.fixture(autouse=True)
def memory_store(monkeypatch):
    monkeypatch.delenv(REDIS_URL_ENV, raising=False)
    # every AppTest is the same "local" address: a fresh store and budget, so the classes of one test are not
    # another's (the process's store outlives the app's cache of it)
    monkeypatch.setattr(client_limits, "_guesses", None)
    monkeypatch.setattr("embedviz.classroom.store._SHARED", {})
    classroom_view.store.clear()
    yield
    classroom_view.store.clear()


def button(at: AppTest, key: str):
    return next(b for b in at.button if b.key == key)


def markdowns(at: AppTest) -> str:
    return "\n".join([m.value for m in at.markdown] + [c.value for c in at.caption])


def teacher(step: int = 1, lang: str = "en") -> tuple[AppTest, str, str]:
    at = app(LESSON, step, lang=lang).run()
    button(at, Classroom.START).click().run()
    ok(at)
    code, token = at.query_params["class"], at.query_params["teacher"]
    assert text("classroom.code_big", lang, code=code) in markdowns(at)
    return at, code, token




ROOT_APP = __import__("tests.conftest", fromlist=["ROOT"]).ROOT / "app.py"


def join(code: str, lang: str = "en", **query) -> AppTest:
    from tests.conftest import ROOT

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.query_params["class"] = code
    for k, v in query.items():
        at.query_params[k] = v
    at.session_state["lang"] = lang
    return at.run()


def test_students_follow_answer_and_the_teacher_sees_the_spread_then_reveals():
    t_at, code, token = teacher(QUESTION - 1)
    s1, s2 = join(code), join(code.lower())
    for s in (s1, s2):
        ok(s)
        assert s.query_params["tour"] == LESSON and s.query_params["step"] == str(QUESTION - 1)
        assert button(s, Tour.NEXT).disabled  # a following student cannot move the tour
    button(t_at, Tour.NEXT).click().run()
    ok(t_at)
    step = tours.step(LESSON, QUESTION)
    assert classroom_view.store().state(code).step == QUESTION
    for s, choice in ((s1, 0), (s2, 1)):
        s.run()
        assert s.query_params["step"] == str(QUESTION)
        s.radio[0].set_value(option_text(step, choice)).run()
        ok(s)
        assert text("classroom.wait_reveal", "en") in markdowns(s)
        assert not s.get("plotly_chart")  # the figure waits for the reveal
        # a student sees neither how many answered nor the spread before the reveal
        shown = markdowns(s)
        assert not any(text("classroom.answered", "en", n=n) in shown for n in range(3))
        assert text("classroom.spread", "en", spread="§").split("§")[0] not in shown
    s2.radio[0].set_value(option_text(step, 0)).run()  # a change of mind replaces the first choice
    t_at.run()
    shown = markdowns(t_at)
    assert text("classroom.answered", "en", n=2) in shown
    spread = " · ".join(f"{option_text(step, o)}: {n}" for o, n in zip(step.question.options, (2, 0)))
    assert text("classroom.spread", "en", spread=spread) in shown
    assert not t_at.get("plotly_chart")
    button(t_at, Classroom.reveal(LESSON, QUESTION)).click().run()
    ok(t_at)
    assert t_at.get("plotly_chart")
    for s in (s1, s2):
        s.run()
        ok(s)
        assert text("classroom.spread", "en", spread=spread) in markdowns(s) and s.get("plotly_chart")


def test_a_student_can_step_away_and_come_back():
    t_at, code, token = teacher(1)
    s = join(code)
    button(s, Classroom.AWAY).click().run()
    assert not button(s, Tour.NEXT).disabled
    button(s, Tour.NEXT).click().run()
    assert s.query_params["step"] == "2" and classroom_view.store().state(code).step == 1  # a student's Next is theirs
    for _ in range(3):
        button(t_at, Tour.NEXT).click().run()
    ok(t_at)
    assert classroom_view.store().state(code).step == 4
    # step 4 is on another page: the switch kept the class and the teacher's key in the teacher's address
    assert (t_at.query_params["class"], t_at.query_params["teacher"]) == (code, token)
    s.run()
    assert s.query_params["step"] == "2"  # exploring: the teacher's moves do not pull them
    button(s, Classroom.BACK).click().run()
    ok(s)
    assert (s.query_params["step"], s.query_params["class"]) == ("4", code) and "teacher" not in s.query_params


def test_a_follower_moved_onto_another_page_draws_the_sidebar_once(monkeypatch):
    """The switch to the teacher's page happens before the sidebar and the panel are drawn: the run a switch throws
    away drew nothing (a whole class pays for it at once), and the student arrives with the step's settings."""
    from embedviz.app import tour

    t_at, code, _ = teacher(3)
    s = join(code)
    ok(s)
    assert s.query_params["step"] == "3"
    button(t_at, Tour.NEXT).click().run()  # step 4 lives on another page (Compare)
    assert tours.step(LESSON, 4).page != tours.step(LESSON, 3).page
    drawn = []
    sidebar = tour.sidebar_controls
    monkeypatch.setattr(tour, "sidebar_controls", lambda: (drawn.append(1), sidebar())[1])
    s.run()
    ok(s)
    assert len(drawn) == 1, "the run before the switch drew the sidebar too"
    assert (s.query_params["tour"], s.query_params["step"], s.query_params["class"]) == (LESSON, "4", code)
    for key, value in tours.step(LESSON, 4).settings.items():
        assert tour._holds(s.session_state[key], value), key
    assert s.title and s.title[0].value == text("cmp.title", "en")  # the page itself ran, after the panel
    assert button(s, Tour.NEXT).disabled


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_wrong_expired_and_hostile_codes_are_refused_in_the_readers_language(lang):
    at = join("ZZZZZZ", lang)
    ok(at, errors_allowed=True)
    assert [e.value for e in at.error] == [text("classroom.err.unknown", lang, raw="ZZZZZZ")]
    assert "class" not in at.query_params
    hostile = join("[x](http://evil.example)<script>" * 50, lang)
    ok(hostile, errors_allowed=True)
    assert not any(c in hostile.error[0].value for c in ("<", "[", "](", "://"))  # no markup or link from the URL
    assert len(hostile.error) == 1 and hostile.error[0].value.startswith(text("classroom.err.malformed", lang, raw="§").split("§")[0])
    # typed into the tour controls: unicode, injection-like, a key pattern; each refused, repeated harmlessly
    for typed, shown in (("课堂代码", ""), ("'; DROP--", "DROP"), ("embedviz:*", "embedviz"), ("ＡＢＣ２３４", ""),
                         ("A\nBCDEF", "ABCDEF")):
        at.text_input(key=Classroom.CODE_INPUT).set_value(typed).run()
        button(at, Classroom.JOIN).click().run()
        ok(at, errors_allowed=True)
        expected = text("classroom.err.malformed", lang, raw=shown) if shown else text("classroom.err.not_a_code", lang)
        assert [e.value for e in at.error] == [expected], typed
        assert "class" not in at.query_params


def test_a_wrong_teacher_key_joins_as_a_student_who_cannot_drive_or_see_answers():
    t_at, code, token = teacher(QUESTION)
    fake = join(code, teacher=token[:-2] + "xx")
    ok(fake, errors_allowed=True)
    assert [e.value for e in fake.error] == [text("classroom.err.not_teacher", "en", raw=code)]
    assert button(fake, Tour.NEXT).disabled
    assert not any(b.key.startswith(Classroom.REVEAL) for b in fake.button)
    assert text("classroom.answered", "en", n=0) not in markdowns(fake)
    assert classroom_view.store().state(code).step == QUESTION


def test_a_lost_store_says_not_connected_and_the_tour_goes_on(monkeypatch):
    from deploy.launcher import free_port

    monkeypatch.setenv(REDIS_URL_ENV, f"redis://127.0.0.1:{free_port()}/0")
    classroom_view.store.clear()
    at = app(LESSON, 1, lang="zh").run()
    button(at, Classroom.START).click().run()
    ok(at)
    assert [w.value for w in at.warning] == [text("classroom.err.offline", "zh")]
    assert "class" not in at.query_params
    button(at, Tour.NEXT).click().run()
    ok(at)
    assert at.query_params["step"] == "2"


def test_a_store_lost_mid_class_keeps_the_class_says_reconnecting_and_the_class_comes_back_with_its_answers(
        monkeypatch):
    """Redis stopped mid-class, then started again empty: meanwhile both sides keep the class (and ``class=``) and say
    they are reconnecting, in their language, and the question stays a class question; once it is back the
    teacher's tab writes the class back (its step and the answers it held) and the student follows it again."""
    from deploy.redis_server import find_redis
    from tests.redis_restart import RestartableRedis

    if find_redis() is None:
        pytest.fail("redis-server is not installed (`apt-get install redis-server`; .ci/run installs it)")
    with RestartableRedis() as redis_:
        monkeypatch.setenv(REDIS_URL_ENV, redis_.url)
        classroom_view.store.clear()
        t_at, code, token = teacher(QUESTION)
        s = join(code, "zh")
        assert s.query_params["step"] == str(QUESTION)
        s.radio[0].set_value(option_text(tours.step(LESSON, QUESTION), 0, "zh")).run()
        t_at.run()  # the teacher's heartbeat keeps a copy of the class, its answer too
        redis_.stop()
        for at, lang, key in ((t_at, "en", "classroom.reconnecting_teacher"), (s, "zh", "classroom.reconnecting")):
            at.run()
            ok(at)
            assert [w.value for w in at.warning] == [text(key, lang, code=code)]
            assert at.query_params["class"] == code and not at.get("plotly_chart")
        assert t_at.query_params["teacher"] == token and button(s, Tour.NEXT).disabled  # still in the class
        redis_.start()  # back, and empty
        for at in (t_at, s):
            at.session_state[classroom_view.RECONNECT][1] = 0  # the backoff's next try is now
        t_at.run()
        ok(t_at)
        assert not t_at.warning and classroom_view.store().state(code).step == QUESTION
        assert classroom_view.store().tally(code, token, QUESTION) == Counter({tours.step(LESSON, QUESTION).question.options[0]: 1})
        button(t_at, Tour.NEXT).click().run()
        s.run()
        ok(s)
        assert not s.warning and s.query_params["step"] == str(QUESTION + 1) and s.query_params["class"] == code


def test_presenter_view_shows_the_join_link_as_a_locally_drawn_qr_code():
    at = app(LESSON, 1, present="true").run()
    button(at, Classroom.START).click().run()
    ok(at)
    images = at.get("image")
    assert len(images) == 1
    import base64

    url = images[0].proto.imgs[0].url
    # drawn here, no network: the picture is inline SVG data, not the address of a QR service
    assert url.startswith("data:image/svg+xml;base64,")
    svg = base64.b64decode(url.split(",", 1)[1]).decode()
    assert svg.startswith("<svg") and svg.count("<path") >= 2


# Leave, seats, limits, steps that are no number, an answer the class refuses


def test_the_teachers_leave_closes_the_class_and_its_students_are_told():
    t_at, code, token = teacher(1)
    s = join(code)
    ok(s)
    button(t_at, Classroom.LEAVE).click().run()
    ok(t_at)
    with pytest.raises(ClassError):
        classroom_view.store().state(code)
    assert "class" not in t_at.query_params and not classroom_view.store().known_open(code)
    s.run()
    ok(s, errors_allowed=True)
    assert [e.value for e in s.error] == [text("classroom.err.unknown", "en", raw=code)] and "class" not in s.query_params
    assert not button(s, Tour.NEXT).disabled  # the tour goes on without the class


def test_a_student_keeps_their_seat_across_a_reload_and_gives_it_back_on_leave():
    t_at, code, token = teacher(1)
    s = join(code)
    seat = s.query_params["seat"]
    again = join(code, seat=seat)  # the reload: a new session with the student's own link
    ok(again)
    assert again.query_params["seat"] == seat and classroom_view.store().seats(code, token) == 1
    button(again, Classroom.LEAVE).click().run()
    ok(again)
    assert classroom_view.store().seats(code, token) == 0 and "seat" not in again.query_params


def test_a_full_class_is_said_to_the_teacher(monkeypatch):
    monkeypatch.setattr(limits, "MAX_STUDENTS", 1)
    t_at, code, token = teacher(1)
    ok(join(code))
    t_at.run()
    ok(t_at)
    assert [w.value for w in t_at.warning] == [text("classroom.full_teacher", "en", code=code, n=1)]
    late = join(code)
    assert [e.value for e in late.error] == [text("classroom.err.full", "en", raw=code)]


@pytest.mark.parametrize("query", [{"tour": "zzz"}, {"tour": "../../x"}, {"tour": "000", "step": "1" * 20},
                                   {"tour": "000", "step": "²"}, {"tour": "000", "step": "①"}])
def test_start_is_off_on_anything_but_a_tour_step(query):
    """(A forged press of the disabled button: tests/test_hostile_session.py, on a real server.)"""
    at = AppTest.from_file(str(ROOT_APP), default_timeout=120)
    for k, v in query.items():
        at.query_params[k] = v
    at.run()
    ok(at, errors_allowed=True)
    assert button(at, Classroom.START).disabled


def test_a_teachers_link_edited_to_a_step_that_is_no_number_says_so_and_keeps_the_class():
    """Before: "²".isdigit() is true and int("²") raised in the teacher's every run."""
    t_at, code, token = teacher(2)
    for step in ("²", "①", "٣"):
        t_at.query_params["step"] = step
        t_at.run()
        ok(t_at, errors_allowed=True)
        assert t_at.error and t_at.query_params["class"] == code
        assert classroom_view.store().state(code).step == 2  # the class stays where it was


def test_codes_no_class_has_are_limited_per_session_and_a_class_known_open_is_not(monkeypatch):
    t_at, code, _ = teacher(1)
    at = join("ZZZZZZ")
    tried = [at.error[0].value]
    for c in CODE_ALPHABET[:classroom_controls.GUESS_BURST]:
        at.text_input(key=Classroom.CODE_INPUT).set_value(f"ZZZZZ{c}").run()
        button(at, Classroom.JOIN).click().run()
        tried.append(at.error[0].value)
    assert tried[:classroom_controls.GUESS_BURST] == [text("classroom.err.unknown", "en", raw=f"ZZZZZ{c}")
                                                  for c in "Z" + CODE_ALPHABET[:classroom_controls.GUESS_BURST - 1]]
    assert tried[-1] == text("classroom.err.guesses", "en", raw=f"ZZZZZ{CODE_ALPHABET[classroom_controls.GUESS_BURST - 1]}")
    at.text_input(key=Classroom.CODE_INPUT).set_value(code).run()  # the class started on this server: no guess
    button(at, Classroom.JOIN).click().run()
    ok(at)
    assert at.query_params["class"] == code


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_an_answer_refused_by_the_rate_limit_is_told_and_the_radio_shows_what_the_class_counts(monkeypatch, lang):
    """Before: the radio showed the refused choice and nothing was said, while the teacher counted the one before."""
    monkeypatch.setattr(limits, "ANSWER_LIMIT", 3)
    monkeypatch.setattr(limits, "RATE_WINDOW", 10**9)  # one window for the whole test, however slow the machine
    t_at, code, token = teacher(QUESTION)
    s = join(code, lang)
    step = tours.step(LESSON, QUESTION)
    picks = [0, 1, 0, 1]  # the fourth is past the limit
    for choice in picks:
        s.radio[0].set_value(option_text(step, choice, lang)).run()
    counted = step.question.options[picks[2]]
    assert classroom_view.store().tally(code, token, QUESTION) == {counted: 1}
    assert s.radio[0].value == option_text(step, counted, lang)
    assert [w.value for w in s.warning] == [text("classroom.answer_kept", lang, answer=option_text(step, counted, lang))]
    ok(s)
    s.run()  # said once
    assert not s.warning and s.radio[0].value == option_text(step, counted, lang)


def test_a_seat_given_back_while_the_tab_was_away_is_taken_again_at_its_next_answer():
    """A lost network closes the tab's socket (the seat goes back) and a reconnect resumes the same session: its next
    answer, which runs before anything else of the run, takes the seat again and counts."""
    t_at, code, token = teacher(QUESTION)
    s = join(code)
    assert classroom_view.store().seats(code, token) == 1
    classroom_seats.session_ended("test session id")  # (AppTest's one session id) what compat calls on the close
    classroom_seats._RELEASES.submit(lambda: None).result()  # the release is written
    assert classroom_view.store().seats(code, token) == 0
    step = tours.step(LESSON, QUESTION)
    s.radio[0].set_value(option_text(step, 1)).run()
    ok(s)
    assert classroom_view.store().seats(code, token) == 1
    assert classroom_view.store().tally(code, token, QUESTION) == {step.question.options[1]: 1}
