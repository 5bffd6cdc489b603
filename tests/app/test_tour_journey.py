"""A reader's way through the tours: Home starts each lesson; the language switch in the middle of a tour keeps the
step as it is (no "you changed N settings" warning, the step's tab in the new language, while a setting the student
really changed is still reported); the last step says the lesson is done and opens the next one."""
from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from embedviz.lessons import tours
from embedviz.lessons.widget_keys import Home, Tokens, Tour
from tests.app.test_tours import app, text
from tests.conftest import ROOT

# steps whose settings pick a tab (a Label: the widget holds the tab's translated name)
TAB_STEPS = [(lesson, k) for lesson, tour in tours.TOURS.items() for k, step in enumerate(tour.steps, 1)
             if any(isinstance(v, tours.Label) for v in step.settings.values()) and not step.question][:4]


def differs_warnings(at, lang: str) -> list[str]:
    lead = text("tour.differs", lang, n=1).split("1")[0]
    return [w.value for w in at.warning if w.value.startswith(lead)]


@pytest.mark.parametrize("lesson, k", TAB_STEPS)
def test_switching_language_mid_tour_is_not_a_change(lesson, k):
    at = app(lesson, k)
    at.run()
    assert not at.exception and not differs_warnings(at, "en")
    at.session_state["lang"] = "zh"
    at.run()
    assert not at.exception
    assert not differs_warnings(at, "zh")
    at.run()  # the page has redrawn its tabs in Chinese: the step's tab, by its Chinese name
    for key, value in tours.step(lesson, k).settings.items():
        if isinstance(value, tours.Label):
            assert at.session_state[key] == text(value, "zh")
    assert not differs_warnings(at, "zh")


def test_a_real_change_is_still_reported_after_the_switch():
    at = app("000", 1)  # Token embeddings, the lookup tab, text "Hello"
    at.run()
    at.session_state["lang"] = "zh"
    at.run()
    at.text_input(key=Tokens.TEXT).set_value("你好").run()
    assert differs_warnings(at, "zh")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_last_step_says_the_lesson_is_done_and_opens_the_next(lang):
    order = list(tours.TOURS)
    first, second = order[0], order[1]
    last = len(tours.TOURS[first].steps)
    at = app(first, last, lang=lang)
    at.run()
    if tours.step(first, last).question:  # a closing question: answer it first
        at.radio[0].set_value(at.radio[0].options[0]).run()
    assert text("tour.done", lang, lesson=first) in [s.value for s in at.success]
    at.button(key=Tour.NEXT_LESSON).click().run()
    assert not at.exception
    assert (at.query_params["tour"], at.query_params["step"]) in ((second, "1"), ([second], ["1"]))


def test_the_last_lesson_ends_the_tours():
    last_lesson = list(tours.TOURS)[-1]
    at = app(last_lesson, len(tours.TOURS[last_lesson].steps))
    at.run()
    if tours.step(last_lesson, len(tours.TOURS[last_lesson].steps)).question:
        at.radio[0].set_value(at.radio[0].options[0]).run()
    assert text("tour.done_all", "en") in [s.value for s in at.success]
    assert not [b for b in at.button if b.key == Tour.NEXT_LESSON]


@pytest.mark.parametrize("lesson", list(tours.TOURS))
def test_home_starts_every_lesson_first_thing_on_the_page(lesson):
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.run()
    assert not at.exception
    buttons = [b.key for b in at.main.button]
    assert buttons[:len(tours.TOURS)] == [Home.TOUR(code) for code in tours.TOURS]  # before any other control
    at.button(key=Home.TOUR(lesson)).click().run()
    assert not at.exception
    assert at.query_params["tour"] in (lesson, [lesson]) and at.query_params["step"] in ("1", ["1"])
    assert text("tour.where", "en", title=text(f"tour.{lesson}.title", "en"), k=1,
                n=len(tours.TOURS[lesson].steps)) in [c.value for c in at.caption]
