"""The patches a classroom server must not run without: what a stranger's client could otherwise do to everyone's
server, and the one event a class's seats depend on. Each has ``fits()``: whether what it wraps is still there in
the shape it was written for (``install`` stops the server on a Streamlit where one no longer fits).

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
4. Component states a browser never sends (``_bound_component_states``): a long trigger list, a state that is no
   JSON or nested too deep, dropped before any callback runs.
5. A session's end (``on_session_end``): its websocket closed, told to whoever holds something for it (a class
   gives the seat back; without it a closed tab would keep its seat until the class expires).
"""
from __future__ import annotations

import functools
import inspect
import json
import logging
import threading
from collections import OrderedDict, defaultdict
from collections.abc import Callable

from streamlit.runtime import Runtime
from streamlit.runtime.app_session import AppSession
from streamlit.runtime.memory_uploaded_file_manager import MemoryUploadedFileManager
from streamlit.runtime.state.query_params import is_empty_url_value
from streamlit.runtime.state.session_state import SessionState

from embedviz.app.compat.access import session_id
from embedviz.models.tensor_files import MAX_UPLOAD_BYTES

_LOG = logging.getLogger(__name__)
UPLOAD_BYTES_PER_SESSION = MAX_UPLOAD_BYTES  # one file of the largest size the page accepts
ISSUED_IDS_PER_SESSION = 64  # upload URLs a session may hold unused; older ones lapse


def _takes(owner, name: str, params: list[str]) -> str | None:
    """None if ``owner.name`` exists and takes exactly the positional ``params`` (more keyword-only ones only with a
    default: a wrap passes them on); else what is different."""
    target = getattr(owner, name, None)
    if target is None:
        return f"{owner.__name__}.{name} is gone"
    found = inspect.signature(inspect.unwrap(target)).parameters.values()
    positional = [p.name if p.kind is not p.VAR_POSITIONAL else f"*{p.name}" for p in found
                  if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD, p.VAR_POSITIONAL)]
    required = [p.name for p in found if p.kind is p.KEYWORD_ONLY and p.default is p.empty]
    if positional != params or required:
        shown = ", ".join(positional + [f"{n}=" for n in required])
        return f"{owner.__name__}.{name} takes ({shown}), not ({', '.join(params)})"
    return None


def _source_says(fn, pattern: str, what: str) -> str | None:
    import re

    try:
        source = inspect.getsource(inspect.unwrap(fn))
    except (OSError, TypeError):
        return f"{what}: its source cannot be read"
    return None if re.search(pattern, source) else what


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
# reads the run's language through this package, so this package cannot import it.
url_cut_notice: Callable[[str, int, int], None] | None = None
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
            if url_cut_notice is not None:
                url_cut_notice(user_key, len(kept), len(sent))
        return seeded

    seed_or_default.embedviz_compat = True
    return seed_or_default


def _url_seed_fits() -> str | None:
    return (_takes(SessionState, "_seed_widget_from_url", ["self", "metadata", "user_key", "widget_id", "url_value"])
            or _takes(SessionState, "_clear_url_param", ["self", "user_key"]))


# ------------------------------------------------------------------------------------------------ clear_cache


def _refuse_clear_cache(handle):
    @functools.wraps(handle)
    def refused(self) -> None:
        # the caches are the server's, shared by every session: no client decides to empty them
        _LOG.warning("refused a clear_cache request from session %s", getattr(self, "id", "?"))

    refused.embedviz_compat = True
    return refused


def _clear_cache_fits() -> str | None:
    return (_takes(AppSession, "_handle_clear_cache_request", ["self"])
            or _source_says(AppSession.handle_backmsg,
                            r'msg_type == "clear_cache":\s*self\._handle_clear_cache_request\(\)',
                            "AppSession.handle_backmsg no longer sends clear_cache to _handle_clear_cache_request"))


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


def _uploads_fit() -> str | None:
    store = MemoryUploadedFileManager("/_stcore/upload_file")
    return (_takes(MemoryUploadedFileManager, "add_file", ["self", "session_id", "file"])
            or _takes(MemoryUploadedFileManager, "get_upload_urls", ["self", "session_id", "file_names"])
            or _takes(MemoryUploadedFileManager, "remove_session_files", ["self", "session_id"])
            or _takes(MemoryUploadedFileManager, "remove_file", ["self", "session_id", "file_id"])
            or (None if isinstance(getattr(store, "file_storage", None), dict) and hasattr(store, "_lock")
                else "MemoryUploadedFileManager keeps its files in no file_storage dict under a _lock"))


# ------------------------------------------------------------------------------------------------ component states
# A v2 component's triggers reach the server as one JSON list per rerun, and Streamlit 1.67
# (``SessionState._dispatch_trigger_callbacks``) calls the component's callback once per entry; each call reads the
# component's state, which walks the whole list again (``presentation.make_bidi_component_presenter``). One 440 KB
# message of 10,000 "commit" events cost 12 s of CPU, 100,000 under the 5 MB message cap about 15 minutes. A state
# that is no JSON, or nested past Python's recursion limit, raises while Streamlit reads it, in every later run of
# that session until a reload; one that is JSON shadows the component's triggers in every later run (the state's
# keys win over the triggers' in the merged view a callback reads). embedviz's components keep no state and send
# one trigger at a time with a small value (livefig.js, classroom_follow.js; tests/test_hostile_session.py checks that
# they never call setStateValue), so a state, or a trigger past these bounds, is no browser's: it is dropped before
# any callback runs, with a log line (the trigger is simply not fired).
COMPONENT_JSON_BYTES = 16_384
COMPONENT_JSON_DEPTH = 16
COMPONENT_TRIGGERS = 8  # events in one trigger list: a browser batches the few it fired since its last rerun


def _not_json(constant: str):
    raise ValueError(f"{constant} is not JSON")  # json.loads takes NaN and Infinity by default; a browser never sends them


def _too_deep(value) -> bool:
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, (list, dict)):
            if depth > COMPONENT_JSON_DEPTH:
                return True
            stack.extend((x, depth + 1) for x in (item.values() if isinstance(item, dict) else item))
    return False


def component_state_problem(state) -> str | None:
    """Why a widget state is no component state a browser sends (None for any other kind of widget, or a fine one)."""
    field = state.WhichOneof("value")
    if field == "json_value":
        return "a component state (embedviz's components keep none)"
    if field != "json_trigger_value":
        return None
    text = state.json_trigger_value
    if not text:
        return None  # a trigger cleared
    if len(text) > COMPONENT_JSON_BYTES:
        return f"{len(text):,} bytes"
    try:
        value = json.loads(text, parse_constant=_not_json)
    except (ValueError, RecursionError):
        return "not JSON"
    if _too_deep(value):
        return "nested too deep"
    if isinstance(value, list) and len(value) > COMPONENT_TRIGGERS:
        return f"{len(value):,} events"
    return None


def _bound_component_states(rerun):
    @functools.wraps(rerun)
    def bounded(self, fresh_widget_states, *args, **kwargs):
        if fresh_widget_states is not None:
            kept = []
            for state in fresh_widget_states.widgets:
                problem = component_state_problem(state)
                if problem is None:
                    kept.append(state)
                else:
                    _LOG.warning("dropped a component state of session %s: %s", session_id() or "?", problem)
            if len(kept) != len(fresh_widget_states.widgets):
                fresh_widget_states = type(fresh_widget_states)(widgets=kept)
        return rerun(self, fresh_widget_states, *args, **kwargs)

    bounded.embedviz_compat = True
    return bounded


def _component_states_fit() -> str | None:
    from streamlit.proto.WidgetStates_pb2 import WidgetState

    fields = set(WidgetState.DESCRIPTOR.fields_by_name)
    return (_takes(SessionState, "on_script_will_rerun", ["self", "fresh_widget_states"])
            or (None if {"json_value", "json_trigger_value"} <= fields
                else "WidgetState has no json_value / json_trigger_value"))


# ------------------------------------------------------------------------------------------------ a session's end
_session_end: list[Callable[[str], None]] = []


def on_session_end(listener: Callable[[str], None]) -> None:
    """Call ``listener(session_id)`` when a browser session's websocket closes: a closed tab, a reload, a lost
    network (Streamlit keeps the session a while for a reconnect, which resumes it: its next run sees it live
    again). Called on the event loop: the listener must not wait for anything."""
    if listener not in _session_end:
        _session_end.append(listener)


def _tell_session_end(end):
    @functools.wraps(end)
    def ended(self, session_id: str, *args, **kwargs):
        live = self._session_mgr.is_active_session(session_id)
        result = end(self, session_id, *args, **kwargs)
        if live and not self._session_mgr.is_active_session(session_id):
            for listener in list(_session_end):
                try:
                    listener(session_id)
                except Exception:  # noqa: BLE001 - one listener's failure must not keep the others uninformed
                    _LOG.exception("a session-end listener failed")
        return result

    ended.embedviz_compat = True
    return ended


def _session_end_fits() -> str | None:
    from streamlit.runtime.websocket_session_manager import WebsocketSessionManager

    return (_takes(Runtime, "disconnect_session", ["self", "session_id"])
            or _takes(Runtime, "close_session", ["self", "session_id"])
            or _takes(WebsocketSessionManager, "is_active_session", ["self", "session_id"]))


# ------------------------------------------------------------------------------------------------ the table
# (owner, attribute, wrap, fits): what install() wraps, and the check of the target it wraps
PATCHES = ((SessionState, "_seed_widget_from_url", _guard_url_seed, _url_seed_fits),
           (AppSession, "_handle_clear_cache_request", _refuse_clear_cache, _clear_cache_fits),
           (SessionState, "on_script_will_rerun", _bound_component_states, _component_states_fit),
           (Runtime, "disconnect_session", _tell_session_end, _session_end_fits),
           (Runtime, "close_session", _tell_session_end, _session_end_fits))
UPLOADS_FIT = _uploads_fit  # the upload guard wraps the served store's instance (install), not a class attribute


def moved() -> list[str]:
    """What no longer fits in the running Streamlit, one line per guard whose target moved (empty: all fit)."""
    checks = {fits: None for *_, fits in PATCHES} | {UPLOADS_FIT: None}  # each once, in order
    found = []
    for fits in checks:
        try:
            problem = fits()
        except Exception as error:  # noqa: BLE001 - a check that cannot run is a target that moved
            problem = f"{fits.__name__}: {error!r}"
        if problem:
            found.append(problem)
    return found
