"""Every markdown body the app writes is built from catalog texts (``t``) and escaped values, never from a raw one.

Streamlit renders the bodies of st.markdown / st.error / st.warning / st.info / st.success / st.caption / st.toast /
st.write (and titles, headers) as markdown with KaTeX and its directives, so a reader's value placed there raw
(an f-string, a variable, a "+" of strings) can put a foreign image or link into the page. This scan reads every
page and every module of embedviz/app/ and names each call whose body is not provably safe: a constant, a call of
``t`` / ``escape`` / ``localized`` / ``trusted``, an f-string, "+" or conditional made only of those (a field with
a format spec such as ``{n:,}`` is a number), or a local name every assignment of which is one of those.

plotly is a second markup: it reads <a href>, <span style> and <b> in every text it draws (tick and point labels,
legend entries, titles). Every figure handed to ``st.plotly_chart`` must come out of
``embedviz.figures.shown_as_text`` (the one place that turns those texts into plain text, in ``widgets.plot``).
"""
from __future__ import annotations

import ast
from pathlib import Path

from tests.conftest import ROOT

SINKS = {"markdown", "error", "warning", "info", "success", "caption", "toast", "write", "title", "header",
         "subheader", "latex", "exception"}
SAFE_CALLS = {"t", "escape", "localized", "trusted", "Markup"}
FILES = sorted([*(ROOT / "app_pages").glob("*.py"), *(ROOT / "embedviz" / "app").glob("*.py")])


def _name(func: ast.expr) -> str | None:
    return func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None


def _assignments(tree: ast.AST) -> dict[str, list[ast.expr]]:
    """Every value assigned to each plain name in the module (any scope: names are not reused across scopes
    for different things in these short files, and a wrong merge can only make the scan stricter)."""
    found: dict[str, list[ast.expr]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    found.setdefault(target.id, []).append(node.value)
        elif isinstance(node, (ast.AnnAssign, ast.AugAssign, ast.NamedExpr)) and isinstance(node.target, ast.Name):
            if node.value is not None:
                found.setdefault(node.target.id, []).append(node.value)
        elif isinstance(node, (ast.For, ast.comprehension)):
            # a plain loop name holds one element of what it runs over (ast.Starred marks "an element of");
            # a name unpacked from a tuple is unknown: not safe
            each = ast.Starred(node.iter) if isinstance(node.target, ast.Name) else ast.Name("<loop>")
            for target in ast.walk(node.target):
                if isinstance(target, ast.Name):
                    found.setdefault(target.id, []).append(each)
    return found


def _returns(tree: ast.AST) -> dict[str, list[ast.expr]]:
    """What each function of the module returns (a helper such as ``name(scheme) -> t(...)``)."""
    found: dict[str, list[ast.expr]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef):
            values = [r.value for r in ast.walk(node) if isinstance(r, ast.Return) and r.value is not None]
            found["()" + node.name] = values or [ast.Name("<none>")]
    return found


def _module_names(tree: ast.AST) -> dict[str, dict]:
    """The app's own modules a file imports (``from embedviz.app import rope_view as view``), by the name they are
    bound to, each with its names and returns: a page's ``view.caption(...)`` is as safe as what it returns."""
    modules = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == "embedviz.app":
            for alias in node.names:
                path = ROOT / "embedviz" / "app" / f"{alias.name}.py"
                if path.is_file():
                    modules[alias.asname or alias.name] = path
    return modules


def scope(source: str) -> dict[str, list]:
    tree = ast.parse(source)
    names: dict = {**_assignments(tree), **_returns(tree)}
    names["<modules>"] = _module_names(tree)
    return names


def _in_module(node: ast.expr, names: dict) -> tuple[str, dict] | None:
    """(attribute, that module's scope) for ``alias.attribute`` where alias is one of the app's modules."""
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
        path = names.get("<modules>", {}).get(node.value.id)
        if path is not None:
            return node.attr, scope(path.read_text())
    return None


def _elements_safe(node: ast.expr, names: dict, seen: frozenset[str]) -> bool:
    """Every element of a tuple or list (a literal, a name bound to one, or one in an app module) is safe."""
    if isinstance(node, (ast.Tuple, ast.List)):
        return all(safe(element, names, seen) for element in node.elts)
    if isinstance(node, ast.Name) and node.id not in seen and node.id in names:
        return all(_elements_safe(value, names, seen | {node.id}) for value in names[node.id])
    found = _in_module(node, names)
    if found is not None:
        attr, other = found
        return attr in other and all(_elements_safe(value, other, frozenset({attr})) for value in other[attr])
    return False


def safe(node: ast.expr, names: dict[str, list[ast.expr]], seen: frozenset[str] = frozenset()) -> bool:
    if isinstance(node, ast.Constant):
        return True
    if isinstance(node, ast.Starred):  # one element of a loop's iterable
        return _elements_safe(node.value, names, seen)
    if isinstance(node, ast.Call):
        called = "()" + (_name(node.func) or "")
        if isinstance(node.func, ast.Name) and called in names and called not in seen:
            return all(safe(value, names, seen | {called}) for value in names[called])
        found = _in_module(node.func, names)
        if found is not None:
            called = "()" + found[0]
            return called in found[1] and all(safe(value, found[1], frozenset({called})) for value in found[1][called])
        return _name(node.func) in SAFE_CALLS
    if isinstance(node, ast.JoinedStr):
        return all(isinstance(part, ast.Constant) or part.format_spec is not None or safe(part.value, names, seen)
                   for part in node.values)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return safe(node.left, names, seen) and safe(node.right, names, seen)
    if isinstance(node, ast.IfExp):
        return safe(node.body, names, seen) and safe(node.orelse, names, seen)
    if isinstance(node, ast.Name) and node.id not in seen and node.id in names:
        return all(safe(value, names, seen | {node.id}) for value in names[node.id])
    return False


def unsafe_echoes(source: str, label: str) -> list[str]:
    tree = ast.parse(source)
    names = scope(source)
    found = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in SINKS):
            continue
        receiver = node.func.value
        if isinstance(receiver, ast.Name) and receiver.id not in {"st"} and receiver.id in {"sys", "file", "out"}:
            continue
        if isinstance(receiver, ast.Attribute) and receiver.attr == "transport":  # a socket's bytes, not a page's
            continue
        bodies = node.args[:1] + [k.value for k in node.keywords if k.arg in {"body", "label"}]
        for body in bodies:
            if not safe(body, names):
                found.append(f"{label}:{node.lineno}: {ast.unparse(node)[:120]}")
    return found


def test_every_markdown_body_is_built_from_catalog_texts_and_escaped_values():
    found = [hit for path in FILES for hit in unsafe_echoes(path.read_text(), str(path.relative_to(ROOT)))]
    assert not found, "markdown bodies that may echo a raw value:\n" + "\n".join(found)


def test_the_scan_names_what_bypasses_the_helper():
    """The scan itself: each way a raw value can reach a markdown body is caught, the safe forms are not."""
    bad = ['st.markdown(f"**{word}**")', "def f(x):\n    return x\nst.caption(f(w))", "st.error(message)", 'st.caption("x" + name)', "left.warning(str(e))",
           "word = row['w']\nst.info(word)", 'st.write(f"{t(\'k\')} {value}")',
           "for w in words:\n    st.caption(w)", "for a, b in pairs:\n    st.caption(a)",
           "from embedviz.app import widgets as view\nst.caption(view.not_there())",
           "from embedviz.app import i18n as view\nst.caption(view.__name__)"]
    good = ['st.markdown(t("k", word=word))', 'st.error(localized(str(e)))', 'st.caption(f"{t(\'a\')} {n:,}")',
            'text = t("a") if x else t("b")\nst.markdown(text)', 'def f(k):\n    return t(k)\nst.caption(f(w))', 'st.markdown(f"**{escape(name)}**")',
            'for f in ("a", t("b")):\n    st.latex(f)', "from embedviz.app import rope_view as view\nfor f in view.FORMULAS:\n    st.latex(f)",
            "from embedviz.app import rope_view as view\nst.caption(view.preset_caption(name))"]
    assert all(unsafe_echoes(code, "x") for code in bad), [c for c in bad if not unsafe_echoes(c, "x")]
    assert not any(unsafe_echoes(code, "x") for code in good), [unsafe_echoes(c, "x") for c in good]


def _escaped_figure(node: ast.expr, names: dict[str, list[ast.expr]], seen: frozenset[str] = frozenset()) -> bool:
    """``shown_as_text(...)``, ``widgets.shown_figure(...)`` (which returns one, see the test below), a ``Figure(...)``
    (or compat's ``unchecked_figure(...)``) of one, or a name every assignment of which is one of those."""
    if isinstance(node, ast.Call):
        called = _name(node.func)
        if called in ("shown_as_text", "shown_figure"):
            return True
        return called in ("Figure", "unchecked_figure") and bool(node.args) and _escaped_figure(node.args[0], names,
                                                                                              seen)
    if isinstance(node, ast.Name) and node.id not in seen and node.id in names:
        return all(_escaped_figure(value, names, seen | {node.id}) for value in names[node.id])
    return False


def unescaped_figures(source: str, label: str) -> list[str]:
    tree = ast.parse(source)
    names = _assignments(tree)
    return [f"{label}:{node.lineno}: {ast.unparse(node)[:120]}" for node in ast.walk(tree)
            if isinstance(node, ast.Call) and _name(node.func) == "plotly_chart"
            and not (node.args and _escaped_figure(node.args[0], names))]


def test_every_figure_reaches_plotly_as_text():
    found = [hit for path in FILES for hit in unescaped_figures(path.read_text(), str(path.relative_to(ROOT)))]
    assert not found, "figures drawn without shown_as_text (plotly would read a reader's <a href>):\n" + "\n".join(found)
    sites = [path for path in FILES if "plotly_chart(" in path.read_text()]
    assert sites, "no st.plotly_chart call found: the scan looks in the wrong place"


def test_shown_figure_returns_only_figures_made_of_shown_as_text():
    """The scan trusts ``shown_figure``: every value it returns must itself be escaped."""
    tree = ast.parse((ROOT / "embedviz" / "app" / "widgets.py").read_text())
    helper = next(node for node in ast.walk(tree) if isinstance(node, ast.FunctionDef) and node.name == "shown_figure")
    names = _assignments(helper)
    returns = [node.value for node in ast.walk(helper) if isinstance(node, ast.Return)]
    assert returns and all(value is not None and _escaped_figure(value, names) for value in returns)


def test_the_figure_scan_names_what_bypasses_the_helper():
    bad = ["st.plotly_chart(fig)", "fig = go.Figure(spec)\nst.plotly_chart(fig, theme=None)",
           "shown = shown_as_text(spec)\nshown = fig\nst.plotly_chart(shown)", "st.plotly_chart(figure=fig)"]
    good = ["st.plotly_chart(go.Figure(shown_as_text(fig.to_dict()), _validate=False))",
            "shown = go.Figure(shown_as_text(spec))\nst.plotly_chart(shown, theme=None, key=k)"]
    assert all(unescaped_figures(code, "x") for code in bad), [c for c in bad if not unescaped_figures(c, "x")]
    assert not any(unescaped_figures(code, "x") for code in good), [unescaped_figures(c, "x") for c in good]
