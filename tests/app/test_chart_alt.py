"""Every chart a page draws carries a text alternative (Streamlit's ``alt``: the chart's accessible name) in the
reader's language, naming the chart's own title."""
from __future__ import annotations

import json

import pytest

from embedviz.app.pages import PAGES
from tests.app.pagetest import is_chinese, ok, page

PAGE_NAMES = [file.removeprefix("app_pages/").removesuffix(".py") for _, entries in PAGES for file, *_ in entries]


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("name", PAGE_NAMES)
def test_every_chart_has_a_text_alternative(name, lang):
    at = page(name, lang=lang)
    at.run()
    ok(at, errors_allowed=True)
    for chart in at.get("plotly_chart"):
        title = json.loads(chart.proto.spec)["layout"]["title"]["text"]
        alt = chart.proto.alt
        assert alt, f"{name}: the chart {title!r} has no text alternative"
        assert title.split("<")[0].strip()[:20] in alt
        if lang == "zh":
            assert is_chinese(alt), alt
