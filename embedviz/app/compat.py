"""The one place embedviz reaches into Streamlit's runtime: small patches a classroom server needs, installed by
the frame (``install()`` in ``frame.run``), never as a side effect of an import.

Streamlit is pinned in requirements.txt; tests/app/test_compat.py fails if a new version changes what a patch wraps,
and tests/e2e/test_hostile_protocol.py shows each refusal against a real server on loopback.

1. URL values a widget cannot take: the widget's default, never a traceback (below, at ``_guard_url_seed``).
2. ``clear_cache`` requests are refused. Streamlit clears every ``st.cache_data`` and ``st.cache_resource`` of the
   process when any client sends that BackMsg: the bundled model and the pre-trained default run for every student
   on the server. Sent every 0.5 s it made a Trained embedding open 16x slower. A teacher who needs fresh caches
   restarts the server.
3. Uploads: the upload endpoint stores whatever a session PUTs under any file id while its socket is open (five
   150 MB files under made-up ids: +750 MB in 5 s), and ``server.maxUploadSize`` bounds one file, not a session.
   Here a file id must be one the server issued to that session (the browser asks for upload URLs first; a
   made-up id is answered 403), and a session holds at most ``UPLOAD_BYTES_PER_SESSION``: a new file releases the
   session's older ones first, which no widget can be showing any more (embedviz's uploader takes one file, and
   the page releases its bytes once read). This wraps the served process's store instance, not the class.
4. Components (``component``): a v2 component that pyproject.toml declares with an asset directory, registered on
   the running server when Streamlit's own start-up scan of installed packages did not find it. That scan skips a
   distribution whose installed metadata do not mention streamlit (an editable install made before the declaration
   was added, or one whose pyproject.toml sits in another checkout). Not a patch: one registration, same values.
5. Per-run work whose answer cannot change, done once: the theme part of every run's ``new_session`` message
   (``_theme_once``), a small table's Arrow bytes (``_small_table_memo``), the message cache's size floor
   (``_MessageFloorOnce``), a value fixed for a run (``this_run``); and a run's messages wake the event loop once per
   batch (``_wake_once``, ``_send_wake_once``). A class's followers rerun all at once on one GIL, so each
   millisecond of a rerun is a tenth of a second of the last follower's wait (benchmarks/README.md).
6. The running script's session (``session_id``, ``release_upload``), whether the run is a fragment's own
   (``fragment_rerun``), and plotly's private ``_validate=False`` (``unchecked_figure``): read here, so a version
   that moves them is fixed in this file alone.
"""
from __future__ import annotations

import functools
import logging
import threading
import tomllib
from collections import OrderedDict, defaultdict
from collections.abc import Callable
from pathlib import Path

import plotly.graph_objects as go
import streamlit as st
from streamlit import config as st_config
from streamlit import dataframe_util
from streamlit.elements import table as st_table
from streamlit.runtime import Runtime, app_session, forward_msg_cache
from streamlit.runtime.app_session import AppSession
from streamlit.runtime.memory_uploaded_file_manager import MemoryUploadedFileManager
from streamlit.runtime.scriptrunner import get_script_run_ctx
from streamlit.runtime.state.query_params import is_empty_url_value
from streamlit.runtime.state.session_state import SessionState

from embedviz.models.tensor_files import MAX_UPLOAD_BYTES

_LOG = logging.getLogger(__name__)
UPLOAD_BYTES_PER_SESSION = MAX_UPLOAD_BYTES  # one file of the largest size the page accepts
ISSUED_IDS_PER_SESSION = 64  # upload URLs a session may hold unused; older ones lapse


# ------------------------------------------------------------------------------------------------ URL values
# Links travel through chat apps and get cut, doubled or edited, so ``?rope_m=inf`` or ``?ctx_method=`` must open
# the page at its defaults, the way Streamlit already treats ``?rope_m=abc``. Streamlit 1.67 seeds a URL-bound
# widget in ``SessionState._seed_widget_from_url`` and turns ValueError / TypeError / IndexError into "use the
# default", but:
# a. an integer ``number_input`` given ``inf``, ``-inf``, ``1e999`` or a 5,000-digit number raises OverflowError
#    (``int(float("inf"))`` in ``NumberInputSerde.deserialize``), which escapes as a traceback with server paths;
# b. an empty value (``?key=``) of a required ``segmented_control`` is stored as ``None``: its registration says
#    ``clearable=True`` whatever ``required`` is, so the page receives no choice at all;
# c. a text longer than the field's ``max_chars`` is cut without a word, so a reader sees part of what was sent.
# The wrap sends a and b down Streamlit's own invalid-value path (the parameter leaves the URL, the widget shows
# its default) and says c in a toast (tests/app/test_url_guard.py). Minimal reproduction, streamlit==1.67.0:
#     st.number_input("n", 0, 100, 5, key="n", bind="query-params")            # /?n=inf -> OverflowError
#     st.segmented_control("c", ["a", "b"], default="a", key="c", required=True, bind="query-params")  # /?c= -> None

# Value types whose empty URL value means "no value", which no embedviz widget allows (text inputs are
# "string_value": for them an empty value is an empty text, kept as it is).
# What says a cut in the reader's language (embedviz.app.widgets.url_cut_toast, given to ``install``): the catalog
# reads the run's language through this module, so this module cannot import it.
_url_cut_notice: Callable[[str, int, int], None] | None = None
_NEVER_EMPTY = {"int_value", "double_value", "bool_value", "string_array_value", "int_array_value",
                "double_array_value"}


def _guard_url_seed(seed):
    @functools.wraps(seed)
    def seed_or_default(self, metadata, user_key, widget_id, url_value):
        if is_empty_url_value(url_value) and metadata.value_type in _NEVER_EMPTY:
            self._clear_url_param(user_key)
            return False
        try:
            seeded = seed(self, metadata, user_key, widget_id, url_value)
        except (OverflowError, ArithmeticError, RecursionError, MemoryError):
            self._clear_url_param(user_key)
            return False
        sent = url_value[-1] if isinstance(url_value, list) else url_value
        kept = self._new_session_state[user_key] if seeded else None
        if isinstance(kept, str) and metadata.value_type == "string_value" and len(kept) < len(sent):
            if _url_cut_notice is not None:
                _url_cut_notice(user_key, len(kept), len(sent))
        return seeded

    seed_or_default.embedviz_compat = True
    return seed_or_default


# ------------------------------------------------------------------------------------------------ clear_cache


def _refuse_clear_cache(handle):
    @functools.wraps(handle)
    def refused(self) -> None:
        # the caches are the server's, shared by every session: no client decides to empty them
        _LOG.warning("refused a clear_cache request from session %s", getattr(self, "id", "?"))

    refused.embedviz_compat = True
    return refused


# ------------------------------------------------------------------------------------------------ uploads


class _Issued:
    """The file ids the server handed to each session, newest last (a bounded, thread-safe record)."""

    def __init__(self) -> None:
        self._ids: dict[str, OrderedDict[str, None]] = defaultdict(OrderedDict)
        self._lock = threading.Lock()

    def add(self, session_id: str, file_ids) -> None:
        with self._lock:
            ids = self._ids[session_id]
            for file_id in file_ids:
                ids[file_id] = None
            while len(ids) > ISSUED_IDS_PER_SESSION:
                ids.popitem(last=False)

    def knows(self, session_id: str, file_id: str) -> bool:
        with self._lock:
            return file_id in self._ids.get(session_id, ())

    def forget(self, session_id: str) -> None:
        with self._lock:
            self._ids.pop(session_id, None)


def guard_uploads(store: MemoryUploadedFileManager) -> MemoryUploadedFileManager:
    """Wrap one upload store's methods (this instance only: AppTest keeps its own store, filled without a server):
    ids are recorded when issued, an upload under any other id is refused, a session's older files make room."""
    if getattr(store, "embedviz_compat", False):
        return store
    issued = _Issued()
    get_upload_urls, add_file, remove_session_files = (store.get_upload_urls, store.add_file,
                                                       store.remove_session_files)

    def recorded(session_id, file_names):
        infos = get_upload_urls(session_id, file_names)
        issued.add(session_id, [info.file_id for info in infos])
        return infos

    def bounded(session_id, file):
        if not issued.knows(session_id, file.file_id):
            from starlette.exceptions import HTTPException  # the server's own error type: a 403, not a 500

            _LOG.warning("refused an upload under a file id never issued to session %s", session_id)
            raise HTTPException(status_code=403, detail="Unknown file id")
        with store._lock:  # the store's own lock guards file_storage
            held = store.file_storage.get(session_id, {})
            older = [(fid, len(rec.data)) for fid, rec in held.items() if fid != file.file_id]  # oldest first
        total = sum(size for _, size in older) + len(file.data)
        for fid, size in older:
            if total <= UPLOAD_BYTES_PER_SESSION:
                break
            store.remove_file(session_id, fid)
            total -= size
        add_file(session_id, file)

    def removed(session_id):
        issued.forget(session_id)
        return remove_session_files(session_id)

    store.get_upload_urls, store.add_file, store.remove_session_files = recorded, bounded, removed
    store.embedviz_compat = True
    return store


# ------------------------------------------------------------------------------------------------ components


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


# ------------------------------------------------------------------------------------------------ per-run work


def _theme_once(populate):
    """Every script run's ``new_session`` message carries the theme, which Streamlit rebuilds from the config each
    time (six sections, each read option by option: ~0.75 ms of a rerun under a class's burst). The config is read
    once at start and not watched on a server (``fileWatcherType none``): the built messages are kept per section
    and copied, and dropped whenever Streamlit parses its config again."""
    built: dict[str, object] = {}

    def forget() -> None:
        built.clear()

    st_config.on_config_parsed(forget, force_connect=True)

    @functools.wraps(populate)
    def populate_from_copy(msg, section: str = "theme") -> None:
        held = built.get(section)
        if held is None:
            held = type(msg)()
            populate(held, section)
            built[section] = held
        if held.ListFields():  # an empty theme leaves the message untouched (not even marked present)
            msg.CopyFrom(held)

    populate_from_copy.embedviz_compat = True
    return populate_from_copy


SMALL_TABLE_CELLS = 2_000  # a table this small is built from its values alone; bigger ones are converted each run
SMALL_TABLES_KEPT = 256
_PLAIN = (str, int, float, bool, type(None))


def _small_table_key(data) -> tuple | None:
    """A key that equal tables share (a dict of column name -> list of plain values: what st.table gets from the
    pages), or None for anything else. Each value's type is in it: 1, 1.0 and True are equal in Python, not in
    Arrow."""
    if type(data) is not dict or not all(isinstance(k, str) and type(v) in (list, tuple) for k, v in data.items()):
        return None
    if sum(len(v) for v in data.values()) > SMALL_TABLE_CELLS:
        return None
    key = []
    for name, column in data.items():
        if not all(isinstance(x, _PLAIN) for x in column):
            return None
        key.append((name, tuple((type(x), x) for x in column)))
    return tuple(key)


def _small_table_memo(convert):
    """st.table's conversions of the same small table give the same answer: its Arrow bytes (pandas, then Arrow:
    ~3.7 ms on an idle core for a five-row table of translated texts, a str subclass pandas keeps as objects) and
    whether its index is hidden (a DataFrame built only to look at its index). Kept per table's values, a bounded
    number of tables per process."""
    kept: OrderedDict[tuple, object] = OrderedDict()
    lock = threading.Lock()

    @functools.wraps(convert)
    def memo(data, *args, **kwargs):
        key = _small_table_key(data)
        if key is None:
            return convert(data, *args, **kwargs)
        key = (key, args, tuple(sorted(kwargs.items())))
        with lock:
            if key in kept:
                kept.move_to_end(key)
                return kept[key]
        value = convert(data, *args, **kwargs)
        with lock:
            kept[key] = value
            while len(kept) > SMALL_TABLES_KEPT:
                kept.popitem(last=False)
        return value

    memo.embedviz_compat = True
    return memo


def _wake_once(call_soon):
    """A run hands each message to the event loop by ``call_soon_threadsafe``: a write to the loop's wake-up socket
    each, which gives the GIL away. Queued per session in order, the loop is woken once per batch it has not taken."""

    @functools.wraps(call_soon)
    def call_soon_batched(self, callback) -> None:
        queue = self.__dict__.get("_embedviz_calls") or self.__dict__.setdefault("_embedviz_calls", _Calls())
        with queue.lock:
            queue.calls.append(callback)
            if queue.scheduled:
                return
            queue.scheduled = True
        call_soon(self, queue.drain)

    call_soon_batched.embedviz_compat = True
    return call_soon_batched


class _Calls:
    """One session's callbacks waiting for the event loop, in the order they were made."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.calls: list = []
        self.scheduled = False

    def drain(self) -> None:
        while True:
            with self.lock:
                if not self.calls:
                    self.scheduled = False
                    return
                calls, self.calls = self.calls, []
            for call in calls:
                try:
                    call()
                except Exception:  # noqa: BLE001 - as the loop itself does: log it, and go on with the next
                    _LOG.exception("a session's event-loop callback failed")


class _MessageFloorOnce:
    """Streamlit's config as its forward-message cache sees it: the size floor it reads for every message is read
    once per config parse (a server option), not under the config lock, which a hundred script threads queued for
    (7% of the GIL in a class's burst); everything else goes to the config module."""

    KEY = "global.minCachedMessageSize"

    def __init__(self, config) -> None:
        self._config = self.__wrapped__ = config  # (__wrapped__: what inspect.unwrap, and the tests, take it off to)
        self._floor = None
        config.on_config_parsed(self.forget, force_connect=True)
        self.embedviz_compat = True

    def forget(self) -> None:
        self._floor = None

    def get_option(self, key: str):
        if key != self.KEY:
            return self._config.get_option(key)
        if self._floor is None:
            self._floor = self._config.get_option(key)
        return self._floor

    def __getattr__(self, name: str):
        return getattr(self._config, name)


def _send_wake_once(enqueued):
    """Each message queued for a browser sets the runtime's "send" event through ``call_soon_threadsafe``, even while
    it is set. The loop clears it before it sends what is queued, so a message queued while it is set is sent."""

    @functools.wraps(enqueued)
    def enqueued_once(self) -> None:
        objects = getattr(self, "_async_objs", None)
        if objects is None or not objects.need_send_data.is_set():
            enqueued(self)

    enqueued_once.embedviz_compat = True
    return enqueued_once


# ------------------------------------------------------------------------------------------------ the session


def session_id() -> str:
    """The running script's session id; "" outside a server's script run (a notebook, a plain test)."""
    ctx = get_script_run_ctx()
    return ctx.session_id if ctx else ""


def this_run() -> dict:
    """A dict that lives as long as the running script run (each run, a fragment's too, gets a new one): for what a
    run reads many times and cannot change within it, such as the reader's language. Outside a run, a throwaway."""
    ctx = get_script_run_ctx(suppress_warning=True)
    if ctx is None:
        return {}
    run, held = ctx.parallel_coordinator, getattr(ctx, "_embedviz_run", None)  # (the coordinator: new every run)
    if held is None or held[0] is not run:
        held = ctx._embedviz_run = (run, {})
    return held[1]


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


# ------------------------------------------------------------------------------------------------ install

_PATCHES = ((SessionState, "_seed_widget_from_url", _guard_url_seed),
            (AppSession, "_handle_clear_cache_request", _refuse_clear_cache),
            (AppSession, "_call_soon_on_event_loop", _wake_once),
            (Runtime, "_enqueued_some_message", _send_wake_once),
            (forward_msg_cache, "config", _MessageFloorOnce),
            (app_session, "_populate_theme_msg", _theme_once),
            (dataframe_util, "convert_anything_to_arrow_bytes", _small_table_memo),
            (st_table, "_compute_hide_index", _small_table_memo))


def install(*, url_cut_notice: Callable[[str, int, int], None] | None = None) -> None:
    """Install every patch once per process (idempotent): the frame, and whatever runs a page script without it
    (AppTest on app_pages/, a benchmark). ``url_cut_notice(key, kept, sent)`` tells the reader a link's text was cut
    (the server's start-up installs without one; the frame's first run gives it)."""
    global _url_cut_notice
    if url_cut_notice is not None:
        _url_cut_notice = url_cut_notice
    for owner, name, wrap in _PATCHES:
        if not getattr(getattr(owner, name), "embedviz_compat", False):
            setattr(owner, name, wrap(getattr(owner, name)))
    # the served process's one upload store; under AppTest the Runtime is a stand-in (a MagicMock) and is skipped
    if Runtime.exists() and type(Runtime.instance()) is Runtime:
        store = Runtime.instance().uploaded_file_mgr
        if isinstance(store, MemoryUploadedFileManager):
            guard_uploads(store)
