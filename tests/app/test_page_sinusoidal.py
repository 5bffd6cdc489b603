"""The "Sinusoidal" page: runs at defaults and at every slider extreme, reproduces lesson 003's numbers, URL state, zh.

Its sections are lazy tabs bound to ?sin_tab=: a run draws the open tab only, so the tests open each.
"""
from __future__ import annotations

import numpy as np
import pytest

from embedviz.app.i18n import catalog
from embedviz.downsample import CELL_BUDGET, stride_for
from embedviz.lessons.widget_keys import Sinusoidal as K

from tests.app import pagetest as pt

SLIDERS = (K.D_MODEL, K.LENGTH, K.BASE)
TABS = ("sin.tab_encoding", "sin.tab_lesson", "sin.tab_similarity", "sin.tab_rotation")


def tab(key: str, lang: str = "en") -> dict:
    """The session state that opens the tab whose label is the i18n key ``key``."""
    return {K.TAB: catalog()[key][lang]}


def charts_of_every_tab(at) -> list:
    """Open each tab in turn on this AppTest (its other widgets as they are) and collect every chart drawn."""
    charts = []
    for key in TABS:
        at.session_state[K.TAB] = catalog()[key]["en"]
        at.run()
        assert not at.exception and not at.error, (key, at.exception)
        charts += pt.chart_json(at)  # plotly charts and live figures
    return charts


@pytest.fixture(scope="module")
def default_run():
    return pt.page("sinusoidal").run()


def test_default_run(default_run):
    at = default_run
    assert not at.exception and not at.error
    assert len(pt.specs(at)) == 1  # the first tab, the encoding, is the only one drawn
    assert "128 positions × 64 dimensions" in pt.titles(at)[0]
    assert not at.dataframe and not at.metric  # the other tabs' tables and metric are not built
    assert at.select_slider(key=K.D_MODEL).value == 64
    assert at.select_slider(key=K.LENGTH).value == 128
    assert at.select_slider(key=K.BASE).value == 10_000.0
    charts = charts_of_every_tab(pt.page("sinusoidal"))
    assert len(charts) == 4  # encoding, distance vs gap, similarity, rotation: one per tab
    assert all(len(chart) < 1_000_000 for chart in charts)
    rotation = pt.page("sinusoidal", session=tab("sin.tab_rotation")).run()
    assert float(rotation.metric[0].value) < 1e-12  # PE(p + k) vs R(k) PE(p)


def test_text003_numbers_at_d8():
    # d_model 8, base 10000: the lesson's frequency table and distances appear on the page
    at = pt.page("sinusoidal", session=tab("sin.tab_lesson"))
    at.query_params[K.D_MODEL] = "8"
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
              pt.specs(at)[0]["data"]]
    assert len(curves) == 3 and all(np.array_equal(curves[0], c) for c in curves)


EXTREMES = {K.D_MODEL: (2, 4096), K.LENGTH: (1, 131_072), K.BASE: (100.0, 1e7)}  # the ranges the page promises


@pytest.mark.parametrize("key", SLIDERS)
def test_each_slider_at_min_and_max(key):
    at = pt.page("sinusoidal").run()
    lo, hi = EXTREMES[key]
    for value in (lo, hi):
        at.select_slider(key=key).set_value(value).run()
        assert not at.exception and not at.error, (key, value, at.exception)
        assert at.select_slider(key=key).value == value
        charts = charts_of_every_tab(at)
        assert len(charts) == 4
        for chart in charts:
            assert len(chart) < 1_000_000, (key, value)
    at.select_slider(key=key).set_value(lo).run()
    assert at.select_slider(key=key).value == lo  # min and max are the ends of the slider


def test_all_extremes_together_stay_within_budget():
    at = pt.page("sinusoidal")
    at.query_params.update({K.D_MODEL: "4096", K.LENGTH: "131,072", K.BASE: "10,000,000", K.P: "1000000",
                            K.K: "-100000"})
    at.run()
    assert not at.exception and not at.error
    assert at.select_slider(key=K.D_MODEL).value == 4096 and at.select_slider(key=K.LENGTH).value == 131_072
    heatmap = pt.specs(at)[0]
    step = stride_for(131_072, CELL_BUDGET)
    expected = catalog()["common.showing_every"]["en"].format(step=step)
    assert expected in heatmap["layout"]["title"]["subtitle"]["text"]  # strided, and the figure says so
    assert max(len(c) for c in charts_of_every_tab(at)) < 1_000_000
    assert float(at.metric[0].value) < 1e-8  # the last tab opened: the rotation check


def test_widget_change_changes_the_figure(default_run):
    at = pt.page("sinusoidal").run()
    at.select_slider(key=K.BASE).set_value(100.0).run()
    assert not at.exception
    before, after = pt.specs(default_run)[0], pt.specs(at)[0]
    assert before["data"][0]["z"] != after["data"][0]["z"]
    rotation = pt.page("sinusoidal", session=tab("sin.tab_rotation")).run()
    before = pt.specs(rotation)[0]["data"][1]
    rotation.number_input(key=K.K).set_value(50).run()
    assert pt.specs(rotation)[0]["data"][1] != before


def test_query_params_round_trip():
    at = pt.page("sinusoidal")
    at.query_params.update({K.D_MODEL: "512", K.LENGTH: "1,024", K.BASE: "500,000", K.P: "17", K.K: "-4",
                            K.TAB: catalog()["sin.tab_rotation"]["en"]})
    at.run()
    assert at.session_state[K.TAB] == catalog()["sin.tab_rotation"]["en"]  # the link opens its tab
    assert "PE(p + k)" in pt.titles(at)[0]
    assert at.select_slider(key=K.D_MODEL).value == 512
    assert at.select_slider(key=K.LENGTH).value == 1024
    assert at.select_slider(key=K.BASE).value == 500_000.0
    assert at.number_input(key=K.P).value == 17 and at.number_input(key=K.K).value == -4
    at.query_params[K.TAB] = at.session_state[K.TAB] = catalog()["sin.tab_encoding"]["en"]
    at.run()
    assert "1,024 positions × 512 dimensions" in pt.titles(at)[0]


def test_chinese(default_run):
    at = pt.page("sinusoidal", lang="zh").run()
    assert not at.exception
    assert at.title[0].value != default_run.title[0].value
    assert pt.is_chinese(at.title[0].value)
    assert pt.is_chinese(pt.titles(at)[0])


def test_the_open_tab_survives_the_language_switch():
    at = pt.page("sinusoidal", session=tab("sin.tab_similarity")).run()
    at.session_state["lang"] = "zh"
    at.run()
    pt.ok(at)
    assert at.session_state[K.TAB] == catalog()["sin.tab_similarity"]["zh"]
    assert pt.titles(at) == [catalog()["sin.similarity_title"]["zh"]]


def test_sqrt_d_level_says_when_it_is_reached():
    """At the defaults (D = 64, gaps up to 127) the curve stays well under sqrt(D) = 8; the level is where
    it hovers once the gap passes the slowest wavelength, and the legend names that wavelength (from the core)."""
    from embedviz.positions import sinusoidal

    at = pt.page("sinusoidal", session=tab("sin.tab_lesson")).run()
    pt.ok(at)
    figure = pt.specs(at)[0]
    shown = np.concatenate([pt.values(trace["y"]) for trace in figure["data"]])
    typical, _ = sinusoidal.distance_levels(64)
    assert typical == 8.0 and shown.max() < 0.85 * typical  # about 6.5 at most: not yet at the level
    slowest = sinusoidal.wavelengths(64)[-1]  # 2*pi*10000^(62/64), about 47,117
    label = next(a["text"] for a in figure["layout"]["annotations"] if a["text"].startswith("√D"))
    assert pt.shows(label, "sin.typical")
    note = next(c.value for c in at.caption if pt.shows(c.value, "sin.typical_note"))
    assert f"{round(slowest):,}" in note
    rng = np.random.default_rng(0)
    beyond = sinusoidal.distance_vs_gap(64, rng.integers(round(slowest), 20 * round(slowest), 4_000))[0]
    assert np.sqrt(np.mean(beyond**2)) == pytest.approx(typical, rel=0.03)  # beyond it: around sqrt(D)


def test_sign_note_is_shown_on_the_rotation_tab():
    """The note: the page's R(k) on (sin, cos) and RoPE's rotation of (cos, sin) turn the point by the same +k*w
    (that claim: tests/test_sinusoidal.py::test_rotation_turns_the_way_ropes_does)."""
    at = pt.page("sinusoidal", session=tab("sin.tab_rotation")).run()
    assert catalog()["sin.sign_note"]["en"] in [c.value for c in at.caption]


def test_lesson_button_opens_the_lesson_tables():
    at = pt.page("sinusoidal", **{K.D_MODEL: "512"}).run()
    at.button(key=K.LESSON).click().run()
    pt.ok(at)
    assert at.session_state[K.TAB] == catalog()["sin.tab_lesson"]["en"] and len(at.dataframe) == 2


def test_wide_encoding_heatmap_shows_every_fourth_pair_fast_to_slow():
    """The encoding heatmap a slider step redraws keeps at most 64 (sin, cos) pairs (128 rows). At D = 512
    (256 pairs) it draws pairs 0, 4, 8, ...: each row is the core's column of that dimension, the subtitle says one
    pair in four, and the picture keeps its structure: rows slow down from top to bottom (each sin row changes sign
    no more often than the one above it)."""
    from embedviz.positions.sinusoidal import sinusoidal_rows

    at = pt.page("sinusoidal", session={K.D_MODEL: 512, K.LENGTH: 1024})
    at.run()
    pt.ok(at)
    figure = pt.specs(at)[0]
    trace = figure["data"][0]
    assert catalog()["sin.every_pair"]["en"].format(step=4) in figure["layout"]["title"]["subtitle"]["text"]
    rows = [int(label) for label in trace["y"]]
    assert rows == [d for i in range(0, 256, 4) for d in (2 * i, 2 * i + 1)]  # 128 rows
    x = pt.values(trace["x"]).astype(np.float64)
    z = pt.values(trace["z"]).astype(np.float64).reshape(len(rows), x.size)
    np.testing.assert_allclose(z, sinusoidal_rows(x, 512, dims=rows, dtype=np.float64).T, atol=1e-6)
    changes = [int(np.sum(np.diff(np.sign(z[r])) != 0)) for r in range(0, len(rows), 2)]  # sin rows
    assert changes == sorted(changes, reverse=True) and changes[0] > 100 and changes[-1] <= 1


# what the lead says the figure shows, read from the figure the page draws

ORIENTATION = {  # how the lead names a column, a row and the top of the heatmap, each language in its own words
    "en": ("one column per {x}", "one row per {y}", "the top rows (the first dimensions)"),
    "zh": ("每个{x}一列", "每个{y}一行", "上面几行（前面的维度）"),
}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_lead_names_the_heatmaps_axes_as_the_figure_draws_them(lang):
    """The heatmap's columns are its x values and its rows its y values (a plotly heatmap's z rows go with y): the
    lead says what the figure's own axis titles say lies along each, and with y drawn top-down, that the first
    dimensions are the top rows."""
    import json

    at = pt.page("sinusoidal", lang=lang).run()
    pt.ok(at)
    figure = json.loads(pt.live_data(at, K.LIVE_HEATMAP)["figure"])
    (trace,) = figure["data"]
    layout = figure["layout"]
    x_title, y_title = layout["xaxis"]["title"]["text"], layout["yaxis"]["title"]["text"]
    z = pt.values(trace["z"]).reshape(len(trace["y"]), -1)  # one row of z per y value
    assert z.shape[1] == len(pt.values(trace["x"]))
    assert trace["y"][0] == "0" and layout["yaxis"]["autorange"] == "reversed"  # dimension 0 drawn at the top
    column, row, top = ORIENTATION[lang]
    lead = next(m.value for m in at.markdown if m.value == catalog()["sin.lead"][lang])
    assert column.format(x=x_title) in lead and row.format(y=y_title) in lead and top in lead, (x_title, y_title)
