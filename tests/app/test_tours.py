"""Lesson tours through the whole app (app.py): links open steps, Next/Back move between pages with their settings,
questions hide the page until answered and mark answers right and wrong, the presenter view, and every chart's CSV.
"""
from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from embedviz.lessons import tours
from embedviz._validate import choices
from embedviz.app.pages import PAGES
from embedviz.app.i18n import catalog
from embedviz.figures.export import figure_csv
from embedviz.models.pretrained import E5_NAME
from embedviz.lessons.widget_keys import Context, RealModel, Sinusoidal, Tokens, Tour, Training
from tests.app.pagetest import chart_json, fields, ok, page, refusal, shows, specs, values
from tests.conftest import ROOT
from tests.test_tours import expected

TITLE = {url: nav.split(".")[0] + ".title" for _, entries in PAGES for _, nav, _, url in entries}
NAV = {url: nav for _, entries in PAGES for _, nav, _, url in entries}
TITLE_ON_E5 = {"real-model": "multi.title"}  # the Real model page titles the model it shows


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


def option_text(step: tours.Step, i: int | str, lang: str = "en") -> str:
    """The radio label of option ``i`` (index or code) of the step's question."""
    q = step.question
    return text(f"tour.q.{q.id}.{q.options[i] if isinstance(i, int) else i}", lang)


def panel_marks(at: AppTest) -> tuple[list[str], list[str]]:
    """The panel's verdicts: its "right" successes and its "wrong" warnings naming the answer (the page has its own)."""
    return ([s.value for s in at.success if shows(s.value, "tour.right")],
            [w.value for w in at.warning if shows(w.value, "tour.wrong")])


def setting(value, lang: str):
    return text(value, lang) if isinstance(value, tours.Label) else value


def check_step(at: AppTest, lesson: str, k: int, lang: str, *, shown: bool = True) -> None:
    """The run is clean, the panel names step k, and the step's page is shown with the step's settings (or, for
    an unanswered question, hidden)."""
    ok(at)
    step, n = tours.step(lesson, k), len(tours.TOURS[lesson].steps)
    where = text("tour.where", lang, title=text(f"tour.{lesson}.title", lang), k=k, n=n)
    assert where in [c.value for c in at.caption], (lesson, k)
    assert text(f"tour.{lesson}.{step.name}", lang) in [m.value for m in at.markdown]
    assert (at.query_params["tour"], at.query_params["step"]) == (lesson, str(k))
    if not shown:
        # the page's name alone stays, as the step's heading (a screen reader moves through a page by them)
        assert [x.value for x in at.title] == [text(NAV[step.page], lang)], f"{lesson}/{k}: {at.title}"
        assert not chart_json(at) and not at.slider, f"{lesson}/{k}: the page shows before the answer"
        return
    on_e5 = step.settings.get(RealModel.MODEL) == E5_NAME
    title = TITLE_ON_E5[step.page] if on_e5 else TITLE[step.page]
    assert at.title and at.title[0].value == text(title, lang), (lesson, k, step.page)
    if step.page == "input-layer":  # a page of tables, and of the modules' refusals past L: no chart
        assert at.table or [w for w in at.warning if "SinusoidalPositionalEmbedding" in w.value], (lesson, k)
    else:  # the step's tab shows its section: a figure, or a table (Compare's parameter, past-the-end and property
        # tabs, Dot product's revealed activity)
        assert chart_json(at) or at.table or at.dataframe, f"{lesson}/{k}: no figure or table"  # live ones too
    for key, value in step.settings.items():
        if key in at.session_state:
            assert at.session_state[key] == setting(value, lang), (lesson, k, key)


def answer_first(at: AppTest, lesson: str, k: int, lang: str) -> None:
    """A question step: the page is hidden until an option is picked, then shown."""
    step = tours.step(lesson, k)
    if step.question:
        check_step(at, lesson, k, lang, shown=False)
        at.radio(key=Tour.question(lesson, k, lang)).set_value(option_text(step, 0, lang)).run()
    check_step(at, lesson, k, lang)


@pytest.mark.parametrize("lesson", list(tours.TOURS))
def test_tour_runs_end_to_end_with_next(lesson):
    """English: from the link to step 1, Next through every step (each question answered, then its page shows)."""
    at = app(lesson, 1).run()
    steps = tours.TOURS[lesson].steps
    for k in range(1, len(steps) + 1):
        answer_first(at, lesson, k, "en")
        if k < len(steps):
            at.button(key=Tour.NEXT).click().run()
    assert at.button(key=Tour.NEXT).disabled


@pytest.mark.parametrize("lesson", list(tours.TOURS))
def test_tour_runs_end_to_end_in_chinese(lesson):
    """简体中文: every step opened by its link (AppTest formats a widget's value with the test process's language,
    so clicking through pages whose options are translated is left to the English walk and the browser tests)."""
    for k in range(1, len(tours.TOURS[lesson].steps) + 1):
        answer_first(app(lesson, k, lang="zh").run(), lesson, k, "zh")


@pytest.mark.parametrize("lesson, k", [(lesson, k) for lesson, tour in tours.TOURS.items()
                                       for k, step in enumerate(tour.steps, 1) if step.question])
def test_question_marks_right_and_wrong(lesson, k):
    """The right option (from an independent reference, tests/test_tours.expected) is marked right; every other
    option is marked wrong and the panel names the right one."""
    step, right = tours.step(lesson, k), expected(lesson, k)
    at = app(lesson, k).run()
    radio = Tour.question(lesson, k, "en")
    at.radio(key=radio).set_value(option_text(step, right)).run()
    ok(at)
    assert panel_marks(at) == ([panel_marks(at)[0][0]], []) and (chart_json(at) or at.table
                                                               or at.dataframe)  # page shown
    found = f"tour.{lesson}.{step.name}.found"  # what the step found, kept out of its text until answered
    assert found not in catalog() or text(found, "en") in panel_marks(at)[0][0], (lesson, k)
    for wrong in (o for o in step.question.options if o != right):
        at.radio(key=radio).set_value(option_text(step, wrong)).run()
        ok(at)
        rights, wrongs = panel_marks(at)
        assert not rights and len(wrongs) == 1 and f"“{option_text(step, right)}”" in wrongs[0]


def test_link_survives_the_language_switch_and_back():
    at = app("003", 4).run()
    check_step(at, "003", 4, "en")
    at.sidebar.segmented_control(key="lang").set_value("zh").run()
    check_step(at, "003", 4, "zh")
    at.button(key=Tour.BACK).click().run()
    check_step(at, "003", 3, "zh", shown=False)
    at.radio(key=Tour.question("003", 3, "zh")).set_value(option_text(tours.step("003", 3), "same", "zh")).run()
    check_step(at, "003", 3, "zh")
    assert [s for s in at.success if shows(s.value, "tour.right", "zh")]


def test_an_answer_outlives_the_language_switch():
    at = app("003", 3).run()
    at.radio(key=Tour.question("003", 3, "en")).set_value(option_text(tours.step("003", 3), "different")).run()
    assert panel_marks(at)[1]
    at.sidebar.segmented_control(key="lang").set_value("zh").run()
    check_step(at, "003", 3, "zh")
    assert at.radio(key=Tour.question("003", 3, "zh")).value == option_text(tours.step("003", 3), "different", "zh")
    assert [w for w in at.warning if shows(w.value, "tour.wrong", "zh")]


def test_a_moved_widget_is_not_fought_and_can_be_restored():
    at = app("003", 5).run()
    at.select_slider(key=Sinusoidal.D_MODEL).set_value(16).run()
    ok(at)
    assert at.session_state[Sinusoidal.D_MODEL] == 16  # the student's choice stands
    assert [fields(w.value, "tour.differs") for w in at.warning if shows(w.value, "tour.differs")] == [{"n": "1"}]
    at.button(key=Tour.RESTORE).click().run()
    check_step(at, "003", 5, "en")
    assert at.session_state[Sinusoidal.D_MODEL] == 8
    assert not at.warning


def test_next_onto_the_same_page_changes_its_settings():
    at = app("003", 5).run()  # sinusoidal, D = 8, L = 128
    at.button(key=Tour.NEXT).click().run()  # sinusoidal, D = 64, L = 100, with a question
    at.button(key=Tour.reveal("003", 6)).click().run()
    check_step(at, "003", 6, "en")
    assert at.session_state[Sinusoidal.D_MODEL] == 64 and at.session_state[Sinusoidal.LENGTH] == 100


def test_bad_links_are_messages():
    at = app("009", 1).run()
    assert not at.exception
    assert [e.value for e in at.error] == [refusal("one_of", name="tour", value="009", allowed=choices(tours.TOURS))]
    at = app("003", 99).run()
    assert not at.exception
    assert [e.value for e in at.error] == [refusal("tour_step", value=99, n=len(tours.TOURS["003"].steps), tour="003")]


def test_tour_picker_starts_and_leave_ends_a_tour():
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120).run()
    at.sidebar.selectbox(key=Tour.PICK).set_value(text("tour.002.title", "en")).run()
    check_step(at, "002", 1, "en")
    at.button(key=Tour.LEAVE).click().run()
    ok(at)
    assert "tour" not in at.query_params
    assert not [c for c in at.caption if shows(c.value, "tour.where")]


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

# every page of the navigation at its defaults (a short training run), plus the parameter calculator's tab
PAGE_RUNS = [(Path(file).stem, {Training.STEPS: "50"} if Path(file).stem == "trained_embedding" else {})
             for _, entries in PAGES for file, *_ in entries] + [("token_embeddings",
                                                                  {Tokens.TAB: "Parameter cost"})] + [
    ("context_extension", {Context.TAB: text(f"ctx.tab_{code}", "en")}) for code in ("ratio", "turns", "decay", "calc")]


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


@pytest.mark.slow  # every page run, each chart's CSV read back: a sweep of the whole app
@pytest.mark.parametrize("name, query", PAGE_RUNS, ids=[f"{n}{'-' + '-'.join(q.values()) if q else ''}"
                                                         for n, q in PAGE_RUNS])
def test_every_chart_has_a_csv_that_parses_back(name, query):
    at = page(name, **query).run()
    ok(at)
    charts = specs(at)
    # context extension: the calculator's table (the wavelength chart's button gives its per-pair table instead)
    ctx_table = query.get(Context.TAB) == text("ctx.tab_calc", "en")
    tables = {"token_embeddings": 1 if query else 0, "context_extension": int(ctx_table),
              "past_length": 1}.get(name, 0)  # past_length: the loss table per 128 positions
    assert len(at.get("download_button")) == len(charts) + tables  # (a page of tables only has no chart)
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


@pytest.mark.slow
def test_a_training_answer_and_the_table_beside_it_are_the_same_run(monkeypatch):
    """A link's run stops at the CPU budget (here made tiny, as on a busy server); the answer quotes the whole run.
    Answering trains the page's run in full, so the table says "after 500 steps" and holds the answer's numbers."""
    import streamlit as st

    from embedviz.app import trained_embedding_view

    st.cache_data.clear()
    monkeypatch.setattr(trained_embedding_view, "RUN_CPU_BUDGET_S", 0.01)
    lesson, k = next((lesson, k) for lesson, tour in tours.TOURS.items() for k, step in enumerate(tour.steps, 1)
                     if step.question and step.question.id == "sim_aA")
    step = tours.step(lesson, k)
    at = app(lesson, k).run()
    at.radio(key=Tour.question(lesson, k, "en")).set_value(option_text(step, 0)).run()
    ok(at)
    _, facts = tours.answer(lesson, k)
    df = at.table[0].value
    after = text("train.after", "en", steps=step.settings[Training.STEPS])
    assert after in df.columns, list(df.columns)
    row = df[df.iloc[:, 0] == "sim('a', 'A')"].iloc[0]
    assert (row[text("train.before", "en")], row[after]) == (facts["before"], facts["after"])
    assert not [w for w in at.warning if shows(w.value, "train.stopped") or shows(w.value, "train.press_stopped")]
