"""benchmarks/element_cost.py's probes are what their names say: the floor (one slider, one heatmap) plus one thing.

The README's cost model rests on their rows. A probe that lost the floor's slider (nothing would be stepped), its
chart, or the thing it adds would still print a row, with a ratio that means nothing; so each probe runs here in
AppTest and its elements are counted.
"""
from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from benchmarks import element_cost
from tests.conftest import ROOT


@pytest.fixture(scope="module")
def probes(tmp_path_factory) -> dict[str, AppTest]:
    folder = tmp_path_factory.mktemp("probes")
    return {path.stem: AppTest.from_file(str(path), default_timeout=30).run()
            for path in element_cost.write_probes(folder)}


def counts(at) -> dict[str, int]:
    """What a probe adds, counted in ``at`` (an AppTest or one of its blocks)."""
    return {"markdown": len(at.markdown), "metric": len(at.metric), "latex": len(at.latex),
            "number_input": len(at.number_input), "tabs": len(at.tabs), "segmented": len(at.button_group),
            "text_input": len(at.text_input), "button": len(at.button), "caption": len(at.caption),
            "info": len(at.info)}


def test_the_floor_is_a_title_a_slider_and_a_chart_when_served_and_nothing_when_imported():
    at = AppTest.from_file(str(ROOT / "benchmarks" / "baseline_page.py"), default_timeout=30).run()
    assert not at.exception
    assert [e.value for e in at.title] == ["Baseline"] and len(at.slider) == 1 and len(at.get("plotly_chart")) == 1
    assert all(n == 0 for n in counts(at).values()), counts(at)
    imported = AppTest.from_string("from benchmarks.baseline_page import floor", default_timeout=30).run()
    assert not imported.exception and not imported.title and not imported.slider  # a probe draws the floor itself


@pytest.mark.parametrize("name", list(element_cost.PROBES))
def test_each_probe_keeps_the_floor_and_adds_what_its_name_says(probes, name):
    at = probes[name]
    assert not at.exception, at.exception
    assert len(at.slider) == 1 and len(at.get("plotly_chart")) == 1  # the floor: what feel.py steps and waits for
    added = {k: n for k, n in counts(at.main).items() if n}  # a framed probe's frame is in the sidebar
    expected = {
        "paragraphs-36": {"markdown": 36}, "one-markdown-36": {"markdown": 1}, "metrics-12": {"metric": 12},
        "latex-12": {"latex": 12}, "number-inputs-8": {"number_input": 8}, "tabs-bound": {"tabs": 5},
        "tabs-plain": {"tabs": 5}, "tabs-above": {"tabs": 5}, "tabs-above-fragment": {"tabs": 5},
        "segmented-5": {"segmented": 1}, "fragment-36": {"markdown": 36},
        "framed-fragment": {},  # the floor alone in the main area, the frame around it
        "framed-page-like": {"markdown": 2, "latex": 1, "number_input": 2, "segmented": 1, "tabs": 5, "metric": 3,
                             "text_input": 1, "button": 1, "caption": 1, "info": 1},
    }[name]
    assert added == expected


def test_the_one_markdown_probe_holds_the_same_36_paragraphs_as_the_36_elements(probes):
    one = [p.strip() for p in probes["one-markdown-36"].markdown[0].value.split("\n\n")]
    assert one == [m.value.strip() for m in probes["paragraphs-36"].markdown]  # Streamlit strips an element's text


@pytest.mark.parametrize("name", ["tabs-bound", "tabs-plain", "framed-page-like"])
def test_the_tab_probes_draw_the_slider_and_chart_inside_the_first_tab(probes, name):
    first = probes[name].tabs[0]
    assert len(first.slider) == 1 and len(first.get("plotly_chart")) == 1
    assert all(not tab.children for tab in probes[name].tabs[1:])


@pytest.mark.parametrize("name", ["tabs-above", "tabs-above-fragment"])
def test_the_tab_above_probes_keep_every_tab_empty_and_the_slider_and_chart_under_the_bar(probes, name):
    assert all(not tab.children for tab in probes[name].tabs)
    assert len(probes[name].main.slider) == 1 and len(probes[name].main.get("plotly_chart")) == 1


@pytest.mark.parametrize("name", sorted(element_cost.FRAMED))
def test_a_framed_probe_is_the_frames_default_page(probes, name):
    at = probes[name]
    assert "Language / 语言" in [s.label for s in at.sidebar.button_group]  # the frame around it
