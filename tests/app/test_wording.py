"""Statements the catalog makes about the lessons, the optimisers and the bundled model, checked against the
source they cite: the lesson files, torch's own optimisers and the bundled model's position table."""
from __future__ import annotations

from pathlib import Path

import pytest
import torch

from embedviz.positions import analysis as position_analysis
from embedviz.app.i18n import catalog


SEEDS = Path("/work/shared/seeds")


def _lesson_title(number: int) -> str:
    """The title line of lesson 00N's file: the line after the one-paragraph summary that opens it."""
    (path,) = SEEDS.glob(f"{number:03d}_*.txt")
    return path.read_text(encoding="utf-8").splitlines()[1].strip()


TITLE_004 = "词嵌入（Word Embedding）和位置编码（Positional Encoding）"  # lesson 004's title line, as published


def test_home_gives_lesson_004_its_own_title():
    """Not 《词嵌入是学出来的，位置编码是算出来的》, the lesson's first sentence paraphrased; the lesson file, where
    this machine has it, has the same title line."""
    if SEEDS.is_dir():
        assert _lesson_title(4) == TITLE_004
    home = catalog()["home.lessons"]["zh"]
    assert f"《{TITLE_004}》" in home and "《词嵌入是学出来的" not in home


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
