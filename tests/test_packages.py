"""The core's packages (ARCHITECTURE.md's layout) import each other one way only: no cycle between them.

A unit is one package of embedviz/ (rope/, tokens/ ...) or one module at its top level (the shared basics:
_validate, errors, similarity ...). Every import of one unit by another, lazy imports inside functions included, is
an arrow; the arrows must leave no cycle, so each package can be read, tested and reused knowing only what lies
below it. The Streamlit layer (embedviz/app/) sits above the core; no core unit imports it.
"""
import ast

from tests.conftest import ROOT

CORE = ROOT / "embedviz"


def _unit(module: str) -> str | None:
    """``embedviz.rope.scaling`` -> ``rope``; ``embedviz.similarity`` -> ``similarity``; not embedviz -> None."""
    parts = module.split(".")
    return parts[1] if parts[0] == "embedviz" and len(parts) > 1 else None


def import_arrows() -> dict[str, set[str]]:
    """unit -> the units its modules import, from the syntax tree of every core file (app/ and figures/ apart)."""
    arrows: dict[str, set[str]] = {}
    for path in sorted(CORE.rglob("*.py")):
        rel = path.relative_to(CORE)
        if rel.parts[0] in ("app", "figures") or rel.name == "__init__.py" and len(rel.parts) == 1:
            continue
        here = rel.parts[0] if len(rel.parts) > 1 else rel.stem
        targets = arrows.setdefault(here, set())
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module] if node.module != "embedviz" else [f"embedviz.{a.name}" for a in node.names]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            else:
                continue
            targets.update(u for u in map(_unit, names) if u and u != here)
    return arrows


def cycles(arrows: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one unit (Tarjan), each sorted: every one is an import cycle."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in arrows.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for v in sorted(arrows):
        if v not in index:
            visit(v)
    return found


def test_the_core_packages_import_each_other_one_way_only():
    assert cycles(import_arrows()) == []


def test_no_core_unit_imports_the_streamlit_layer():
    assert [u for u, targets in import_arrows().items() if "app" in targets] == []


def test_a_cycle_between_two_packages_is_found():
    assert cycles({"rope": {"models", "errors"}, "models": {"tokens"}, "tokens": {"rope"}, "errors": set()}) == [
        ["models", "rope", "tokens"]]
    assert cycles({"rope": {"models"}, "models": {"tokens"}, "tokens": set()}) == []


def app_arrows() -> dict[str, set[str]]:
    """embedviz/app module -> the embedviz/app modules it imports (lazy imports inside functions included)."""
    arrows: dict[str, set[str]] = {}
    for path in sorted((CORE / "app").glob("*.py")):
        targets = arrows.setdefault(path.stem, set())
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module == "embedviz.app":
                targets.update(a.name for a in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("embedviz.app."):
                targets.add(node.module.split(".")[2])
            elif isinstance(node, ast.Import):
                targets.update(a.name.split(".")[2] for a in node.names if a.name.startswith("embedviz.app."))
        targets.discard(path.stem)
    return arrows


def test_the_streamlit_layer_modules_import_each_other_one_way_only():
    # a lazy import only hides a cycle from Python's import order, not from a reader: the frame -> tour ->
    # classroom view -> frame loop is why the page table is its own module
    assert cycles(app_arrows()) == []
