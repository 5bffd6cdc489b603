"""A class's questions (embedviz/app/classroom_view.py runs the class): a student's answer goes to the store, the
teacher sees how many answered and the spread (no names), may show the spread to the class, ask the class to vote
again, and reveals; until then the page stays hidden for everyone (peer instruction: answer alone, discuss with a
neighbour, answer again, then the answer and the figure). The tour's question (embedviz/app/tour.py) calls ``send``
from its radio, ``fresh_vote`` before drawing it and ``gate`` beside it; the tour's last step draws ``summary``.
What is counted and summed is the store's (embedviz/classroom/); this module only draws it.
"""
from __future__ import annotations

from collections import Counter

import streamlit as st

from embedviz.app.classroom_follow import POLL_SECONDS
from embedviz.app.classroom_view import (
    call, joined, member, reconnecting, refused, say, seated, store, teacher_token, teaching,
)
from embedviz.app.i18n import t
from embedviz.app.markup import trusted
from embedviz.classroom.checks import ClassError
from embedviz.classroom.state import ClassState
from embedviz.classroom.votes import Votes, summary_csv
from embedviz.lessons.widget_keys import Classroom as K

REFUSED = "_cls_refused"  # session state: (lesson, step, error code, the option the class counts) to say once
VOTED = "_cls_voted"  # session state: {(lesson, step): the vote (1 or 2) the student's last counted answer was in}
VOTE_COLOURS = ("#1c83e1", "#ff8700")  # the bars of the first and second vote: Streamlit's :blue[] and :orange[]
BAR_PX = 26  # a spread's band per option: four options and their labels fit beside the question on a projector


def send(lesson: str, number: int, key: str, labels: dict[str, str]) -> str | None:
    """The radio's callback (``key``: the radio, ``labels``: its label -> option code): in a class a student's choice
    goes to the store (the last one counts). Returns the option the radio then shows: the choice, or, when the class
    refuses it (too many answers in a short time, the teacher moved on or revealed), the one the class still counts,
    put back in the radio and said beside the question (``gate``): the radio never shows what nobody counted."""
    option = labels.get(st.session_state.get(key))
    state = _class_step(lesson, number) if option and joined() and not teaching() else None
    if state is None:
        return option
    code = joined()[0]
    if not seated(code):  # the class is full again or lost: nothing is counted, the radio says so
        st.session_state[key] = None
        return None
    try:
        store().answer(code, member(), number, option)
        st.session_state.setdefault(VOTED, {})[(lesson, number)] = state.vote(number)
        return option
    except ClassError as error:
        if error.code in ("offline", "unknown"):
            refused(error, code)
            return option
        why = error.code
    counted = call(store().my_answer, code, member(), number)
    st.session_state[key] = next((label for label, o in labels.items() if o == counted), None)
    st.session_state[REFUSED] = (lesson, number, why, counted)
    return counted


def _class_step(lesson: str, number: int) -> ClassState | None:
    """The class's state when it is on this tour step, else None (no class, another step, or the store lost)."""
    state = call(store().state, joined()[0]) if joined() else None
    return state if state and (state.lesson, state.step) == (lesson, number) else None


def fresh_vote(lesson: str, number: int, picked: str | None) -> bool:
    """Before the question's radio is drawn: whether a following student's pick belongs to a vote the teacher has
    since cleared (vote again), so the radio starts empty for the second vote."""
    if picked is None or not joined() or teaching():
        return False
    state = _class_step(lesson, number)
    voted = st.session_state.get(VOTED, {}).get((lesson, number), 1)
    return state is not None and number not in state.revealed and state.vote(number) != voted


def _items(names: dict[str, str], counts: Counter, *, chosen: bool = False) -> str:
    """The spread in words, in the question's order (``chosen``: only the options someone picked)."""
    shown = [o for o in names if counts.get(o, 0) or not chosen]
    return (" · ".join(t("classroom.spread_item", option=names[o], n=counts.get(o, 0)) for o in shown)
            if sum(counts.values()) else t("classroom.none_yet"))


def _spread(labels: dict[str, str], votes: Votes, *, compact: bool = False) -> None:
    """The spread as a sentence and as bars (counts only, no names): the vote under way, or after the reveal both
    votes side by side (``compact``: the sentence in small type, the figure under it must stay on the screen)."""
    names = {code: label for label, code in labels.items()}
    both = votes.second is not None
    # two votes in words: only the options picked in each (the bars show every option), or beside a projected
    # question they took four lines
    sentence = (t("classroom.spread_votes", first=_items(names, votes.first, chosen=True),
                  second=_items(names, votes.second, chosen=True)) if both
                else t("classroom.spread", spread=_items(names, votes.first)))
    (st.caption if compact else st.markdown)(sentence)
    rounds = [(t("classroom.first_vote"), votes.first), *([(t("classroom.second_vote"), votes.second)] if both else [])]
    if not any(sum(counts.values()) for _, counts in rounds):
        return
    # a Vega-Lite spec, not st.bar_chart: its axis cut the answers' labels to a few words, sorted them, and ticked
    # half students; here each option keeps its whole label, in the question's order, and two votes sit side by
    # side in its band
    data = {"option": [str(names[o]) for _, _ in rounds for o in names],
            "vote": [str(name) for name, _ in rounds for _ in names],
            "n": [counts.get(o, 0) for _, counts in rounds for o in names]}
    encoding = {
        "y": {"field": "option", "type": "nominal", "sort": None,
              "axis": {"title": None, "labelLimit": 600, "labelFontSize": 13}},
        # no axis title: the sentence above says what is counted, and a projected question's bars beside it must
        # fit a 720 px screen with the figure under them; the tooltip names it
        "x": {"field": "n", "type": "quantitative",
              # revealed, the sentence above gives the counts: no axis, so the figure under the panel stays up
              "axis": None if compact else {"title": None, "tickMinStep": 1, "format": "d"}},
        "tooltip": [{"field": "option", "title": " "}, {"field": "n", "title": str(t("classroom.count_axis"))}],
    }
    if both:
        encoding["yOffset"] = {"field": "vote", "sort": None}
        # no legend (beside a projected question it had no room): the sentence names each vote in its bars' colour
        encoding["color"] = {"field": "vote", "type": "nominal", "sort": None, "legend": None,
                             "scale": {"range": list(VOTE_COLOURS)}}
    # a band per option whatever the page's font size; two votes share it
    st.vega_lite_chart(data, {"mark": {"type": "bar"}, "encoding": encoding, "height": {"step": BAR_PX, "for": "position"},
                              "padding": {"top": 2, "bottom": 2, "left": 0, "right": 4}},
                       width="stretch", alt=str(t("classroom.chart_alt")))


@st.fragment(run_every=POLL_SECONDS)
def _teacher_tally(lesson: str, number: int, labels: dict[str, str], shown: bool, presenting: bool) -> None:
    """How many answered the vote under way; its spread when the class is shown it, or on the teacher's own screen
    (not projected: presenter view shows only the count until the teacher shows the spread)."""
    code = joined()[0] if joined() else None
    was = reconnecting()
    votes = call(store().votes, code, teacher_token(), number) if code else None
    if votes is None:
        if not joined() or not was:
            st.rerun()  # the class was left, or the store just went away: the whole page says so
        return
    st.caption(t("classroom.answered_second" if votes.second is not None else "classroom.answered",
                 n=sum(votes.current.values())))
    if shown or not presenting:
        _spread(labels, Votes(votes.current))
    if not shown:
        st.caption(t("classroom.hidden_spread"))


def _reveal(number: int) -> None:
    call(store().reveal, joined()[0], teacher_token(), number)


def _vote_again(number: int) -> None:
    call(store().vote_again, joined()[0], teacher_token(), number)


def _show(number: int, key: str) -> None:
    call(store().show_spread, joined()[0], teacher_token(), number, bool(st.session_state.get(key)))


def gate(lesson: str, number: int, labels: dict[str, str], picked: str | None, answer_text, *,
         beside=None, under=None, presenting: bool = False) -> bool | None:
    """A question step in class, drawn in ``beside`` (the column by the question: on a projector the controls and
    the spread stay on the first screen) and, once revealed, the answer in ``under`` (the question's column, under
    its choices), so that the figure under them stays on the first screen too. Before the reveal:
    the teacher has Reveal, Vote again, the switch that shows the spread to the class, and the count; a student is
    told to answer, to wait or to vote again (and sees the spread while the teacher shows it); both keep the page
    hidden (False). After it: both votes for everyone, then None (the tour's own verdict follows a picked answer)
    or True after showing the answer to one who did not pick. Out of class, or when the class is on another step:
    None (the tour's own flow)."""
    state = _class_step(lesson, number) if joined() else None
    if state is None:
        # the store is away: the question stays a class question (hidden page), the panel says it reconnects
        return False if joined() and reconnecting() else None
    if number not in state.revealed:
        with beside if beside is not None else st.container():
            _before_reveal(lesson, number, labels, picked, state, presenting)
        return False
    votes = (call(store().votes, joined()[0], teacher_token(), number) if teaching()
             else call(store().shown_votes, joined()[0], number))
    with beside if beside is not None else st.container():
        _spread(labels, votes or Votes(Counter()), compact=True)
    if picked is None:
        with under if under is not None else st.container():
            st.info(trusted(answer_text()))  # tour._answer_text: catalog texts, values escaped by t()
    return True if picked is None else None


def _before_reveal(lesson: str, number: int, labels: dict[str, str], picked: str | None,
                   state: ClassState, presenting: bool) -> None:
    shown = number in state.shown
    if teaching():  # the controls first: however many options the spread has, they stay on the screen
        with st.container(horizontal=True, vertical_alignment="center"):
            st.button(t("classroom.reveal"), key=K.reveal(lesson, number), on_click=_reveal, args=(number,),
                      type="primary", help=t("classroom.teacher_wait"))
            st.button(t("classroom.vote_again"), key=K.again(lesson, number), on_click=_vote_again, args=(number,),
                      help=t("classroom.vote_again_help"))
        key = K.show(lesson, number)
        st.session_state[key] = shown  # the class's switch, whichever tab of the teacher's turned it
        st.toggle(t("classroom.show_spread"), key=key, on_change=_show, args=(number, key),
                  help=t("classroom.show_spread_help"))
        _teacher_tally(lesson, number, labels, shown, presenting)
        return
    _refusal(lesson, number, labels)
    if state.vote(number) > 1 and not picked:
        st.caption(t("classroom.vote_again_student"))
    else:
        st.caption(t("classroom.wait_reveal" if picked else "classroom.pick_first"))
    if shown:
        votes = call(store().shown_votes, joined()[0], number)
        if votes is not None:
            _spread(labels, Votes(votes.current))


def summary(lesson: str, questions: dict[int, str], right) -> None:
    """The teacher's class summary at the end of a tour, in a popover: per question, how many answered and were right on
    each vote, and its CSV (counts only: the store's rows hold no names and no ids). ``right(step)``: the right
    option, asked only for steps answered."""
    if not teaching():
        return
    rows = call(store().summary, joined()[0], teacher_token(), questions, right)
    if rows is None:
        return
    with st.popover(t("classroom.summary"), key=K.SUMMARY, icon=":material/table_chart:", width="content"):
        if not any(r.answered_first or r.answered_second for r in rows):
            st.caption(t("classroom.summary_none"))
            return
        cell = lambda n: "–" if n is None else str(n)  # noqa: E731 - a step the class voted on once
        columns = {str(t("classroom.col_step")): [str(r.step) for r in rows],
                   str(t("classroom.col_answered_first")): [cell(r.answered_first) for r in rows],
                   str(t("classroom.col_right_first")): [cell(r.right_first) for r in rows],
                   str(t("classroom.col_answered_second")): [cell(r.answered_second) for r in rows],
                   str(t("classroom.col_right_second")): [cell(r.right_second) for r in rows]}
        st.table(columns)
        st.caption(t("classroom.summary_note"))
        st.download_button(t("classroom.summary_csv"), summary_csv(lesson, rows), key=K.SUMMARY_CSV,
                           file_name=f"class-summary-{lesson}.csv", mime="text/csv", on_click="ignore",
                           icon=":material/download:")


def _refusal(lesson: str, number: int, labels: dict[str, str]) -> None:
    """Beside the question, once: the class refused the student's last choice, and what it counts instead."""
    refused = st.session_state.pop(REFUSED, None)
    if refused is None or refused[:2] != (lesson, number):
        return
    _, _, code, counted = refused
    names = {o: label for label, o in labels.items()}
    if code == "rate" and counted in names:
        st.warning(t("classroom.answer_kept", answer=names[counted]))
    else:
        say(code, joined()[0] if joined() else "")
