"""Hostile URL values for every URL-bound key of every page: the page opens, shows no traceback, and every widget
holds a value it can take (numbers finite and in range, a choice among its options).

Links travel through chat apps and get cut, doubled or edited by hand. For each page and each hostile value, one
run sets EVERY bound key of the page (those a default run shows, plus the literal ``key="..."`` names in the page
script, which include widgets shown only in other tabs or modes) to that value at once. 9 pages x 11 values.
"""
from __future__ import annotations

import math
import re
import time

import pytest

from embedviz.app.pages import PAGES
from tests.app.pagetest import ok, page
from tests.conftest import ROOT

ENTRIES = [entry for _, entries in PAGES for entry in entries]
HOSTILE = {
    "inf": "inf",
    "minus_inf": "-inf",
    "nan": "nan",
    "overflow": "1e999",
    "digits_100k": "9" * 100_000,  # int() of it raises ValueError, float() of it is inf
    "empty": "",
    "unicode_digits": "١٢٣",  # Arabic-Indic 123: Python's float() reads it
    "negative": "-1",
    "text": "abc",
    "cjk": "狗咬人",
    "long_text": "x" * 50_000,
}
WIDGET_KINDS = ("slider", "select_slider", "selectbox", "radio", "button_group", "multiselect", "number_input",
                "text_input", "text_area", "toggle", "checkbox")
MAX_RUN_CPU_S = 10  # the slowest page at its defaults takes ~1 s; a hostile URL must not cost more than a page


def bound_keys(name: str) -> set[str]:
    """The URL keys of a page: what its default run binds, plus the literal keys written in its script."""
    at = page(name).run()
    keys = {w.proto.query_param_key for kind in WIDGET_KINDS for w in at.get(kind)
            if getattr(w.proto, "query_param_key", "")}
    source = (ROOT / "app_pages" / f"{name}.py").read_text()
    return keys | set(re.findall(r'key="([a-z]+_[a-z_]+)"', source))


def assert_widgets_hold_valid_values(at, where: str) -> None:
    for w in at.number_input:
        assert w.value is not None and math.isfinite(w.value), f"{where}: {w.key} = {w.value!r}"
        assert (w.min is None or w.value >= w.min) and (w.max is None or w.value <= w.max), f"{where}: {w.key}"
    for w in at.get("button_group"):
        if w._is_single_select and w.proto.required:
            assert w.value is not None, f"{where}: required choice {w.key} has no value"
    for kind in ("selectbox", "radio"):
        for w in at.get(kind):
            assert w.value is None or w.value in w.options or w.format_func(w.value) in w.options, (
                f"{where}: {w.key} = {w.value!r} is not an option")


@pytest.mark.slow
@pytest.mark.parametrize("entry", ENTRIES, ids=[url for *_, url in ENTRIES])
def test_hostile_url_values_fall_back_without_a_traceback(entry):
    name = entry[0].removeprefix("app_pages/").removesuffix(".py")
    keys = sorted(bound_keys(name))
    for label, value in HOSTILE.items():
        at = page(name, **{key: value for key in keys})
        cpu = time.process_time()
        at.run()
        cpu = time.process_time() - cpu
        where = f"{name} with every key = {label}"
        ok(at, errors_allowed=True)  # a text the page cannot use may show its (translated) message
        for error in at.error:
            assert error.value.strip(), f"{where}: an empty error box"
        assert_widgets_hold_valid_values(at, where)
        assert cpu < MAX_RUN_CPU_S, f"{where}: {cpu:.1f} s of CPU"
