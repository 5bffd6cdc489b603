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
    AppTest.from_file(str(ROOT / "app.py"), default_timeout=60).run()
    for owner, name, _ in compat._PATCHES:
        assert getattr(getattr(owner, name), "embedviz_compat", False), f"{owner.__name__}.{name}"


@pytest.fixture
def store():
    compat.install()
    return MemoryUploadedFileManager("/_stcore/upload_file")


def _file(file_id: str, size: int) -> UploadedFileRec:
    return UploadedFileRec(file_id=file_id, name="t.npy", type="application/octet-stream", data=bytes(size))


def test_a_session_keeps_its_newest_uploads_within_its_cap(store, monkeypatch):
    monkeypatch.setattr(compat, "UPLOAD_BYTES_PER_SESSION", 250)
    for i in range(5):
        store.add_file("s1", _file(f"f{i}", 100))
    store.add_file("s2", _file("g", 100))
    assert [rec.file_id for rec in store.get_files("s1", [f"f{i}" for i in range(5)])] == ["f3", "f4"]
    assert store.get_files("s2", ["g"])  # another session's file is not its neighbour's to evict
    store.add_file("s1", _file("f4", 200))  # the same id again replaces itself, and pushes out the older one
    assert [rec.file_id for rec in store.get_files("s1", ["f3", "f4"])] == ["f4"]


def test_a_served_session_may_only_fill_file_ids_the_server_issued(store, monkeypatch):
    from starlette.exceptions import HTTPException

    monkeypatch.setattr(compat.runtime, "exists", lambda: True)
    with pytest.raises(HTTPException) as refused:
        store.add_file("s1", _file("made-up", 10))
    assert refused.value.status_code == 403 and not store.get_files("s1", ["made-up"])
    (info,) = store.get_upload_urls("s1", ["t.npy"])
    store.add_file("s1", _file(info.file_id, 10))
    assert store.get_files("s1", [info.file_id])
    with pytest.raises(HTTPException):  # issued to s1, not to s2
        store.add_file("s2", _file(info.file_id, 10))
    store.remove_session_files("s1")
    with pytest.raises(HTTPException):  # a closed session's ids lapse with it
        store.add_file("s1", _file(info.file_id, 10))
