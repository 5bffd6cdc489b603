"""A class's questions: the members' answers, counted, a question step's first and second vote (peer instruction:
answer alone, discuss, answer again), whether its spread is shown before the reveal, and the class summary (counts
per question and vote, no ids).

Per question step the store keeps member id -> option code, one per member (a new choice replaces the old) until
the reveal; the teacher's "vote again" keeps those as the step's first vote and opens a second, empty one.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from embedviz.classroom import limits
from embedviz.classroom.backend import StoreError
from embedviz.classroom.checks import OPTION_RE, ClassError, _check_id, _check_place, _guarded
from embedviz.classroom.state import ClassState, _key, _written


@dataclass(frozen=True)
class Votes:
    """A question step's answers, counted (option code -> members): the first vote, and the second once the teacher
    asked the class to vote again (None before)."""

    first: Counter
    second: Counter | None = None

    @property
    def current(self) -> Counter:
        """The vote the class is answering now (the one the tally and the spread show before the reveal)."""
        return self.first if self.second is None else self.second


@dataclass(frozen=True)
class SummaryRow:
    """One question of a class's tour, counted (no names, no ids): how many answered and how many were right on the
    first vote and, where the class voted again, on the second."""

    step: int
    question: str  # the question's id (embedviz/lessons/tours.py)
    answered_first: int
    right_first: int
    answered_second: int | None = None  # None: no second vote on this step
    right_second: int | None = None


SUMMARY_COLUMNS = ("lesson", "step", "question", "answered_first", "right_first", "answered_second", "right_second")


def summary_csv(lesson: str, rows: list[SummaryRow]) -> str:
    """The class summary as CSV (one row per question; a step with no second vote leaves those cells empty)."""
    import csv
    import io

    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(SUMMARY_COLUMNS)
    for r in rows:
        writer.writerow([lesson, r.step, r.question, r.answered_first, r.right_first,
                         "" if r.answered_second is None else r.answered_second,
                         "" if r.right_second is None else r.right_second])
    return out.getvalue()


class Voting:
    """The question calls of ``ClassStore`` (store.py), which reads the class and proves the teacher for them."""

    # the teacher

    @_guarded
    def show_spread(self, code: str, token: str, step: int, shown: bool) -> None:
        """Whether the class sees the spread of a question step before its reveal (off until the teacher says)."""
        self._mark_step(code, token, step, "shown", shown, "show their spread")

    @_guarded
    def vote_again(self, code: str, token: str, step: int) -> None:
        """The second vote of the class's question step (peer instruction: after the discussion): the answers so far
        are kept as the first vote and the class answers again from none; the spread is hidden again. Asked again
        during the second vote, it clears the second vote and keeps the first."""
        found = self._teacher(code, token)
        _check_place(found.state.lesson, step)
        if step in found.state.revealed:
            raise ClassError("revealed", f"step {step} is revealed: answers are closed")
        if step != found.state.step:
            raise ClassError("moved", f"the class is on step {found.state.step}, not {step}")
        answers = _key(code, f"answers:{step}")
        if step not in found.state.second:
            first = self._answers(code, step)
            if first:
                self.backend.hset(_key(code, f"first:{step}"), first, limits.TTL_SECONDS)
        second = found.state.second | {step}
        if len(second) > limits.REVEALED_MAX:
            raise ClassError("malformed", f"at most {limits.REVEALED_MAX} steps of a class can vote twice")
        self.backend.delete([answers])
        self.backend.hset(_key(code, "asked"), {str(step): "1"}, limits.TTL_SECONDS)
        self.backend.hset(_key(code), {"second": _written(second), "shown": _written(found.state.shown - {step})},
                          limits.TTL_SECONDS)
        self._touch(code, found.client, (_key(code, f"first:{step}"),))
        self._moved(code)

    @_guarded
    def tally(self, code: str, token: str, step: int) -> Counter:
        """Option code -> how many members chose it in the vote under way (the teacher's view; a member sees it
        when the teacher shows it, and after the reveal)."""
        self._teacher(code, token)
        return self._count(code, step)

    @_guarded
    def votes(self, code: str, token: str, step: int) -> Votes:
        """The teacher's view of a question step: its first vote and, once asked, its second."""
        return self._votes(self._teacher(code, token).state, step)

    @_guarded
    def summary(self, code: str, token: str, questions: dict[int, str], right: Callable[[int], str]
                ) -> list[SummaryRow]:
        """Per question step of the class's lesson (``questions``: step -> question id), how many answered and how
        many picked ``right(step)`` on each vote. ``right`` is asked only for steps someone answered (an answer
        may cost the core a computation)."""
        state = self._teacher(code, token).state
        rows = []
        for step, question in sorted(questions.items()):
            votes = self._votes(state, step)
            good = right(step) if sum(votes.first.values()) or sum((votes.second or Counter()).values()) else None
            second = votes.second
            rows.append(SummaryRow(step, question, sum(votes.first.values()), votes.first.get(good, 0),
                                   None if second is None else sum(second.values()),
                                   None if second is None else second.get(good, 0)))
        return rows

    # a member

    @_guarded
    def answer(self, code: str, member: str, step: int, option: str) -> None:
        """The member's choice on the class's question step (replaces their earlier one) until it is revealed."""
        if not isinstance(option, str) or not OPTION_RE.fullmatch(option):
            raise ClassError("malformed", "option must be an option code")
        found = self._class(code)
        members = _key(code, "members")
        if not self.backend.hexists(members, _check_id("member id", member)):
            raise ClassError("unknown", "this browser has not joined the class")
        if step in found.state.revealed:
            raise ClassError("revealed", f"step {step} is revealed: answers are closed")
        if step != found.state.step:
            raise ClassError("moved", f"the class is on step {found.state.step}, not {step}")
        window = int(self.backend.now() // limits.RATE_WINDOW)
        if self.backend.incr(_key(code, f"rate:{member}:{window}"), limits.RATE_WINDOW * 2) > limits.ANSWER_LIMIT:
            raise ClassError("rate", f"at most {limits.ANSWER_LIMIT} answers per {limits.RATE_WINDOW} s")
        answers = _key(code, f"answers:{step}")
        # seats come and go (a tab closes, another opens): answers are bounded too, at twice a full class
        most = 2 * limits.MAX_STUDENTS
        if self.backend.hlen(answers) >= most and self.backend.hget(answers, member) is None:
            raise ClassError("full", f"the class already has {most} answers")
        self.backend.hset(answers, {member: option}, limits.TTL_SECONDS)
        self.backend.hset(_key(code, "asked"), {str(step): "1"}, limits.TTL_SECONDS)
        self._touch(code, found.client, (answers,))

    @_guarded
    def my_answer(self, code: str, member: str, step: int) -> str | None:
        """The option the class counts for ``member`` on ``step`` (None before they answer)."""
        option = self.backend.hget(_key(code, f"answers:{int(step)}"), member)
        if option is not None and not OPTION_RE.fullmatch(option):
            raise StoreError(f"class {code}'s answers hold what the store never writes")
        return option

    @_guarded
    def revealed_tally(self, code: str, step: int) -> Counter | None:
        """The spread for a member: only once the teacher revealed the step, else None."""
        return self._count(code, step) if step in self._class(code).state.revealed else None

    @_guarded
    def shown_votes(self, code: str, step: int) -> Votes | None:
        """What a member may see of a question step's answers: both votes once it is revealed, the vote under way
        while the teacher shows its spread, else None."""
        state = self._class(code).state
        if step in state.revealed:
            return self._votes(state, step)
        if step in state.shown:
            return Votes(self._count(code, step))
        return None

    # the answers as the store keeps them

    def _votes(self, state: ClassState, step: int) -> Votes:
        if step not in state.second:
            return Votes(self._count(state.code, step))
        return Votes(self._count(state.code, step, "first"), self._count(state.code, step))

    def _answers(self, code: str, step: int, part: str = "answers") -> dict[str, str]:
        most = 2 * limits.MAX_STUDENTS
        answers = self.backend.hgetall(_key(code, f"{part}:{int(step)}"), fields=most,
                                       size=most * limits.ANSWER_BYTES)
        if not all(OPTION_RE.fullmatch(option) for option in answers.values()):
            raise StoreError(f"class {code}'s answers hold what the store never writes")
        return answers

    def _count(self, code: str, step: int, part: str = "answers") -> Counter:
        return Counter(self._answers(code, step, part).values())

    def _question_keys(self, code: str) -> list[str]:
        """The keys of a class's questions: the steps asked, and each one's answers and first vote."""
        asked = self.backend.hgetall(_key(code, "asked"), fields=limits.REVEALED_MAX * 4,
                                     size=limits.REVEALED_MAX * 64)
        steps = [s for s in asked if s.isascii() and s.isdigit()]
        return [_key(code, "asked"), *(_key(code, f"{part}:{s}") for s in steps for part in ("answers", "first"))]
