"""The one place embedviz reaches into Streamlit's runtime: small patches a classroom server needs, installed by
the frame (``install()`` in ``frame.run``), never as a side effect of an import.

Streamlit is pinned in requirements.txt; tests/app/test_compat.py fails if a new version changes what a patch wraps,
and tests/e2e/test_hostile_protocol.py shows each refusal against a real server on loopback.

1. URL values a widget cannot take (``url_guard``): the widget's default, never a traceback.
2. ``clear_cache`` requests are refused. Streamlit clears every ``st.cache_data`` and ``st.cache_resource`` of the
   process when any client sends that BackMsg: the bundled model and the pre-trained default run for every student
   on the server. Sent every 0.5 s it made a Trained embedding open 16x slower. A teacher who needs fresh caches
   restarts the server.
3. Uploads: the upload endpoint stores whatever a session PUTs under any file id while its socket is open (five
   150 MB files under made-up ids: +750 MB in 5 s), and ``server.maxUploadSize`` bounds one file, not a session.
   Here a file id must be one the server issued to that session (the browser asks for upload URLs first; a
   made-up id is answered 403), and a session holds at most ``UPLOAD_BYTES_PER_SESSION``: a new file releases the
   session's older ones first, which no widget can be showing any more (embedviz's uploader takes one file, and
   the page releases its bytes once read).
"""
from __future__ import annotations

import functools
import logging
import threading
from collections import OrderedDict, defaultdict

from streamlit import runtime
from streamlit.runtime.app_session import AppSession
from streamlit.runtime.memory_uploaded_file_manager import MemoryUploadedFileManager

from embedviz.app import url_guard
from embedviz.tensor_files import MAX_UPLOAD_BYTES

_LOG = logging.getLogger(__name__)
UPLOAD_BYTES_PER_SESSION = MAX_UPLOAD_BYTES  # one file of the largest size the page accepts
ISSUED_IDS_PER_SESSION = 64  # upload URLs a session may hold unused; older ones lapse


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


_ISSUED = _Issued()


def _recording_urls(get_upload_urls):
    @functools.wraps(get_upload_urls)
    def recorded(self, session_id, file_names):
        infos = get_upload_urls(self, session_id, file_names)
        _ISSUED.add(session_id, [info.file_id for info in infos])
        return infos

    recorded.embedviz_compat = True
    return recorded


def _bounded_add(add_file):
    @functools.wraps(add_file)
    def bounded(self, session_id, file):
        # AppTest stores its uploads without a server (no Runtime, no issued ids): only a served session is checked
        if runtime.exists() and not _ISSUED.knows(session_id, file.file_id):
            from starlette.exceptions import HTTPException  # the server's own error type: a 403, not a 500

            _LOG.warning("refused an upload under a file id never issued to session %s", session_id)
            raise HTTPException(status_code=403, detail="Unknown file id")
        with self._lock:  # the manager's own lock guards file_storage
            held = self.file_storage.get(session_id, {})
            older = [(fid, len(rec.data)) for fid, rec in held.items() if fid != file.file_id]  # oldest first
        total = sum(size for _, size in older) + len(file.data)
        for fid, size in older:
            if total <= UPLOAD_BYTES_PER_SESSION:
                break
            self.remove_file(session_id, fid)
            total -= size
        add_file(self, session_id, file)

    bounded.embedviz_compat = True
    return bounded


def _forgetting(remove_session_files):
    @functools.wraps(remove_session_files)
    def removed(self, session_id):
        _ISSUED.forget(session_id)
        return remove_session_files(self, session_id)

    removed.embedviz_compat = True
    return removed


# ------------------------------------------------------------------------------------------------ install

_PATCHES = (
    (AppSession, "_handle_clear_cache_request", _refuse_clear_cache),
    (MemoryUploadedFileManager, "get_upload_urls", _recording_urls),
    (MemoryUploadedFileManager, "add_file", _bounded_add),
    (MemoryUploadedFileManager, "remove_session_files", _forgetting),
)


def install() -> None:
    """Install every patch once per process (idempotent); the frame calls this before anything else runs."""
    url_guard.install()
    for owner, name, wrap in _PATCHES:
        if not getattr(getattr(owner, name), "embedviz_compat", False):
            setattr(owner, name, wrap(getattr(owner, name)))
