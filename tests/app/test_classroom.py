"""A class through the whole app (app.py) in AppTest: the teacher starts it from the tour controls, students join
by link or code and follow, answers are counted for the teacher only, the reveal reaches everyone; bad codes,
bad teacher keys and a lost store are refused in the reader's language."""
from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from embedviz import classroom, tours
from embedviz.app import classroom_view
from embedviz.widget_keys import Classroom, Tour
from tests.app.pagetest import ok
from tests.app.test_tours import app, option_text, text

LESSON, QUESTION = "000", 2  # step 2 of tour 000 asks which rows get a gradient


@pytest.fixture(autouse=True)
def memory_store(monkeypatch):
    monkeypatch.delenv(classroom.REDIS_URL_ENV, raising=False)
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
    assert text("cls.code_big", lang, code=code) in markdowns(at)
    return at, code, token




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
        assert text("cls.wait_reveal", "en") in markdowns(s)
        assert not s.get("plotly_chart")  # the figure waits for the reveal
        # a student sees neither how many answered nor the spread before the reveal
        shown = markdowns(s)
        assert not any(text("cls.answered", "en", n=n) in shown for n in range(3))
        assert text("cls.spread", "en", spread="§").split("§")[0] not in shown
    s2.radio[0].set_value(option_text(step, 0)).run()  # a change of mind replaces the first choice
    t_at.run()
    shown = markdowns(t_at)
    assert text("cls.answered", "en", n=2) in shown
    spread = " · ".join(f"{option_text(step, o)}: {n}" for o, n in zip(step.question.options, (2, 0)))
    assert text("cls.spread", "en", spread=spread) in shown
    assert not t_at.get("plotly_chart")
    button(t_at, Classroom.reveal(LESSON, QUESTION)).click().run()
    ok(t_at)
    assert t_at.get("plotly_chart")
    for s in (s1, s2):
        s.run()
        ok(s)
        assert text("cls.spread", "en", spread=spread) in markdowns(s) and s.get("plotly_chart")


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
    assert [e.value for e in at.error] == [text("cls.err.unknown", lang, raw="ZZZZZZ")]
    assert "class" not in at.query_params
    hostile = join("[x](http://evil.example)<script>" * 50, lang)
    ok(hostile, errors_allowed=True)
    assert not any(c in hostile.error[0].value for c in ("<", "[", "](", "://"))  # no markup or link from the URL
    assert len(hostile.error) == 1 and hostile.error[0].value.startswith(text("cls.err.malformed", lang, raw="§").split("§")[0])
    # typed into the tour controls: unicode, injection-like, a key pattern; each refused, repeated harmlessly
    for typed, shown in (("课堂代码", ""), ("'; DROP--", "DROP"), ("embedviz:*", "embedviz"), ("ＡＢＣ２３４", ""),
                         ("A\nBCDEF", "ABCDEF")):
        at.text_input(key=Classroom.CODE_INPUT).set_value(typed).run()
        button(at, Classroom.JOIN).click().run()
        ok(at, errors_allowed=True)
        expected = text("cls.err.malformed", lang, raw=shown) if shown else text("cls.err.not_a_code", lang)
        assert [e.value for e in at.error] == [expected], typed
        assert "class" not in at.query_params


def test_a_wrong_teacher_key_joins_as_a_student_who_cannot_drive_or_see_answers():
    t_at, code, token = teacher(QUESTION)
    fake = join(code, teacher=token[:-2] + "xx")
    ok(fake, errors_allowed=True)
    assert [e.value for e in fake.error] == [text("cls.err.not_teacher", "en", raw=code)]
    assert button(fake, Tour.NEXT).disabled
    assert not any(b.key.startswith(Classroom.REVEAL) for b in fake.button)
    assert text("cls.answered", "en", n=0) not in markdowns(fake)
    assert classroom_view.store().state(code).step == QUESTION


def test_a_lost_store_says_not_connected_and_the_tour_goes_on(monkeypatch):
    from deploy.launcher import free_port

    monkeypatch.setenv(classroom.REDIS_URL_ENV, f"redis://127.0.0.1:{free_port()}/0")
    classroom_view.store.clear()
    at = app(LESSON, 1, lang="zh").run()
    button(at, Classroom.START).click().run()
    ok(at)
    assert [w.value for w in at.warning] == [text("cls.err.offline", "zh")]
    assert "class" not in at.query_params
    button(at, Tour.NEXT).click().run()
    ok(at)
    assert at.query_params["step"] == "2"


def test_a_store_lost_mid_class_says_not_connected_to_everyone_and_the_tour_goes_on(monkeypatch):
    from deploy.redis_server import find_redis, redis_server

    if find_redis() is None:
        pytest.fail("redis-server is not installed (`apt-get install redis-server`; .ci/run installs it)")
    with redis_server() as url:
        monkeypatch.setenv(classroom.REDIS_URL_ENV, url)
        classroom_view.store.clear()
        t_at, code, _ = teacher(QUESTION)
        s = join(code, "zh")
        assert s.query_params["step"] == str(QUESTION)
    # the redis-server is stopped: the next run of each page says so once, drops the class, and the tour works on
    for at, lang in ((t_at, "en"), (s, "zh")):
        at.run()
        ok(at)
        assert [w.value for w in at.warning] == [text("cls.err.offline", lang)]
        assert "class" not in at.query_params
        assert not button(at, Tour.NEXT).disabled
        button(at, Tour.NEXT).click().run()
        ok(at)
        assert at.query_params["step"] == str(QUESTION + 1) and not at.warning


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
