"""Live figures (embedviz/app/live.py) as AppTest sees them: a v2 component is an unknown "bidi_component" element
whose JSON data AppTest exposes; the widgets it drives stay the page's URL-bound sliders (hidden while it shows).
The browser side (drag, release, URL, reload) is tests/e2e/test_live.py."""
from __future__ import annotations

import json

from streamlit.testing.v1 import AppTest

from embedviz.app import live
from embedviz.app.i18n import catalog
from embedviz.figures import rope as figs
from embedviz.widget_keys import Rope, Sinusoidal

from tests.app import pagetest as pt

KEY = Sinusoidal.LIVE_HEATMAP


def data(at: AppTest) -> dict:
    (element,) = at.get("bidi_component")
    return json.loads(element.proto.json)


def hidden_controls(at: AppTest) -> bool:
    return any(".st-key-sin_controls" in (getattr(e.proto, "body", "") or "") for e in at.get("html"))


def test_the_live_heatmap_carries_the_widgets_values_and_the_core_s_figure():
    at = pt.page("sinusoidal", **{Sinusoidal.D_MODEL: "256", Sinusoidal.LENGTH: "1,024"}).run()
    assert not at.exception and not at.error
    d = data(at)
    sliders = {s["key"]: s for s in d["sliders"]}
    assert sliders[Sinusoidal.D_MODEL]["options"][sliders[Sinusoidal.D_MODEL]["index"]] == 256
    assert sliders[Sinusoidal.LENGTH]["labels"][sliders[Sinusoidal.LENGTH]["index"]] == "1,024"
    figure = json.loads(d["figure"])
    assert "1,024 positions × 256 dimensions" in figure["layout"]["title"]["text"]
    # the title template the browser fills while a thumb moves gives the same title at these settings
    assert d["texts"]["title"].format(L="1,024", D=256) == figure["layout"]["title"]["text"]
    assert hidden_controls(at)  # the page's own sliders are hidden: the live figure shows them
    assert at.select_slider(key=Sinusoidal.D_MODEL).value == 256  # ... and still hold the state (URL, tours)


def test_other_tabs_show_the_page_sliders():
    at = pt.page("sinusoidal", session={Sinusoidal.TAB: catalog()["sin.tab_similarity"]["en"]}).run()
    assert not at.exception and not at.get("bidi_component") and not hidden_controls(at)


def test_a_commit_moves_the_url_bound_widgets():
    """What the component's callback does with the browser's option indices (a bad index is ignored)."""
    changed = []
    sliders = (live.Slider("a", "common.d_model", (2, 4, 8), on_change=lambda: changed.append("a")),
               live.Slider("b", "common.d_model", (1.0, 2.0), on_change=lambda: changed.append("b")),
               live.Slider("c", "common.d_model", (1, 2), on_change=lambda: changed.append("c")))
    state = {"k": {"commit": {"a": 2, "b": 7, "c": 0}}, "c": 1}

    class Session(dict):
        pass

    session = Session(state)
    import streamlit as st
    original = st.session_state
    try:
        st.session_state = session  # the callback's only dependency
        live._commit("k", sliders)
    finally:
        st.session_state = original
    assert session["a"] == 8 and "b" not in session and session["c"] == 1
    assert changed == ["a"]  # the widget's own callback, for the slider that moved only


def test_rope_s_live_views_carry_its_sliders_fixed_settings_and_templates():
    """RoPE's two live views (angles, decay): the page's widget values, the window and pairing the browser keeps,
    and the decay title's template giving the Python figure's title."""
    at = pt.page("rope", **{Rope.HEAD_DIM: "64"}).run()
    pt.ok(at)
    (angles,) = [json.loads(e.proto.json) for e in at.get("bidi_component")]
    assert angles["view"] == "rope_angles"
    assert angles["fixed"] == {"window": 256, "pairing": "half", "max_ticks": figs.MAX_TICKS}
    hd = next(s for s in angles["sliders"] if s["key"] == Rope.HEAD_DIM)
    assert hd["options"][hd["index"]] == 64
    at.session_state[Rope.TAB] = catalog()["rope.tab_decay"]["en"]
    at.run()
    (decay,) = [json.loads(e.proto.json) for e in at.get("bidi_component")]
    figure = json.loads(decay["figure"])
    assert decay["texts"]["title"].format(hd=64) == figure["layout"]["title"]["text"]
    assert [trace["name"] for trace in figure["data"]][0] == decay["texts"]["chosen"].format(theta="10,000")
    # the widths the browser draws the chosen and the reference thetas with are the ones the figure was built with
    assert decay["fixed"]["widths"] == [figure["data"][0]["line"]["width"], figure["data"][1]["line"]["width"]]


def test_a_tour_step_sets_the_live_figure():
    at = pt.page("sinusoidal", session={Sinusoidal.D_MODEL: 32}).run()
    d = data(at)
    s = next(s for s in d["sliders"] if s["key"] == Sinusoidal.D_MODEL)
    assert s["options"][s["index"]] == 32
    # a lesson button or tour writes the widget the same way
    at.select_slider(key=Sinusoidal.D_MODEL).set_value(8).run()
    s = next(s for s in data(at)["sliders"] if s["key"] == Sinusoidal.D_MODEL)
    assert s["options"][s["index"]] == 8
    assert "× 8 dimensions" in json.loads(data(at)["figure"])["layout"]["title"]["text"]


def test_the_served_plotly_js_is_the_installed_plotly_s():
    """The build step (make setup, the Dockerfile: python -m embedviz.app.live) copied it; the app never writes."""
    assert (live.ASSETS / "plotly.min.js").read_bytes() == live.PLOTLY_JS.read_bytes()
    assert live.available()


def test_without_the_copied_plotly_js_the_page_draws_a_plain_chart_under_its_own_sliders(monkeypatch):
    monkeypatch.setattr(live, "available", lambda: False)
    at = pt.page("sinusoidal").run()
    pt.ok(at)
    assert not at.get("bidi_component") and not hidden_controls(at)
    assert "128 positions × 64 dimensions" in json.loads(pt.chart_json(at)[0])["layout"]["title"]["text"]
