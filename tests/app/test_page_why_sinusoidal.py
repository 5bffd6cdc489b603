"""The "Why sine and cosine" page: the numbers shown are the core's, the widgets drive them, and it speaks Chinese."""
from __future__ import annotations

import numpy as np
from streamlit.testing.v1 import AppTest

from embedviz.app.locales.why_sinusoidal import STRINGS
from embedviz.positions import why_sinusoidal
from embedviz.lessons.widget_keys import RENAMED, WhySinusoidal as K
from tests.app import pagetest as pt
from tests.conftest import ROOT

TABS = ("raw", "norm", "binary", "smooth", "table")  # bound lazy tabs: only the open one is drawn


def _open(at, tab: str, lang: str = "en"):
    at.session_state[K.TAB] = STRINGS[f"why_sinusoidal.tab_{tab}"][lang]
    return at.run()


def _metrics(at) -> dict[str, str]:
    return {m.label: m.value for m in at.metric}


def test_defaults_show_lesson_003s_example():
    at = pt.page("why_sinusoidal").run()
    pt.ok(at)
    assert [tab.label for tab in at.tabs] == [STRINGS[f"why_sinusoidal.tab_{c}"]["en"] for c in TABS]
    assert len(at.get("plotly_chart")) == 1  # the open tab only: the raw index
    assert _metrics(at)[pt.text("why_sinusoidal.raw_max")] == "999"
    shown = _metrics(_open(at, "norm"))
    # lesson: 0.5 is word 500 of 1,000 ...
    assert shown[pt.text("why_sinusoidal.norm_value", p="500", L="1,000")] == "0.5"
    assert shown[pt.text("why_sinusoidal.norm_other", L2="10")] == "5"  # ... and word 5 of 10
    # raw, p / L, the binary counter, the step distances: one figure in each tab, none lost
    assert [len(_open(at, tab).get("plotly_chart")) for tab in TABS[:4]] == [1, 1, 1, 1]
    pt.ok(at)
    _open(at, "binary")
    assert at.warning and "256" in at.warning[0].value
    table = _open(at, "table").dataframe[0].value
    assert table.iloc[:, 4].tolist() == [1000, 1000, 0, 1000]  # 8 bits name only 256 of 1,000 positions


def test_widgets_change_the_numbers_to_the_cores():
    at = pt.page("why_sinusoidal").run()
    at.select_slider(key=K.LENGTH).set_value(4096).run()
    at.select_slider(key=K.OTHER_LENGTH).set_value(100).run()
    at.slider(key=K.POSITION).set_value(1024).run()
    at.select_slider(key=K.D_MODEL).set_value(16).run()
    pt.ok(at)
    shown = _metrics(at)
    s = why_sinusoidal.compare_schemes(4096, 16)
    assert shown[pt.text("why_sinusoidal.raw_max")] == f"{s.schemes['raw'].max_abs:,.0f}" == "4,095"
    assert shown[pt.text("why_sinusoidal.raw_ratio")] == "204,750"
    shown = _metrics(_open(at, "norm"))
    assert shown[pt.text("why_sinusoidal.norm_value", p="1,024", L="4,096")] == "0.25"
    assert shown[pt.text("why_sinusoidal.norm_other", L2="100")] == "25"
    _open(at, "binary")
    assert not at.warning  # 16 bits: 65,536 codes for 4,096 positions
    assert any("**0000010000000000**" in m.value for m in at.markdown)  # 1,024 = 2^10 in 16 bits
    steps = pt.chart(_open(at, "smooth"), "Distance from position p")
    binary = pt.values(steps["data"][0]["y"])
    np.testing.assert_allclose(binary, why_sinusoidal.adjacent_steps(why_sinusoidal.binary_code(np.arange(41), 16)),
                               rtol=1e-6)
    sinus = pt.values(steps["data"][1]["y"])
    assert np.ptp(sinus) < 1e-5  # the sinusoidal line is flat


def test_position_past_the_length_is_clipped_not_an_error():
    at = pt.page("why_sinusoidal", **{K.LENGTH: "10", K.POSITION: "500"}).run()
    pt.ok(at)
    assert any("showing the last one, 9" in c.value for c in at.caption)


def test_url_round_trip_and_chinese():
    at = pt.page("why_sinusoidal", lang="zh", **{K.LENGTH: "256", K.D_MODEL: "4",
                                                 K.TAB: STRINGS["why_sinusoidal.tab_binary"]["zh"]}).run()
    pt.ok(at)
    assert at.select_slider(key=K.LENGTH).value == 256
    assert [tab.label for tab in at.tabs] == [STRINGS[f"why_sinusoidal.tab_{c}"]["zh"] for c in TABS]
    assert pt.is_chinese(at.title[0].value)
    assert all(pt.is_chinese(t) for t in pt.titles(at))
    # the Chinese warning, with the numbers filled in
    said = pt.fields(at.warning[0].value, "why_sinusoidal.collide", "zh")
    assert said is not None and (said["D"], said["n"]) == ("4", "16")


def test_the_widest_d_model_shows_every_tab():
    """D = 64, the slider's last option: a position's binary code has 64 digits (bits 62 and 63 of any position the
    page shows are 0) and every tab draws, with no refusal of num_bits (64) above the 62 a position needs."""
    for tab in TABS:
        at = pt.page("why_sinusoidal", **{K.D_MODEL: "64"})
        _open(at, tab)
        pt.ok(at)
        assert at.get("plotly_chart") or at.table or at.dataframe, tab


def test_a_link_saved_before_the_keys_were_renamed_opens_the_same_view():
    """The page's keys were naive_L, naive_tab, ...: a link a teacher saved then opens the page with its values,
    and the address bar then shows today's keys."""
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=90).run()
    at.switch_page("app_pages/why_sinusoidal.py")
    at.query_params.update({"naive_L": "256", "naive_d": "4", "naive_tab": STRINGS["why_sinusoidal.tab_binary"]["en"]})
    at.run()
    pt.ok(at)
    assert at.title[0].value == pt.text("why_sinusoidal.title")
    assert at.select_slider(key=K.LENGTH).value == 256 and at.select_slider(key=K.D_MODEL).value == 4
    said = pt.fields(at.warning[0].value, "why_sinusoidal.collide")  # the binary tab is open, at D = 4
    assert said is not None and (said["D"], said["n"]) == ("4", "16")
    assert at.query_params[K.LENGTH] in ("256", ["256"]) and not set(at.query_params) & set(RENAMED)
