"""A class's state, and how the store writes it: where the teacher is, which question steps are revealed, shown or
on their second vote (:class:`ClassState`), the teacher's copy of a whole class (:class:`ClassSnapshot`), and the
keys and the class's hash in the backend. A hash read back in another shape than written is a store not to trust."""
from __future__ import annotations

from dataclasses import dataclass

from embedviz._validate import link_number
from embedviz.classroom import limits
from embedviz.classroom.backend import StoreError
from embedviz.classroom.checks import CLIENT_RE, LESSON_RE, TOKEN_RE

PREFIX = "embedviz:class:"
OPEN = PREFIX + "open"  # the sorted set of open classes (score: when each expires)
STEP_SETS = ("revealed", "shown", "second")  # the class's sets of question steps: revealed, spread shown, voting again


@dataclass(frozen=True)
class ClassState:
    """What every member may see: where the teacher is and which question steps are revealed."""

    code: str
    lesson: str
    step: int
    revealed: frozenset[int]
    shown: frozenset[int] = frozenset()  # question steps whose spread the teacher shows the class before the reveal
    second: frozenset[int] = frozenset()  # question steps on their second vote

    @property
    def position(self) -> tuple[str, int, bool]:
        """Where the class is: the lesson, the step, and whether that step is revealed."""
        return self.lesson, self.step, self.step in self.revealed

    def vote(self, step: int) -> int:
        """Which vote a question step is on: 1, or 2 once the teacher asked the class to vote again."""
        return 2 if step in self.second else 1

    @property
    def follow(self) -> tuple[str, int, bool, int, bool]:
        """What a follower's page shows: the position, the step's vote and whether its spread is shown. A follower
        reruns when it changes, and only then."""
        return (*self.position, self.vote(self.step), self.step in self.shown)


@dataclass(frozen=True)
class ClassSnapshot:
    """All a class holds, as its teacher's tab last read it (``ClassStore.snapshot``), to write it back after the
    store lost it (``ClassStore.restore``): its own fields, the seats, and each question step's answers and first
    vote. Member ids stay on the server (the tab's session state), never in a page or a file."""

    code: str
    fields: dict[str, str]  # the class's hash: lesson, step, the step sets, the token's digest, who started it
    members: dict[str, str]
    answers: dict[int, dict[str, str]]
    first: dict[int, dict[str, str]]

    @property
    def place(self) -> tuple[str, int]:
        return self.fields["lesson"], int(self.fields["step"])


@dataclass(frozen=True)
class _Class:
    state: ClassState
    token: str  # the SHA-256 of the teacher's token
    client: str  # who started it ("" when the store does not say)


# the package's own helpers: the keys and the class's hash as the store writes them


def _key(code: str, part: str = "") -> str:
    return f"{PREFIX}{code}{':' + part if part else ''}"


def _closed_key(code: str) -> str:
    """The mark a closed class leaves (beside, not under, the class's keys: Leave deletes those)."""
    return f"{PREFIX}closed:{code}"


def _written(steps) -> str:
    return ",".join(map(str, sorted(steps)))


def _steps(text: str | None) -> list[int | None]:
    """A comma list of step numbers as the store writes it (None for an item that is none)."""
    return [link_number("steps", s, max_digits=limits.STEP_DIGITS) for s in text.split(",") if s]


def _parse(code: str, data: dict[str, str]) -> _Class:
    """A class's hash as the store writes it, or a StoreError: a field of another shape is a store not to trust."""
    lesson, step, token, client = (data.get(f) for f in ("lesson", "step", "token", "by"))
    try:
        number = link_number("step", step, max_digits=limits.STEP_DIGITS)
        # "revealed" is always written; "shown" and "second" only once a teacher used them
        sets = [_steps(data.get(name, "" if name != "revealed" else None)) for name in STEP_SETS]
    except (ValueError, AttributeError):
        number, sets = None, [[None]]
    if not (isinstance(lesson, str) and LESSON_RE.fullmatch(lesson) and number
            and all(None not in steps and len(steps) <= limits.REVEALED_MAX for steps in sets)
            and isinstance(token, str) and TOKEN_RE.fullmatch(token)
            and (client is None or CLIENT_RE.fullmatch(client))):
        raise StoreError(f"class {code} holds fields the store never writes")
    return _Class(ClassState(code, lesson, number, *map(frozenset, sets)), token, client or "")
