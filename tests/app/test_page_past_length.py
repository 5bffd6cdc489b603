"""A real model past its length, in AppTest, both languages: what the page shows is what the core measures (the
verdict's numbers, the table, the heads' kinds, the copy check), texts found by catalog key; bad input is a coded
refusal in the reader's language with the rest of the page kept; the CPU budget leaves methods for a press."""
from __future__ import annotations

import json

import numpy as np
import pytest

from embedviz.app import past_length_view as view
from embedviz.language_model import copying, extension, glass, heads
from embedviz.lessons.widget_keys import PastLength as K
from tests.app import pagetest as pt

PAGE = "past_length"


@pytest.fixture(scope="module")
def lesson_losses() -> dict[str, np.ndarray]:
    """The core's losses at the page's defaults (lesson 003: the default text at 512 positions, s = 4)."""
    text = glass.default_text()
    return {m: extension.position_losses(text, 512, extension.rope_parameters(m, 4.0))
            for m in extension.LESSON_METHODS}


def _captions(at) -> list[str]:
    return [c.value for c in at.caption]


def _one(texts: list[str], key: str, lang: str = "en") -> dict[str, str]:
    found = [f for f in (pt.fields(s, key, lang) for s in texts) if f]
    assert found, (key, texts)
    return found[0]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_default_view_shows_the_lesson_at_4x_with_the_cores_numbers(lang, lesson_losses):
    at = pt.page(PAGE, lang=lang, timeout=180).run()
    pt.ok(at)
    charts = pt.chart_json(at)
    assert charts, "no chart"
    figure = json.loads(charts[0])
    names = [tr.get("name") for tr in figure["data"] if tr.get("name")]
    assert names == [pt.text(view.METHOD_NAMES[m], lang) for m in extension.LESSON_METHODS]
    assert pt.shows(figure["layout"]["title"]["text"], "past.chart_title", lang)
    inside, past = extension.loss_rise(lesson_losses["none"], 128)
    verdict = _one(_captions(at), "past.verdict", lang)
    assert verdict["inside"] == f"{inside:.2f}" and verdict["past"] == f"{past:.2f}"
    best = min(extension.LESSON_METHODS, key=lambda m: extension.loss_rise(lesson_losses[m], 128)[1])
    assert verdict["best"] == pt.text(view.METHOD_NAMES[best], lang)
    # the table: one row per method, one column per 128 positions, the core's bucket means
    table = at.table[0].value
    assert list(table.iloc[:, 0]) == [pt.text(view.METHOD_NAMES[m], lang) for m in extension.LESSON_METHODS]
    for row, method in enumerate(extension.LESSON_METHODS):
        buckets = extension.buckets(lesson_losses[method])
        assert [table.iloc[row, 1 + i] for i in range(4)] == [f"{b.loss:.2f}" for b in buckets]
    # the text: where it comes from, and that the model reads English (the Chinese reader is told so)
    assert any(pt.shows(c, "past.default_caption", lang) and pt.shows(c, "past.english", lang) for c in _captions(at))
    assert _one(_captions(at), "past.noise", lang)["independent"] == "10"


def test_the_lessons_claim_holds_on_the_page(lesson_losses):
    """Lesson 003, measured: without scaling the loss rises past 128; PI costs short-range quality (its first
    bucket is the worst); dynamic NTK and YaRN keep more of it than no scaling past 128."""
    rows = {m: extension.buckets(v) for m, v in lesson_losses.items()}
    past = {m: extension.loss_rise(v, 128)[1] for m, v in lesson_losses.items()}
    assert past["none"] - extension.loss_rise(lesson_losses["none"], 128)[0] > 0.25
    assert max(rows, key=lambda m: rows[m][0].loss) == "linear"
    assert past["dynamic"] < past["none"] and past["yarn"] < past["none"]


@pytest.mark.parametrize("link_lang, lang", [("en", "en"), ("zh", "en"), ("en", "zh")])
def test_settings_are_in_the_url_and_a_link_opens_them_in_either_language(link_lang, lang):
    """A bound widget keeps its option's label in the URL: a link written in one language opens the same methods
    in the other."""
    methods = [pt.text("past.m_none", link_lang), pt.text("past.m_yarn", link_lang)]
    at = pt.page(PAGE, lang=lang, timeout=180, past_len="256", past_factor="2", past_methods=methods).run()
    pt.ok(at)
    figure = json.loads(pt.chart_json(at)[0])
    assert [tr.get("name") for tr in figure["data"] if tr.get("name")] == [pt.text("past.m_none", lang),
                                                                            pt.text("past.m_yarn", lang)]
    assert pt.fields(figure["layout"]["title"]["text"], "past.chart_title", lang)["length"] == "256"
    assert at.select_slider(key=K.LENGTH).value == 256 and at.select_slider(key=K.FACTOR).value == 2.0


def test_the_context_extension_page_links_here_at_the_lessons_settings():
    at = pt.page("context_extension", timeout=120).run()
    pt.ok(at)
    buttons = [b for b in at.get("link_button") if b.proto.label == pt.text("ctx.real_model")]
    assert len(buttons) == 1
    url = buttons[0].proto.url
    assert url.startswith("past-length?") and f"{K.LENGTH}=512" in url and f"{K.FACTOR}=4&" in url + "&"
    # the link opens this page at those settings
    query = dict(part.split("=") for part in url.split("?")[1].split("&"))
    from urllib.parse import unquote_plus
    opened = pt.page(PAGE, timeout=180, **{k: unquote_plus(v) for k, v in query.items()}).run()
    pt.ok(opened)
    assert opened.select_slider(key=K.LENGTH).value == 512 and opened.select_slider(key=K.FACTOR).value == 4.0


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_attention_tab_says_what_each_head_does(lang):
    at = pt.page(PAGE, lang=lang, timeout=180, session={K.TAB: pt.text("past.tab_attention", lang)}).run()
    pt.ok(at)
    assert len(pt.chart_json(at)) == 2  # the head's map, then every head's weight by distance beside the decay
    weights = heads.attention_weights(glass.default_text(), 512, None)
    kinds = heads.head_kinds(weights)
    shown = _one(_captions(at), "past.kinds", lang)
    far = sum(k.kind == "far" for k in kinds)
    assert pt.text("past.kind_count", lang, n=far, kind=pt.text("past.kind_far", lang)) in shown["counts"]
    table = at.dataframe[0].value
    assert len(table) == 16
    assert list(table.iloc[:, 3]) == [pt.text(view.KIND_NAMES[k.kind], lang) for k in kinds]
    assert pt.shows(" ".join(m.value for m in at.markdown), "past.honest", lang)


def test_the_copy_tab_shows_the_measurement_that_drops_the_retrieval_part():
    at = pt.page(PAGE, timeout=120, session={K.TAB: pt.text("past.tab_copy")}).run()
    pt.ok(at)
    check = copying.copy_check()
    said = next(f for f in (pt.fields(m.value, "past.copy_no") for m in at.markdown) if f)
    assert said["first"] == f"{check.losses[0]:.2f}" and said["third"] == f"{check.losses[2]:.2f}"
    figure = json.loads(pt.chart_json(at)[0])
    assert figure["data"][0]["x"] == pt.text("past.copy_labels").split("|")


# bad input: a coded refusal in the reader's language, the controls kept


def _own(text: str, lang: str = "en", **query):
    """The page on the reader's own text, as a session that typed it (a fresh run: AppTest's rerun would send the
    translated source option back in the test's own language)."""
    return pt.page(PAGE, lang=lang, timeout=120, session={K.SOURCE: "own", K.TEXT: text}, **query).run()


def test_the_own_text_option_in_a_link_opens_the_text_box_in_either_language():
    for lang in ("en", "zh"):
        at = pt.page(PAGE, lang=lang, timeout=120, past_src=pt.text("past.src_own", "zh"), past_len="128",
                     past_methods=[pt.text("past.m_none", lang)]).run()
        pt.ok(at)
        assert at.text_area(key=K.TEXT).value == view.own_text_default()


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_an_empty_text_is_refused_and_the_controls_stay(lang):
    at = _own("", lang)
    assert not at.exception
    assert [e.value for e in at.error] == [pt.refusal("empty_text", lang)]
    assert at.select_slider(key=K.LENGTH).value == 512 and at.multiselect(key=K.METHODS).value


def test_a_straight_quote_is_named_and_a_short_text_is_told_how_long_it_must_be():
    at = _own('He said "no".')
    assert [e.value for e in at.error] == [pt.refusal("glass_chars", n=1, chars="'\"'")]
    short = "The cat sat on the mat. " * 12
    at = _own(short, "zh")
    n = len(glass.encode(short))
    need_chars = int(np.ceil(513 * len(short) / n))
    assert [e.value for e in at.error] == [pt.refusal("window_short", "zh", n=n, length=512, need=513,
                                                      chars=need_chars)]


def test_a_short_own_text_says_it_cannot_tell_the_methods_apart():
    text = view.own_text_default()  # ~3,600 characters: two windows' worth at 512, one at 1,024
    at = _own(text, past_len="1024", past_factor="8", past_methods=[pt.text("past.m_none"), pt.text("past.m_yarn")])
    pt.ok(at)
    warning = next(w.value for w in at.warning if pt.shows(w.value, "past.too_short"))
    assert pt.fields(warning, "past.too_short")["independent"] == "1"


def test_a_length_or_factor_out_of_range_in_a_link_opens_the_defaults():
    at = pt.page(PAGE, timeout=120, past_len="99999", past_factor="1e9").run()
    pt.ok(at)
    assert at.select_slider(key=K.LENGTH).value == 512 and at.select_slider(key=K.FACTOR).value == 4.0


def test_no_method_picked_says_so():
    at = pt.page(PAGE, timeout=120).run()
    at.multiselect(key=K.METHODS).set_value([]).run()
    pt.ok(at)
    assert [i.value for i in at.info] == [pt.text("past.no_methods")]


def test_the_cpu_budget_leaves_methods_for_a_press(monkeypatch):
    """With a budget one method exhausts, the others wait behind a button; pressing it computes them (cached, the
    first is not computed again)."""
    monkeypatch.setattr(view, "RUN_CPU_BUDGET_S", 0.0)
    at = pt.page(PAGE, timeout=180, past_len="384", past_factor="3",
                 past_methods=[pt.text(f"past.m_{m}") for m in ("none", "linear", "theta")]).run()
    pt.ok(at)
    warning = next(w.value for w in at.warning if pt.shows(w.value, "past.left"))
    assert pt.fields(warning, "past.left")["n"] == "2"
    assert len([tr for tr in json.loads(pt.chart_json(at)[0])["data"] if tr.get("name")]) == 1
    at.button(key=K.MORE).click().run()
    pt.ok(at)
    assert not [w for w in at.warning if pt.shows(w.value, "past.left")]
    assert len([tr for tr in json.loads(pt.chart_json(at)[0])["data"] if tr.get("name")]) == 3
