"""The "lesson settings" buttons: one click puts a lesson's values into the URL-bound widgets, and the page then
shows the lesson's own numbers."""
from __future__ import annotations

import numpy as np

from embedviz.app.i18n import catalog
from embedviz.lessons.widget_keys import Rope, Sinusoidal, Tokens, Training
from tests.app import pagetest as pt


def test_sinusoidal_button_shows_lesson_003s_table():
    at = pt.page("sinusoidal", **{Sinusoidal.BASE: "500000"}).run()
    assert at.select_slider(key=Sinusoidal.D_MODEL).value == 64
    at.button(key=Sinusoidal.LESSON).click().run()
    pt.ok(at)
    assert at.select_slider(key=Sinusoidal.D_MODEL).value == 8
    assert at.select_slider(key=Sinusoidal.BASE).value == 10_000.0
    assert str(at.query_params[Sinusoidal.D_MODEL]) in ("8", "['8']")  # the URL follows, so a shared link keeps it
    freq, distances = (df.value for df in at.dataframe)
    np.testing.assert_allclose(freq.iloc[:, 2], [1, 0.1, 0.01, 0.001], rtol=1e-12)  # lesson 003's table
    table = distances.set_index(distances.columns[0])
    assert round(float(table.loc[1].iloc[0]), 4) == 0.9641


def test_rope_button_restores_lesson_003s_decay_table():
    at = pt.page("rope", **{Rope.TAB: catalog()["rope.tab_decay"]["en"]}).run()  # the tab holding the decay table
    at.slider(key=Rope.HEAD_DIM).set_value(64).run()
    at.select_slider(key=Rope.THETA).set_value(1_000_000.0).run()
    at.button(key=Rope.LESSON).click().run()
    pt.ok(at)
    assert at.slider(key=Rope.HEAD_DIM).value == 128 and at.select_slider(key=Rope.THETA).value == 10_000.0
    decay = at.dataframe[0].value
    lesson = [1.000, 0.970, 0.737, 0.669, 0.608, 0.546, 0.477, 0.306, 0.278]
    assert [float(v) for v in decay.iloc[:, 2]] == lesson  # the chosen column now equals the lesson's column


def test_token_button_sets_lesson_001s_run():
    init_tab = catalog()["tok.tab_init"]["en"]  # where the table's scale is shown
    at = pt.page("token_embeddings", **{Tokens.TEXT: "abc", Tokens.D_MODEL: "64", Tokens.TAB: init_tab}).run()
    at.button(key=Tokens.LESSON).click().run()
    pt.ok(at)
    assert at.text_input(key=Tokens.TEXT).value == "Hello"
    assert at.select_slider(key=Tokens.D_MODEL).value == 8
    assert at.segmented_control(key=Tokens.INIT).value == "unit"
    assert any("72, 101, 108, 108, 111" in c.value for c in at.caption)  # lesson 001's ids of 'Hello'
    assert pt.metric(at, pt.text("tok.metric_init_std")) == "1"  # torch.randn: standard deviation 1


def test_trained_button_sets_500_steps():
    at = pt.page("trained_embedding", **{Training.STEPS: "50", Training.D_MODEL: "4"}).run()
    at.button(key=Training.LESSON).click().run()
    pt.ok(at)
    assert at.select_slider(key=Training.STEPS).value == 500 and at.select_slider(key=Training.D_MODEL).value == 16


def test_buttons_are_translated():
    at = pt.page("sinusoidal", lang="zh").run()
    assert pt.is_chinese(at.button(key=Sinusoidal.LESSON).label)
