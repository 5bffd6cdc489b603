"""The lesson-003 blocks of the "RoPE" page: the sinusoidal-vs-RoPE table and Qwen3's position budget from the core."""
from __future__ import annotations

from embedviz.app.i18n import catalog
from embedviz.models.params import PRESETS
from embedviz.positions.budget import qwen3_position_budget
from embedviz.lessons.widget_keys import Rope as K
from tests.app import pagetest as pt


def test_qwen3_budget_numbers_come_from_the_presets():
    at = pt.page("rope", session={K.TAB: catalog()["rope.tab_lesson"]["en"]}).run()  # the lesson's tab
    pt.ok(at)
    b = qwen3_position_budget()
    assert b.max_position_embeddings == PRESETS["Qwen3-0.6B"].max_context_length == 40_960
    budget = at.table[-1].value
    shown = {column: budget[column].iloc[0] for column in budget.columns}
    assert shown[pt.text("ropel.m_max")] == "40,960"
    assert shown[pt.text("ropel.m_native")] == "32,768"
    assert shown[pt.text("ropel.m_headroom")] == f"{b.headroom:,}" == "8,192"
    assert shown[pt.text("ropel.m_reach", factor=4)] == "131,072"
    assert any("40,960 = 32,768 + **8,192**" in m.value for m in at.markdown)


def test_comparison_table_in_both_languages():
    at = pt.page("rope", session={K.TAB: catalog()["rope.tab_lesson"]["en"]}).run()
    table = at.table[-2].value
    assert list(table.columns) == [pt.text(f"ropel.col_{c}") for c in ("aspect", "sin", "rope")]
    assert table.iloc[2, 1] == table.iloc[2, 2] == "none"  # neither has learned parameters
    zh = pt.page("rope", lang="zh", session={K.TAB: catalog()["rope.tab_lesson"]["zh"]}).run()
    pt.ok(zh)
    assert all(pt.is_chinese(c) for c in zh.table[-2].value.iloc[:, 0])
    assert "余量" in zh.table[-1].value.columns
