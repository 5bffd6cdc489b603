"""The "Dot product and cosine" page: metrics equal the core's, the activity hides then reveals computed cosines."""
from __future__ import annotations

import pytest

from embedviz import dot_product as dp
from embedviz.app.i18n import catalog
from embedviz.lessons.widget_keys import DotProduct as K
from tests.app import pagetest as pt

PREDICT = catalog()["dot.tab_predict"]["en"]


METRICS = ("dot.m_dot", "dot.m_product", "dot.m_cos", "dot.m_angle", "dot.score")


def _metrics(at) -> dict[str, str]:
    return pt.metrics(at, *METRICS)


def test_defaults_and_widgets_match_the_core():
    at = pt.page("dot_product").run()
    pt.ok(at)
    assert _metrics(at) == {"dot.m_dot": "1.500", "dot.m_product": "1.500", "dot.m_cos": "0.500",
                            "dot.m_angle": "60.0°"}  # 2 x 1.5 x cos 60°
    at.slider(key=K.ANGLE_V).set_value(90).run()
    assert _metrics(at)["dot.m_dot"] in ("0.000", "-0.000")  # a right angle
    at.slider(key=K.ANGLE_V).set_value(200).run()
    at.select_slider(key=K.LEN_V).set_value(3.0).run()
    pt.ok(at)
    core = dp.compare_vectors(dp.polar_vector(2.0, 0), dp.polar_vector(3.0, 200))
    shown = _metrics(at)
    assert shown["dot.m_dot"] == f"{core.dot:.3f}"  # |u||v| cos(angle): tests/test_dot_product.py
    assert shown["dot.m_angle"] == "160.0°"


def test_prediction_is_hidden_until_revealed_then_graded():
    from embedviz.models import pretrained

    at = pt.page("dot_product", session={K.TAB: PREDICT}).run()
    at.segmented_control(key=K.GUESS(0)).set_value("close").run()
    pt.ok(at)
    assert not at.dataframe  # nothing revealed yet
    at.toggle(key=K.REVEAL).set_value(True).run()
    pt.ok(at)
    table = at.dataframe[0].value
    m = pretrained.load_bundled_model()
    W = m.token_embeddings.astype(float)
    for (a, b), cos in zip(dp.PREDICTION_PAIRS, table.iloc[:, 2]):
        x, y = W[m.token_id(a)], W[m.token_id(b)]
        assert cos == pytest.approx(float(x @ y / (x @ x) ** 0.5 / (y @ y) ** 0.5))  # the cosine by its definition
    assert table.iloc[0, 4] == "✓"  # cat - dog guessed "close", and it is (lesson 002)
    assert table.iloc[1, 4] == "✓"  # cat - tuesday left at "unrelated", and it is
    right = sum(mark == "✓" for mark in table.iloc[:, 4])
    assert _metrics(at)["dot.score"] == f"{right} / {len(dp.PREDICTION_PAIRS)}"


def test_chinese():
    at = pt.page("dot_product", lang="zh", session={K.TAB: catalog()["dot.tab_predict"]["zh"]},
                 **{K.REVEAL: "true"}).run()
    pt.ok(at)
    assert pt.is_chinese(at.title[0].value)
    assert all(pt.is_chinese(c) for c in at.dataframe[0].value.columns)


def test_zh_arrows_tab():
    at = pt.page("dot_product", lang="zh").run()
    pt.ok(at)
    assert pt.is_chinese(pt.titles(at)[0])


def test_arrows_tab_opens_first_and_the_activity_waits_in_its_own_tab():
    """Bound tabs are lazy: the page opens on the arrows; the activity's widgets exist only in its tab."""
    at = pt.page("dot_product").run()
    pt.ok(at)
    assert len(at.get("plotly_chart")) == 1 and not at.get("button_group") and not at.toggle
    at = pt.page("dot_product", session={K.TAB: PREDICT}).run()
    pt.ok(at)
    assert not at.get("plotly_chart") and len(at.get("button_group")) == len(dp.PREDICTION_PAIRS)


def test_the_notices_surprise_is_the_models():
    """The notice says good/bad lands close, not opposite: the bundled model's cosine, by its definition."""
    from embedviz.models import pretrained

    m = pretrained.load_bundled_model()
    u, v = (m.token_embeddings[m.token_id(w)].astype(float) for w in ("good", "bad"))
    assert float(u @ v / (u @ u) ** 0.5 / (v @ v) ** 0.5) >= 0.4  # the "close" band's lower edge
    assert "good/bad" in catalog()["dot.notice"]["en"] and "close, not opposite" in catalog()["dot.notice"]["en"]
