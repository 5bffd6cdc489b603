"""URL values a widget cannot take: the widget shows its default (the page's own number), never a traceback;
a text cut to the field's length says so, in the reader's language.

Each case failed without the URL guard in embedviz/app/compat/guards.py (checked by running this file with its patch left
out of ``guards.PATCHES``): OverflowError tracebacks for inf / 1e999 / long digit strings, ``None`` (then KeyError, TypeError or an
error box) for an empty required choice, and a silent cut.
"""
from __future__ import annotations

import pytest
from streamlit.runtime.state.session_state import SessionState

from embedviz.app.i18n import catalog
from embedviz.lessons.widget_keys import Compare, Context, Rope, Sinusoidal, Tokens, Training, WhyPosition
from tests.app.pagetest import ok, page

OVERFLOWING = ["inf", "-inf", "1e999", "9" * 5_000]


def test_the_guard_is_on_while_these_pages_run():
    # installed by compat.install(), as the frame does (tests/conftest.py; tests/app/test_compat.py shows the
    # frame installing it and a bare import installing nothing)
    assert getattr(SessionState._seed_widget_from_url, "embedviz_compat", False)


@pytest.mark.parametrize(("name", "key", "default", "value"), [
    *[("rope", Rope.M, 5, value) for value in OVERFLOWING],
    ("sinusoidal", Sinusoidal.K, 3, "-inf"), ("compare", Compare.K, 1, "1e999"), ("trained_embedding", Training.SEED,
                                                                                  0, "inf"),
    ("context_extension", Context.ORIGINAL, None, "9" * 5_000),  # None: the default source's value
])
def test_an_integer_input_falls_back_to_its_default(name, key, default, value):
    tabs = {"sinusoidal": {Sinusoidal.TAB: catalog()["sin.tab_rotation"]["en"]},  # the tab holding the input
            "rope": {Rope.TAB: catalog()["rope.tab_pair"]["en"]}}
    tab = tabs.get(name, {})
    if default is None:
        default = page(name).run().number_input(key=key).value
    at = page(name, **{key: value}, **tab).run()
    ok(at)
    assert at.number_input(key=key).value == default
    assert key not in at.query_params  # Streamlit's own invalid-value path: the bad value leaves the URL


@pytest.mark.parametrize(("name", "key"), [
    ("trained_embedding", Training.SOFTMAX), ("context_extension", Context.METHOD), ("rope", Rope.PAIRING),
    ("token_embeddings", Tokens.INIT), ("why_position", WhyPosition.SPLIT), ("why_position", WhyPosition.SHUFFLE),
    ("why_position", WhyPosition.POSITIONS),
])
def test_an_empty_required_choice_falls_back_to_its_default(name, key):
    default = page(name).run().get("button_group")
    expected = {w.key: w.value for w in default}[key]
    at = page(name, **{key: ""}).run()
    ok(at)
    assert {w.key: w.value for w in at.get("button_group")}[key] == expected is not None


@pytest.mark.parametrize(("lang", "words"), [("en", "characters"), ("zh", "字符")])
def test_a_text_cut_to_the_fields_length_says_so(lang, words):
    sent = "the cat sat " * 100  # 1,200 characters
    at = page("why_position", lang=lang, **{WhyPosition.TEXT: sent}).run()
    ok(at)
    kept = at.text_input(key=WhyPosition.TEXT).value
    assert 0 < len(kept) < len(sent) and sent.startswith(kept)
    [toast] = at.toast
    assert WhyPosition.TEXT in toast.value and "1,200" in toast.value and f"{len(kept):,}" in toast.value
    assert words in toast.value


def test_a_text_within_the_limit_is_kept_without_a_message():
    at = page("why_position", **{WhyPosition.TEXT: "the dog bit the man"}).run()
    ok(at)
    assert at.text_input(key=WhyPosition.TEXT).value == "the dog bit the man"
    assert not at.toast
