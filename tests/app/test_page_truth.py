"""Teach only what is true: each fixed statement pinned against the core or a published formula.

The numbers are read from the core (the presets' trained length, rope.decay_curve, the context-extension view),
whose own tests hold them against transformers and the published formulas, never copied from the page's own strings.
"""
from __future__ import annotations

import re

import numpy as np
import pytest

from embedviz import model_facts
from embedviz.rope import rotary
from embedviz.app.i18n import catalog
from embedviz.models.params import PRESETS
from embedviz.app import context_extension_view
from embedviz.lessons.widget_keys import Compare, Context, LearnedPositions, RealModel, Rope, Training, WhyPosition
from tests.app import pagetest as pt
from tests.app.test_page_context_extension import core_view


# 1. the context page uses the length the model was trained on, not max_position_embeddings


@pytest.mark.parametrize(("name", "published"), [("Qwen3-0.6B", 32_768), ("Mistral-7B-v0.1", 8_192)])
def test_context_page_shows_the_trained_length(name, published):
    at = pt.page("context_extension", **{Context.SOURCE: name}).run()
    pt.ok(at)
    p = PRESETS[name]
    assert at.number_input(key=Context.ORIGINAL).value == p.pretrained_length == published
    assert any(pt.shows(c.value, "ctx.source_caption") and f" {published:,} " in c.value for c in at.caption)
    # (a loop in the core's test)
    unseen = int(core_view(context_extension_view.preset_config(name)).unseen_unscaled.sum())
    assert pt.metric(at, pt.text("ctx.unseen_without")) == f"{unseen} / {p.head_dim // 2}"


def test_rope_page_preset_says_its_trained_length():
    at = pt.page("rope", **{Rope.PRESET: "Mistral-7B-v0.1"}).run()
    pt.ok(at)
    # "pre-training context", not "pre-trained on": 8,192 is a context length, not the corpus's size
    words = catalog()["rope.preset_caption"]["en"].split("(")[1].format(trained="8,192")
    assert any(f"max_position_embeddings 32,768 ({words}" in c.value for c in at.caption)
    assert words.startswith("pre-training context 8,192 tokens")


def _llama31_config() -> dict:
    """meta-llama/Llama-3.1-8B's published config.json (the packaged file, not the preset built from it)."""
    return model_facts.config("llama-3.1-8b.json")


@pytest.mark.parametrize(("page", "query"), [("rope", {Rope.PRESET: "Llama-3.1-8B"}),
                                             ("context_extension", {Context.SOURCE: "Llama-3.1-8B"})])
def test_llama31_caption_says_its_last_pre_training_stage_reached_128k(page, query):
    """Llama 3 paper 3.4: pre-trained at 8K, its final pre-training stages reached 128K. The caption says both,
    so "pre-training context 8,192" does not read as the most the model was trained on."""
    config = _llama31_config()
    start, reached = config["rope_scaling"]["original_max_position_embeddings"], config["max_position_embeddings"]
    assert (start, reached) == (8_192, 128 * 1_024)
    at = pt.page(page, **query).run()
    pt.ok(at)
    (caption,) = [c.value for c in at.caption if "rope_theta" in c.value]
    key = {"rope": "rope.preset_caption", "context_extension": "ctx.source_caption"}[page]
    assert pt.shows(caption, key) and f" {start:,} tokens" in caption
    assert catalog()["common.last_stage"]["en"].format(n=f"{reached:,}") in caption
    other = pt.page(page, **{key: "Mistral-7B-v0.1" for key in query}).run()  # one stage: nothing added
    assert not [c.value for c in other.caption if pt.words("common.last_stage") in c.value]


# 2. YaRN: q and k each x (0.1 ln s + 1), so the logits x its square


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_yarn_logits_grow_by_the_square(lang):
    method_tab = catalog()["ctx.tab_method"][lang]  # the attention factor is said with the method's formula
    at = pt.page("context_extension", lang=lang, **{Context.SOURCE: "Qwen3-0.6B (YaRN 128K)",
                                                    Context.TAB: method_tab}).run()  # x 4
    pt.ok(at)
    # YaRN paper: sqrt(1/t) = 0.1 ln s + 1, applied to q and to k (the core's, checked in tests/test_rope_scaling.py)
    factor = core_view(context_extension_view.preset_config("Qwen3-0.6B (YaRN 128K)")).attention_factor
    assert any(f"{factor ** 2:.4f}" in c.value and f"{factor:.4f}" in c.value for c in at.caption)
    assert f"{factor ** 2:.4f}" == "1.2965"
    text = catalog()["ctx.m_yarn"][lang]
    assert ("square" if lang == "en" else "平方") in text and "1.2965" in text


# 3. the RoPE decay text says what the curves show, and the page shows independent q, k too


def test_decay_text_numbers_come_from_the_curves():
    d = [100, 4_096]
    a, b = rotary.decay_curve(128, 500_000.0, d), rotary.decay_curve(128, 1_000_000.0, d)
    low = rotary.decay_curve(128, 10_000.0, np.arange(4_097))
    for lang in ("en", "zh"):
        text = catalog()["rope.decay_intro"][lang]
        for value in (*a, *b):
            assert f"{value:.3f}" in text
        assert f"−{-low.min():.3f}" in text and f"{int(np.argmin(low)):,}" in text
        assert "slows every pair" not in text and "每个维度对转得越慢" not in text


def test_rope_page_shows_aligned_and_independent_scores():
    at = pt.page("rope", session={Rope.TAB: catalog()["rope.tab_random"]["en"]}).run()  # the section's tab
    pt.ok(at)
    chart = pt.chart(at, "independent random q, k")
    traces = {tr["name"]: pt.values(tr["y"]) for tr in chart["data"]}
    aligned = traces["q, k aligned (mean cos(d·ω_i))"]
    distances = pt.values(chart["data"][0]["x"])
    np.testing.assert_allclose(aligned, rotary.decay_curve(128, 10_000.0, distances), atol=1e-6)
    mean, high = traces["independent q, k: mean"], traces["mean + 1 std"]
    assert np.abs(mean).max() < 0.05 < high.min()  # 0 on average, while a single pair spreads by ~1/sqrt(128)


# 4. lesson 001's vocabulary range


def test_one_hot_text_quotes_the_lessons_vocabulary_range():
    texts = catalog()["tok.onehot_md"]
    assert "30,000 to 100,000" in texts["en"] and "150,000" not in texts["en"]
    assert "3 万到 10 万" in texts["zh"] and "15 万" not in texts["zh"]


# the causal-mask switch on Why position


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_causal_mask_makes_order_visible_without_positions(lang):
    from embedviz.positions import attention

    at = pt.page("why_position", lang=lang).run()
    pt.ok(at)
    plain = float(at.metric[0].value)
    at.toggle(key=WhyPosition.CAUSAL).set_value(True).run()
    pt.ok(at)
    masked = float(at.metric[0].value)
    expected = attention.word_order_demo("the cat sat on the mat", causal=True).demo.max_difference
    assert plain < 1e-12 and masked == pytest.approx(expected, rel=1e-2) and masked > 0.1
    assert at.metric[0].label == pt.text("why.metric_plain_causal", lang)


# Compare: "extrapolates" has three states; sinusoidal and RoPE are defined past L, they do not generalise


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_extrapolates_is_three_state(lang):
    at = pt.page("compare", lang=lang, **{Compare.TAB: catalog()["cmp.tab_props"][lang]}).run()
    pt.ok(at)
    column = catalog()["cmp.prop_extrapolates"][lang]
    table = next(tb.value for tb in at.table if column in tb.value.columns)
    marks = [cell[0] for cell in table[column]]
    # one criterion for every row, a model trained on L using a longer context: ALiBi's loss holds up past L (Press
    # et al. 2021), but their own analysis finds it may not use the tokens beyond L; "none" is defined at any length
    # like sinusoidal and RoPE, which does not make its model generalise
    assert marks == ["◐", "✗", "◐", "◐", "◐"]  # sinusoidal, learned, RoPE, ALiBi, none
    caption = catalog()["cmp.props_caption"][lang]
    assert ("contradicts itself" if lang == "en" else "自相矛盾") in caption


# Real model: car is no unrelated word for cat here; the rotation sentence only for a real rotation


def test_real_model_names_unrelated_pairs_the_data_supports():
    from embedviz.models.pretrained import load_bundled_model
    from embedviz.models.word_vectors import nearest_neighbours, pair_similarity

    m = load_bundled_model()
    cat = m.token_id("cat")
    rank = [i for i, _ in nearest_neighbours(m.token_embeddings, cat, k=50)].index(m.token_id("car")) + 1
    at = pt.page(RealModel.MODEL).run()
    pt.ok(at)
    caption = at.caption[0].value
    assert f"{rank}th nearest token of 30,522" in caption and rank == 9
    for word in ("airplane", "tuesday"):
        value = pair_similarity(m.token_embeddings, cat, m.token_id(word))
        assert abs(value) < 0.1 and f"cat–{word} {value:.4f}" in caption


@pytest.mark.parametrize(("window", "rotation"), [((0, 511), True), ((1, 126), False)])
def test_rotation_sentence_only_when_the_rows_rotate(window, rotation):
    at = pt.page("learned_positions", session={LearnedPositions.TAB: "Rotation (PCA)",
                                               LearnedPositions.ROWS: window}).run()
    pt.ok(at)
    text = " ".join(md.value for md in at.markdown)
    assert pt.shows(text, "learn.turn") == rotation
    assert pt.shows(text, "learn.no_turn") == (not rotation)


# words: one name for the lessons, a place that lists them, one term per idea, no English words in Chinese


def test_one_name_for_the_lessons_in_each_language():
    for key, texts in catalog().items():
        assert not re.search(r"\btext 00\d|\bText 00\d|the text says|as in the text\b", texts["en"]), key
        assert not re.search(r"文章 ?00\d|文本 ?00\d|第 ?00\d ?篇|原文|课程里", texts["zh"]), key


@pytest.mark.parametrize(("lang", "name"), [("en", "Lesson 00{i}"), ("zh", "第 00{i} 课")])
def test_home_lists_the_five_lessons(lang, name):
    from embedviz.app.pages import PAGES

    at = pt.page("home", lang=lang).run()
    pt.ok(at)
    text = " ".join(md.value for md in at.markdown)
    assert all(name.format(i=i) in text for i in range(5))
    tokens = [url for section, entries in PAGES for *_, url in entries if section == "nav.tokens"]
    assert tokens[tokens.index("trained-embedding") + 1] == "real-model"  # the real token table right after


def test_one_chinese_term_per_idea():
    zh = " ".join(texts["zh"] for texts in catalog().values())
    for old in ("远距离衰减", "长程衰减", "训练嵌入", "行长度", "Token 嵌入", "token 表", "token 嵌入"):
        assert old not in zh, old
    assert "远程衰减" in zh and "训练后的嵌入" in zh and "平均模长" in zh and "词嵌入" in zh


def test_training_legends_and_class_names_are_translated():
    from embedviz.training import experiment

    for name in experiment._CLASS_NAMES:
        key = "train.class_" + name.replace(" ", "_").replace("-", "_").lower()
        assert pt.is_chinese(catalog()[key]["zh"]) or name == "UTF-8 byte", name
    at = pt.page("trained_embedding", lang="zh", session={Training.VIEW: catalog()["train.view_loss"]["zh"]}).run()
    pt.ok(at)
    loss = pt.specs(at)[0]
    assert [tr["name"] for tr in loss["data"][:2]] == ["损失", "损失（10 步平均）"]
