"""Warm the slow caches once per served process, in the background, so a first visitor does not wait for them.

At the defaults every page reruns in milliseconds except the Trained embedding page, whose first visit trains text
001's experiment (0.4 s on an idle core, 3 s on a loaded one). A server started with ``EMBEDVIZ_WARM=1`` (``make
run``, ``deploy/launcher.py``, the systemd unit and the Kubernetes Deployment set it) trains that default run in a
daemon thread on its first session, into the same ``st.cache_data`` entry the page reads; until it is done the
page trains as before. Off by default, so tests (AppTest) see the page's own first run and its progress bar.
"""
from __future__ import annotations

import gc
import logging
import os
import threading

ENV = "EMBEDVIZ_WARM"
# The Trained embedding page's defaults (its widgets' values): steps, d_model, lr, seed, groups, softmax.
# tests/app/test_warm.py checks that a page run at its defaults reads exactly this cache entry.
TRAINED_DEFAULTS = (500, 16, 0.01, 0, ("abcdefghij", "ABCDEFGHIJ"), "vocab")

_lock = threading.Lock()
_thread: threading.Thread | None = None


def start() -> threading.Thread | None:
    """Start the warm-up thread once per process (when $EMBEDVIZ_WARM is 1); returns it, or None when off."""
    global _thread
    if os.environ.get(ENV) != "1":
        return None
    with _lock:
        if _thread is None:
            _thread = threading.Thread(target=_warm, name="embedviz-warm", daemon=True)
            _thread.start()
    return _thread


def _warm() -> None:
    from embedviz.app import trained_embedding_view

    try:
        # the whole run, not one cut by the budget
        trained_embedding_view.group_experiment(*TRAINED_DEFAULTS, full=True)
    except Exception:  # a failed warm-up must never stop serving: the page then trains on its first visit
        logging.getLogger(__name__).exception("embedviz warm-up failed")
    settle_heap()  # what the first pages and the warm-up loaded stays for the server's life too


def settle_heap() -> None:
    """Set aside what a served process has loaded so far (modules, their tables, the warm caches) from Python's
    cyclic garbage collector, which otherwise walks all of it in every full collection: with torch, plotly and
    pandas loaded, ~0.3 s holding the GIL, several times in a class's burst of reruns, every session stopped. The
    objects are not lost: reference counting still frees what is dropped; only cycles among them are never looked
    for, and what they are is loaded once and kept."""
    gc.collect()
    gc.freeze()
