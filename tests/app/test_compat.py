"""embedviz/app/compat.py: what each patch wraps is still what Streamlit does (these fail when a new Streamlit
changes it), the frame installs every patch, and the patched upload store refuses and evicts as it says.
The refusals against a real server, over its websocket and HTTP: tests/test_hostile_server.py."""
from __future__ import annotations

import inspect
import re

import pytest
import streamlit
from streamlit.runtime.app_session import AppSession
from streamlit.runtime.memory_uploaded_file_manager import MemoryUploadedFileManager
from streamlit.runtime.uploaded_file_manager import UploadedFileRec
from streamlit.testing.v1 import AppTest

from embedviz.app import compat
from tests.conftest import ROOT


def original(fn):
    return inspect.unwrap(fn)  # the patches keep Streamlit's function as __wrapped__ (functools.wraps)


def test_streamlit_is_the_version_the_patches_were_written_for():
    pin = re.search(r"^streamlit==(\S+)", (ROOT / "requirements.txt").read_text(), re.M).group(1)
    assert streamlit.__version__ == pin


def test_clear_cache_is_still_dispatched_to_the_method_that_is_refused():
    dispatch = inspect.getsource(AppSession.handle_backmsg)
    assert re.search(r'msg_type == "clear_cache":\s*self\._handle_clear_cache_request\(\)', dispatch)
    clears = inspect.getsource(original(AppSession._handle_clear_cache_request))
    assert "cache_data.clear()" in clears and "cache_resource.clear()" in clears


def test_uploads_still_reach_the_store_through_the_wrapped_methods():
    from streamlit.runtime import app_session
    from streamlit.web.server.starlette import starlette_routes

    route = inspect.getsource(starlette_routes.create_upload_routes)
    assert "upload_mgr.add_file(" in route and "session_id=session_id" in route and "file_id=file_id" in route
    assert "get_upload_urls(" in inspect.getsource(app_session.AppSession._handle_file_urls_request)
    sig = {name: list(inspect.signature(original(getattr(MemoryUploadedFileManager, name))).parameters)
           for name in ("add_file", "get_upload_urls", "remove_session_files", "remove_file")}
    assert sig == {"add_file": ["self", "session_id", "file"], "get_upload_urls": ["self", "session_id", "file_names"],
                   "remove_session_files": ["self", "session_id"], "remove_file": ["self", "session_id", "file_id"]}
    store = MemoryUploadedFileManager("/_stcore/upload_file")
    assert isinstance(store.file_storage, dict) and hasattr(store, "_lock")  # what the cap reads


def test_the_frame_installs_every_patch():
    """The class patches; the upload store's guard goes on the served process's store (AppTest's Runtime is a
    stand-in), which tests/test_hostile_server.py shows refusing."""
    AppTest.from_file(str(ROOT / "app.py"), default_timeout=60).run()
    for owner, name, _ in compat._PATCHES:
        assert getattr(getattr(owner, name), "embedviz_compat", False), f"{owner.__name__}.{name}"


@pytest.fixture
def store():
    return compat.guard_uploads(MemoryUploadedFileManager("/_stcore/upload_file"))


def _file(file_id: str, size: int) -> UploadedFileRec:
    return UploadedFileRec(file_id=file_id, name="t.npy", type="application/octet-stream", data=bytes(size))


def _issued(store, session_id: str, n: int = 1) -> list[str]:
    return [info.file_id for info in store.get_upload_urls(session_id, ["t.npy"] * n)]


def test_a_session_keeps_its_newest_uploads_within_its_cap(store, monkeypatch):
    monkeypatch.setattr(compat, "UPLOAD_BYTES_PER_SESSION", 250)
    ids = _issued(store, "s1", 5)
    for file_id in ids:
        store.add_file("s1", _file(file_id, 100))
    (g,) = _issued(store, "s2")
    store.add_file("s2", _file(g, 100))
    assert [rec.file_id for rec in store.get_files("s1", ids)] == ids[3:]
    assert store.get_files("s2", [g])  # another session's file is not its neighbour's to evict
    store.add_file("s1", _file(ids[4], 200))  # the same id again replaces itself, and pushes out the older one
    assert [rec.file_id for rec in store.get_files("s1", ids)] == ids[4:]


def test_a_session_may_only_fill_file_ids_the_server_issued(store):
    from starlette.exceptions import HTTPException

    with pytest.raises(HTTPException) as refused:
        store.add_file("s1", _file("made-up", 10))
    assert refused.value.status_code == 403 and not store.get_files("s1", ["made-up"])
    (file_id,) = _issued(store, "s1")
    store.add_file("s1", _file(file_id, 10))
    assert store.get_files("s1", [file_id])
    with pytest.raises(HTTPException):  # issued to s1, not to s2
        store.add_file("s2", _file(file_id, 10))
    store.remove_session_files("s1")
    with pytest.raises(HTTPException):  # a closed session's ids lapse with it
        store.add_file("s1", _file(file_id, 10))


def test_the_guard_leaves_other_stores_alone():
    plain = MemoryUploadedFileManager("/_stcore/upload_file")
    compat.guard_uploads(MemoryUploadedFileManager("/_stcore/upload_file"))
    plain.add_file("s1", _file("any-id", 10))  # AppTest's way: no server, no issued ids
    assert plain.get_files("s1", ["any-id"])


def test_a_declared_component_the_scan_missed_is_registered_from_pyproject(monkeypatch):
    """An editable install whose metadata do not mention streamlit is skipped by Streamlit's start-up scan."""
    import importlib

    from streamlit.components.v2.component_manager import BidiComponentManager

    from embedviz.app import live

    manager = BidiComponentManager()
    getter = importlib.import_module("streamlit.components.v2.get_bidi_component_manager")
    monkeypatch.setattr(getter, "get_bidi_component_manager", lambda: manager)
    monkeypatch.setattr(streamlit.components.v2, "component", lambda name, **kw: (name, kw))  # only the registration
    assert manager.get_component_asset_root(live.NAME) is None
    assert live._mount()[0] == live.NAME
    assert manager.get_component_asset_root(live.NAME) == live.ASSETS
