"""A tour's question does not answer itself: before a student picks an answer, the panel shows the step's text, what
to look at and the question, and none of them may state what the question asks to predict. The finding lives in the
step's verdict-only text (``tour.<lesson>.<name>.found``) and the question's explanation, shown once answered.

Three checks, each independent of how a text is worded:
- no number the verdict quotes (the computed answer's numbers and the found text's) is in the text shown before,
  except the numbers the question itself names or the step sets (its settings);
- no clause of the found text is in the text shown before;
- the give-aways found once in the step texts (the lessons' own phrasings of the answer) are not back.
"""
from __future__ import annotations

import re

import pytest

from embedviz.lessons import tours
from embedviz.app.i18n import catalog

QUESTION_STEPS = [(lesson, k) for lesson, tour in tours.TOURS.items()
                  for k, step in enumerate(tour.steps, 1) if step.question]
LANGS = ("en", "zh")
# phrasings of the answer that step texts once carried before their question (both languages): none may return
GIVEAWAYS = {
    ("000", 2): ("any other row gets", "其他行梯度为 0"),
    ("000", 3): ("reaches every row", "触碰到每一行"),
    ("000", 6): ("grow geometrically", "几何级数增长", "really changes fastest", "到底哪一对"),
    ("000", 10): ("widens every later layer", "每一层都变宽"),
    ("001", 2): ("cannot express that two tokens are alike", "无法表达两个 token 相似"),
    ("001", 4): ("blocks along the diagonal", "对角线上的两个方块"),
    ("002", 4): ("predict different contexts", "预测的上下文不同", "start at “unrelated”", "默认都是“无关”"),
    ("002", 5): ("look the same", "是一样的"),
    ("003", 3): ("moves with its token", "1.78e-15", "跟着自己的 token 移动"),
    ("003", 6): ("bright band", "亮带"),
    ("003", 13): ("quality drops", "质量明显下降"),
    ("004", 4): ("give the same results", "set operation", "完全一致", "集合"),
}
NUMBER = re.compile(r"\d[\d,]*(?:\.\d+)?(?:e[-+]?\d+)?", re.IGNORECASE)


def text(key: str, lang: str) -> str:
    return catalog()[key][lang]


def before_answer(lesson: str, k: int, lang: str) -> str:
    """What the panel shows of a question step before it is answered: the step, what to look at, the question."""
    step = tours.step(lesson, k)
    return " ".join(text(key, lang) for key in (f"tour.{lesson}.{step.name}", f"tour.{lesson}.{step.name}.look",
                                                 f"tour.q.{step.question.id}"))


def numbers(words: str) -> set[str]:
    """The numbers in a text, as written but without thousands' commas (a setting is 8449, a text says 8,449)."""
    return {n.replace(",", "") for n in NUMBER.findall(words)}


def found_key(lesson: str, k: int) -> str:
    return f"tour.{lesson}.{tours.step(lesson, k).name}.found"


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("lesson, k", QUESTION_STEPS)
def test_the_verdicts_numbers_are_not_shown_before_the_question(lesson, k, lang):
    step = tours.step(lesson, k)
    _, facts = tours.answer(lesson, k)
    verdict = " ".join(str(value) for value in facts.values())
    if found_key(lesson, k) in catalog():
        verdict += " " + text(found_key(lesson, k), lang)
    given = numbers(text(f"tour.q.{step.question.id}", lang)) | numbers(" ".join(map(str, step.settings.values())))
    leaked = (numbers(verdict) - given) & numbers(before_answer(lesson, k, lang))
    assert not leaked, f"{lesson}/{k} ({lang}) states the verdict's {sorted(leaked)} before asking"


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("lesson, k", QUESTION_STEPS)
def test_the_found_text_is_not_shown_before_the_question(lesson, k, lang):
    if found_key(lesson, k) not in catalog():
        return
    shown = before_answer(lesson, k, lang).casefold()
    clauses = [c.strip() for c in re.split(r"[,;:.()“”\"，；：。（）、]", text(found_key(lesson, k), lang).casefold())]
    shortest = 12 if lang == "en" else 5  # a clause long enough to carry a claim, not "the" or "所以"
    assert not [c for c in clauses if len(c) >= shortest and c in shown], (lesson, k, lang)


@pytest.mark.parametrize("lesson, k", sorted(GIVEAWAYS))
def test_the_give_aways_found_once_stay_out(lesson, k):
    assert (lesson, k) in QUESTION_STEPS
    shown = " ".join(before_answer(lesson, k, lang) for lang in LANGS).casefold()
    assert not [p for p in GIVEAWAYS[(lesson, k)] if p.casefold() in shown], (lesson, k)


def test_every_found_text_belongs_to_a_question_step():
    """A found text shows only in a verdict: a step without a question would never show it."""
    asked = {found_key(lesson, k) for lesson, k in QUESTION_STEPS}
    founds = {key for key in catalog() if key.startswith("tour.") and key.endswith(".found")}
    assert founds and founds <= asked, sorted(founds - asked)


LESSON_NAMED = re.compile(r"lesson (\d{3})|第 ?(\d{3}) ?课", re.IGNORECASE)


@pytest.mark.parametrize("lang", LANGS)
def test_a_steps_tabs_name_no_other_lesson(lang):
    """A tab a step opens is named by what it shows: lesson 000's steps opened a tab called “(lesson 003)”."""
    other = {}
    for lesson, tour in tours.TOURS.items():
        for k, step in enumerate(tour.steps, 1):
            for value in step.settings.values():
                if isinstance(value, tours.Label):
                    named = {a or b for a, b in LESSON_NAMED.findall(text(value, lang))} - {lesson}
                    if named:
                        other[f"{lesson}/{k}"] = text(value, lang)
    assert not other, other


@pytest.mark.parametrize("lesson, k", [(lesson, k) for lesson, k in QUESTION_STEPS if found_key(lesson, k) in catalog()])
def test_a_chinese_verdict_joins_its_sentences_without_a_space(lesson, k, monkeypatch):
    """The verdict is the question's numbers, then the step's finding: in Chinese a sentence after 。 starts at once
    (a space there read as a gap in the line)."""
    from embedviz.app import i18n, tour

    monkeypatch.setattr(i18n, "current_language", lambda: "zh")
    step = tours.step(lesson, k)
    _, facts = tours.answer(lesson, k)
    verdict = str(tour._why(lesson, k, step.question, facts))
    assert text(found_key(lesson, k), "zh") in verdict and not re.search(r"[。！？：] ", verdict), verdict
