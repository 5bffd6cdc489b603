"""Live figures (embedviz/app/live.py) as AppTest sees them: a v2 component is an unknown "bidi_component" element
whose JSON data AppTest exposes; the widgets it drives stay the page's URL-bound sliders (hidden while it shows).
The browser side (drag, release, URL, reload) is tests/e2e/test_live.py."""
from __future__ import annotations

import json
import re

from streamlit.testing.v1 import AppTest

from embedviz import downsample, figures
from embedviz.app import live
from embedviz.app.i18n import catalog
from embedviz.figures import describe, screen
from embedviz.figures import rope as figs
from embedviz.lessons.widget_keys import Rope, Sinusoidal

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


def _live_views() -> dict[str, dict]:
    """Every live view's component data at the pages' defaults, by view name."""
    views = {}
    for name, tab_key, tabs in (("sinusoidal", Sinusoidal.TAB, ("sin.tab_encoding", "sin.tab_lesson")),
                                ("rope", Rope.TAB, ("rope.tab_angles", "rope.tab_decay")),
                                ("context_extension", None, (None,))):
        for tab in tabs:
            at = pt.page(name, session={tab_key: catalog()[tab]["en"]} if tab else None).run()
            pt.ok(at)
            for element in at.get("bidi_component"):
                d = json.loads(element.proto.json)
                views[d["view"]] = d
    return views


def test_every_live_view_is_sent_python_s_fitting_rules_and_text_formats():
    """What the browser fits a live figure by and formats its words with comes from the Python modules that own
    them (screen.py's rules, the subtitle's joiner, the text alternative's rules), not numbers typed in the JS; the
    values are checked against those modules' own names, and one number against what fitted() does with it."""
    views = _live_views()
    assert set(views) == {"sin_heatmap", "sin_distance", "rope_angles", "rope_decay", "ctx_wave"}
    for view, d in views.items():
        assert d["fit"] == json.loads(json.dumps(screen.rules())), view
        assert d["joiner"] == figures.JOINER and d["alt_rules"]["max_series"] == describe.MAX_SERIES, view
        assert d["alt_rules"]["digits"] == describe.DIGITS and d["alt_rules"]["trim"] == describe.TRIM, view
    rules = views["sin_heatmap"]["fit"]
    assert (rules["inset"], rules["font"], rules["margin"], rules["height"]) == (
        screen.INSET, screen.FONT, screen.PLOTLY_MARGIN, screen.PLOTLY_HEIGHT)
    assert "(" in rules["tokens"] and ")" in rules["tokens"]  # ASCII brackets hold to their words too
    # the room a title keeps is the one fitted() keeps: a title exactly that wide stays one line, a little wider not
    size, width = round(screen.FONT * rules["title_scale"]), 358
    words = "m " * 200
    fits = max(n for n in range(1, 400) if screen.text_width(words[:n].rstrip(), size) <= width - rules["inset"])
    spec = {"layout": {"title": {"text": words[:fits].rstrip()}}, "data": []}
    assert "\n" not in screen.fitted(spec, width=width, wrap_texts=True)["layout"]["title"]["text"]
    spec["layout"]["title"]["text"] = words[:fits + 2].rstrip()
    assert "\n" in screen.fitted(spec, width=width, wrap_texts=True)["layout"]["title"]["text"]


def test_the_live_views_texts_carry_their_formats_and_python_fills_the_same_templates():
    """The distance chart's level names: two decimals written once, in the template the browser fills; the heatmap's
    subtitle joined by the joiner the browser is sent."""
    views = _live_views()
    distance = views["sin_distance"]
    assert "{v:.2f}" in distance["texts"]["typical"] and "{v:.2f}" in distance["texts"]["bound"]
    figure = json.loads(distance["figure"])
    typical = figure["layout"]["shapes"][0]["y0"]
    names = [a["text"] for a in figure["layout"]["annotations"]]
    assert names[0] == distance["texts"]["typical"].format(v=typical) and f"{typical:.2f}" in names[0]
    assert distance["budget"]["dense"] == downsample.DENSE_POINTS
    heat = json.loads(views["sin_heatmap"]["figure"])
    assert figures.JOINER in heat["layout"]["title"]["subtitle"]["text"]
    # the wavelength chart's kinds of pair: the browser's hover for a kind is the one Python's trace has
    wave = views["ctx_wave"]
    hovers = {t["name"]: t["hovertemplate"] for t in json.loads(wave["figure"])["data"] if t.get("name")}
    kinds = [kind for kind, name in wave["fixed"]["kind_names"].items() if name in hovers]
    assert kinds and all(wave["fixed"]["hovers"][k] == hovers[wave["fixed"]["kind_names"][k]] for k in kinds)


def test_yaRN_s_betas_reach_the_browser_as_the_core_resolves_them():
    """A config's 0 for beta_fast / beta_slow is transformers' 32 / 1: the browser gets the resolved numbers."""
    from embedviz.app import context_extension_view as ctx_view
    from embedviz.rope import scaling

    fixed = ctx_view.live_fixed("yarn", 128, 4096, None, {"beta_fast": 0.0, "beta_slow": 2.0, "truncate": False},
                                None, {}, {}, "")
    assert (fixed["params"]["beta_fast"], fixed["params"]["beta_slow"]) == (scaling.YARN_BETAS["beta_fast"], 2.0)
    assert fixed["params"]["truncate"] is False
    assert ctx_view.live_fixed("yarn", 128, 4096, None, {}, None, {}, {}, "")["params"]["truncate"] is True


def _fixed_reads() -> dict[str, set[str]]:
    """Each view's ``fixed.<name>`` reads in livefig.js, by view: its drawing function's body, up to the next one."""
    code = _code("livefig.js")
    heads = list(re.finditer(r"^  (\w+)\(values, labels, \{[^}]*\bfixed\b[^}]*\}", code, flags=re.M))
    ends = [m.start() for m in heads[1:]] + [code.index("\n};", heads[-1].start())]
    return {m.group(1): set(re.findall(r"\bfixed\.(\w+)", code[m.start():end])) for m, end in zip(heads, ends)}


def test_every_setting_the_browser_reads_is_one_python_sends_under_that_name():
    """The JS reads a live view's fixed settings by the names of the keys Python writes (the wavelength chart's
    context_length, once seq_len on both sides): a key renamed on one side alone would reach the formula as
    undefined, which the formulas take as "no length" without an error."""
    reads, views = _fixed_reads(), _live_views()
    assert reads.keys() == {"sin_distance", "rope_angles", "rope_decay", "ctx_wave"}
    assert "context_length" in reads["ctx_wave"]
    missing = {view: sorted(names - set(views[view]["fixed"])) for view, names in reads.items()}
    assert not any(missing.values()), f"livefig.js reads settings Python does not send: {missing}"


JS_OWN_TIMINGS = {"PAUSE_MS", "MOVING_POINTS", "WORDS_MS"}  # the browser's own: a drag's pace, not a figure's rule
_NUMBER = re.compile(r"(?<![\w$.])(-?\d+(?:\.\d+)?(?:e-?\d+)?)(?![\w.])")  # "-4" is not 4


def _code(name: str) -> str:
    """A file of the live figure without its comments (a comment may quote Python)."""
    return re.sub(r"//.*", "", (live.ASSETS / name).read_text())


def test_no_fitting_rule_or_text_format_is_typed_in_the_browser_s_code():
    """Break one: type a rule of screen.py's into fit.js or livefig.js (a 12, a 450, a "（" mark, a " · ") and this
    fails. Numbers 0, 1 and 2 are counting, 0.5 is rounding; the JS's own timings are named constants of its own."""
    owned = set()
    for value in screen.rules().values():
        for v in (value.values() if isinstance(value, dict) else [value]):
            if isinstance(v, (int, float)) and not isinstance(v, bool):
                owned.add(float(v))
    owned |= {float(describe.MAX_SERIES), float(describe.DIGITS), float(downsample.DENSE_POINTS)}
    owned -= {0.0, 1.0, 2.0, 0.5}  # (0.5: Python's round() of a half, which fit.js copies)
    for name in ("fit.js", "livefig.js"):
        code = _code(name)
        own = re.findall(rf"^const ({'|'.join(JS_OWN_TIMINGS)}) = \d+;", code, flags=re.M)
        code = re.sub(r"^const [A-Z_]+ = \d+;.*$", "", code, flags=re.M)
        typed = {float(n) for n in _NUMBER.findall(code)} & owned
        assert not typed, f"{name} types {sorted(typed)}, which embedviz.figures.screen owns"
        assert name != "livefig.js" or set(own) == JS_OWN_TIMINGS
    # the CJK marks and ranges and the joiner's dot (ASCII brackets are the code's own)
    marks = {c for c in screen._OPEN + screen._CLOSE + screen.CJK + figures.JOINER if ord(c) > 127}
    for name in ("fit.js", "livefig.js", "formulas.js"):
        code = _code(name)
        assert not marks & set(code), f"{name} types marks of screen.py's: {marks & set(code)}"
        assert not re.search(r"toFixed\(\d", code), f"{name} types a number format; a template carries it"
        assert not re.search(r"(\|\||\?\?)\s*[1-9]", code), f"{name} types a default number; Python sends it"
