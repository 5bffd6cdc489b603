"""The "Why position" page: runs, shows ~1e-15 without positions and a large difference with them, URL state, zh."""
from __future__ import annotations

import pytest

from tests.app import pagetest as pt


def metric_values(at) -> list[float]:
    return [float(m.value) for m in at.metric]


@pytest.fixture(scope="module")
def default_run():
    return pt.page("why_position").run()


def test_default_run_shows_equivariance(default_run):
    at = default_run
    assert not at.exception and not at.error
    assert len(at.get("plotly_chart")) == 2
    # the default sentence reversed: the same vectors in another order give the same outputs
    assert "the cat sat on the mat" in at.markdown[1].value and "mat the on sat cat the" in at.markdown[1].value
    (difference,) = metric_values(at)
    assert difference < 1e-12
    heatmaps = pt.spec(at.get("plotly_chart")[0])
    assert heatmaps["data"][0]["y"][0] == "0: the" and heatmaps["data"][1]["y"][0] == "0: mat"
    for chart in at.get("plotly_chart"):
        assert len(chart.proto.spec) < 1_000_000


@pytest.mark.parametrize("kind", ["sinusoidal", "learned"])
def test_positions_break_the_equivalence(kind):
    at = pt.page("why_position").run()
    before = pt.spec(at.get("plotly_chart")[1])
    at.segmented_control(key="why_pos").set_value(kind).run()
    assert not at.exception
    plain, with_positions = metric_values(at)
    assert plain < 1e-12 and with_positions > 1e-2
    assert pt.spec(at.get("plotly_chart")[1])["data"] != before["data"]  # the difference heatmap changed


def test_dog_bites_man_typed_shuffle():
    at = pt.page("why_position")
    at.query_params["why_text"] = "狗咬人"
    at.query_params["why_shuffle"] = "type it"  # a bound widget keeps its shown label in the URL
    at.query_params["why_order"] = "人咬狗"
    at.run()
    assert not at.exception and not at.error
    assert at.text_input(key="why_text").value == "狗咬人"
    assert at.segmented_control(key="why_shuffle").value == "typed"
    assert at.text_input(key="why_order").value == "人咬狗"
    assert "狗 咬 人" in at.markdown[1].value and "人 咬 狗" in at.markdown[1].value
    assert metric_values(at)[0] < 1e-12


def test_bad_input_is_a_message_not_a_traceback():
    at = pt.page("why_position").run()
    at.text_input(key="why_text").set_value("hello").run()  # one token cannot be reordered
    assert not at.exception
    assert at.error and "at least 2" in at.error[0].value
    at.text_input(key="why_text").set_value("a b c").run()
    at.segmented_control(key="why_shuffle").set_value("typed").run()  # default typed order uses other words
    assert not at.exception and at.error and "exactly the tokens" in at.error[0].value


def test_sliders_at_their_extremes():
    at = pt.page("why_position").run()
    for key in ("why_seed", "why_d"):
        slider = at.slider(key=key)
        for value in (slider.min, slider.max):
            at.slider(key=key).set_value(value).run()
            assert not at.exception, (key, value)
            assert len(at.get("plotly_chart")) == 2
    at.segmented_control(key="why_split").set_value("chars")
    at.segmented_control(key="why_shuffle").set_value("random")
    at.run()
    assert not at.exception and metric_values(at)[0] < 1e-12


def test_widget_change_changes_the_figure(default_run):
    at = pt.page("why_position").run()
    at.slider(key="why_seed").set_value(7).run()
    before, after = pt.spec(default_run.get("plotly_chart")[0]), pt.spec(at.get("plotly_chart")[0])
    assert after["data"][0]["z"] != before["data"][0]["z"]


def test_query_params_round_trip():
    at = pt.page("why_position")
    at.query_params["why_d"] = "16"
    at.query_params["why_seed"] = "3"
    at.query_params["why_pos"] = "sinusoidal"
    at.run()
    assert at.slider(key="why_d").value == 16 and at.slider(key="why_seed").value == 3
    assert at.segmented_control(key="why_pos").value == "sinusoidal"
    assert len(metric_values(at)) == 2


def test_chinese(default_run):
    at = pt.page("why_position", lang="zh").run()
    assert not at.exception
    assert at.title[0].value != default_run.title[0].value
    assert pt.is_chinese(at.title[0].value)
    assert "狗咬人" in at.markdown[-1].value or any("狗咬人" in m.value for m in at.markdown)
