"""A live figure's fitting in the browser (embedviz/app/live/fit.js) against the Python fitting of a Streamlit chart
(embedviz.figures.screen.fitted), in Chromium: the same figures with long titles, subtitles, panel titles, legend
entries and y titles, in English and Chinese, fitted by both at a phone's widths, must come out with the same line
breaks, margins and height, and plotly must draw them alike (the same lines of the title, the same plot area).

fit.js is given the rules Python sends a live figure (``screen.rules()``, as embedviz.app.live puts them in the
component's data), so this also checks that those rules are all it needs."""
from __future__ import annotations

import json

import numpy as np
from plotly.utils import PlotlyJSONEncoder
import pytest

from embedviz.app.i18n import catalog
from embedviz.app.live import ASSETS
from embedviz.app.widgets import PHONE_WIDTH
from embedviz.figures import LEGEND_BELOW, BELOW_MARGIN, line_chart, new_figure, shown_as_text, side_by_side
from embedviz.figures import rope as rope_figures
from embedviz.figures.screen import fitted, rules

pytestmark = pytest.mark.e2e

WIDTHS = (PHONE_WIDTH, 300)
EN_TITLE = "Distance between PE(s) and PE(s + k) against the gap k, for several starting positions (lesson 003)"
ZH_TITLE = "每个维度对在位置插值前（灰线）后的波长，以及训练长度和目标长度（第003课）：Position Interpolation 把每个波长乘以 s"


def _texts(lang: str) -> dict:
    """Long texts of the reader's language from the catalog (as a page's figure would say them)."""
    t = {key: texts[lang] for key, texts in catalog().items()}
    return {"title": EN_TITLE if lang == "en" else ZH_TITLE, "note": t["sin.heatmap_note"] + " · " + t["common.scale_key"],
            "y": t["rope.mean_cos"] + " " + t["sin.distance"], "names": [t["sin.typical"].format(v="2.00") * 2,
                                                                        t["rope.theta_chosen"].format(theta="10,000")]}


def specs(lang: str) -> list[tuple[str, dict]]:
    """(what, figure dict as built) of the shapes screen.py fits: a title with its subtitle, a legend under the plot
    with long names, side-by-side panels' titles, a y title longer than the plot is tall, and a presenter's font."""
    w = _texts(lang)
    x = np.arange(1, 50, dtype=np.float32)
    names = [*w["names"], w["title"][:20]]
    lines = line_chart(x, {n: np.sin(x / (i + 1)) for i, n in enumerate(names)}, title=w["title"], note=w["note"],
                       x_title="x", y_title=w["y"])
    lines.update_layout(legend=LEGEND_BELOW, margin=dict(b=BELOW_MARGIN))
    decay = rope_figures.decay_chart(x, {n: np.cos(x / (i + 2)) for i, n in enumerate(names)}, highlight=names[0],
                                     title=w["title"], x_title="d", y_title=w["y"], note=w["note"])
    panels = [new_figure("", data=[]) for _ in range(3)]
    for p in panels:
        p.add_heatmap(z=np.eye(2))
    side = side_by_side(panels, title=w["title"], subplot_titles=[w["names"][0], w["y"], w["title"][:12]],
                        note=w["note"])
    tall = new_figure(w["title"], y_title=w["y"] * 3, height=300)
    presenter = lines.to_dict()
    presenter["layout"] = {**presenter["layout"], "font": {"size": 20}, "title": {**presenter["layout"]["title"],
                                                                                  "font": {"size": 26}}}
    return [("lines", lines.to_dict()), ("decay", decay.to_dict()), ("panels", side.to_dict()),
            ("tall", tall.to_dict()), ("presenter", presenter)]


@pytest.fixture(scope="module")
def page(browser):
    """A page with plotly.js and fit.js loaded as the modules the live figure loads; fit.js's exports on window.Fit."""
    context = browser.new_context(viewport={"width": 800, "height": 1400})
    tab = context.new_page()
    tab.goto("about:blank")
    tab.add_script_tag(path=str(ASSETS / "plotly.min.js"))
    source = (ASSETS / "fit.js").read_text()
    tab.add_script_tag(content=source + "\nwindow.Fit = { fitted, wrap, textWidth };", type="module")
    tab.wait_for_function("() => window.Fit !== undefined && window.Plotly !== undefined")
    yield tab
    context.close()


def as_json(spec: dict) -> dict:
    """A figure's dict as the browser receives it (plotly's JSON: numpy arrays as plotly encodes them)."""
    return json.loads(json.dumps(spec, cls=PlotlyJSONEncoder))


# Both fitted figures drawn side by side at the chart's width: what each draws of the title (its lines) and
# where (its box), and the plot area plotly made of the margins and the height.
DRAW = """async ([python, browser, width]) => {
  const drawn = async (sent) => {
    const figure = JSON.parse(JSON.stringify(sent)); // plotly writes its ranges into the layout it draws
    const div = document.createElement("div");
    div.style.width = width + "px";
    document.body.append(div);
    await Plotly.newPlot(div, figure.data, { ...figure.layout, width }, { staticPlot: true });
    const title = div.querySelector(".infolayer .gtitle");
    const box = title.getBoundingClientRect(), top = div.getBoundingClientRect().top;
    const lines = [...title.querySelectorAll("tspan.line")].map((t) => t.textContent);
    const size = div._fullLayout._size;
    const out = { lines: lines.length ? lines : [title.textContent], title: [box.left, box.top - top, box.width],
      plot: [size.l, size.t, size.w, size.h], height: div._fullLayout.height };
    Plotly.purge(div);
    div.remove();
    return out;
  };
  const fitted = JSON.parse(JSON.stringify(window.Fit.fitted(browser, width, true, window.rules)));
  return { fitted, python: await drawn(python), browser: await drawn(fitted) };
}"""


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("width", WIDTHS)
def test_the_browser_fits_a_figure_as_python_fits_a_chart(page, lang, width):
    page.evaluate("(r) => { window.rules = r; }", rules())
    for what, spec in specs(lang):
        python = as_json(shown_as_text(fitted(spec, width=width, wrap_texts=True)))
        out = page.evaluate(DRAW, [python, as_json(shown_as_text(spec)), width])
        browser = out["fitted"]
        where = f"{what} ({lang}, {width} px)"
        # the same line breaks, margins and height: the layouts are the same
        assert browser["layout"] == python["layout"], where
        assert [t.get("name") for t in browser["data"]] == [t.get("name") for t in python["data"]], where
        assert python["layout"]["title"]["text"].count("<br>") >= 1, f"{where}: the title was not long enough"
        # and plotly draws them alike
        assert out["browser"] == out["python"], where
        assert len(out["python"]["lines"]) == python["layout"]["title"]["text"].count("<br>") + 1, where


def test_a_long_legend_and_panel_titles_were_broken_too(page):
    """The figures above hold what each rule acts on (else the comparison above would pass over a rule)."""
    for lang in ("en", "zh"):
        got = dict(specs(lang))
        decay = fitted(got["decay"], width=PHONE_WIDTH, wrap_texts=True)
        assert any("\n" in (t.get("name") or "") for t in decay["data"]), lang
        assert decay["layout"]["margin"]["b"] > BELOW_MARGIN, lang  # the legend's rows were given room
        panels = fitted(got["panels"], width=PHONE_WIDTH, wrap_texts=True)["layout"]
        assert any("\n" in a["text"] for a in panels["annotations"]), lang
        tall = fitted(got["tall"], width=PHONE_WIDTH, wrap_texts=True)["layout"]
        assert "\n" in tall["yaxis"]["title"]["text"], lang


@pytest.mark.parametrize("text", [EN_TITLE, ZH_TITLE, "a <b> & c\nd", "（括号）「引号」、标点。ASCII (brackets) 中文"])
def test_the_browser_wraps_and_measures_a_text_as_python_does(page, text):
    from embedviz.figures import plain
    from embedviz.figures.screen import text_width, wrap

    page.evaluate("(r) => { window.rules = r; }", rules())
    for size, width in ((18, 346), (13, 120), (26, 200)):
        got = page.evaluate("([t, s, w]) => window.Fit.wrap(t, s, w, window.rules)", [plain(text), size, width])
        assert got == [plain(line) for line in wrap(text, size, width)], (text, size, width)
        first = text.split("\n")[0]
        assert page.evaluate("([t, s]) => window.Fit.textWidth(t, s, window.rules)", [plain(first), size]) == \
            pytest.approx(text_width(first, size), rel=1e-12)
