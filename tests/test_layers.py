"""The layers of ARCHITECTURE.md, checked on every run: no streamlit in the core, no math in the pages or the app layer.

The rule for ``embedviz/app/`` (the Streamlit layer: cached calls, widgets, URL state, i18n), checked on the syntax
tree of every module in it, because anything a test should check belongs in the core:
- no import of math, cmath, statistics, random, torch or scipy, and no ``from numpy import ...``;
- numpy only to hold and shape results: ``np.`` followed by one of NUMPY_SHAPING (asarray, array, arange, stack,
  concatenate, dtypes), never ``np.linalg``, ``np.random``, ``np.sin``, ``np.log``, ``np.pi``, ``np.geomspace`` ...;
- no array arithmetic by method (``.mean()``, ``.max()``, ``.sum()``, ``.round()`` ... see ARRAY_MATH_METHODS), and no
  ``@`` or ``**`` (except between two literal numbers, a constant such as ``2**20``).
Plain arithmetic on a few scalars (``length + k - 1``, a label's ``1 / slope``) is shaping and allowed; ``+ - * /`` on
arrays cannot be told from it in the tree, so that part of the rule is left to review.
"""
import ast
import re
from pathlib import Path

import pytest

from embedviz.app.pages import PAGES
from tests.conftest import ROOT

PAGE_FILES = sorted((ROOT / "app_pages").glob("*.py"))
CORE_FILES = [p for p in (ROOT / "embedviz").rglob("*.py") if "app" not in p.relative_to(ROOT / "embedviz").parts[:1]]
APP_FILES = sorted((ROOT / "embedviz" / "app").rglob("*.py"))

FORBIDDEN_MODULES = {"math", "cmath", "statistics", "random", "torch", "scipy"}
NUMPY_SHAPING = {"ndarray", "asarray", "array", "arange", "stack", "concatenate", "float16", "float32", "float64",
                 "int8", "int16", "int32", "int64", "bool_", "integer", "floating", "dtype"}
ARRAY_MATH_METHODS = {"mean", "sum", "std", "var", "max", "min", "prod", "cumsum", "cumprod", "dot", "round",
                      "argmax", "argmin", "clip", "trace", "nansum", "nanmean"}
# Modules that still compute in the app layer, each until its math moves into the core.
# strict: once a module is clean its test passes, xfail turns into a failure, and the entry must go.
KNOWN_MATH: dict[str, str] = {}


def app_layer_violations(source: str) -> list[str]:
    """Every place in ``source`` that breaks the app-layer rule of this module's docstring, as 'line N: what'."""
    tree = ast.parse(source)
    numpy_names, found = set(), []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                top = alias.name.split(".")[0]
                if top in FORBIDDEN_MODULES:
                    found.append(f"line {node.lineno}: import {alias.name}")
                if top == "numpy":
                    numpy_names.add(alias.asname or "numpy")
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module.split(".")[0] in FORBIDDEN_MODULES | {"numpy"}:
                found.append(f"line {node.lineno}: from {node.module} import ...")
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in numpy_names:
            if node.attr not in NUMPY_SHAPING:
                found.append(f"line {node.lineno}: {node.value.id}.{node.attr}")
        elif isinstance(node, ast.Call) and getattr(node.func, "attr", None) in ARRAY_MATH_METHODS:
            found.append(f"line {node.lineno}: .{node.func.attr}()")
        elif isinstance(node, (ast.BinOp, ast.AugAssign)) and isinstance(node.op, (ast.MatMult, ast.Pow)):
            if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Pow) and all(
                    isinstance(side, ast.Constant) for side in (node.left, node.right)):
                continue  # a literal constant such as 2**20 (bytes per MB) computes nothing
            found.append(f"line {node.lineno}: {'@' if isinstance(node.op, ast.MatMult) else '**'}")
    return sorted(found)


def test_every_page_file_is_in_the_navigation_and_back():
    registered = {file for _, entries in PAGES for file, *_ in entries}
    on_disk = {f"app_pages/{p.name}" for p in PAGE_FILES}
    assert registered == on_disk


def test_there_is_no_pages_folder_for_streamlit_to_serve_bare():
    assert not (ROOT / "pages").exists()


@pytest.mark.parametrize("path", CORE_FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_core_never_imports_streamlit(path: Path):
    assert not re.search(r"^\s*(import streamlit|from streamlit)", path.read_text(), re.M)


@pytest.mark.parametrize("path", PAGE_FILES, ids=lambda p: p.name)
def test_pages_are_thin_and_hold_no_math(path: Path):
    text = path.read_text()
    assert len(text.splitlines()) <= 250, f"{path.name}: move logic into embedviz/"
    assert not re.search(r"^\s*(import numpy|import torch|from torch|from numpy)", text, re.M)
    assert not re.search(r"np\.(sin|cos|exp|linalg)", text)


@pytest.mark.parametrize(
    "path",
    [pytest.param(p, marks=pytest.mark.xfail(strict=True, reason=KNOWN_MATH[p.name])) if p.name in KNOWN_MATH else p
     for p in APP_FILES],
    ids=lambda p: str(p.relative_to(ROOT)),
)
def test_app_layer_holds_no_math(path: Path):
    assert app_layer_violations(path.read_text()) == [], f"{path.name}: move the computation into embedviz/"


@pytest.mark.parametrize(
    "source, expected",
    [
        ("import numpy as np\nx = np.asarray(v).astype(np.float32)[::2].T", []),
        ("import numpy as np\nw = 2 * np.pi / omega", ["line 2: np.pi"]),
        ("import numpy\nn = numpy.linalg.norm(W, axis=1)", ["line 2: numpy.linalg"]),
        ("import math\nk = math.floor(x)", ["line 1: import math"]),
        ("from numpy import sin", ["line 1: from numpy import ..."]),
        ("limit = float(abs(p).max()) * 1.1", ["line 1: .max()"]),
        ("s = q @ k\nt = x ** 2\nmb = 2**20", ["line 1: @", "line 2: **"]),
        ("last = length + k - 1\nlabel = f'1/{round(1 / slope)}'", []),
    ],
)
def test_the_app_layer_rule_catches_what_it_names(source, expected):
    assert app_layer_violations(source) == expected
