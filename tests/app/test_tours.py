"""Lesson tours through the whole app (app.py): links open steps, Next/Back move between pages with their settings,
questions hide the page until answered and mark answers right and wrong, the presenter view, and every chart's CSV.
"""
from __future__ import annotations

import csv
import io
import json

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from embedviz import tours
from embedviz.app.frame import PAGES
from embedviz.app.i18n import catalog
from embedviz.figures.export import figure_csv
from tests.app.pagetest import ok, page, specs, values
from tests.conftest import ROOT
from tests.test_tours import expected

TITLE = {url: nav.split(".")[0] + ".title" for _, entries in PAGES for _, nav, _, url in entries}


def text(key: str, lang: str, **fields) -> str:
    entry = catalog()[key][lang]
    return entry.format(**fields) if fields else entry


def app(lesson: str, k: int, *, lang: str = "en", **query: str) -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.query_params["tour"], at.query_params["step"] = lesson, str(k)
    for key, value in query.items():
        at.query_params[key] = value
    at.session_state["lang"] = lang
    return at


def setting(value, lang: str):
    return text(value, lang) if isinstance(value, tours.Label) else value


def check_step(at: AppTest, lesson: str, k: int, lang: str) -> None:
    """The run is clean, the panel names step k, the step's page is shown with the step's settings."""
    ok(at)
    step, n = tours.step(lesson, k), len(tours.TOURS[lesson].steps)
    where = text("tour.where", lang, title=text(f"tour.{lesson}.title", lang), k=k, n=n)
    assert where in [c.value for c in at.caption], (lesson, k)
    assert text(f"tour.{lesson}.{step.name}", lang) in [m.value for m in at.markdown]
    assert at.title and at.title[0].value == text(TITLE[step.page], lang), (lesson, k, step.page)
    for key, value in step.settings.items():
        if key in at.session_state:
            assert at.session_state[key] == setting(value, lang), (lesson, k, key)
    assert at.query_params["tour"] == [lesson] and at.query_params["step"] == [str(k)]


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("lesson", list(tours.TOURS))
def test_tour_runs_end_to_end(lesson, lang):
    """From the link to step 1, Next through every step: each question is answered (then its page shows)."""
    at = app(lesson, 1, lang=lang).run()
    steps = tours.TOURS[lesson].steps
    for k, step in enumerate(steps, 1):
        if step.question:
            assert not at.get("plotly_chart"), f"{lesson}/{k}: the figure shows before the answer"
            at.radio(key=f"tour_q_{lesson}_{k}").set_value(step.question.options[0]).run()
        check_step(at, lesson, k, lang)
        assert at.get("plotly_chart"), f"{lesson}/{k}: no figure"
        if k < len(steps):
            at.button(key="tour_next").click().run()
    assert at.button(key="tour_next").disabled


@pytest.mark.parametrize("lesson, k", [(lesson, k) for lesson, tour in tours.TOURS.items()
                                       for k, step in enumerate(tour.steps, 1) if step.question])
def test_question_marks_right_and_wrong(lesson, k):
    """The right option (from an independent reference, tests/test_tours.expected) is marked right; every other
    option is marked wrong and the panel names the right one."""
    question, right = tours.step(lesson, k).question, expected(lesson, k)
    at = app(lesson, k).run()
    radio = f"tour_q_{lesson}_{k}"
    at.radio(key=radio).set_value(right).run()
    ok(at)
    assert at.success and at.success[0].value.startswith("Right.")
    for wrong in (o for o in question.options if o != right):
        at.radio(key=radio).set_value(wrong).run()
        ok(at)
        assert not at.success
        answer = text(f"tour.q.{question.id}.{right}", "en")
        assert any(f"the answer is “{answer}”" in w.value for w in at.warning), [w.value for w in at.warning]


def test_link_survives_the_language_switch_and_back():
    at = app("003", 4).run()
    check_step(at, "003", 4, "en")
    at.sidebar.segmented_control(key="lang").set_value("zh").run()
    check_step(at, "003", 4, "zh")
    at.button(key="tour_back").click().run()
    check_step(at, "003", 3, "zh")  # a question step on why-position: answer to see it
    at.button(key="tour_reveal_003_3").click().run()
    assert at.get("plotly_chart")


def test_a_moved_widget_is_not_fought_and_can_be_restored():
    at = app("003", 4).run()
    at.select_slider(key="sin_d").set_value(16).run()
    ok(at)
    assert at.session_state["sin_d"] == 16  # the student's choice stands
    assert any("1 setting" in w.value for w in at.warning)
    at.button(key="tour_restore").click().run()
    check_step(at, "003", 4, "en")
    assert at.session_state["sin_d"] == 8
    assert not at.warning


def test_next_onto_the_same_page_changes_its_settings():
    at = app("003", 5).run()  # sinusoidal, D = 8, L = 128
    at.button(key="tour_next").click().run()  # sinusoidal, D = 64, L = 100, with a question
    at.button(key="tour_reveal_003_6").click().run()
    check_step(at, "003", 6, "en")
    assert at.session_state["sin_d"] == 64 and at.session_state["sin_L"] == 100


def test_bad_links_are_messages():
    at = app("009", 1).run()
    assert not at.exception and "tour ('009') must be one of" in at.error[0].value
    at = app("003", 99).run()
    assert not at.exception and "step (99) must be between 1 and 11" in at.error[0].value


def test_tour_picker_starts_and_leave_ends_a_tour():
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120).run()
    at.sidebar.selectbox(key="_tour_pick").set_value("002").run()
    check_step(at, "002", 1, "en")
    at.button(key="tour_leave").click().run()
    ok(at)
    assert "tour" not in at.query_params
    assert not [c for c in at.caption if "step 1 of" in c.value]


def test_presenter_view_from_the_url():
    at = app("000", 1, present="1").run()
    ok(at)
    assert at.sidebar.toggle(key="present").value is True
    figures = specs(at)
    assert figures and all(f["layout"]["font"]["size"] == 20 for f in figures)
    style = [h for h in at.get("html") if "font-size" in h.proto.body]
    assert style, "no presenter stylesheet"


def test_toolbar_exports_png_at_twice_the_scale_or_svg():
    at = app("003", 4).run()
    def images():
        return [json.loads(chart.proto.config)["toImageButtonOptions"] for chart in at.get("plotly_chart")]

    assert images() and all(o["format"] == "png" and o["scale"] == 2 for o in images())
    at.sidebar.segmented_control(key="img").set_value("svg").run()
    assert images() and all(o["format"] == "svg" for o in images())


# every chart's page has a CSV button per chart, and the CSV holds the figure's numbers

PAGE_RUNS = [("home", {}), ("token_embeddings", {}), ("token_embeddings", {"tok_tab": "Parameter cost"}),
             ("trained_embedding", {"tr_steps": "50"}), ("why_position", {}), ("sinusoidal", {}), ("rope", {}),
             ("compare", {}), ("context_extension", {}), ("real_model", {})]


def _column(field) -> list:
    """A trace's x or y as plotly sent it: numbers as floats (NaN for gaps), labels as strings."""
    if isinstance(field, dict):
        return values(field).astype(float).ravel().tolist()
    return [float("nan") if v is None else v for v in field]


def _same(csv_cells: list[str], sent: list) -> bool:
    if sent and isinstance(sent[0], str):
        return csv_cells == sent
    got = np.array([float(c) if c else np.nan for c in csv_cells])
    return got.shape == (len(sent),) and np.array_equal(got, np.asarray(sent, dtype=float), equal_nan=True)


@pytest.mark.parametrize("name, query", PAGE_RUNS, ids=[f"{n}{'-' + '-'.join(q.values()) if q else ''}"
                                                         for n, q in PAGE_RUNS])
def test_every_chart_has_a_csv_that_parses_back(name, query):
    at = page(name, **query).run()
    ok(at)
    charts = specs(at)
    tables = {"token_embeddings": 1 if query else 0, "context_extension": 2}.get(name, 0)
    assert charts and len(at.get("download_button")) == len(charts) + tables
    for figure in charts:
        rows = list(csv.DictReader(io.StringIO(figure_csv(figure))))
        x_col, y_col = list(rows[0])[1:3]
        for i, trace in enumerate(figure["data"]):
            mine = [r for r in rows if r["trace"] == (trace.get("name") or f"trace {i + 1}")]
            if trace["type"] == "heatmap":
                z = values(trace["z"]).astype(float).ravel() if isinstance(trace["z"], dict) else \
                    np.asarray(trace["z"], dtype=float).ravel()
                got = np.array([float(r["value"]) if r["value"] else np.nan for r in mine])
                assert np.array_equal(got, z, equal_nan=True), (figure["layout"]["title"]["text"], i)
            else:
                for column, field in ((x_col, "x"), (y_col, "y")):
                    if field in trace:
                        assert _same([r[column] for r in mine], _column(trace[field])), (
                            figure["layout"]["title"]["text"], i, field)
