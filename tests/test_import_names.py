"""A module of the project is imported under its own name, or under a name of the caller's that names no other module:
``from embedviz.rope import rotary as rope`` read as if it were the package (``rope.inverse_frequencies`` is
rotary's), ``experiment as training`` likewise, and a reader searching for ``rotary.`` missed every use."""
from __future__ import annotations

import ast
import subprocess

from tests.conftest import ROOT


def _module_names() -> set[str]:
    """Every package's and module's own name under embedviz/ (``rope``, ``rotary``, ``training``, ...)."""
    return {p.stem if p.name != "__init__.py" else p.parent.name for p in (ROOT / "embedviz").rglob("*.py")}


def test_no_module_is_imported_under_another_module_s_name():
    names = _module_names()
    files = subprocess.run(["git", "ls-files", "*.py"], cwd=ROOT, capture_output=True, text=True, check=True)
    misleading = []
    for name in files.stdout.split():
        tree = ast.parse((ROOT / name).read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("embedviz"):
                misleading += [f"{name}:{node.lineno}: {a.name} as {a.asname}" for a in node.names
                               if a.asname and a.asname != a.name and a.asname in names]
    assert not misleading, misleading


def test_the_check_sees_an_alias():
    """The scan above finds what it looks for (the names it holds against include the packages)."""
    assert {"rope", "training", "rotary", "experiment"} <= _module_names()
