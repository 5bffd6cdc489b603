"""Live figures: a closed-form chart and its sliders in one browser component (``st.components.v2``).

While a thumb moves, the browser redraws the chart itself on every input event (``live/formulas.js``, a pinned
second copy of the core's formulas, and plotly.js from the installed plotly package); on release, a key step or a
short pause the component sends the sliders' option indices back (the trigger ``commit``), and a callback writes
them into the page's URL-bound widgets before the rerun, so the URL, tours, CSV and the texts around the figure
follow as they do for any widget. Those widgets stay the one state; while a live view is open they are hidden
(``controls``) and the component shows their values.

The component's files are served from its asset directory (``embedviz/app/live``, declared in pyproject.toml), so
plotly.js reaches a browser once and is cached, never inline with a rerun. plotly.min.js is copied there from the
installed plotly package by the build step (``python -m embedviz.app.live``: ``make setup``, the Dockerfile); the
running app writes nothing, and without the copy a live figure falls back to a plain chart. The component is keyed
and its data depend only on the settings, so it stays mounted across reruns (an unkeyed v2 component remounts
whenever its data change).
"""
from __future__ import annotations

import contextlib
import functools
import logging
import shutil
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import plotly
import streamlit as st

from embedviz.app import compat
from embedviz.app.i18n import t
from embedviz.app.markup import Markup
from embedviz.app.widgets import chart_config, download_csv, figure_for, plot, shown_figure, tab_labels
from embedviz.figures import JOINER, describe, screen
from embedviz.figures.describe import WORDS as ALT_WORDS, text_alternative
from embedviz.figures.export import COLUMNS, figure_csv

PACKAGE_ROOT = Path(__file__).resolve().parents[1]  # embedviz/: asset_dir in pyproject.toml is relative to it
ASSETS = Path(__file__).resolve().parent / "live"
NAME = "embedviz.live_figure"  # "<project>.<component>" as pyproject.toml declares it
PLOTLY_JS = Path(plotly.__file__).parent / "package_data" / "plotly.min.js"
_LOG = logging.getLogger(__name__)


@dataclass(frozen=True)
class Slider:
    """One slider of a live figure: the URL-bound widget ``key`` it drives, its label (i18n key) and options;
    ``on_change`` runs when a commit changes it, as the widget's own callback would have (a commit writes the
    widget's state, which Streamlit does not report as a change)."""
    key: str
    label: str
    options: Sequence
    format_func: Callable = str
    on_change: Callable[[], None] | None = None


def install_plotly() -> Path:
    """Copy the installed plotly package's plotly.min.js into the asset directory: a build step (``make setup``,
    the Dockerfile), never done by the running app, whose files may be read-only. The server serves only files
    inside the asset directory (a symlink out of it is refused), hence a copy."""
    target = ASSETS / "plotly.min.js"
    shutil.copyfile(PLOTLY_JS, target)
    return target


@functools.lru_cache(maxsize=1)
def available() -> bool:
    """Whether the asset directory holds the installed plotly's plotly.js (the build step ran since plotly was
    last installed). Without it a live figure is drawn as a plain chart under the page's own sliders."""
    served = ASSETS / "plotly.min.js"
    ok = served.is_file() and served.stat().st_size == PLOTLY_JS.stat().st_size
    if not ok:
        _LOG.warning("live figures off: %s is missing or not the installed plotly's; run `make setup` "
                     "(python -m embedviz.app.live)", served)
    return ok


def _mount() -> Callable:
    return compat.component(NAME, package_root=PACKAGE_ROOT, pyproject=PACKAGE_ROOT.parent / "pyproject.toml",
                            js="livefig.js", css="livefig.css")


def open_tab(key: str, label_keys: Sequence[str]) -> str:
    """The i18n key of the open tab of ``bound_tabs(key, label_keys)``, known before the tabs are created."""
    labels = tab_labels(key, label_keys)
    chosen = st.session_state.get(key) or st.query_params.get(key)
    return label_keys[labels.index(chosen)] if chosen in labels else label_keys[0]


@contextlib.contextmanager
def controls(key: str, *, hidden: bool):
    """A container for a page's shared URL-bound sliders, hidden while a live figure shows them itself."""
    with st.container(key=key):
        if hidden and available():
            st.html(f"<style>.st-key-{key} {{ display: none; }}</style>")
        yield


def _commit(key: str, sliders: Sequence[Slider]) -> None:
    """The component's callback, run before the rerun: its option indices become the widgets' values. Streamlit
    calls it once per "commit" of the trigger list (compat bounds the list to a few) and every call reads the last
    commit, the only one a live figure can use: a second call finds nothing left to change. A value of any other
    shape (no browser sends one: the component sends {slider key: option index}) is ignored with a log line."""
    shown = st.session_state.get(key)
    indices = shown.get("commit") if isinstance(shown, dict) else None
    if not isinstance(indices, dict):
        _LOG.warning("ignored a live figure's commit of type %s (state %s)", type(indices).__name__,
                     type(shown).__name__)
        return
    for s in sliders:
        i = indices.get(s.key)
        if type(i) is int and 0 <= i < len(s.options) and st.session_state.get(s.key) != s.options[i]:
            st.session_state[s.key] = s.options[i]
            if s.on_change:
                s.on_change()


def templates(**keys: str | tuple[str, ...]) -> dict[str, str]:
    """The translated texts a view fills in the browser: ``name="key"``, or ``name=("key", "field", ...)`` for a
    text whose fields the browser fills (they stay ``{field}``); a field may carry its format, ``"v:.2f"`` (a number
    with two decimals), which the browser's fill applies as ``str.format`` does, so a page fills the same template
    for its own figure (``templates(...)["name"].format(v=...)``) and the format is written once."""
    out = {}
    for name, spec in keys.items():
        key, *fields = (spec,) if isinstance(spec, str) else spec
        # the field as written (Markup: not escaped as a reader's value would be, its ":" and "." stay)
        out[name] = t(key, **{f.split(":")[0]: Markup("{" + f + "}") for f in fields})
    return out


def figure(view: str, builder, *args, sliders: Sequence[Slider], texts: dict, budget: dict, key: str,
           fixed: dict | None = None, csv: Callable[[], str] | None = None, **kwargs) -> None:
    """A live figure: ``builder(*args, **kwargs)`` is the page's figure at the current settings, drawn as sent;
    while a slider moves, the browser's view ``view`` (livefig.js) recomputes the traces' data and the ``texts``
    that name the settings (``templates``), and keeps the rest of the layout. ``budget``: the payload constants
    its formulas use; ``fixed``: settings of the view that are not its sliders, and the layout rules of ``builder``
    that the browser applies again (a log axis past some length, a line's width), sent from the builder's module
    so each is written once. The CSV below is the Python figure's."""
    if not available():
        plot(builder, *args, key=key, csv=csv, **kwargs)
        return
    fig = figure_for(builder, args, kwargs)
    data = {
        "view": view, "texts": texts, "budget": budget, "fixed": fixed or {},
        # the browser fits the figure to its chart's width by the rules Python fits a chart by, and joins a
        # subtitle's parts as Python does
        "fit": screen.rules(), "joiner": JOINER,
        "alt": text_alternative(fig, words := {name: t(f"common.alt_{name}") for name in ALT_WORDS}),
        "alt_words": words, "alt_rules": describe.rules(),  # the browser says the same of a figure it drew itself
        "sliders": [{"key": s.key, "label": t(s.label), "options": list(s.options),
                     "labels": [s.format_func(o) for o in s.options],
                     "index": list(s.options).index(st.session_state[s.key])} for s in sliders],
        "figure": shown_figure(fig).to_json(),  # as plot sends it: the first draw is the core's own figure
        "config": {**chart_config(fig.layout.title.text), "responsive": True},
    }
    _mount()(key=key, data=data, on_commit_change=functools.partial(_commit, key, tuple(sliders)))
    columns = {name: t(f"common.csv_col_{name}") for name in COLUMNS}
    download_csv(csv or (lambda: figure_csv(fig, columns)), fig.layout.title.text, key=key)


if __name__ == "__main__":  # the build step: python -m embedviz.app.live
    print(f"copied {PLOTLY_JS} -> {install_plotly()}")
