"""The views' results cross into the pages as frozen dataclasses: a page reads ``view.pos_step``, not
``view["pos_step"]``. A view may still return a dict where the dict is a true mapping, each listed here with why;
a new view returning a dict of fields fails here instead."""
from __future__ import annotations

import ast
import dataclasses

import pytest

from embedviz.app import real_model_view, sinusoidal_view, training_view
from tests.conftest import ROOT

MAPPINGS = {  # (module, function): why its dict is a mapping, not a record of fields
    ("compare_view", "parameter_counts"): "scheme -> positional parameters",
    ("context_view", "preset_config"): "a config.json's fields, read as a pasted config is",
    ("context_view", "widget_values"): "widget key -> value, written into session state",
    ("context_view", "live_fixed"): "the JSON the browser's formulas.js reads",
    ("lessons_view", "refusals"): "module class name -> its refusal",
    ("modern_view", "_config"): "a config.json's fields, private",
    ("real_model_view", "lesson_pairs"): "word pair -> cos",
    ("rope_view", "rope_presets"): "preset name -> RopePreset",
    ("tokens_view", "second_step"): "optimiser -> (rows moved, rows outside the batch)",
    ("tokens_view", "init_scales"): "init scheme -> mean row length per d_model",
    ("tokens_view", "preset_settings"): "calculator field -> value, compared with the widgets' values",
    ("tokens_view", "preset_shares"): "preset name -> embedding share",
    ("training_view", "_group_fields"): "GroupRun's fields before the run's status joins them, private",
    ("training_view", "_text_fields"): "TextRun's fields likewise, private",
}


def dict_returns() -> set[tuple[str, str]]:
    """(module, function) of every top-level function of embedviz/app/*_view.py annotated to return a dict."""
    found = set()
    for path in sorted((ROOT / "embedviz" / "app").glob("*_view.py")):
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.FunctionDef) and node.returns is not None:
                returns = ast.unparse(node.returns)
                if returns == "dict" or returns.startswith(("dict[", "dict |", "Dict")):
                    found.add((path.stem, node.name))
    return found


def test_views_return_records_unless_the_dict_is_a_mapping():
    assert dict_returns() - set(MAPPINGS) == set(), "return a frozen dataclass (or list the mapping and why)"
    assert set(MAPPINGS) - dict_returns() == set(), "no longer a dict: drop it from MAPPINGS"


@pytest.mark.parametrize("record", [sinusoidal_view.EncodingView, real_model_view.RowViews, training_view.GroupRun,
                                    training_view.TextRun])
def test_records_are_frozen(record):
    assert dataclasses.is_dataclass(record) and record.__dataclass_params__.frozen
