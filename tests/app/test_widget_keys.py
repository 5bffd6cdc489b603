"""Every widget key a page creates is declared in embedviz/lessons/widget_keys.py, its page's one list of URL
parameters.

Read from the pages' source (every tab, every branch): a key argument names the page's class, never a string
typed in place (the tour panel and the class controls, drawn on every page, name Tour and Classroom likewise); and
seen at run time (each page's first screen): every keyed element the page draws is a key its class declares,
including keys a view module hands the page (the calculator's, the method parameters').
"""
from __future__ import annotations

import ast

import pytest

from embedviz.app.pages import PAGES
from embedviz.lessons.widget_keys import BY_PAGE, Classroom, PageKeys, Tour
from tests.app import pagetest as pt
from tests.conftest import ROOT

FILES = {file: url for _, entries in PAGES for file, _, _, url in entries}  # "app_pages/rope.py" -> "rope"
# the helpers of embedviz/app/widgets.py and live.py whose first argument is a widget key
KEYED = {"int_slider", "choice_slider", "segmented", "bound_tabs", "tab_labels", "lesson_button", "open_tab",
         "controls", "Slider", "form"}
# keys widgets.py derives from a declared one: a chart's CSV button (dl_<chart key>), or a hash of an unkeyed chart
DERIVED = ("dl_",)
UNKEYED = ("csv_", "dl_csv_")


def key_arguments(tree: ast.AST) -> list[ast.expr]:
    """Each expression a page passes as a widget key: ``key=...``, and the first argument of a KEYED helper."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
            found += [k.value for k in node.keywords if k.arg == "key"]
            if name in KEYED and node.args:
                found.append(node.args[0])
    return found


def typed_in_place(expr: ast.expr) -> bool:
    """Whether a key expression holds a string typed in place (a constant or an f-string)."""
    return any(isinstance(n, ast.JoinedStr) or (isinstance(n, ast.Constant) and isinstance(n.value, str))
               for n in ast.walk(expr))


@pytest.mark.parametrize("file", sorted(FILES))
def test_page_keys_come_from_its_class(file):
    source = (ROOT / file).read_text(encoding="utf-8")
    tree = ast.parse(source)
    cls = BY_PAGE[FILES[file]].__name__
    assert f"from embedviz.lessons.widget_keys import {cls} as K" in source, f"{file} reads its keys from {cls}"
    literal = [ast.unparse(e) for e in key_arguments(tree) if typed_in_place(e)]
    assert not literal, f"{file}: name these keys in {cls}: {literal}"


def test_the_scan_sees_a_typed_key():
    tree = ast.parse('st.slider("x", key="sin_d")\nint_slider(f"dot_g{i}", "l")\nst.toggle("t", key=K.E5)\n'
                     'bound_tabs(K.TAB, TABS)\nst.text_input("w", key=K.PAIRS_E5 if e5 else "real_pairs")\n')
    assert [typed_in_place(e) for e in key_arguments(tree)] == [True, True, False, False, True]


def drawn_keys(at) -> set[str]:
    """The user keys of every element and block on the page as drawn."""
    keys, stack = set(), [at._tree]
    while stack:
        node = stack.pop()
        if getattr(node, "key", None):
            keys.add(node.key)
        stack.extend(getattr(node, "children", {}).values())
    return keys


def undeclared(keys: set[str], page_keys: type[PageKeys]) -> set[str]:
    return {key for key in keys if not key.startswith(UNKEYED) and not page_keys.declares(key)
            and not (key.startswith(DERIVED) and page_keys.declares(key[len("dl_"):]))}


@pytest.mark.parametrize("file", sorted(FILES))
def test_every_key_a_page_draws_is_declared(file):
    """The page's first screen, then each of its top tabs opened in turn (bound tabs draw the open one only)."""
    page_keys = BY_PAGE[FILES[file]]
    at = pt.page(file.removeprefix("app_pages/").removesuffix(".py"), timeout=180).run()
    pt.ok(at, errors_allowed=True)
    keys = drawn_keys(at)
    labels = [tab.label for tab in at.tabs] if getattr(page_keys, "TAB", None) in keys else []
    for label in labels[1:]:  # the first is the one just drawn
        at.session_state[page_keys.TAB] = label
        at.run()
        pt.ok(at, errors_allowed=True)
        keys |= drawn_keys(at)
    assert keys, file
    assert undeclared(keys, page_keys) == set()


def test_an_undeclared_key_is_seen():
    from embedviz.lessons.widget_keys import Sinusoidal

    assert undeclared({"sin_d", "dl_sin_live_heatmap", "csv_0123abcd", "sin_new", "dl_sin_new"}, Sinusoidal) \
        == {"sin_new", "dl_sin_new"}


# the widgets drawn on every page, outside any page's class: their module and the class naming their keys
SHARED = {"embedviz/app/tour.py": Tour, "embedviz/app/classroom_controls.py": Classroom,
          "embedviz/app/classroom_follow.py": Classroom, "embedviz/app/classroom_panel.py": Classroom,
          "embedviz/app/classroom_questions.py": Classroom}


@pytest.mark.parametrize("file", sorted(SHARED))
def test_the_shared_widgets_read_their_keys_from_their_class(file):
    """The tour panel's buttons, radios and containers are named in Tour, the class controls in Classroom, like a
    page's keys in its class."""
    source = (ROOT / file).read_text(encoding="utf-8")
    cls = SHARED[file].__name__
    assert f"from embedviz.lessons.widget_keys import {cls} as K" in source, f"{file} reads its keys from {cls}"
    literal = [ast.unparse(e) for e in key_arguments(ast.parse(source)) if typed_in_place(e)]
    assert not literal, f"{file}: name these keys in {cls}: {literal}"


def test_tour_keys_are_its_own():
    """No page key is also a tour key (the panel is drawn on every page), and each starts with tour_ (the picker
    with _tour_, like the tour's other session-state names)."""
    page_keys = {key for keys in BY_PAGE.values() for key in keys.keys()}
    assert not Tour.keys() & page_keys
    assert all(key.startswith(("tour_", "_tour_")) for key in Tour.keys())
    assert Tour.question("003", 3, "zh") == "tour_q_003_3_zh" and Tour.declares(Tour.question("003", 3, "zh"))
    assert Tour.reveal("003", 6) == "tour_reveal_003_6" and Tour.declares(Tour.reveal("003", 6))


def test_class_keys_are_its_own():
    """The class controls sit in the tour popover and panel on every page: no key of theirs is a page's or the
    tour's, none falls in another's family, and each starts with cls_ (the typed code with _cls_, like the class's
    other session-state names)."""
    others = [*BY_PAGE.values(), Tour]
    assert not Classroom.keys() & {key for keys in others for key in keys.keys()}
    assert not [key for key in Classroom.keys() for keys in others if keys.declares(key)]
    assert not [stem for stem in Classroom.families() for keys in others
                if any(stem.startswith(s) or s.startswith(stem) for s in keys.families())]
    assert all(key.startswith(("cls_", "_cls_")) for key in Classroom.keys())
    assert not any(keys.PREFIX.startswith(("cls_", "_cls_")) for keys in others)
    assert Classroom.reveal("000", 2) == "cls_reveal_000_2" and Classroom.declares(Classroom.reveal("000", 2))


def test_the_presenter_clicker_names_the_panels_buttons():
    """The clicker's script presses Next and Back by their keys: a renamed key must be renamed there too."""
    script = (ROOT / "embedviz" / "app" / "browser" / "presenter_keys.js").read_text(encoding="utf-8")
    assert f'"{Tour.NEXT}"' in script and f'"{Tour.BACK}"' in script


def test_a_renamed_key_is_no_page_key_and_leads_to_one():
    """A saved link's old key is read as today's (embedviz/app/frame.py): each old name is no longer any page's key
    (or the page would read it twice), and each new name is a key its page declares."""
    from embedviz.lessons.widget_keys import RENAMED

    declared = [keys for keys in (*BY_PAGE.values(), Tour, Classroom)]
    assert not [old for old in RENAMED if any(keys.declares(old) for keys in declared)]
    assert all(any(new in keys.keys() for keys in BY_PAGE.values()) for new in RENAMED.values())
