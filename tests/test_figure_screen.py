"""embedviz.figures.screen: a figure fitted to a phone's width, and a legend under the plot given its rows' room.

The widths are estimated from the characters; the oracle is the font the browser falls back to on Debian (DejaVu
Sans, and WenQuanYi Micro Hei for Chinese), measured by Pillow: a line the wrapper makes must fit when drawn so.
"""
from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from embedviz.figures import BELOW_MARGIN, LEGEND_BELOW, line_chart, new_figure, shown_as_text, side_by_side
from embedviz.figures.screen import CJK, fitted, text_width, wrap

LATIN_FONT = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
CJK_FONT = Path("/usr/share/fonts/truetype/wqy/wqy-microhei.ttc")
LONG = "Distance between PE(s) and PE(s + k) against the gap k, for several starting positions"


def _drawn_width():
    """Pillow's width of a text in the fallback fonts, or a skip / CI failure without them."""
    from tests.conftest import oracle_required, require_oracle

    image_font = require_oracle("PIL.ImageFont")
    if not (LATIN_FONT.exists() and CJK_FONT.exists()):
        if oracle_required():
            pytest.fail(f"fonts {LATIN_FONT} / {CJK_FONT} missing (apt-get install fonts-dejavu-core fonts-wqy-microhei)")
        pytest.skip("DejaVu Sans / WenQuanYi Micro Hei not installed")
    latin, cjk = image_font.truetype(str(LATIN_FONT), 100), image_font.truetype(str(CJK_FONT), 100)
    is_cjk = re.compile(f"[{CJK}]")
    return lambda text, size: sum((cjk if is_cjk.match(ch) else latin).getlength(ch) for ch in text) * size / 100


@pytest.mark.slow  # every catalog text measured in two fonts
def test_every_catalog_text_wrapped_to_a_phone_fits_when_drawn_in_the_fallback_fonts():
    from embedviz.app.i18n import catalog

    drawn = _drawn_width()
    size, room = 18, 346  # a title on a 390 px phone's chart
    too_wide = []
    for key, texts in catalog().items():
        for lang, text in texts.items():
            text = re.sub(r"\{[^}]*\}", "8", text)
            if "\n" in text or len(text) > 300:
                continue  # paragraphs, not a chart's words
            for line in wrap(text, size, room):
                breakable = len(wrap(line, size, 1)) > 1  # more than one word: it must fit
                if breakable and drawn(line, size) > room * 1.02:
                    too_wide.append((key, lang, line, round(drawn(line, size))))
    assert not too_wide, too_wide[:10]
    # and not broken much too early: the estimate stays within a third of the drawn width
    for text in (LONG, "每个维度对在位置插值前（灰线）后的波长，以及训练长度和目标长度"):
        assert drawn(text, size) <= text_width(text, size) <= 1.34 * drawn(text, size), text


def test_wrap_keeps_every_word_in_order_breaks_chinese_between_characters_and_keeps_a_given_break():
    lines = wrap(LONG, 18, 200)
    assert len(lines) > 2 and " ".join(lines).split() == LONG.split()
    zh = "输入到第一个变换器块的向量：词元向量加上位置向量（正弦）然后相加得到输入"
    lines = wrap(zh, 18, 200)
    assert len(lines) > 1 and "".join(lines) == zh
    assert not any(line.startswith(("）", "，", "：")) for line in lines)  # closing marks stay with their text
    assert wrap("first\nsecond", 18, 500) == ["first", "second"]
    assert wrap("Supercalifragilistic", 18, 50) == ["Supercalifragilistic"]  # one word: its own line, not cut


def _figure():
    names = {"full_attention: linear, theta 1,000,000, factor 8 (8 layers)": np.ones(3), "sliding window": np.zeros(3)}
    fig = line_chart(np.arange(3), names, title=LONG, x_title="gap k", note="the curves coincide " * 4)
    fig.update_layout(legend=LEGEND_BELOW, margin=dict(b=BELOW_MARGIN))
    return fig.to_dict()


def test_a_phone_gets_its_titles_and_legend_broken_into_lines_and_the_room_they_need():
    spec = _figure()
    phone = fitted(spec, width=358, wrap_texts=True)
    title = phone["layout"]["title"]
    assert title["text"].count("\n") >= 1 and title["subtitle"]["text"].count("\n") >= 1
    assert "\n" in phone["data"][0]["name"] and phone["data"][1]["name"] == "sliding window"
    grown = phone["layout"]["height"] - spec["layout"]["height"]
    margins = phone["layout"]["margin"]["t"] + phone["layout"]["margin"]["b"] - spec["layout"]["margin"]["t"] - BELOW_MARGIN
    assert grown == margins > 0  # the plot area keeps its height
    # plotly's line break survives the escaping, and a reader's markup still does not
    shown = shown_as_text(fitted({**spec, "layout": {**spec["layout"], "title": {"text": f"<a href='//x'>{LONG}"}}},
                                 width=358, wrap_texts=True))
    assert "<br>" in shown["layout"]["title"]["text"] and "<a" not in shown["layout"]["title"]["text"]
    assert spec == _figure()  # the built figure (cached, shared by sessions) is not changed


def test_a_desktop_keeps_its_titles_and_a_larger_font_gets_the_legend_rows_room_under_the_axis_title():
    spec = _figure()
    desktop = fitted(spec, width=760, wrap_texts=False)
    assert desktop["layout"]["title"] == spec["layout"]["title"] and desktop["data"] == spec["data"]
    big = {**spec, "layout": {**spec["layout"], "font": {"size": 20}}}
    presenter = fitted(big, width=760, wrap_texts=False)["layout"]
    assert presenter["margin"]["b"] > fitted(spec, width=760, wrap_texts=False)["layout"].get("margin", {}).get(
        "b", BELOW_MARGIN)
    assert presenter["height"] - spec["layout"]["height"] == presenter["margin"]["b"] - BELOW_MARGIN


def test_panel_titles_break_to_their_panels_width_and_a_long_y_title_to_the_plots_height():
    panels = [new_figure("", data=[]) for _ in range(3)]
    for p in panels:
        p.add_heatmap(z=np.eye(2))
    titles = ["token vectors W[ids]", "+ sinusoidal positions", "= input (T, D)"]
    spec = side_by_side(panels, title="The input", subplot_titles=titles).to_dict()
    phone = fitted(spec, width=358, wrap_texts=True)["layout"]
    wrapped = [a["text"] for a in phone["annotations"]]
    assert [w.replace("\n", " ") for w in wrapped] == titles and "\n" in wrapped[1]
    tall = new_figure("t", y_title="distance ‖PE(s+k) − PE(s)‖ between two positions", height=300).to_dict()
    assert "\n" in fitted(tall, width=760, wrap_texts=False)["layout"]["yaxis"]["title"]["text"]
