"""The "Sinusoidal" page: runs at defaults and at every slider extreme, reproduces text 003's numbers, URL state, zh."""
from __future__ import annotations

import numpy as np
import pytest

from embedviz.app.i18n import catalog
from embedviz.downsample import CELL_BUDGET, stride_for

from tests.app import pagetest as pt

SLIDERS = ("sin_d", "sin_L", "sin_base")


@pytest.fixture(scope="module")
def default_run():
    return pt.page("sinusoidal").run()


def test_default_run(default_run):
    at = default_run
    assert not at.exception and not at.error
    assert len(at.get("plotly_chart")) == 4  # encoding, distance vs gap, similarity, rotation
    assert "128 positions × 64 dimensions" in pt.titles(at)[0]
    assert at.select_slider(key="sin_d").value == 64
    assert at.select_slider(key="sin_L").value == 128
    assert at.select_slider(key="sin_base").value == 10_000.0
    assert float(at.metric[0].value) < 1e-12  # PE(p + k) vs R(k) PE(p)
    for chart in at.get("plotly_chart"):
        assert len(chart.proto.spec) < 1_000_000


def test_text003_numbers_at_d8():
    # d_model 8, base 10000: the lesson's frequency table and distances appear on the page
    at = pt.page("sinusoidal")
    at.query_params["sin_d"] = "8"
    at.run()
    assert not at.exception
    freq, distances = (df.value for df in at.dataframe)
    np.testing.assert_allclose(freq.iloc[:, 2], [1, 0.1, 0.01, 0.001], rtol=1e-12)
    assert [round(v) for v in freq.iloc[1:, 3]] == [63, 628, 6283]
    table = distances.set_index(distances.columns[0])
    assert np.round(table.loc[[1, 5, 100]].to_numpy(), 4).tolist() == [[0.9641] * 2, [1.2962] * 2, [2.2097] * 2]
    expected = [0.96, 1.69, 2.02, 1.86, 1.3, 0.66, 0.98, 1.7, 2.14, 2.15, 2.21, 2.4]
    assert np.round(table.iloc[:, 0].to_numpy(), 2).tolist() == expected
    # the distance curves from starts 0, 100 and 10,000 coincide
    curves = [np.asarray(tr["y"]["bdata"] if isinstance(tr["y"], dict) else tr["y"]) for tr in
              pt.spec(at.get("plotly_chart")[1])["data"]]
    assert len(curves) == 3 and all(np.array_equal(curves[0], c) for c in curves)


EXTREMES = {"sin_d": (2, 4096), "sin_L": (1, 131_072), "sin_base": (100.0, 1e7)}  # the ranges the page promises


@pytest.mark.parametrize("key", SLIDERS)
def test_each_slider_at_min_and_max(key):
    at = pt.page("sinusoidal").run()
    lo, hi = EXTREMES[key]
    for value in (lo, hi):
        at.select_slider(key=key).set_value(value).run()
        assert not at.exception and not at.error, (key, value, at.exception)
        assert at.select_slider(key=key).value == value
        assert len(at.get("plotly_chart")) == 4
        for chart in at.get("plotly_chart"):
            assert len(chart.proto.spec) < 1_000_000, (key, value)
    at.select_slider(key=key).set_value(lo).run()
    assert at.select_slider(key=key).value == lo  # min and max are the ends of the slider


def test_all_extremes_together_stay_within_budget():
    at = pt.page("sinusoidal")
    at.query_params.update({"sin_d": "4096", "sin_L": "131,072", "sin_base": "10,000,000", "sin_p": "1000000",
                            "sin_k": "-100000"})
    at.run()
    assert not at.exception and not at.error
    assert at.select_slider(key="sin_d").value == 4096 and at.select_slider(key="sin_L").value == 131_072
    heatmap = pt.spec(at.get("plotly_chart")[0])
    step = stride_for(131_072, CELL_BUDGET)
    expected = catalog()["common.showing_every"]["en"].format(step=step)
    assert expected in heatmap["layout"]["title"]["subtitle"]["text"]  # strided, and the figure says so
    assert float(at.metric[0].value) < 1e-8
    assert max(len(c.proto.spec) for c in at.get("plotly_chart")) < 1_000_000


def test_widget_change_changes_the_figure(default_run):
    at = pt.page("sinusoidal").run()
    at.select_slider(key="sin_base").set_value(100.0).run()
    assert not at.exception
    before, after = pt.spec(default_run.get("plotly_chart")[0]), pt.spec(at.get("plotly_chart")[0])
    assert before["data"][0]["z"] != after["data"][0]["z"]
    at.number_input(key="sin_k").set_value(50).run()
    assert pt.spec(at.get("plotly_chart")[3])["data"][1] != pt.spec(default_run.get("plotly_chart")[3])["data"][1]


def test_query_params_round_trip():
    at = pt.page("sinusoidal")
    at.query_params.update({"sin_d": "512", "sin_L": "1,024", "sin_base": "500,000", "sin_p": "17", "sin_k": "-4"})
    at.run()
    assert at.select_slider(key="sin_d").value == 512
    assert at.select_slider(key="sin_L").value == 1024
    assert at.select_slider(key="sin_base").value == 500_000.0
    assert at.number_input(key="sin_p").value == 17 and at.number_input(key="sin_k").value == -4
    assert "1,024 positions × 512 dimensions" in pt.titles(at)[0]


def test_chinese(default_run):
    at = pt.page("sinusoidal", lang="zh").run()
    assert not at.exception
    assert at.title[0].value != default_run.title[0].value
    assert pt.is_chinese(at.title[0].value)
    assert pt.is_chinese(pt.titles(at)[0])
