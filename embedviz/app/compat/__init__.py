"""The one place embedviz reaches into Streamlit's internals (tests/app/test_compat.py holds every other module to
the public ``st.*``), one module per job:

- ``guards.py``: the patches a classroom server must not run without: URL values a widget cannot take, refused
  ``clear_cache`` requests, bounded uploads, component states no browser sends, and a session's end (a class's
  seats);
- ``speed.py``: the run's memo (``this_run``), the speed patch a class's follow measurably needs
  (benchmarks/README.md);
- ``access.py``: what the pages read or register: the session, a fragment's run, an upload's release, plotly's
  unchecked figure, a declared component.

``install()`` puts the patches on, once per process (the server's start-up, and the frame on every run: AppTest and
a bare ``streamlit run app.py``), never as a side effect of an import. They were written for Streamlit
``STREAMLIT`` (requirements.lock pins it). On another version the app still starts: the speed patches are left out,
with one log line, and each guard's target is checked first; a guard whose target moved stops the server with a
message saying what to pin, rather than serve unguarded (tests/app/test_compat.py simulates both).
"""
from __future__ import annotations

import logging
from collections.abc import Callable

import streamlit as st

STREAMLIT = "1.67.0"  # the version the patches were written for: requirements.lock's pin (a test holds them equal)


class StreamlitMoved(RuntimeError):
    """A safety guard's target is not what it was written for in the running Streamlit: the server must not start."""


def _pin_message(running: str, moved: list[str]) -> str:
    return (f"embedviz's safety guards were written for streamlit=={STREAMLIT}, and streamlit {running} is "
            f"installed, where {'; '.join(moved)}. Pin streamlit=={STREAMLIT} (pip install --require-hashes -r "
            f"requirements.lock installs it); the server does not start unguarded.")


try:
    from embedviz.app.compat import access, guards, speed
except ImportError as error:  # a module a guard reaches is gone: the same message, at the app's first import
    raise StreamlitMoved(_pin_message(st.__version__, [f"a module embedviz reaches is gone ({error})"])) from error

from embedviz.app.compat.access import (component, declared_asset_dir, fragment_rerun, release_upload,  # noqa: E402
                                        session_id, unchecked_figure)
from embedviz.app.compat.guards import component_state_problem, guard_uploads, on_session_end  # noqa: E402
from embedviz.app.compat.speed import SPEED_OFF_ENV, this_run  # noqa: E402

__all__ = ["STREAMLIT", "SPEED_OFF_ENV", "StreamlitMoved", "component", "component_state_problem",
           "declared_asset_dir", "fragment_rerun", "guard_uploads", "install", "on_session_end", "release_upload",
           "session_id", "this_run", "unchecked_figure"]

_LOG = logging.getLogger(__name__)
# every patch install() may put on, (owner, attribute, wrap): the guards, then the speed patches
_PATCHES = (*((owner, name, wrap) for owner, name, wrap, _ in guards.PATCHES),
            *(patch for patches in speed.PATCHES.values() for patch in patches))
_settled: tuple[str, frozenset[str]] | None = None  # (running version, SPEED_OFF_ENV's names) last checked
_speed_off: frozenset[str] = frozenset()  # the speed patches this process leaves out


def _settle(running: str, named_off: frozenset[str]) -> frozenset[str]:
    """The speed patches to leave out on ``running``; raises StreamlitMoved when a guard no longer fits."""
    if running == STREAMLIT:
        if named_off:
            _LOG.warning("speed patches left out (%s): %s", SPEED_OFF_ENV, ", ".join(sorted(named_off)))
        return named_off
    moved = guards.moved()
    if moved:
        message = _pin_message(running, moved)
        _LOG.critical(message)
        raise StreamlitMoved(message)
    _LOG.warning("streamlit %s is installed, not the %s embedviz's patches were written for: its speed patches are "
                 "left out (its safety guards still fit, and are on); pin streamlit==%s for them", running,
                 STREAMLIT, STREAMLIT)
    return frozenset(speed.PATCHES)


def install(*, url_cut_notice: Callable[[str, int, int], None] | None = None) -> None:
    """Install the patches once per process (idempotent): the server's start-up, the frame, and whatever runs a page
    script without it (AppTest on app_pages/, a benchmark). ``url_cut_notice(key, kept, sent)`` tells the reader a
    link's text was cut (the server's start-up installs without one; the frame's first run gives it)."""
    global _settled, _speed_off
    if url_cut_notice is not None:
        guards.url_cut_notice = url_cut_notice
    now = (st.__version__, speed.speed_off())
    if now != _settled:  # (the frame installs on every run: checked, and said, once)
        _speed_off = _settle(*now)
        _settled = now
    speed.memo_on = "this_run" not in _speed_off
    chosen = (*((owner, name, wrap) for owner, name, wrap, _ in guards.PATCHES),
              *(patch for n, patches in speed.PATCHES.items() if n not in _speed_off for patch in patches))
    for owner, name, wrap in chosen:
        if not getattr(getattr(owner, name), "embedviz_compat", False):
            setattr(owner, name, wrap(getattr(owner, name)))
    # the served process's one upload store; under AppTest the Runtime is a stand-in (a MagicMock) and is skipped
    from streamlit.runtime import Runtime
    from streamlit.runtime.memory_uploaded_file_manager import MemoryUploadedFileManager

    if Runtime.exists() and type(Runtime.instance()) is Runtime:
        store = Runtime.instance().uploaded_file_mgr
        if isinstance(store, MemoryUploadedFileManager):
            guard_uploads(store)
