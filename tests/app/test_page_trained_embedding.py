"""The Trained embedding page: text 001's experiment runs once per setting, and shows what training really gives.

Only the first test trains the default 500 steps; the others use 10-200 steps to stay fast.
"""
from __future__ import annotations

import math
import re

import pytest
import streamlit as st
from streamlit.testing.v1 import AppTest

from embedviz.app.locales.train import STRINGS
from embedviz.app.training_view import loss_floor, parse_groups
from tests.app import pagetest as pt

TEXT_TAB = STRINGS["train.tab_text"]["en"]
GROUPS_ONLY = STRINGS["train.softmax_groups"]["en"]  # a bound widget keeps its formatted option in the URL


def _page(*, lang: str | None = None, **query) -> AppTest:
    return pt.page("trained_embedding", timeout=120, lang=lang, **query)  # a run may train: more time than others


def _numbers(at: AppTest) -> dict[str, tuple[float, float]]:
    """The table of quoted numbers: quantity -> (before, after)."""
    df = at.table[0].value
    before, after = df.columns[1], df.columns[2]
    return {row.iloc[0]: (float(row[before]), float(row[after])) for _, row in df.iterrows()}


def _progress_texts(at: AppTest) -> list[str]:
    return [p.proto.text for p in at.get("progress")]


def test_default_run_reproduces_the_texts_claims_and_is_cached():
    st.cache_data.clear()  # this test must see a real training run
    at = _page().run()
    pt.ok(at)
    assert _progress_texts(at) and _progress_texts(at)[0].startswith("trained 500 steps")
    assert len(at.get("plotly_chart")) == 4  # loss, before/after similarity, group curves, PCA
    n = _numbers(at)
    ab_before, ab_after = n["sim('a', 'b')"]
    same_before, same_after = n["mean over same-group pairs"]
    cross_before, cross_after = n["mean over cross-group pairs"]
    # text 001: sim('a','b') 0.03 -> 0.56 (same group pulled together), cross-group stays near 0
    assert ab_after > ab_before + 0.3
    assert abs(same_before) < 0.1 and abs(cross_before) < 0.1  # random rows: nearly orthogonal
    assert 0.35 < same_after < 0.75
    assert abs(cross_after) < 0.2
    assert at.table[0].value.iloc[0, 3] == "0.03 → 0.56"
    # a rerun with the same widgets does not retrain: no progress bar, same numbers
    at.run()
    pt.ok(at)
    assert not _progress_texts(at)
    assert _numbers(at) == n


def test_only_group_tokens_in_the_softmax_push_the_groups_apart():
    at = _page(tr_steps="200", tr_soft=GROUPS_ONLY).run()
    assert not at.exception
    assert at.segmented_control(key="tr_soft").value == "groups"
    cross_after = _numbers(at)["mean over cross-group pairs"][1]
    assert cross_after < -0.15
    assert at.warning and "negative" in at.warning[0].value


@pytest.mark.parametrize(
    "key, value",
    [("tr_steps", 10), ("tr_d", 2), ("tr_d", 256), ("tr_lr", 1e-4), ("tr_lr", 1.0)],
)
def test_slider_extremes(key, value):
    at = _page(tr_steps="10").run()
    at.select_slider(key=key).set_value(value).run()
    pt.ok(at)
    assert len(at.get("plotly_chart")) == 4
    for chart in at.get("plotly_chart"):
        assert len(chart.proto.spec) < 1_000_000


@pytest.mark.slow
def test_most_steps():
    at = _page(tr_steps="2000", tr_d="2").run()
    pt.ok(at)
    assert _numbers(at)["mean over same-group pairs"][1] > 0.5


def test_snapshot_slider_moves_the_points():
    at = _page(tr_steps="20").run()
    last = at.get("plotly_chart")[-1].proto.spec
    snaps = at.select_slider(key="tr_snap").options
    at.select_slider(key="tr_snap").set_value(int(snaps[0])).run()
    pt.ok(at)
    first = at.get("plotly_chart")[-1].proto.spec
    assert first != last
    assert "step 0" in first  # the title names the snapshot
    # fewer steps: a snapshot that no longer exists falls back to the last one instead of failing
    at.select_slider(key="tr_snap").set_value(15).run()
    at.select_slider(key="tr_steps").set_value(10).run()
    pt.ok(at)
    assert at.select_slider(key="tr_snap").value == 10


def test_seed_changes_the_figures():
    at = _page(tr_steps="10").run()
    before = [c.proto.spec for c in at.get("plotly_chart")]
    at.number_input(key="tr_seed").set_value(1).run()
    pt.ok(at)
    assert [c.proto.spec for c in at.get("plotly_chart")] != before


def test_query_params_round_trip_and_own_groups():
    at = _page(tr_steps="20", tr_d="8", tr_lr="0.05", tr_seed="3", tr_groups="猫狗鸟鱼 车船飞机").run()
    pt.ok(at)
    assert at.select_slider(key="tr_steps").value == 20
    assert at.select_slider(key="tr_d").value == 8
    assert at.select_slider(key="tr_lr").value == pytest.approx(0.05)
    assert at.number_input(key="tr_seed").value == 3
    assert at.text_input(key="tr_groups").value == "猫狗鸟鱼 车船飞机"
    assert "sim('猫', '狗')" in _numbers(at)


@pytest.mark.parametrize(
    "groups, message",
    [("a", r"at least 2 distinct characters"), ("abc cde", r"'c' is in groups\[0\] and groups\[1\]"), ("", r"at least 1 group")],
)
def test_bad_groups_are_messages(groups, message):
    at = _page(tr_steps="10", tr_groups=groups).run()
    assert not at.exception
    assert at.error and re.search(message, at.error[0].value), [e.value for e in at.error]


def test_own_text_tab():
    at = _page(tr_steps="20")
    at.session_state["tr_tab"] = TEXT_TAB
    at.run()
    pt.ok(at)
    assert len(at.get("plotly_chart")) == 3
    at.text_area(key="tr_text").set_value("a").run()
    assert not at.exception
    assert at.error and "at least context + 1 = 2" in at.error[0].value
    at.text_area(key="tr_text").set_value("abab cdcd " * 20).run()
    at.slider(key="tr_ctx").set_value(8).run()
    pt.ok(at)


def test_language_switch():
    english = _page(tr_steps="10").run().title[0].value
    at = _page(tr_steps="10", lang="zh").run()
    pt.ok(at)
    assert at.title[0].value != english and pt.is_chinese(at.title[0].value)


def test_helpers():
    assert parse_groups("abc  ABC\nxyz") == ("abc", "ABC", "xyz")
    assert loss_floor(("abcdefghij", "ABCDEFGHIJ")) == pytest.approx(math.log(10))  # text: loss ~2.3 at the end
    assert loss_floor(("ab", "abcd")) == pytest.approx((math.log(2) + math.log(4)) / 2)
