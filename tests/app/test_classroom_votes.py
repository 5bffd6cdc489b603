"""Peer instruction in the whole app (AppTest): the teacher's switch that shows the spread to the class (off: the
projector and the students show only how many answered), Vote again (the first vote kept, the radio of every student
empty again), Reveal (both votes side by side), and the class summary at the end of the tour with its CSV. Texts are
looked up by catalog key, in both languages."""
from __future__ import annotations

import csv
import io
from collections import Counter

import pytest

from embedviz.lessons import tours
from embedviz.app import classroom_view
from embedviz.classroom.votes import summary_csv
from embedviz.lessons.widget_keys import Classroom, Tour
from tests.app.pagetest import ok
from tests.app.test_classroom import button, join, markdowns, memory_store, teacher  # noqa: F401 - the fixture
from tests.app.test_tours import app, option_text, text

LESSON, QUESTION = "000", 2
STEP = tours.step(LESSON, QUESTION)


def popover(at, label: str):
    """The popover block labelled ``label`` (AppTest has no accessor for popovers), or None."""
    def walk(node):
        for child in getattr(node, "children", {}).values():
            proto = getattr(child, "proto", None)
            if proto is not None and proto.DESCRIPTOR.name == "Block" and proto.WhichOneof("type") == "popover" \
                    and proto.popover.label == label:
                return child
            found = walk(child)
            if found is not None:
                return found
        return None

    return walk(at._tree)


def toggle(at, key: str):
    return next(w for w in at.toggle if w.key == key)


def spread_of(step, counts: Counter, lang: str, *, chosen: bool = False) -> str:
    return " · ".join(text("classroom.spread_item", lang, option=option_text(step, o, lang), n=counts.get(o, 0))
                      for o in step.question.options if counts.get(o, 0) or not chosen)


def class_at_question(lang: str, present: bool = False):
    t_at, code, token = teacher(QUESTION - 1, lang=lang)
    if present:  # the presenter switch, as the teacher turns it on before projecting
        from embedviz.app.widgets import PRESENT_KEY

        t_at.session_state[PRESENT_KEY] = True
    students = [join(code, lang), join(code, lang)]
    button(t_at, Tour.NEXT).click().run()
    ok(t_at)
    for s in students:
        s.run()
        ok(s)
        assert s.query_params["step"] == str(QUESTION)
    return t_at, code, token, students


def answer(s, choice: int, lang: str) -> None:
    s.radio[0].set_value(option_text(STEP, choice, lang)).run()
    ok(s)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_spread_is_off_for_the_class_until_shown_then_vote_again_keeps_the_first_vote_and_reveal_shows_both(lang):
    t_at, code, token, (s1, s2) = class_at_question(lang, present=True)
    show = Classroom.show(LESSON, QUESTION)
    labels = {b.key: b.label for b in t_at.button}
    assert labels[Classroom.reveal(LESSON, QUESTION)] == text("classroom.reveal", lang)
    assert labels[Classroom.again(LESSON, QUESTION)] == text("classroom.vote_again", lang)
    assert toggle(t_at, show).label == text("classroom.show_spread", lang) and toggle(t_at, show).value is False
    answer(s1, 0, lang)
    answer(s2, 1, lang)
    first = Counter({STEP.question.options[0]: 1, STEP.question.options[1]: 1})
    t_at.run()
    shown = markdowns(t_at)
    # projected, switch off: how many answered, not how
    assert text("classroom.answered", lang, n=2) in shown and text("classroom.hidden_spread", lang) in shown
    assert text("classroom.spread", lang, spread=spread_of(STEP, first, lang)) not in shown and not t_at.get("vega_lite_chart")
    for s in (s1, s2):
        s.run()
        assert text("classroom.spread", lang, spread="§").split("§")[0] not in markdowns(s)

    toggle(t_at, show).set_value(True).run()
    ok(t_at)
    assert classroom_view.store().state(code).shown == {QUESTION}
    assert text("classroom.spread", lang, spread=spread_of(STEP, first, lang)) in markdowns(t_at) and t_at.get("vega_lite_chart")
    s1.run()
    assert text("classroom.spread", lang, spread=spread_of(STEP, first, lang)) in markdowns(s1)  # the class sees it too

    button(t_at, Classroom.again(LESSON, QUESTION)).click().run()
    ok(t_at)
    assert toggle(t_at, show).value is False  # the second vote is answered without the first one's spread
    assert text("classroom.answered_second", lang, n=0) in markdowns(t_at)
    for s in (s1, s2):
        s.run()
        ok(s)
        assert s.radio[0].value is None  # the student's first answer is no longer the one counted
        assert text("classroom.vote_again_student", lang) in markdowns(s)
        assert not s.get("plotly_chart")
    answer(s1, 1, lang)
    answer(s2, 1, lang)
    second = Counter({STEP.question.options[1]: 2})
    t_at.run()
    assert text("classroom.answered_second", lang, n=2) in markdowns(t_at)
    votes = classroom_view.store().votes(code, token, QUESTION)
    assert (votes.first, votes.second) == (first, second)

    button(t_at, Classroom.reveal(LESSON, QUESTION)).click().run()
    ok(t_at)
    both = text("classroom.spread_votes", lang, first=spread_of(STEP, first, lang, chosen=True),
                second=spread_of(STEP, second, lang, chosen=True))  # the options picked in each vote
    for at in (t_at, s1, s2):
        at.run()
        ok(at)
        assert both in markdowns(at) and at.get("plotly_chart")  # the figure, under both votes
        chart = at.get("vega_lite_chart")
        assert chart, "no chart of the two votes"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_teachers_own_screen_shows_the_spread_the_class_does_not_see(lang):
    t_at, code, token, (s1, _) = class_at_question(lang)  # not projected
    answer(s1, 0, lang)
    t_at.run()
    shown = markdowns(t_at)
    counts = Counter({STEP.question.options[0]: 1})
    assert text("classroom.spread", lang, spread=spread_of(STEP, counts, lang)) in shown
    assert text("classroom.hidden_spread", lang) in shown
    s1.run()
    assert text("classroom.spread", lang, spread="§").split("§")[0] not in markdowns(s1)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_class_summary_at_the_end_of_the_tour_counts_both_votes_and_its_csv_names_nobody(lang):
    t_at, code, token, (s1, s2) = class_at_question(lang)
    right, _ = tours.answer(LESSON, QUESTION)
    wrong = next(o for o in STEP.question.options if o != right)
    for s, o in ((s1, right), (s2, wrong)):
        s.radio[0].set_value(option_text(STEP, o, lang)).run()
    button(t_at, Classroom.again(LESSON, QUESTION)).click().run()
    for s in (s1, s2):
        s.run()
        s.radio[0].set_value(option_text(STEP, right, lang)).run()
    button(t_at, Classroom.reveal(LESSON, QUESTION)).click().run()
    total = len(tours.TOURS[LESSON].steps)
    assert popover(t_at, text("classroom.summary", lang)) is None  # not before the last step
    t_at.query_params["step"] = str(total)  # the teacher's link edited to the last step: the class follows
    t_at.run()
    ok(t_at)
    assert classroom_view.store().state(code).step == total
    summary = popover(t_at, text("classroom.summary", lang))
    table = summary.table[0].value
    columns = [text(k, lang) for k in ("classroom.col_step", "classroom.col_answered_first", "classroom.col_right_first",
                                       "classroom.col_answered_second", "classroom.col_right_second")]
    assert list(table.columns) == columns
    row = table[table[columns[0]] == str(QUESTION)].iloc[0].tolist()
    assert row == [str(QUESTION), "2", "1", "2", "2"]
    download = next(b for b in t_at.get("download_button") if b.proto.id and Classroom.SUMMARY_CSV in b.proto.id)
    assert download.proto.label == text("classroom.summary_csv", lang)
    rows = classroom_view.store().summary(code, token, {QUESTION: STEP.question.id}, lambda k: right)
    csv_text = summary_csv(LESSON, rows)
    parsed = list(csv.reader(io.StringIO(csv_text)))
    assert parsed[1] == [LESSON, str(QUESTION), STEP.question.id, "2", "1", "2", "2"]
    seats = {s.query_params["seat"] for s in (s1, s2)}
    assert not any(seat in csv_text for seat in seats) and token not in csv_text
    for s in (s1, s2):  # a student has no summary
        s.run()
        ok(s)
        assert popover(s, text("classroom.summary", lang)) is None
