"""Each core package names its public functions (``__all__``): ``from embedviz.rope import inverse_frequencies,
compute`` works, every public function of the package's modules is named (a new one too), and asking the package
for one loads its module only (embedviz/_exports.py), so importing one module still costs one module."""
from __future__ import annotations

import ast
import importlib
import inspect
import subprocess
import sys
import types

import pytest

from tests.conftest import ROOT

CORE = ROOT / "embedviz"
PACKAGES = sorted(p.parent.name for p in CORE.glob("*/__init__.py") if p.parent.name != "app")
UNNAMED = {  # (package, module, function): why the package does not name it (import it from its module)
    ("rope", "theta_calculator", "theta_calculator"): "the module's own name, which the package gives the module",
    ("models", "tensor_files", "tensor_files"): "the module's own name, which the package gives the module",
    ("rope", "scaling", "rotary_dim"): "two modules' rotary_dim: the package's is rotary's, which scaling's calls",
    ("tokens", "qwen", "encode"): "two modules' encode (bytes, Qwen's BPE): which one is the caller's to say",
    ("tokens", "tokenizer", "encode"): "two modules' encode (bytes, Qwen's BPE): which one is the caller's to say",
    ("figures", "rope", "decay_chart"): "figures.rope's and figures.context_extension's",
    ("figures", "context_extension", "decay_chart"): "figures.rope's and figures.context_extension's",
    ("figures", "rope", "wavelength_chart"): "figures.rope's and figures.context_extension's",
    ("figures", "context_extension", "wavelength_chart"): "figures.rope's and figures.context_extension's",
    ("figures", "describe", "rules"): "describe's and screen's (what each sends a live figure's browser)",
    ("figures", "screen", "rules"): "describe's and screen's (what each sends a live figure's browser)",
    ("figures", "describe", "plain"): "the package's own plain (plotly's escaping) has the name",
}


def public_functions(package: str) -> set[tuple[str, str]]:
    """(module, function) of every top-level public function of the package's modules, its __init__'s too."""
    found = set()
    for path in sorted((CORE / package).glob("*.py")):
        module = "" if path.name == "__init__.py" else path.stem
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.FunctionDef) and not node.name.startswith("_"):
                found.add((module, node.name))
    return found


@pytest.mark.parametrize("package", PACKAGES)
def test_a_package_names_every_public_function_of_its_modules(package):
    pkg = importlib.import_module(f"embedviz.{package}")
    named = list(getattr(pkg, "__all__", []))
    assert named and len(named) == len(set(named)), f"embedviz.{package}.__all__ missing or repeating a name"
    expected = {name for module, name in public_functions(package) if (package, module, name) not in UNNAMED}
    assert set(named) == expected, (sorted(expected - set(named)), sorted(set(named) - expected))
    for name in named:
        value = inspect.unwrap(getattr(pkg, name))  # a cached function is its wrapper's
        assert isinstance(value, types.FunctionType), name
        assert value.__module__.startswith(f"embedviz.{package}"), (name, value.__module__)
    assert set(named) <= set(dir(pkg))
    with pytest.raises(AttributeError):
        getattr(pkg, "no_such_function")


def test_the_unnamed_are_still_there_and_named_where_they_live():
    """Each exception above is a real function of its module (else the list would hide a missing one)."""
    for package, module, name in UNNAMED:
        assert callable(getattr(importlib.import_module(f"embedviz.{package}.{module}"), name)), (package, module, name)
    from embedviz.rope import rotary, theta_calculator
    assert isinstance(theta_calculator, types.ModuleType) and isinstance(rotary, types.ModuleType)


def test_the_package_gives_the_module_s_own_function():
    from embedviz.rope import compute, inverse_frequencies
    from embedviz.rope.rotary import inverse_frequencies as from_rotary
    from embedviz.rope.scaling import compute as from_scaling

    assert inverse_frequencies is from_rotary and compute is from_scaling
    assert inverse_frequencies(4, 100.0).tolist() == [1.0, 0.1]


def test_importing_one_module_or_asking_for_one_function_loads_only_its_module():
    code = ("import sys; import embedviz.rope.rotary; from embedviz.rope import inverse_frequencies; "
            "print(sorted(m for m in sys.modules if m.startswith('embedviz.rope.')))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["['embedviz.rope.rotary']"], out.stdout


def test_the_readme_s_notebook_example_runs_and_says_what_it_gives():
    """The README's "Using the core from a notebook" block, run as it is: its imports are the packages' names and
    its comments' numbers are what it computes."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = text.split("## Using the core from a notebook", 1)[1].split("```python\n", 1)[1].split("```", 1)[0]
    assert "from embedviz.rope import" in block
    seen: dict = {}
    exec(compile(block, "README.md", "exec"), seen)  # noqa: S102 - the repository's own README
    assert seen["pe"].shape == (128, 64) and seen["inv_freq"].shape == (64,)
    assert seen["yarn"].inv_freq.shape == (64,) and round(seen["yarn"].attention_factor, 4) == 1.1386
    assert [round(float(v), 3) for v in seen["decay"]] == [1.0, 0.970, 0.737, 0.669]
