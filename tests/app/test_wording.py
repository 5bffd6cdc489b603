"""Statements the catalog makes about the lessons, the optimisers and the bundled model, checked against the
source they cite: the lesson files, torch's own optimisers and the bundled model's position table."""
from __future__ import annotations

import pytest
import torch

from embedviz.positions import analysis as position_analysis
from embedviz.app.i18n import catalog
from tests.conftest import require_lessons


def _lesson_title(number: int) -> str:
    """The title line of lesson 00N's file: the line after the one-paragraph summary that opens it."""
    (path,) = require_lessons().glob(f"{number:03d}_*.txt")
    return path.read_text(encoding="utf-8").splitlines()[1].strip()


TITLE_004 = "词嵌入（Word Embedding）和位置编码（Positional Encoding）"  # lesson 004's title line, as published


def test_home_gives_lesson_004_its_own_title():
    """Not 《词嵌入是学出来的，位置编码是算出来的》, the lesson's first sentence paraphrased."""
    home = catalog()["home.lessons"]["zh"]
    assert f"《{TITLE_004}》" in home and "《词嵌入是学出来的" not in home


def test_lesson_004s_title_is_the_lesson_files():
    """The title Home quotes is the lesson file's own title line (a skip where the lessons are not, a failure in
    CI)."""
    assert _lesson_title(4) == TITLE_004


def _rows_moved_by_the_first_step(optimizer) -> int:
    """One step of ``optimizer`` on a 6-row table where only row 0 was looked up: how many rows changed."""
    torch.manual_seed(0)
    table = torch.nn.Embedding(6, 4)
    before = table.weight.detach().clone()
    opt = optimizer([table.weight])
    table(torch.tensor([0])).sum().backward()
    opt.step()
    return int((table.weight.detach() != before).any(dim=1).sum())


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_weight_decay_moves_every_row_from_the_first_step_and_momentum_does_not(lang):
    """torch: AdamW's decay shrinks all 6 rows at step 1 (no gradient needed); Adam moves only the looked-up row,
    since momentum needs an earlier gradient. The notice says "from the first step" for decay, not "after"."""
    assert _rows_moved_by_the_first_step(lambda p: torch.optim.AdamW(p, lr=0.01, weight_decay=0.01)) == 6
    assert _rows_moved_by_the_first_step(lambda p: torch.optim.Adam(p, lr=0.01)) == 1
    text = catalog()["tok.notice_grad_untied"][lang]
    assert {"en": "every row shrinks from the first step", "zh": "每一行从第一步起都会缩小"}[lang] in text
    assert {"en": "after the first step", "zh": "从第二步起"}[lang] not in text


def test_tour_003_names_drops_of_rows_every_input_reaches():
    """The bundled table's rough steps include 0 -> 1 ([CLS] sits at 0 in every input) and 126/127 -> (every input
    of 128+ tokens reaches them): the step must not call them rows "training rarely reached"."""
    from embedviz.models.pretrained import load_bundled_model

    rough = set(position_analysis.smoothness(load_bundled_model().position_embeddings).rough_steps.tolist())
    assert 0 in rough and {126, 127} & rough
    text = catalog()["tour.003.learned"]
    assert "rarely reached" not in text["en"] and "训练很少触及" not in text["zh"]
    assert "0 → 1" in text["en"] and "127" in text["en"] and "0 → 1" in text["zh"] and "127" in text["zh"]


def test_only_gemma_3_and_4_are_said_to_give_their_layer_kinds_two_thetas():
    """transformers 5.24's own configs: Gemma 2 alternates sliding and full layers under one rope_theta; Gemma 3
    gives them two (10,000 local, 1,000,000 global). The intro says so, not "Gemma" for all three."""
    from transformers import Gemma2Config, Gemma3TextConfig

    from embedviz.rope import layers as rope_layers

    gemma2, gemma3 = (rope_layers.layer_plan(c().to_dict()) for c in (Gemma2Config, Gemma3TextConfig))
    assert set(gemma2.counts()) == set(gemma3.counts()) == {"sliding_attention", "full_attention"}
    assert (gemma2.distinct_ropes(), gemma3.distinct_ropes()) == (1, 2)
    text = catalog()["mod.intro"]
    assert "Gemma 3 and Gemma 4 give their local" in text["en"] and "Gemma 2 alternates" in text["en"]
    assert "with one theta" in text["en"] and "Gemma mixes" not in text["en"]
    assert "Gemma 2 同样交替使用这两种层，但只有一个 theta" in text["zh"]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_nope_is_explained_where_the_page_first_says_it(lang):
    """The RoPE-in-today's-models page's first words define NoPE, before the model list, a layer label or a tab
    uses the word."""
    from tests.app import pagetest as pt

    at = pt.page("modern_rope", lang=lang).run()
    pt.ok(at)
    first = next(m.value for m in at.markdown if "NoPE" in m.value)
    lead = catalog()["mod.lead"][lang]
    assert first == lead
    assert {"en": "no position encoding at all (NoPE)", "zh": "完全没有位置编码（NoPE）"}[lang] in lead


def test_a_causal_mask_lets_each_token_see_itself():
    """A causal mask hides the tokens after a token, not the token: no text says a token sees only the earlier
    ones. The core's causal attention: the first token, with no earlier token, still gets its own value row."""
    import re

    import numpy as np

    from embedviz.positions.attention import self_attention

    x, w = np.random.default_rng(0).normal(size=(3, 4)), np.random.default_rng(1).normal(size=(3, 4, 4))
    np.testing.assert_allclose(self_attention(x, *w, causal=True)[0], x[0] @ w[2], atol=1e-12)
    only_earlier = re.compile(r"(sees?|see) only (the )?(earlier|tokens? before)|only (sees?|see) (the )?"
                              r"(earlier|tokens? before)", re.I)
    found = [key for key, texts in catalog().items()
             if only_earlier.search(texts["en"]) or re.search(r"只(能)?看(得)?到(它)?前面", texts["zh"])]
    assert not found
    for key in ("mod.nope_text", "mod.all_nope", "mod.all_nope_temp", "why.causal"):
        assert "itself" in catalog()[key]["en"] and "自己" in catalog()[key]["zh"], key


def test_a_context_length_is_never_said_as_what_a_model_was_pre_trained_on():
    """"Pre-trained on 8K tokens" reads as the corpus's size (Llama 3 saw ~15T tokens); a context is "pre-training
    context N"."""
    import re

    en = re.compile(r"pre-?trained on (sequences of )?[\d,.]+K?( tokens)?\b", re.I)
    zh = re.compile(r"在 ?[\d,.]+K? ?(个 token )?上预训练")
    found = [key for key, texts in catalog().items() if en.search(texts["en"]) or zh.search(texts["zh"])]
    assert not found
    assert "Llama 3's pre-training context was 8K" in catalog()["ctx.calc_honest"]["en"]


@pytest.mark.parametrize(("key", "spelled"), [("mod.mla", ("multi-head latent attention", "多头潜在注意力")),
                                              ("ctx.mla_logits", ("multi-head latent attention", "多头潜在注意力"))])
def test_mla_is_spelled_out_where_a_page_explains_it(key, spelled):
    en, zh = spelled
    assert f"MLA ({en})" in catalog()[key]["en"] or f"(MLA, {en})" in catalog()[key]["en"]
    assert zh in catalog()[key]["zh"]


# where a lesson is wrong, the text that corrects it says so and names the lesson (as sin.intro does for lesson 000's
# coarse and fine dimensions): the lesson's words, the key that corrects them, and what that key must say
LESSON_ERRORS = [
    (3, "让高频维度的旋转放缓", "rope.decay_intro",
     ("Lesson 003 says it slows the high-frequency pairs, the other way round", "第 003 课说它让高频维度的旋转放缓，恰好说反了")),
    (3, "让高频维度的旋转放缓", "tour.003.theta", ("the lesson says the high-frequency ones", "课里说的是高频维度")),
    (3, "模型天然更关注离自己近的", "rope.random_intro",
     ("Lesson 003 says RoPE makes the model naturally attend to nearby tokens", "第 003 课说 RoPE 让模型天然更关注近处")),
    (0, "attention projection", "inl.intro", ("ALiBi changes no vector at all: it adds a bias to the attention scores",
                                               "ALiBi 则不改变任何向量，而是给注意力分数加上偏置")),
    (4, "和差化积公式", "sin.rotation_text", ("Lesson 004 calls them the sum-to-product formulas", "第 004 课称之为和差化积公式")),
    (1, "随机初始化，接近0", "tok.notice_onehot", ("That holds on average only", "这只在平均意义上成立")),
]


@pytest.mark.parametrize(("lesson", "claim", "key", "says"), LESSON_ERRORS, ids=[e[2] for e in LESSON_ERRORS])
def test_a_corrected_lesson_is_named(lesson, claim, key, says):
    for lang, text in zip(("en", "zh"), says):
        assert text in catalog()[key][lang], (key, lang)


@pytest.mark.parametrize(("lesson", "claim"), sorted({(e[0], e[1]) for e in LESSON_ERRORS}))
def test_the_lesson_says_what_the_app_corrects(lesson, claim):
    """The corrected claims are the lessons' own words (a skip where the lessons are not, a failure in CI)."""
    (path,) = require_lessons().glob(f"{lesson:03d}_*.txt")
    assert claim in path.read_text(encoding="utf-8")


def test_larger_theta_slows_the_slow_pairs_most():
    """What rope.decay_intro says against lesson 003: raising theta barely changes pair 0 and slows the last pairs
    most (the core's inverse frequencies, by ratio)."""
    import numpy as np

    from embedviz.rope import rotary

    slower = rotary.inverse_frequencies(128, 10_000.0) / rotary.inverse_frequencies(128, 1_000_000.0)
    assert slower[0] == 1.0 and np.all(np.diff(slower) > 0) and slower[-1] > 90


def test_a_random_cosine_spreads_by_one_over_root_d():
    """Lesson 001's run.py (d_model 8, torch.randn rows): the cosine of two random rows is 0 on average, and one
    pair spreads by 1/sqrt(8) ~ 0.35, as tok.notice_onehot says. Sampled with torch, the lesson's own generator."""
    torch.manual_seed(0)
    a, b = torch.randn(20_000, 8, dtype=torch.float64), torch.randn(20_000, 8, dtype=torch.float64)
    cos = torch.nn.functional.cosine_similarity(a, b, dim=1)
    assert abs(float(cos.mean())) < 0.01 and float(cos.std()) == pytest.approx(0.35, abs=0.01)
    assert "±0.35 (1/√8)" in catalog()["tok.notice_onehot"]["en"] and "±0.35（1/√8）" in catalog()["tok.notice_onehot"]["zh"]


def test_the_token_table_alone_is_lesson_002s_share_of_andrea():
    from embedviz.models import params

    preset = params.PRESETS["ANDREA-120M"]
    token = params.embedding_parameter_count(preset.vocab_size, preset.d_model).token_embedding
    assert token == 6_488_832 and f"{100 * token / preset.total_params:.1f}%" == "5.4%"
    for lang in ("en", "zh"):
        assert "6,488,832" in catalog()["tok.notice_params"][lang] and "5.4%" in catalog()["tok.notice_params"][lang]


def test_a_rare_cjk_character_takes_four_rows():
    """tok.notice_lookup: a common character is 3 UTF-8 bytes (3 rows of the byte table), 𠮷 (CJK Extension B) 4."""
    from embedviz.tokens.tokenizer import encode

    assert len(encode("猫")) == 3 and len(encode("𠮷")) == 4
    assert "𠮷, takes four" in catalog()["tok.notice_lookup"]["en"] and "𠮷）占四行" in catalog()["tok.notice_lookup"]["zh"]


def test_qwen3s_table_has_more_rows_than_its_tokenizer_uses():
    """Lesson 003: Qwen3's vocab_size is padded past its real entries. The BPE ranks the app reads are 151,643;
    the table has 151,936 rows."""
    pytest.importorskip("tiktoken")
    from embedviz.tokens import qwen

    ranks = qwen.mergeable_ranks()
    assert len(ranks) == max(ranks.values()) + 1 == 151_643 < qwen.QWEN3_VOCAB_SIZE == 151_936
    for lang in ("en", "zh"):
        assert "151,643" in catalog()["multi.qwen_intro"][lang] and "151,936" in catalog()["multi.qwen_intro"][lang]


def test_row_127_is_the_odd_row_the_jump_text_describes():
    """learn.jump: the larger drop is into row 127 (0.4389 against 0.5538 out of it), and row 127 is longer than
    its neighbours and than the median row, the way row 0 ([CLS]'s slot) is."""
    import numpy as np

    from embedviz.models.pretrained import load_bundled_model

    table = np.asarray(load_bundled_model().position_embeddings, dtype=np.float64)
    result = position_analysis.smoothness(table)
    norms, median = result.norms, result.median_norm
    assert result.adjacent[126] < result.adjacent[127] < result.typical
    assert norms[127] > 1.3 * max(norms[126], norms[128], median) and norms[0] > 4 * median
    assert "longer than them" in catalog()["learn.jump"]["en"] and "也比邻居长" in catalog()["learn.jump"]["zh"]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_lesson_has_its_own_title(lang):
    """Home's five buttons and the tour panels name the lessons: lesson 000 and lesson 004 are both about token
    embeddings and positions, so their titles must still differ (lesson 000's Chinese title is its own)."""
    titles = [catalog()[f"tour.00{n}.title"][lang] for n in range(5)]
    assert len({title.split("：")[-1].split(": ")[-1] for title in titles}) == 5, titles
