"""Live figures: a closed-form chart and its sliders in one browser component (``st.components.v2``).

While a thumb moves, the browser redraws the chart itself on every input event (``live/formulas.js``, a pinned
second copy of the core's formulas, and plotly.js from the installed plotly package); on release, a key step or a
short pause the component sends the sliders' option indices back (the trigger ``commit``), and a callback writes
them into the page's URL-bound widgets before the rerun, so the URL, tours, CSV and the texts around the figure
follow as they do for any widget. Those widgets stay the one state; while a live view is open they are hidden
(``controls``) and the component shows their values.

The component's files are served from its asset directory (``embedviz/app/live``, declared in pyproject.toml), so
plotly.js reaches a browser once and is cached, never inline with a rerun. The component is keyed and its data
depend only on the settings, so it stays mounted across reruns (an unkeyed v2 component remounts whenever its data
change).
"""
from __future__ import annotations

import contextlib
import functools
import shutil
import tomllib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import plotly
import streamlit as st

from embedviz.app.i18n import t
from embedviz.app.widgets import IMAGE_KEY, download_csv, figure_for, tab_labels
from embedviz.figures.export import COLUMNS, figure_csv, slug

PACKAGE_ROOT = Path(__file__).resolve().parents[1]  # embedviz/: asset_dir in pyproject.toml is relative to it
ASSETS = Path(__file__).resolve().parent / "live"
NAME = "embedviz.live_figure"  # "<project>.<component>" as pyproject.toml declares it
PLOTLY_JS = Path(plotly.__file__).parent / "package_data" / "plotly.min.js"


@dataclass(frozen=True)
class Slider:
    """One slider of a live figure: the URL-bound widget ``key`` it drives, its label (i18n key) and options."""
    key: str
    label: str
    options: Sequence
    format_func: Callable = str


def _plotly_asset() -> None:
    """Put the installed plotly package's plotly.min.js into the asset directory (the server may only serve files
    inside it; a symlink out of it is refused). Copied again when the installed plotly changes."""
    target = ASSETS / "plotly.min.js"
    if not target.exists() or target.stat().st_size != PLOTLY_JS.stat().st_size:
        shutil.copyfile(PLOTLY_JS, target)


def _declared_asset_dir() -> str:
    """The component's asset_dir as pyproject.toml declares it (the one place it is written)."""
    with open(PACKAGE_ROOT.parent / "pyproject.toml", "rb") as f:
        components = tomllib.load(f)["tool"]["streamlit"]["component"]["components"]
    return next(c["asset_dir"] for c in components if f"embedviz.{c['name']}" == NAME)


def _register() -> Callable:
    """The component's mount function, registered on the running server.

    Streamlit finds a package's declared components by scanning installed distributions whose metadata mention
    streamlit; an editable install of a checkout may not qualify, so the declaration is registered here from the
    same pyproject.toml when the scan did not (Streamlit internals: this function is their one user)."""
    from streamlit.components.v2.manifest_scanner import ComponentConfig, ComponentManifest
    from streamlit.runtime import Runtime

    _plotly_asset()
    manager = Runtime.instance().bidi_component_registry
    if manager.get_component_asset_root(NAME) is None:
        manifest = ComponentManifest(name="embedviz", version="0",
                                     components=[ComponentConfig(name=NAME.split(".", 1)[1],
                                                                 asset_dir=_declared_asset_dir())])
        manager.register_from_manifest(manifest, PACKAGE_ROOT)
    return st.components.v2.component(NAME, js="livefig.js", css="livefig.css", isolate_styles=False)


@functools.lru_cache(maxsize=8)
def _mount_for(manager_id: int) -> Callable:
    return _register()


def _mount() -> Callable:
    from streamlit.runtime import Runtime
    return _mount_for(id(Runtime.instance().bidi_component_registry))  # AppTest starts a runtime per test


def open_tab(key: str, label_keys: Sequence[str]) -> str:
    """The i18n key of the open tab of ``bound_tabs(key, label_keys)``, known before the tabs are created."""
    labels = tab_labels(key, label_keys)
    chosen = st.session_state.get(key) or st.query_params.get(key)
    return label_keys[labels.index(chosen)] if chosen in labels else label_keys[0]


@contextlib.contextmanager
def controls(key: str, *, hidden: bool):
    """A container for a page's shared URL-bound sliders, hidden while a live figure shows them itself."""
    with st.container(key=key):
        if hidden:
            st.html(f"<style>.st-key-{key} {{ display: none; }}</style>")
        yield


def _commit(key: str, sliders: Sequence[Slider]) -> None:
    """The component's callback, run before the rerun: its option indices become the widgets' values."""
    indices = (st.session_state.get(key) or {}).get("commit") or {}
    for s in sliders:
        i = indices.get(s.key)
        if isinstance(i, int) and 0 <= i < len(s.options):
            st.session_state[s.key] = s.options[i]


def figure(view: str, builder, *args, sliders: Sequence[Slider], texts: dict, budget: dict, key: str,
           csv: Callable[[], str] | None = None, **kwargs) -> None:
    """A live figure: ``builder(*args, **kwargs)`` is the page's figure at the current settings, drawn as sent;
    while a slider moves, the browser's view ``view`` (livefig.js) recomputes its first trace's data and the
    ``texts`` that name the settings (templates with {fields}), and keeps the rest of the layout. The CSV below is
    the Python figure's."""
    fig = figure_for(builder, args, kwargs)
    image = {"format": st.session_state.get(IMAGE_KEY) or "png", "scale": 2, "filename": slug(fig.layout.title.text)}
    data = {
        "view": view, "texts": texts, "budget": budget,
        "sliders": [{"key": s.key, "label": t(s.label), "options": list(s.options),
                     "labels": [s.format_func(o) for o in s.options],
                     "index": list(s.options).index(st.session_state[s.key])} for s in sliders],
        "figure": fig.to_json(),  # as st.plotly_chart sends it: the first draw is the core's own figure
        "config": {"displaylogo": False, "responsive": True, "toImageButtonOptions": image},
    }
    _mount()(key=key, data=data, on_commit_change=functools.partial(_commit, key, tuple(sliders)))
    columns = {name: t(f"common.csv_col_{name}") for name in COLUMNS}
    download_csv(csv or (lambda: figure_csv(fig, columns)), fig.layout.title.text, key=key)

