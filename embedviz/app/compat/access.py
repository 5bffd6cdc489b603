"""What the pages read or register through Streamlit's internals, read here so a version that moves them is fixed in
this module alone: the running script's session (``session_id``, ``release_upload``), whether the run is a
fragment's own (``fragment_rerun``), plotly's private ``_validate=False`` (``unchecked_figure``), and a declared v2
component registered on the running server (``component``). None of them patches anything.

Components: a v2 component that pyproject.toml declares with an asset directory, registered on the running server
when Streamlit's own start-up scan of installed packages did not find it. That scan skips a distribution whose
installed metadata do not mention streamlit (an editable install made before the declaration was added, or one
whose pyproject.toml sits in another checkout). One registration, same values.
"""
from __future__ import annotations

import tomllib
from collections.abc import Callable
from pathlib import Path

import plotly.graph_objects as go
import streamlit as st
from streamlit.runtime.scriptrunner import get_script_run_ctx


def session_id() -> str:
    """The running script's session id; "" outside a server's script run (a notebook, a plain test)."""
    ctx = get_script_run_ctx()
    return ctx.session_id if ctx else ""


def fragment_rerun() -> bool:
    """Whether the running script run is a fragment's own rerun (a widget in it changed), not a run of the app."""
    ctx = get_script_run_ctx()
    return bool(ctx and ctx.fragment_ids_this_run)


def release_upload(file_id: str) -> None:
    """Drop an upload from Streamlit's in-memory file store, as st.chat_input does for its files."""
    ctx = get_script_run_ctx()
    remove = getattr(ctx.uploaded_file_mgr, "remove_file", None) if ctx else None  # memory store only
    if remove is not None:
        remove(session_id=ctx.session_id, file_id=file_id)


def unchecked_figure(spec) -> go.Figure:
    """A plotly Figure from a dict a builder already made and plotly already validated: plotly's private
    ``_validate=False`` skips the second validation, the larger part of a big figure's rerun."""
    return go.Figure(spec, _validate=False)


def declared_asset_dir(pyproject: Path, project: str, name: str) -> str:
    """The ``asset_dir`` pyproject.toml declares for component ``name`` (written there once)."""
    with open(pyproject, "rb") as f:
        components = tomllib.load(f)["tool"]["streamlit"]["component"]["components"]
    return next(c["asset_dir"] for c in components if f"{project}.{c['name']}" == name)


_MOUNTS: dict[tuple, tuple] = {}  # (name, js, css) -> (the manager it was registered on, its mount function)


def component(name: str, *, package_root: Path, pyproject: Path, js: str, css: str | None = None) -> Callable:
    """The mount function of the declared v2 component ``name`` ("<project>.<component>"), whose asset directory
    (relative to ``package_root``) the server then serves. Registered from ``pyproject`` on this runtime's manager
    if Streamlit's scan did not (AppTest builds a manager per test: the check is per manager, and cheap)."""
    from streamlit.components.v2.get_bidi_component_manager import get_bidi_component_manager
    from streamlit.components.v2.manifest_scanner import ComponentConfig, ComponentManifest

    manager = get_bidi_component_manager()
    held = _MOUNTS.get((name, js, css))
    if held is not None and held[0] is manager:
        # Registering resolves and checks the JS file's path on disk and rebuilds the definition: done on every
        # run, that was a few per cent of each follower's rerun. The mount function itself holds no session's
        # state (it re-registers on the active runtime if that one lacks the definition).
        return held[1]
    if manager.get_component_asset_root(name) is None:
        project, short = name.split(".", 1)
        config = ComponentConfig(name=short, asset_dir=declared_asset_dir(pyproject, project, name))
        manager.register_from_manifest(ComponentManifest(name=project, version="0", components=[config]),
                                       package_root)
    mount = st.components.v2.component(name, js=js, css=css, isolate_styles=False)
    _MOUNTS[(name, js, css)] = (manager, mount)  # one entry per declared component: bounded by pyproject.toml
    return mount
