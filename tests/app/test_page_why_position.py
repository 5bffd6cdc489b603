"""The "Why position" page: runs, shows ~1e-15 without positions and a large difference with them, URL state, zh."""
from __future__ import annotations

import pytest

from embedviz.app.i18n import catalog
from embedviz.lessons.widget_keys import WhyPosition as K
from tests.app import pagetest as pt


def _sentences(at, lang: str) -> str:
    """The line naming the sentence and its shuffle (the why.sentences entry, found by its lead-in)."""
    head = catalog()["why.sentences"][lang].split("{")[0]
    return next(m.value for m in at.markdown if m.value.startswith(head))

TABS = ("difference", "outputs", "words")  # the page's bound tabs: one chart each, then the text


def page(tab: str = "difference", *, lang: str = "en", **query):
    return pt.page("why_position", lang=lang, session={K.TAB: catalog()[f"why.tab_{tab}"][lang]}, **query)


def metric_values(at) -> list[float]:
    return [float(m.value) for m in at.metric]


@pytest.fixture(scope="module")
def default_run():
    return page("outputs").run()


def test_default_run_shows_equivariance(default_run):
    at = default_run
    assert not at.exception and not at.error
    assert len(at.get("plotly_chart")) == 1  # bound tabs are lazy: the open tab's one chart
    # the default sentence reversed: the same vectors in another order give the same outputs
    assert _sentences(at, "en") == catalog()["why.sentences"]["en"].format(original="the cat sat on the mat",
                                                                           shuffled="mat the on sat cat the")
    (difference,) = metric_values(at)
    assert difference < 1e-12
    heatmaps = pt.spec(at.get("plotly_chart")[0])
    assert heatmaps["data"][0]["y"][0] == "0: the" and heatmaps["data"][1]["y"][0] == "0: mat"
    for chart in at.get("plotly_chart"):
        assert len(chart.proto.spec) < 1_000_000


@pytest.mark.parametrize("kind", ["sinusoidal", "learned"])
def test_positions_break_the_equivalence(kind):
    at = pt.page("why_position").run()  # opens on the difference tab
    before = pt.spec(at.get("plotly_chart")[0])
    at.segmented_control(key=K.POSITIONS).set_value(kind).run()
    assert not at.exception
    plain, with_positions = metric_values(at)
    assert plain < 1e-12 and with_positions > 1e-2
    assert pt.spec(at.get("plotly_chart")[0])["data"] != before["data"]  # the difference heatmap changed


def test_dog_bites_man_typed_shuffle():
    at = pt.page("why_position")
    at.query_params[K.TEXT] = "狗咬人"
    at.query_params[K.SHUFFLE] = "type it"  # a bound widget keeps its shown label in the URL
    at.query_params[K.ORDER] = "人咬狗"
    at.run()
    assert not at.exception and not at.error
    assert at.text_input(key=K.TEXT).value == "狗咬人"
    assert at.segmented_control(key=K.SHUFFLE).value == "typed"
    assert at.text_input(key=K.ORDER).value == "人咬狗"
    assert _sentences(at, "en") == catalog()["why.sentences"]["en"].format(original="狗 咬 人", shuffled="人 咬 狗")
    assert metric_values(at)[0] < 1e-12


def test_bad_input_is_a_message_not_a_traceback():
    at = pt.page("why_position").run()
    at.text_input(key=K.TEXT).set_value("hello").run()  # one token cannot be reordered
    assert not at.exception
    assert at.error and pt.shows(at.error[0].value, "err.too_few_tokens")
    at.text_input(key=K.TEXT).set_value("a b c").run()
    at.segmented_control(key=K.SHUFFLE).set_value("typed").run()  # default typed order uses other words
    assert not at.exception and at.error and pt.shows(at.error[0].value, "err.shuffle_tokens")


def test_sliders_at_their_extremes():
    at = pt.page("why_position").run()
    for key in (K.SEED, K.D_MODEL):
        slider = at.slider(key=key)
        for value in (slider.min, slider.max):
            at.slider(key=key).set_value(value).run()
            assert not at.exception, (key, value)
            assert len(at.get("plotly_chart")) == 1
    at.segmented_control(key=K.SPLIT).set_value("chars")
    at.segmented_control(key=K.SHUFFLE).set_value("random")
    at.run()
    assert not at.exception and metric_values(at)[0] < 1e-12


def test_widget_change_changes_the_figure(default_run):
    at = pt.page("why_position").run()
    at.slider(key=K.SEED).set_value(7).run()
    before, after = pt.spec(default_run.get("plotly_chart")[0]), pt.spec(at.get("plotly_chart")[0])
    assert after["data"][0]["z"] != before["data"][0]["z"]


def test_query_params_round_trip():
    at = pt.page("why_position")
    at.query_params[K.D_MODEL] = "16"
    at.query_params[K.SEED] = "3"
    at.query_params[K.POSITIONS] = "sinusoidal"
    at.run()
    assert at.slider(key=K.D_MODEL).value == 16 and at.slider(key=K.SEED).value == 3
    assert at.segmented_control(key=K.POSITIONS).value == "sinusoidal"
    assert len(metric_values(at)) == 2


def test_each_tab_draws_its_own_section():
    titles = {"outputs": "Attention outputs", "difference": "Per-token difference"}
    for tab in TABS:
        at = page(tab).run()
        pt.ok(at)
        shown = [chart["layout"]["title"]["text"] for chart in pt.specs(at)]
        assert len(shown) == (tab in titles) and all(titles[tab] in text for text in shown), (tab, shown)


def test_the_causal_mask_number_the_page_quotes_is_the_cores():
    """Lesson 003's own x, Wq, Wk, Wv and shuffle [2, 0, 3, 1] with a causal mask: the page quotes the core's 6.43,
    says why a decoder can infer position without an encoding, and the words tab shows it."""
    import numpy as np

    from embedviz.positions.attention import permutation_demo, text003_setup

    x, W = text003_setup()
    masked = permutation_demo(x, np.array([2, 0, 3, 1]), projections=W, causal=True).max_difference
    plain = permutation_demo(x, np.array([2, 0, 3, 1]), projections=W).max_difference
    assert plain < 1e-12 < 1 < masked
    for lang, why in (("en", "can count how many tokens it sees"), ("zh", "数出自己看到了多少个 token")):
        text = catalog()["why.causal_md"][lang]
        assert f"{masked:.2f}" in text and why in text
        at = page("words", lang=lang).run()
        pt.ok(at)
        assert text in [m.value for m in at.markdown]
    # a token that stayed in its slot changes too once positions are added: its context changed
    assert "a token that stayed usually changes too" in catalog()["why.diff_note_pos"]["en"]  # not always: saturated
    # swap the first two words: "sat on the mat" stay in their slots, and their outputs still change
    swapped = dict(**{K.TEXT: "the cat sat on the mat", K.SHUFFLE: "type it", K.ORDER: "cat the sat on the mat"})
    for kind, changed in (("none", False), ("sinusoidal", True)):
        at = page("difference", **{K.POSITIONS: kind}, **swapped).run()
        pt.ok(at)
        trace = pt.spec(at.get("plotly_chart")[0])["data"][0]
        diff = pt.values(trace["z"]).astype(float).reshape(len(trace["y"]), -1)  # (tokens, d_model)
        assert diff.shape == (6, 8)
        stayed = np.abs(np.nan_to_num(diff[2:])).max(axis=1)
        assert ((stayed > 1e-6).all() if changed else (stayed < 1e-12).all()), (kind, stayed)  # vs rounding


def test_chinese(default_run):
    at = page("words", lang="zh").run()
    assert not at.exception
    assert at.title[0].value != default_run.title[0].value
    assert pt.is_chinese(at.title[0].value)
    assert "狗咬人" in at.markdown[-1].value or any("狗咬人" in m.value for m in at.markdown)
