"""The views' results cross into the pages as frozen dataclasses: a page reads ``view.pos_step``, not
``view["pos_step"]``. A dict is still right where it is a true mapping (its keys are data: a scheme, a model, a
widget key) or a table's rows (one dict per row, keyed by column title, for st.dataframe or a CSV); each such place
is listed here with why. A new record passed as a dict fails here instead: a view's return, a list of dicts, a
view record's field, or a core function a view calls (and the records it returns)."""
from __future__ import annotations

import ast
import dataclasses
import pathlib

import pytest

from embedviz.app import context_extension_view, dot_product_view, modern_rope_view, real_model_view
from embedviz.app import sinusoidal_view, trained_embedding_view
from embedviz.input_layer import composition
from embedviz.rope import context_extension, layers as rope_layers, theory as rope_theory, theta_calculator
from tests.conftest import ROOT

MAPPINGS = {  # (module, function): why its dict is a mapping, not a record of fields
    ("compare_view", "parameter_counts"): "scheme -> positional parameters",
    ("context_extension_view", "live_fixed"): "the JSON the browser's formulas.js reads",
    ("context_extension_view", "preset_config"): "a config.json's fields, read as a pasted config is",
    ("context_extension_view", "widget_values"): "widget key -> value, written into session state",
    ("input_layer_view", "refusals"): "module class name -> its refusal",
    ("modern_rope_view", "_config"): "a config.json's fields, private",
    ("past_length_view", "curves"): "method -> its loss curve",
    ("past_length_view", "kind_counts"): "head kind -> how many heads",
    ("real_model_view", "lesson_pairs"): "word pair -> cos",
    ("rope_view", "rope_presets"): "preset name -> RopePreset",
    ("token_embeddings_view", "init_scales"): "init scheme -> mean row length per d_model",
    ("token_embeddings_view", "preset_settings"): "calculator field -> value, compared with the widgets' values",
    ("token_embeddings_view", "preset_shares"): "preset name -> embedding share",
    ("token_embeddings_view", "second_step"): "optimiser -> (rows moved, rows outside the batch)",
    ("trained_embedding_view", "_group_fields"): "GroupRun's fields before the run's status joins them, private",
    ("trained_embedding_view", "_text_fields"): "TextRun's fields likewise, private",
}
TABLE_ROWS = {  # (module, function): a list of dicts that is a table's rows, each keyed by its column titles
    ("real_model_view", "lesson_rows"): "st.dataframe rows keyed by the caller's translated column titles",
    ("real_model_view", "ranked_rows"): "rank, token, cos rows for st.dataframe, keyed by translated titles",
    ("real_model_view", "step_rows"): "st.dataframe rows keyed by the caller's translated column titles",
}
FIELD_MAPPINGS = {  # (module, "Record.field"): why a view record's dict field is a mapping
    ("compare_view", "AdjacentCurves.curves"): "scheme -> curve",
    ("compare_view", "SimilarityMatrices.matrices"): "scheme -> similarity matrix",
    ("context_extension_view", "Extension.scaling"): "a rope_scaling as config.json spells it (build_scaling's)",
    ("input_layer_view", "InputLayerView.cost"): "way of combining (sum / concat) -> its CombineCost",
    ("modern_rope_view", "ModernModel.counts"): "setting name -> its layer count",
    ("past_length_view", "LossRun.losses"): "method -> its (windows, length) losses",
    ("real_model_view", "OffsetCurves.by_source"): "source table -> curve",
    ("rope_view", "Decay.curves"): "theta -> decay curve",
    ("token_embeddings_view", "ParameterView.memory"): "dtype -> Memory",
    ("trained_embedding_view", "GroupRun.pairs"): "(token, token) -> (cos before, cos after)",
    ("why_sinusoidal_view", "WhySinusoidalView.normalized"): "length -> index / length curve",
    ("why_sinusoidal_view", "WhySinusoidalView.steps"): "scheme -> step lengths",
}
CORE_MAPPINGS = {  # (core module, function or "Record.field"): why a core dict that a view reaches is a mapping
    ("embedviz.input_layer.composition", "refusal_messages"): "module class name -> its refusal",
    ("embedviz.input_layer.lookup", "row_norm_stats"): "init scheme -> mean row length per d_model",
    ("embedviz.input_layer.lookup", "second_step_summary"): "optimiser -> (rows moved, rows outside the batch)",
    ("embedviz.models.pretrained", "PretrainedEmbeddings.config"): "the model's config.json fields, as published",
    ("embedviz.positions.why_sinusoidal", "SchemeComparison.schemes"): "scheme -> its SchemeStats, iterated as a table",
    ("embedviz.rope.config", "parse_config_json"): "a pasted config.json's fields, as the user wrote them",
    ("embedviz.language_model.extension", "rope_parameters"): "transformers' rope_parameters, as a config spells them",
    ("embedviz.rope.context_extension", "build_scaling"): "a rope_scaling as config.json spells it, for compute",
    ("embedviz.rope.context_extension", "ExtensionSettings.params"):
        "method parameter (transformers' name) -> value, iterated beside the widgets' keys",
    ("embedviz.rope.layers", "published_config"): "a published config.json's fields",
    ("embedviz.rope.scaling", "yarn_betas"): "YaRN's parameters by transformers' names, merged into a scaling's",
    ("embedviz.training.result", "text_pairs"): "(token, token) -> (cos before, cos after)",
}


# helper functions


def dictish(annotation: ast.expr | None) -> bool:
    """Whether an annotation is a dict, a list / tuple of dicts, or either or None (``dict | None``)."""
    if isinstance(annotation, ast.Constant) and isinstance(annotation.value, str):  # a quoted annotation
        annotation = ast.parse(annotation.value, mode="eval").body
    if isinstance(annotation, ast.Name):
        return annotation.id in ("dict", "Dict")
    if isinstance(annotation, ast.Subscript):
        outer = ast.unparse(annotation.value)
        inner = annotation.slice.elts if isinstance(annotation.slice, ast.Tuple) else [annotation.slice]
        return outer in ("dict", "Dict") or (outer in ("list", "tuple", "Sequence") and any(map(dictish, inner)))
    if isinstance(annotation, ast.BinOp) and isinstance(annotation.op, ast.BitOr):
        return dictish(annotation.left) or dictish(annotation.right)
    return False


def builds_record_dict(function: ast.FunctionDef) -> bool:
    """Whether ``function`` returns a dict spelled out with field names, {"a": .., "b": ..} or dict(a=.., b=..):
    a record in a dict, whatever its annotation says."""
    for node in ast.walk(function):
        value = node.value if isinstance(node, ast.Return) else None
        if isinstance(value, ast.Dict) and len(value.keys) > 1 and all(
                isinstance(k, ast.Constant) and isinstance(k.value, str) for k in value.keys):
            return True
        if isinstance(value, ast.Call) and ast.unparse(value.func) == "dict" and len(value.keywords) > 1:
            return True
    return False


def returns_dicts(function: ast.FunctionDef) -> bool:
    return dictish(function.returns) or builds_record_dict(function)


def is_dataclass(node: ast.stmt) -> bool:
    return isinstance(node, ast.ClassDef) and any("dataclass" in ast.unparse(d) for d in node.decorator_list)


def dict_fields(record: ast.ClassDef) -> list[str]:
    return [f.target.id for f in record.body if isinstance(f, ast.AnnAssign) and dictish(f.annotation)]


def views() -> dict[str, ast.Module]:
    return {path.stem: ast.parse(path.read_text(encoding="utf-8"))
            for path in sorted((ROOT / "embedviz" / "app").glob("*_view.py"))}


def module_file(dotted: str) -> pathlib.Path | None:
    """The source file of a module of the repository (embedviz.rope.theory), or None."""
    base = ROOT.joinpath(*dotted.split("."))
    return next((path for path in (base.with_suffix(".py"), base / "__init__.py") if path.is_file()), None)


def core_calls(tree: ast.Module) -> set[tuple[str, str]]:
    """(core module, function) of every call a view makes into the core, however the view imported it
    (``from embedviz.rope import theory as rope_theory`` or ``from embedviz.models.word_vectors import analogy``,
    at the top or inside a function)."""
    modules, functions = {}, {}  # local name -> dotted module; local name -> (dotted module, function)
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("embedviz") and not (
                node.module.startswith("embedviz.app")):
            for alias in node.names:
                submodule = f"{node.module}.{alias.name}"
                if module_file(submodule):
                    modules[alias.asname or alias.name] = submodule
                else:
                    functions[alias.asname or alias.name] = (node.module, alias.name)
    calls = set()
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id in modules:
            calls.add((modules[func.value.id], func.attr))
        elif isinstance(func, ast.Name) and func.id in functions:
            calls.add(functions[func.id])
    return calls


# the checks


def dict_returns() -> set[tuple[str, str]]:
    """(module, function) of every top-level function of embedviz/app/*_view.py that returns a dict or dicts."""
    return {(stem, node.name) for stem, tree in views().items() for node in tree.body
            if isinstance(node, ast.FunctionDef) and returns_dicts(node)}


def view_dict_fields() -> set[tuple[str, str]]:
    """(module, "Record.field") of every dict-typed field of a dataclass defined in a view."""
    return {(stem, f"{node.name}.{field}") for stem, tree in views().items() for node in tree.body
            if is_dataclass(node) for field in dict_fields(node)}


def core_dicts() -> set[tuple[str, str]]:
    """(core module, name) of each core function a view calls that returns a dict or dicts, and of each dict-typed
    field of a record such a function returns (a record of the same module)."""
    found = set()
    for module, name in set().union(*map(core_calls, views().values())):
        tree = ast.parse(module_file(module).read_text(encoding="utf-8"))
        top = {node.name: node for node in tree.body if isinstance(node, (ast.FunctionDef, ast.ClassDef))}
        function = top.get(name)
        if not isinstance(function, ast.FunctionDef):
            continue  # a class built by the view, or a name re-exported from elsewhere
        if returns_dicts(function):
            found.add((module, name))
        returned = ast.unparse(function.returns) if function.returns is not None else ""
        for record in (top.get(word) for word in returned.replace("|", " ").replace("[", " ").split()):
            if record is not None and is_dataclass(record):
                found.update((module, f"{record.name}.{field}") for field in dict_fields(record))
    return found


def test_views_return_records_unless_the_dict_is_a_mapping():
    allowed = set(MAPPINGS) | set(TABLE_ROWS)
    assert dict_returns() - allowed == set(), "return a frozen dataclass (or list the mapping / table and why)"
    assert allowed - dict_returns() == set(), "no longer a dict: drop it from MAPPINGS / TABLE_ROWS"


def test_view_records_hold_records_unless_the_dict_is_a_mapping():
    assert view_dict_fields() - set(FIELD_MAPPINGS) == set(), "a record's field: a frozen dataclass, or list why"
    assert set(FIELD_MAPPINGS) - view_dict_fields() == set(), "no longer a dict: drop it from FIELD_MAPPINGS"


@pytest.mark.slow
def test_core_results_the_views_reach_are_records_unless_the_dict_is_a_mapping():
    assert core_dicts() - set(CORE_MAPPINGS) == set(), "return a frozen dataclass from the core (or list why)"
    assert set(CORE_MAPPINGS) - core_dicts() == set(), "no longer a dict: drop it from CORE_MAPPINGS"


@pytest.mark.slow
def test_the_checks_see_what_they_look_for():
    """The scans find the kinds of dict they are about (a scan that found nothing would pass every test above)."""
    assert ("real_model_view", "step_rows") in dict_returns()  # a list of dicts
    assert ("context_extension_view", "live_fixed") in dict_returns()  # a bare dict annotation
    assert ("modern_rope_view", "ModernModel.counts") in view_dict_fields()
    assert ("embedviz.rope.config", "parse_config_json") in core_dicts()  # module imported from a package
    assert ("embedviz.input_layer.composition", "refusal_messages") in core_dicts()  # imported inside a function
    assert ("embedviz.rope.context_extension", "ExtensionSettings.params") in core_dicts()  # a returned record's
    record_in_a_dict = ast.parse('def f(x):\n    return {"a": x, "b": x}').body[0]
    mapping = ast.parse("def f(xs):\n    return {x: len(x) for x in xs}").body[0]
    assert builds_record_dict(record_in_a_dict) and not builds_record_dict(mapping)


@pytest.mark.parametrize("record", [
    sinusoidal_view.EncodingView, real_model_view.RowViews, real_model_view.PairLine, trained_embedding_view.GroupRun,
    trained_embedding_view.TextRun, context_extension_view.SourceSettings, context_extension.ExtensionSettings,
    theta_calculator.ModelTheta, modern_rope_view.Setting, modern_rope_view.BaseBound, rope_layers.NopeTemperature,
    rope_theory.BaseBoundSummary, rope_theory.TheorySummary, dot_product_view.Arrows, dot_product_view.PredictionAnswer,
    composition.ShapeTrace,
])
def test_records_are_frozen(record):
    assert dataclasses.is_dataclass(record) and record.__dataclass_params__.frozen
