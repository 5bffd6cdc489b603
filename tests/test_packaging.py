"""How embedviz is installed and run: the package metadata carries the requirements files' pins, and the scripts
(deploy/launcher.py, benchmarks/) and the tests find the code through the install, `python -m` or the repository
root, never by patching sys.path."""
from __future__ import annotations

import ast
import re

from setuptools.config.pyprojecttoml import read_configuration

from tests.conftest import ROOT
from tests.test_lock import pins


def test_pyproject_declares_the_requirements_files():
    """setuptools' own reading of pyproject.toml: requirements.txt's pins are the dependencies, the test / bench
    files the extras (the test extra with the bundled model the tests read), so `pip install -e .[test]` gives a test
    environment and `make lock` locks the same pins."""
    project = read_configuration(ROOT / "pyproject.toml", expand=True)["project"]
    assert project["dependencies"] == [str(r) for r in pins("requirements.txt")]
    test = [str(r) for name in ("requirements-test.txt", "requirements-extra.txt") for r in pins(name)]
    assert project["optional_dependencies"] == {"test": test,
                                                "bench": [str(r) for r in pins("requirements-bench.txt")]}
    assert "torch==2.13.0" in project["dependencies"]  # exactly: any other spec pulls a multi-GB CUDA build


def sys_path_edits(source: str) -> list[int]:
    """Lines that change sys.path (sys.path.insert / append / extend / assignment), also inside a string that is
    a script (the code a test hands to ``python -c``), reported at the string's line."""
    lines = []
    for node in ast.walk(ast.parse(source)):
        target = node.func.value if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) else None
        if isinstance(node, (ast.Assign, ast.AugAssign)):
            target = (node.targets[0] if isinstance(node, ast.Assign) else node.target)
        if isinstance(target, ast.Attribute) and target.attr == "path" and getattr(target.value, "id", "") == "sys":
            lines.append(node.lineno)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and "sys.path" in node.value:
            # a str.format template's fields ({root!r}) stand for values: read each as one
            script = re.sub(r"\{[^{}]*\}", "None", node.value)
            try:
                inner = sys_path_edits(script)
            except SyntaxError:  # prose, not a script
                inner = []
            lines += [node.lineno] if inner else []
    return sorted(lines)


def test_the_scan_sees_a_path_patch():
    assert sys_path_edits("import sys\nsys.path.insert(0, 'x')\nsys.path += ['y']\nprint(sys.path)\n") == [2, 3]
    script = 'import subprocess, sys\nSCRIPT = """\nimport sys\nsys.path.insert(0, {root!r})\n{body}\n"""\n'
    assert sys_path_edits(script) == [2]  # a template for `python -c`, starting on line 2


def test_the_launcher_the_benchmarks_and_the_tests_do_not_patch_sys_path():
    """The tests run from the repository root (pytest puts it on sys.path for the tests package), where deploy/
    and benchmarks/ import as packages; this file is left out for its own examples of a patch."""
    files = [ROOT / "deploy" / "launcher.py", *sorted((ROOT / "benchmarks").rglob("*.py")),
             *(path for path in sorted((ROOT / "tests").rglob("*.py")) if path != ROOT / "tests" / "test_packaging.py")]
    found = {str(f.relative_to(ROOT)): lines for f in files if (lines := sys_path_edits(f.read_text()))}
    assert found == {}, "run it as `python -m benchmarks.x` from the repository root, or install embedviz"
