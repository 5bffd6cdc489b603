"""The "Input layer" page: the shapes shown are torch's, sum vs concat costs are the core's, both modules refuse."""
from __future__ import annotations

import torch

from embedviz.input_layer import composition
from embedviz.lessons.widget_keys import Compare, InputLayer
from tests.app import pagetest as pt


def test_defaults_show_the_shape_contract():
    at = pt.page("input_layer").run()
    pt.ok(at)
    shapes = at.table[0].value.iloc[:, 1].tolist()
    assert shapes == ["(2, 5)", "(2, 5, 8)", "(5, 8)", "(1, 5, 8)", "(2, 5, 8)"]
    assert shapes[-1] == str(tuple(torch.broadcast_shapes((2, 5, 8), (1, 5, 8))))
    table = at.table[1].value  # the sum-vs-concatenation table
    assert table.iloc[:, 1].tolist() == ["(2, 5, 8)", "(2, 5, 16)"]
    assert table.iloc[:, 4].tolist() == ["8", "16"]


def test_widgets_drive_shapes_and_costs():
    at = pt.page("input_layer").run()
    at.slider(key=InputLayer.BATCH).set_value(4).run()
    at.select_slider(key=InputLayer.LENGTH).set_value(16).run()
    at.select_slider(key=InputLayer.D_MODEL).set_value(64).run()
    at.select_slider(key=InputLayer.D_POSITION).set_value(32).run()
    pt.ok(at)
    assert at.table[0].value.iloc[:, 1].tolist() == ["(4, 16)", "(4, 16, 64)", "(16, 64)", "(1, 16, 64)", "(4, 16, 64)"]
    table = at.table[1].value  # the sum-vs-concatenation table
    concat = composition.width_and_params(256, 16, 64, 32, combine="concat")
    assert table.iloc[1, 1] == "(4, 16, 96)"
    assert table.iloc[1, 5] == f"{concat.attention_per_layer:,}" == f"{4 * 96 * 96:,}"
    assert table.iloc[0, 3] == f"{16 * 64:,}"  # the learned position table L x D


def test_past_the_end_both_modules_refuse_with_their_own_message():
    at = pt.page("input_layer", **{InputLayer.LENGTH: "32", InputLayer.MAX_LENGTH: "16"}).run()
    pt.ok(at)
    messages = composition.refusal_messages(16, 32)
    shown = [w.value for w in at.warning]
    assert len(shown) == 2
    assert shown[0].endswith(str(messages["LearnedPositionalEmbedding"]))
    assert shown[1].endswith(str(messages["SinusoidalPositionalEmbedding"]))
    assert "SinusoidalPositionalEmbedding" in shown[1]
    assert not at.table  # no shapes: the modules refused


def test_refusals_reach_a_chinese_reader_in_chinese():
    from embedviz.app.errors import localized

    at = pt.page("input_layer", lang="zh", **{InputLayer.LENGTH: "32", InputLayer.MAX_LENGTH: "16"}).run()
    pt.ok(at)
    message = composition.refusal_messages(16, 32)["SinusoidalPositionalEmbedding"]
    zh = localized(message, "zh")
    assert zh.startswith("无法嵌入 context_length 为 32 的序列")
    assert [w.value for w in at.warning] == [pt.text("inl.refused", "zh", module=m, message=zh)
                                             for m in ("LearnedPositionalEmbedding", "SinusoidalPositionalEmbedding")]


def test_chinese():
    at = pt.page("input_layer", lang="zh").run()
    pt.ok(at)
    assert pt.is_chinese(at.title[0].value)
    assert all(pt.is_chinese(c) for c in at.table[0].value.columns)


def test_compare_page_shows_the_sinusoidal_modules_refusal_too():
    from embedviz.app.errors import localized
    from embedviz.app.i18n import catalog

    messages = composition.refusal_messages(64, 67)
    assert messages["SinusoidalPositionalEmbedding"].params == {"context_length": 67, "limit": 64}
    # a Chinese reader gets the core's message in Chinese (embedviz.app.errors)
    zh_message = localized(messages["SinusoidalPositionalEmbedding"], "zh")
    assert zh_message.startswith("无法嵌入 context_length 为 67 的序列")
    past = catalog()["cmp.tab_past"]  # the page's tab that holds the past-the-end section
    for lang in ("en", "zh"):
        at = pt.page("compare", lang=lang, **{Compare.LENGTH: "64", Compare.K: "3", Compare.TAB: past[lang]}).run()
        pt.ok(at)
        warning = at.warning[0].value
        keys = {"LearnedPositionalEmbedding": "cmp.past_learned",
                "SinusoidalPositionalEmbedding": "inl.cmp_sinusoidal_refuses"}
        said = {module: pt.fields(warning, key, lang)["error"] for module, key in keys.items()}
        assert said == {module: str(localized(message, lang)) for module, message in messages.items()}, lang
