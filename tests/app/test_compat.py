"""embedviz/app/compat.py: what each patch wraps is still what Streamlit does (these fail when a new Streamlit
changes it), the frame installs every patch, and the patched upload store refuses and evicts as it says.
The refusals against a real server, over its websocket and HTTP: tests/test_hostile_server.py."""
from __future__ import annotations

import ast
import inspect
import os
import re
import subprocess
import sys

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
    stand-in), which tests/test_hostile_server.py shows refusing. The patches are taken off first (the page tests'
    conftest installs them as the frame would), so only the frame's run can put them back."""
    for owner, name, _ in compat._PATCHES:
        setattr(owner, name, original(getattr(owner, name)))
    try:
        AppTest.from_file(str(ROOT / "app.py"), default_timeout=60).run()
        for owner, name, _ in compat._PATCHES:
            assert getattr(getattr(owner, name), "embedviz_compat", False), f"{owner.__name__}.{name}"
    finally:
        compat.install()


def test_importing_the_streamlit_layer_patches_nothing():
    """A notebook importing i18n, a view or the frame leaves Streamlit as installed: only ``install()`` patches."""
    modules = sorted(f"embedviz.app.{p.stem}" for p in (ROOT / "embedviz" / "app").glob("*.py") if p.stem != "__init__")
    probe = (f"import importlib\nfor m in {modules!r}: importlib.import_module(m)\n"
             "from embedviz.app import compat\n"
             "print([f'{o.__name__}.{n}' for o, n, _ in compat._PATCHES if getattr(getattr(o, n), 'embedviz_compat', 0)])")
    out = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, timeout=120,
                         env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip().splitlines()[-1] == "[]"


# Streamlit's public API is ``import streamlit as st`` (st.*, st.components.v1/v2, st.testing in tests); the rest
# (streamlit.runtime, .web, .elements, .proto, private names) changes between versions without notice.
def _streamlit_internals(path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "streamlit" \
                and node.module not in ("streamlit", "streamlit.components.v1"):
            yield node.lineno, f"from {node.module} import ..."
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("streamlit.") and alias.name != "streamlit.components.v1":
                    yield node.lineno, f"import {alias.name}"
        elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in ("st",
                                                                                                        "streamlit"):
            if node.attr.startswith("_") or node.attr in ("runtime", "web", "elements", "proto"):
                yield node.lineno, f"{node.value.id}.{node.attr}"
        elif isinstance(node, ast.keyword) and node.arg and node.arg.startswith("_validate"):
            yield node.lineno, f"{node.arg}= (plotly's private argument)"


def test_no_module_but_compat_reaches_into_streamlit():
    files = [ROOT / "app.py", *(ROOT / "app_pages").rglob("*.py"), *(ROOT / "embedviz").rglob("*.py")]
    found = [f"{path.relative_to(ROOT)}:{line}: {what}" for path in files if path.name != "compat.py"
             for line, what in _streamlit_internals(path)]
    assert found == [], "route these through embedviz/app/compat.py"
    assert list(_streamlit_internals(ROOT / "embedviz" / "app" / "compat.py"))  # the scan sees what compat does


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


def test_a_components_mount_function_is_made_once_per_manager(monkeypatch):
    """Registering a component checks its files on disk: a rerun reuses the mount function made on the same
    runtime's manager; another manager (another runtime, as AppTest makes per test) registers it again."""
    import importlib

    from streamlit.components.v2.component_manager import BidiComponentManager

    from embedviz.app import live

    managers = [BidiComponentManager()]
    getter = importlib.import_module("streamlit.components.v2.get_bidi_component_manager")
    monkeypatch.setattr(getter, "get_bidi_component_manager", lambda: managers[-1])
    made = []
    monkeypatch.setattr(streamlit.components.v2, "component", lambda name, **kw: made.append(name) or object())
    monkeypatch.setattr(compat, "_MOUNTS", {})
    first = live._mount()
    assert live._mount() is first and made == [live.NAME]
    managers.append(BidiComponentManager())
    again = live._mount()
    assert again is not first and made == [live.NAME, live.NAME]
    assert managers[-1].get_component_asset_root(live.NAME) == live.ASSETS


def test_a_small_table_is_converted_once_and_equal_tables_share_the_answer():
    import pyarrow as pa
    from streamlit import dataframe_util
    from streamlit.elements import table as st_table

    from embedviz.app.markup import Markup

    calls = []

    def convert(data):
        calls.append(data)
        return dataframe_util.convert_anything_to_arrow_bytes.__wrapped__(data)

    memo = compat._small_table_memo(convert)
    table = {Markup("Scheme"): [Markup("Sinusoidal"), Markup("RoPE")], "n": [0, 1]}
    first = memo(table)
    assert memo({Markup("Scheme"): [Markup("Sinusoidal"), Markup("RoPE")], "n": [0, 1]}) == first
    assert len(calls) == 1  # an equal table built anew is the same table
    # what Streamlit's own conversion gives, read back by Arrow itself
    assert first == original(dataframe_util.convert_anything_to_arrow_bytes)(table)
    assert pa.ipc.open_stream(first).read_all().column("n").to_pylist() == [0, 1]
    # 1, 1.0 and True are equal keys in Python but different columns in Arrow
    answers = [memo({"n": [value]}) for value in (1, 1.0, True)]
    kinds = [pa.ipc.open_stream(a).read_all().schema.field("n").type for a in answers]
    assert kinds == [pa.int64(), pa.float64(), pa.bool_()]
    # a changed value is another table; anything but a small dict of plain values is converted every time
    assert pa.ipc.open_stream(memo({"n": [0, 2]})).read_all().column("n").to_pylist() == [0, 2]
    before = len(calls)
    memo({"n": [[1, 2]]}), memo({"n": [[1, 2]]}), memo({"n": list(range(compat.SMALL_TABLE_CELLS + 1))})
    assert len(calls) == before + 3
    hide = compat._small_table_memo(original(st_table._compute_hide_index))
    assert hide(table, None) is original(st_table._compute_hide_index)(table, None) is True


def test_the_theme_is_built_from_the_config_once_and_copied_as_it_was_built():
    from streamlit import config
    from streamlit.proto.NewSession_pb2 import CustomThemeConfig
    from streamlit.runtime import app_session

    build = original(app_session._populate_theme_msg)
    calls = []

    def counted(msg, section="theme"):
        calls.append(section)
        build(msg, section)

    config.set_option("theme.primaryColor", "#123456")
    try:
        populate = compat._theme_once(counted)
        reference = CustomThemeConfig()
        build(reference, "theme")
        for _ in range(3):
            msg = CustomThemeConfig()
            populate(msg, "theme")
            assert msg == reference and msg.primary_color == "#123456"
        assert calls == ["theme"]
        empty = app_session.NewSession()  # a section with no option set leaves the message not even present
        populate(empty.custom_theme, "theme.sidebar")
        assert not empty.HasField("custom_theme")
    finally:
        config.set_option("theme.primaryColor", None)


def test_a_sessions_event_loop_calls_keep_their_order_and_wake_the_loop_once_per_batch():
    import asyncio
    import threading

    from streamlit.runtime import Runtime

    assert "call_soon_threadsafe(callback)" in inspect.getsource(original(AppSession._call_soon_on_event_loop))
    # every event of a script run (each message included) reaches the loop through it
    assert "self._call_soon_on_event_loop(" in inspect.getsource(original(AppSession._on_scriptrunner_event))
    assert "call_soon_threadsafe(async_objs.need_send_data.set)" in inspect.getsource(
        original(Runtime._enqueued_some_message))

    class Session:
        def __init__(self, loop):
            self._event_loop = loop

    async def a_run_on_another_thread():
        loop = asyncio.get_running_loop()
        session, done, seen, wakes = Session(loop), asyncio.Event(), [], []

        def call_soon(self, callback):  # Streamlit's: one call_soon_threadsafe per call
            wakes.append(callback)
            self._event_loop.call_soon_threadsafe(callback)

        batched = compat._wake_once(call_soon)

        def script_thread():
            for i in range(500):
                batched(session, lambda i=i: seen.append(i))
            batched(session, lambda: loop.call_soon(done.set))

        thread = threading.Thread(target=script_thread)
        thread.start()
        await done.wait()
        thread.join()
        return seen, wakes

    seen, wakes = asyncio.run(a_run_on_another_thread())
    assert seen == list(range(500))  # every call, in the order it was made
    assert 0 < len(wakes) <= 500  # the loop was woken once per batch it had not yet taken, not once per call


def test_a_failing_call_does_not_drop_the_calls_queued_after_it():
    calls = compat._Calls()
    seen = []
    calls.calls = [lambda: seen.append(1), lambda: 1 / 0, lambda: seen.append(3)]
    calls.scheduled = True
    calls.drain()
    assert seen == [1, 3] and calls.scheduled is False and calls.calls == []


def test_the_send_event_is_set_through_the_loop_only_when_it_is_not_set_already():
    import asyncio

    class Objects:
        need_send_data = asyncio.Event()

    class Runtime:
        _async_objs = Objects()

    sets = []
    enqueued = compat._send_wake_once(lambda self: sets.append(1))
    enqueued(Runtime())
    Objects.need_send_data.set()
    enqueued(Runtime()), enqueued(Runtime())
    Objects.need_send_data.clear()  # the loop cleared it and is sending: the next message sets it again
    enqueued(Runtime())
    assert sets == [1, 1]


def test_a_run_keeps_its_own_memo_and_the_next_run_starts_a_new_one(tmp_path):
    script = tmp_path / "page.py"
    script.write_text(
        "import streamlit as st\n"
        "from embedviz.app import compat\n"
        "memo = compat.this_run()\n"
        "assert compat.this_run() is memo and memo == {}\n"
        "memo['n'] = st.session_state.get('n', 0) + 1\n"
        "st.session_state['n'] = memo['n']\n"
        "st.session_state.setdefault('memos', []).append(id(memo))\n"
        "st.write(len(set(st.session_state['memos'])), compat.fragment_rerun())\n")
    at = AppTest.from_file(str(script)).run()
    at.run()
    assert not at.exception
    assert at.markdown[-1].value == "`2` `False`"  # two runs, two memos; neither a fragment's own run
    assert compat.this_run() == {}  # outside a run: a throwaway


def test_the_message_cache_floor_is_read_once_per_config_parse():
    from streamlit import config
    from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
    from streamlit.runtime import forward_msg_cache

    source = inspect.getsource(forward_msg_cache.populate_hash_if_needed)
    assert 'config.get_option("global.minCachedMessageSize")' in source  # still read there, for every message
    assert isinstance(forward_msg_cache.config, compat._MessageFloorOnce)  # the frame's patch (the conftest's)

    class Config:  # counts what reaches Streamlit's config module
        reads: list[str] = []
        parsed = []

        def get_option(self, key):
            self.reads.append(key)
            return config.get_option(key)

        def on_config_parsed(self, func, force_connect=False):
            self.parsed.append(func)

        server_sentinel = "another attribute"

    once = compat._MessageFloorOnce(Config())
    for _ in range(3):
        msg = ForwardMsg()
        msg.delta.new_element.markdown.body = "x" * 100
        before = forward_msg_cache.config
        forward_msg_cache.config = once
        try:
            forward_msg_cache.populate_hash_if_needed(msg)
        finally:
            forward_msg_cache.config = before
        assert msg.hash and not msg.metadata.cacheable  # 100 bytes: under the floor, hashed but not cached
    assert Config.reads == ["global.minCachedMessageSize"]  # once for three messages
    assert once.get_option("server.headless") == config.get_option("server.headless")  # others go through
    assert once.server_sentinel == "another attribute"
    Config.parsed[0]()  # a config parse empties the copy: the next message reads it again
    once.get_option("global.minCachedMessageSize")
    assert Config.reads == ["global.minCachedMessageSize", "server.headless", "global.minCachedMessageSize"]
