"""Fuzzing helpers: find a page's widgets after a default AppTest run and draw random valid values for them.

A value is "valid" when a browser user could produce it: a slider stop, an option of a select box, a number
within the input's bounds, any unicode text up to max_chars (including empty and Chinese). Option widgets are
set the way the browser sets them, by their displayed label, so pages with ``format_func`` work unchanged.
"""
from __future__ import annotations

import math
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from streamlit.proto.NumberInput_pb2 import NumberInput as NumberInputProto
from streamlit.proto.WidgetStates_pb2 import WidgetState

ROOT = Path(__file__).resolve().parents[2]


# Texts a class actually types, besides random unicode: empty, the seed lesson's sentence, mixed scripts, emoji.
SAMPLE_TEXTS = ["", "狗咬人", "人咬狗", "Hello", "the cat sat on the mat 猫坐在垫子上", " ", "🙂👋", "a" * 64]
UNBOUNDED_NUMBER = 10**6  # a number_input without bounds still gets numbers a person would type


# memory


def proc_status_kb(field_name: str) -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field_name + ":"):
            return int(line.split()[1])
    return 0


def reset_peak_rss() -> bool:
    """Reset VmHWM (peak RSS) to the current RSS, so the next reading is this example's peak (Linux >= 4.0)."""
    try:
        Path("/proc/self/clear_refs").write_text("5")
        return True
    except OSError:
        return False


def peak_rss_bytes() -> int:
    """This process's peak resident memory since the last reset (VmHWM), else its current RSS."""
    return max(proc_status_kb("VmHWM"), proc_status_kb("VmRSS")) * 1024


def rss_bytes() -> int:
    """This process's resident memory now (VmRSS)."""
    return proc_status_kb("VmRSS") * 1024


# widgets


def _force_state(widget, ws: WidgetState) -> None:
    """Make ``widget`` send ``ws`` on the next run: what the browser sends for an option picked by its label."""
    cls = type(widget)
    widget.__class__ = type(f"Forced{cls.__name__}", (cls,), {"_widget_state": property(lambda self: ws)})


def _label_state(widget, labels: list[str], *, array: bool) -> list[str] | str:
    """Set an option widget by its displayed label(s); returns what was set (for the failure report)."""
    ws = WidgetState()
    ws.id = widget.id
    if array:
        ws.string_array_value.data[:] = labels
    else:
        ws.string_value = labels[0]
    _force_state(widget, ws)
    return labels if array else labels[0]


def _setter(widget) -> Callable[[Any], Any]:
    """``widget.set_value`` that returns the value it set (for the failure report)."""

    def apply(value):
        widget.set_value(value)
        return value

    return apply


@dataclass
class Knob:
    """One widget on the page: how to draw a value for it and how to set that value."""

    name: str  # "slider:rope_theta" (type:key), shown in hypothesis' failure report
    strategy: st.SearchStrategy
    apply: Callable[[Any], Any]  # sets the drawn value; returns what the widget now shows


def _grid_strategy(lo: float, hi: float, step: float, *, is_int: bool) -> st.SearchStrategy:
    """Stops of a slider: lo + k * step for k = 0..n (the ends included)."""
    n = max(int(math.floor((hi - lo) / step + 1e-9)), 0)

    def stop(k: int):
        v = lo + k * step
        return int(round(v)) if is_int else min(round(v, 12), hi)

    return st.integers(0, n).map(stop)


def _slider_knob(w) -> Knob | None:
    value = w.value
    is_range = isinstance(value, (list, tuple))
    first = value[0] if is_range else value
    if isinstance(first, bool) or not isinstance(first, (int, float)):
        return None  # date/time sliders: none in embedviz
    is_int = isinstance(first, int)
    grid = _grid_strategy(float(w.min), float(w.max), float(w.step), is_int=is_int)
    strategy = st.tuples(grid, grid).map(lambda ab: tuple(sorted(ab))) if is_range else grid
    return Knob(f"slider:{w.key}", strategy, _setter(w) if not is_range else lambda v: _setter(w)(list(v)))


def _select_slider_knob(w) -> Knob:
    n = len(w.options)
    if isinstance(w.value, (list, tuple)) and len(w.value) == 2:
        strategy = st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)).map(lambda ij: sorted(ij))
        return Knob(f"select_slider:{w.key}", strategy, lambda ij: _label_state(w, [w.options[i] for i in ij], array=True))
    return Knob(f"select_slider:{w.key}", st.integers(0, n - 1), lambda i: _label_state(w, [w.options[i]], array=True))


def _one_of_knob(kind: str, w) -> Knob | None:
    if not w.options:
        return None
    return Knob(f"{kind}:{w.key}", st.integers(0, len(w.options) - 1), lambda i: _label_state(w, [w.options[i]], array=False))


def _button_group_knob(w) -> Knob | None:
    n = len(w.options)
    if not n:
        return None
    if w._is_single_select:
        choices = st.integers(0, n - 1).map(lambda i: [i])
        if not w.proto.required:  # clicking the chosen segment again clears a non-required control
            choices = st.one_of(choices, st.just([]))
    else:
        choices = st.lists(st.integers(0, n - 1), unique=True)
    return Knob(f"button_group:{w.key}", choices, lambda idx: _label_state(w, [w.options[i] for i in idx], array=True))


def _multiselect_knob(w) -> Knob | None:
    n = len(w.options)
    if not n:
        return None
    cap = w.proto.max_selections or n
    return Knob(
        f"multiselect:{w.key}", st.lists(st.integers(0, n - 1), unique=True, max_size=cap),
        lambda idx: _label_state(w, [w.options[i] for i in idx], array=True),
    )


def _number_knob(w) -> Knob:
    is_int = w.proto.data_type == NumberInputProto.DataType.INT
    lo = w.min if w.min is not None else -UNBOUNDED_NUMBER
    hi = w.max if w.max is not None else UNBOUNDED_NUMBER
    if is_int:
        strategy = st.integers(int(math.ceil(lo)), int(math.floor(hi)))
    else:
        strategy = st.floats(float(lo), float(hi), allow_nan=False, allow_infinity=False)
    return Knob(f"number_input:{w.key}", strategy, _setter(w))


def _text_knob(kind: str, w) -> Knob:
    cap = w.max_chars or 200
    typed = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=cap)
    samples = st.sampled_from([s[:cap] for s in SAMPLE_TEXTS])
    return Knob(f"{kind}:{w.key}", st.one_of(samples, typed), _setter(w))


def _bool_knob(kind: str, w) -> Knob:
    return Knob(f"{kind}:{w.key}", st.booleans(), _setter(w))


def discover(at) -> list[Knob]:
    """Every enabled widget of the kinds embedviz uses (sidebar included), in a fixed order."""
    builders = [
        (at.slider, _slider_knob),
        ([w for w in at.select_slider if w.options], _select_slider_knob),
        (at.selectbox, lambda w: _one_of_knob("selectbox", w)),
        (at.radio, lambda w: _one_of_knob("radio", w)),
        (at.get("button_group"), _button_group_knob),  # segmented_control and pills
        (at.multiselect, _multiselect_knob),
        (at.number_input, _number_knob),
        (at.text_input, lambda w: _text_knob("text_input", w)),
        (at.text_area, lambda w: _text_knob("text_area", w)),
        (at.toggle, lambda w: _bool_knob("toggle", w)),
        (at.checkbox, lambda w: _bool_knob("checkbox", w)),
    ]
    knobs = []
    for widgets, build in builders:
        for w in widgets:
            if getattr(w.proto, "disabled", False):
                continue  # a browser user cannot change it either
            knob = build(w)
            if knob is not None:
                knobs.append(knob)
    return knobs


def examples() -> int:
    """Examples per page: small for `make test`; the nightly run sets EMBEDVIZ_FUZZ_EXAMPLES=200."""
    return int(os.environ.get("EMBEDVIZ_FUZZ_EXAMPLES", "8"))


RANDOM = os.environ.get("EMBEDVIZ_FUZZ_RANDOM") == "1"
# every fuzz test's settings: derandomized (the same examples every run) unless EMBEDVIZ_FUZZ_RANDOM=1
FUZZ_SETTINGS = settings(
    max_examples=examples(),
    deadline=None,  # timing is checked per rerun in CPU seconds instead
    derandomize=not RANDOM,
    database=None if not RANDOM else settings.default.database,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
    print_blob=True,
)
