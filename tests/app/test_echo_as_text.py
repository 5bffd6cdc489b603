"""Links carrying markdown, images and KaTeX in every URL-bound text field show the text, never live markup.

Each hostile value goes into one field through the URL (as a shared link would carry it); then every markdown body
of the page (st.markdown, st.error, st.warning, st.info, st.success, st.caption, st.toast) is rendered by an
independent CommonMark renderer (markdown-it-py) and must hold no link and no image, no bare address GitHub markdown
would link, no unescaped '$' (KaTeX) and no Streamlit directive or shortcode; and the value itself must read
literally in the rendered text of some body (the echo is there, as text).
"""
from __future__ import annotations

import functools
import html
import json
import re

import pytest
from markdown_it import MarkdownIt
from streamlit.testing.v1 import AppTest

from embedviz.app import context_extension_view
from embedviz.app.markup import escape
from embedviz.lessons.widget_keys import Context, RealModel, Tokens, WhyPosition
from tests.app import pagetest as pt
from tests.conftest import ROOT

IMAGE = "![x](http://127.0.0.2:9/track.png)"
LINK = "[a](http://127.0.0.2:9/)"
AUTOLINK = "<http://127.0.0.2:9/>"
RULE = r"$\rule{3000em}{3000em}$"
HUGE = r"$\color{red}\Huge\text{big}$"
DIRECTIVES = ":red[r] :material/home: www.x.org"  # within max_chars=40
HOSTILE = [IMAGE, LINK, AUTOLINK, RULE, HUGE, DIRECTIVES]

_RENDER = MarkdownIt("commonmark").enable(["strikethrough"])
_TAG = re.compile(r"<[^>]+>")
_DOLLAR = re.compile(r"(?<!\\)(?:\\\\)*\$")  # a '$' no backslash escapes
# what Streamlit's markdown (GitHub autolink literals, its directives and shortcodes) finds in the rendered text
_LIVE_IN_TEXT = re.compile(r"https?://|www\.|:(?:red|blue|green|orange|violet|gray|rainbow|small|material)\b|:\w+:")
WJ = "\u2060"


def _bodies(at: AppTest) -> list[str]:
    kinds = ("markdown", "error", "warning", "info", "success", "caption", "toast")
    return [el.value for kind in kinds for el in at.get(kind)] + [m.label for m in at.get("metric")]


def _shown(body: str) -> str:
    """The text a reader sees: the body rendered, tags dropped, entities decoded, the invisible joiner dropped."""
    return html.unescape(_TAG.sub("", _RENDER.render(body))).replace(WJ, "")


def inert(body: str) -> list[str]:
    """What is live in ``body``: the reasons it is not plain text (empty: it is)."""
    rendered = _RENDER.render(body)
    text = html.unescape(_TAG.sub("", rendered))
    reasons = [tag for tag in ("<a ", "<img ") if tag in rendered]
    if len(_DOLLAR.findall(body)) >= 2:
        reasons.append("KaTeX")
    reasons += _LIVE_IN_TEXT.findall(text)
    return reasons


def check(at: AppTest, value: str, *, baseline: set[str] = frozenset(), echoed: bool = True) -> None:
    """No body the value changed is live; when ``echoed``, one of them shows the value as it was sent."""
    assert not at.exception, at.exception
    changed = [b for b in _bodies(at) if b not in baseline]
    live = {b: inert(b) for b in changed if inert(b)}
    assert not live, live
    if echoed:  # an error message may quote the value as Python's repr (a backslash doubled)
        assert any(value in _shown(b) or repr(value)[1:-1] in _shown(b) for b in changed), (value, changed)


# (page, URL key) of every URL-bound text field whose value a page repeats in markdown (the word map's list is
# cut at ':' and ',' into words and groups, so no link survives it whole: tests/e2e/test_hostile_links.py opens it)
FIELDS = [("why_position", WhyPosition.TEXT), ("why_position", WhyPosition.ORDER), (RealModel.MODEL, RealModel.WORD),
          (RealModel.MODEL, RealModel.A), (RealModel.MODEL, RealModel.SUBWORD), (RealModel.MODEL, RealModel.PAIRS),
          ("token_embeddings", Tokens.WORD), ("token_embeddings", Tokens.OTHER)]
TABS = {RealModel.WORD: {RealModel.TAB: "Neighbours"}, RealModel.A: {RealModel.TAB: "Analogy"},
        RealModel.SUBWORD: {RealModel.TAB: "Subwords"}, RealModel.WORDS: {RealModel.TAB: "Word map"},
        Tokens.WORD: {Tokens.TAB: "One-hot vs dense"}, Tokens.OTHER: {Tokens.TAB: "One-hot vs dense"}}


# the fields whose value a message repeats as it was typed (the others show it as the model's tokens)
ECHOED = {WhyPosition.TEXT, WhyPosition.ORDER, RealModel.WORD, RealModel.A, RealModel.SUBWORD, RealModel.PAIRS,
          Tokens.WORD, Tokens.OTHER}


def _query(key: str, value: str) -> dict[str, str]:
    if key == WhyPosition.TEXT:  # one word is refused (nothing to reorder) before the sentence is shown
        return {key: f"the {value}"}
    if key == WhyPosition.ORDER:  # the typed order is echoed when it does not use the original's tokens
        return {WhyPosition.TEXT: "the cat sat", WhyPosition.SHUFFLE: "type it", key: value}
    if key == RealModel.PAIRS:
        return {key: f"cat, {value}"}
    return {key: value, **TABS.get(key, {})}


@functools.lru_cache(maxsize=None)
def _baseline(name: str, key: str) -> frozenset[str]:
    """The bodies the page shows with a harmless value in the field: what the hostile value did not write."""
    return frozenset(_bodies(pt.page(name, **_query(key, "zebra")).run()))


@pytest.mark.parametrize("value", HOSTILE, ids=["image", "link", "autolink", "rule", "huge", "directives"])
@pytest.mark.parametrize(("name", "key"), FIELDS, ids=[key for _, key in FIELDS])
def test_a_hostile_value_in_a_url_field_shows_as_text(name, key, value):
    at = pt.page(name, **_query(key, value)).run()
    words = key == RealModel.PAIRS and " " in value  # a line of more than two words is refused by its count alone
    check(at, value, baseline=_baseline(name, key), echoed=key in ECHOED and not words)


def _tour(**query: str) -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    for key, value in query.items():
        at.query_params[key] = value
    return at.run()


@pytest.mark.parametrize("value", [IMAGE, LINK, RULE], ids=["image", "link", "rule"])
def test_a_hostile_tour_or_step_shows_as_text(value):
    check(_tour(tour=f"a {value}", step="1"), f"a {value}")
    check(_tour(tour="003", step=value), value)


def test_a_hostile_rope_type_in_a_shared_config_shows_as_text():
    config = {"hidden_size": 4096, "num_attention_heads": 32, "rope_theta": 10000.0,
              "max_position_embeddings": 4096, "rope_scaling": {"rope_type": IMAGE, "factor": 2.0}}
    token = context_extension_view.encode_config(json.dumps(config))
    check(pt.page("context_extension",
                  **{Context.SOURCE: context_extension_view.CONFIG, Context.CONFIG_URL: token}).run(), IMAGE)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_5000_digit_step_gets_the_apps_own_message(lang):
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.query_params["tour"], at.query_params["step"] = "003", "7" * 5_000
    at.session_state["lang"] = lang
    at.run()
    assert not at.exception
    message = at.error[0].value
    assert "4300" not in message and "Exceeds" not in message
    assert "5,000" in message
    assert pt.is_chinese(message) == (lang == "zh") and not pt.english_only(message)


def test_the_checker_sees_live_markup():
    """The oracle itself: each hostile value raw is live; escaped it is not and reads the same."""
    for value in HOSTILE:
        assert inert(pt.text("common.input_error", message=value)), value
        assert not inert(pt.text("common.input_error", message=escape(value))), value
        assert value in _shown(pt.text("common.input_error", message=escape(value)))


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_an_uploaded_file_name_in_a_message_shows_as_text(lang):
    from embedviz.app.errors import localized
    from embedviz.errors import InputError

    for name in (f"{IMAGE}.npy", f"{LINK}.npy", f"{RULE}.npy"):
        shown = localized(InputError("file_empty", file=name), lang)
        assert not inert(shown) and repr(name) in _shown(shown), shown  # the message quotes the name as a repr
