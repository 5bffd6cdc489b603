"""Statements the catalog makes about the lessons, the optimisers and the bundled model, checked against the
source they cite: the lesson files, torch's own optimisers and the bundled model's position table."""
from __future__ import annotations

from pathlib import Path

import pytest
import torch

from embedviz import position_analysis
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
    from embedviz.pretrained import load_bundled_model

    rough = set(position_analysis.smoothness(load_bundled_model().position_embeddings).rough_steps.tolist())
    assert 0 in rough and {126, 127} & rough
    text = catalog()["tour.003.learned"]
    assert "rarely reached" not in text["en"] and "训练很少触及" not in text["zh"]
    assert "0 → 1" in text["en"] and "127" in text["en"] and "0 → 1" in text["zh"] and "127" in text["zh"]
