"""One stem per page: app_pages/<stem>.py calls embedviz/app/<stem>_view.py, reads its words from
embedviz/app/locales/<stem>.py and draws with embedviz/figures/<stem>.py, wherever the page has such a module of its
own; a block of a page with its own strings is locales/<stem>_<block>.py. A module several pages share is named for
what it holds (the SHARED tables). Each locale module declares the one PREFIX of its keys, so a key ("ctx.title")
leads to its file, and keys themselves never change (links, tours and tests name them)."""
from __future__ import annotations

import ast
import importlib
import pkgutil
from pathlib import Path

import pytest

from embedviz.app import locales
from embedviz.app.pages import PAGES
from tests.conftest import ROOT

TITLE_KEYS = {Path(file).stem: title for _, entries in PAGES for file, title, _, _ in entries}  # stem -> "tok.nav"
SHARED_VIEWS = {"classroom_view": "this session's class, which the classroom_ modules draw on every page"}
SHARED_FIGURES = {
    "tokens": "token tables: Token embeddings' lookup and gradients, Trained embedding's runs (shared helpers)",
    "describe": "every chart's text alternative", "export": "every chart's CSV", "screen": "fitting labels to a screen",
}
SHARED_LOCALES = {
    "common": "what every page says", "nav": "the navigation's sections", "err": "the core's refusals",
    "tour": "the lesson tours", "classroom": "a class following its teacher", "lesson": "the lesson-settings buttons",
    "multi": "the multilingual models, on Real model, Learned positions and Token embeddings",
}


def locale_modules() -> dict[str, object]:
    return {info.name: importlib.import_module(f"{locales.__name__}.{info.name}")
            for info in pkgutil.iter_modules(locales.__path__)}


def page_of(name: str) -> str | None:
    """The page a module named ``name`` (a file stem, "_view" dropped) belongs to: its stem, or a stem followed by
    "_<block>" (the longest stem that fits), or None."""
    fits = [stem for stem in TITLE_KEYS if name == stem or name.startswith(stem + "_")]
    return max(fits, key=len, default=None)


def imported_modules(file: Path) -> set[str]:
    """Every module ``file`` imports, dotted: ``from embedviz.app import rope_view as view`` -> embedviz.app.rope_view."""
    found = set()
    for node in ast.walk(ast.parse(file.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            found |= {node.module} | {f"{node.module}.{alias.name}" for alias in node.names}
        elif isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
    return found


@pytest.mark.parametrize("name", sorted(locale_modules()))
def test_every_key_of_a_locale_module_starts_with_its_prefix(name):
    module = locale_modules()[name]
    prefix = module.PREFIX
    assert isinstance(prefix, str) and prefix.endswith(".") and prefix.count(".") == 1, name
    assert module.STRINGS and [key for key in module.STRINGS if not key.startswith(prefix)] == [], name


def test_a_prefix_names_one_module():
    """So a key's prefix leads to exactly one file."""
    prefixes = [module.PREFIX for module in locale_modules().values()]
    assert len(prefixes) == len(set(prefixes))


@pytest.mark.parametrize("stem", sorted(TITLE_KEYS))
def test_a_pages_title_lives_in_the_locale_module_named_after_it(stem):
    prefix = TITLE_KEYS[stem].split(".")[0] + "."
    owners = [name for name, module in locale_modules().items() if module.PREFIX == prefix]
    assert owners == [stem], f"app_pages/{stem}.py's keys ({prefix}) live in locales/{owners}, not locales/{stem}.py"


def test_every_locale_module_is_a_pages_or_shared():
    unnamed = [name for name in locale_modules() if page_of(name) is None and name not in SHARED_LOCALES]
    assert unnamed == [], f"name these after their page (locales/<stem>.py, <stem>_<block>.py) or list them as shared"


def test_every_view_and_figure_module_is_a_pages_or_shared():
    views = [p.stem for p in (ROOT / "embedviz" / "app").glob("*_view.py")]
    figures = [p.stem for p in (ROOT / "embedviz" / "figures").glob("*.py") if p.stem != "__init__"]
    assert [v for v in views if v.removesuffix("_view") not in TITLE_KEYS and v not in SHARED_VIEWS] == []
    assert [f for f in figures if f not in TITLE_KEYS and f not in SHARED_FIGURES] == []


@pytest.mark.parametrize("stem", sorted(TITLE_KEYS))
def test_a_page_uses_the_modules_named_after_it(stem):
    """A view or figure module named after a page is that page's: the page imports it."""
    imports = imported_modules(ROOT / "app_pages" / f"{stem}.py")
    own = [module for module, path in ((f"embedviz.app.{stem}_view", f"embedviz/app/{stem}_view.py"),
                                       (f"embedviz.figures.{stem}", f"embedviz/figures/{stem}.py"))
           if (ROOT / path).is_file()]
    assert [module for module in own if module not in imports] == []


def test_the_checks_see_what_they_look_for():
    assert page_of("token_embeddings_raw_ids") == "token_embeddings" and page_of("rope_lesson") == "rope"
    assert page_of("lessons") is None and page_of("why") is None
    assert "embedviz.app.rope_view" in imported_modules(ROOT / "app_pages" / "rope.py")
