"""embedviz/app/compat/: what each patch wraps is still what Streamlit does (these fail when a new Streamlit
changes it), the frame installs every patch, and the patched upload store refuses and evicts as it says.
The refusals against a real server, over its websocket and HTTP: tests/test_hostile_server.py."""
from __future__ import annotations

import ast
import inspect
import logging
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
from tests.conftest import ROOT, run_async


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


COMPAT = ROOT / "embedviz" / "app" / "compat"


def test_no_module_but_compat_reaches_into_streamlit():
    files = [ROOT / "app.py", *(ROOT / "app_pages").rglob("*.py"), *(ROOT / "embedviz").rglob("*.py")]
    found = [f"{path.relative_to(ROOT)}:{line}: {what}" for path in files if COMPAT not in path.parents
             for line, what in _streamlit_internals(path)]
    assert found == [], "route these through embedviz/app/compat/"
    for job in ("guards", "speed", "access"):  # the scan sees what each of compat's modules does
        assert list(_streamlit_internals(COMPAT / f"{job}.py")), job


@pytest.fixture
def store():
    return compat.guard_uploads(MemoryUploadedFileManager("/_stcore/upload_file"))


def _file(file_id: str, size: int) -> UploadedFileRec:
    return UploadedFileRec(file_id=file_id, name="t.npy", type="application/octet-stream", data=bytes(size))


def _issued(store, session_id: str, n: int = 1) -> list[str]:
    return [info.file_id for info in store.get_upload_urls(session_id, ["t.npy"] * n)]


def test_a_session_keeps_its_newest_uploads_within_its_cap(store, monkeypatch):
    monkeypatch.setattr(compat.guards, "UPLOAD_BYTES_PER_SESSION", 250)
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
    monkeypatch.setattr(compat.access, "_MOUNTS", {})
    first = live._mount()
    assert live._mount() is first and made == [live.NAME]
    managers.append(BidiComponentManager())
    again = live._mount()
    assert again is not first and made == [live.NAME, live.NAME]
    assert managers[-1].get_component_asset_root(live.NAME) == live.ASSETS


def test_a_run_keeps_its_own_memo_and_the_next_run_starts_a_new_one(tmp_path):
    script = tmp_path / "page.py"
    script.write_text(
        "import streamlit as st\n"
        "from embedviz.app import compat\n"
        "memo = compat.this_run()\n"
        "assert compat.this_run() is memo and memo == {}\n"
        "memo['n'] = st.session_state.get('n', 0) + 1\n"
        "st.session_state['n'] = memo['n']\n"
        "st.session_state.setdefault('memos', []).append(memo)  # kept alive, so two memos never share an id\n"
        "st.write(len({id(m) for m in st.session_state['memos']}), compat.fragment_rerun())\n")
    at = AppTest.from_file(str(script)).run()
    at.run()
    assert not at.exception
    assert at.markdown[-1].value == "`2` `False`"  # two runs, two memos; neither a fragment's own run
    assert compat.this_run() == {}  # outside a run: a throwaway


def test_component_triggers_are_still_dispatched_per_event_after_the_states_the_guard_filters():
    """The guard filters ``on_script_will_rerun``'s fresh states: Streamlit must still set them and run the callbacks
    from them, one call per event of a trigger list (what makes a long list cost its square)."""
    from streamlit.runtime import runtime
    from streamlit.runtime.state.session_state import SessionState

    rerun = inspect.getsource(original(SessionState.on_script_will_rerun))
    assert "self.set_widgets_from_proto(fresh_widget_states)" in rerun and "self._call_callbacks(" in rerun
    assert list(inspect.signature(original(SessionState.on_script_will_rerun)).parameters)[:2] == \
        ["self", "fresh_widget_states"]
    dispatch = inspect.getsource(SessionState._dispatch_trigger_callbacks)
    assert "for payload in payloads:" in dispatch and "self._execute_widget_callback(" in dispatch
    for name in ("disconnect_session", "close_session"):  # a session's end: told after Streamlit's own work
        assert list(inspect.signature(original(getattr(runtime.Runtime, name))).parameters)[:2] == ["self", "session_id"]
    from streamlit.runtime.websocket_session_manager import WebsocketSessionManager

    assert callable(WebsocketSessionManager.is_active_session)


@pytest.mark.parametrize("field, text, problem", [
    ("json_trigger_value", '[{"event": "commit", "value": {"k": 1}}]', None),
    ("json_trigger_value", "", None),
    ("json_trigger_value", "[" + ",".join(['{"event": "commit"}'] * 9) + "]", "9 events"),
    ("json_trigger_value", '[{"event": "commit", "value": NaN}]', "not JSON"),
    ("json_trigger_value", "[" * 17 + "]" * 17, "nested too deep"),
    ("json_trigger_value", "[" * 5_000 + "]" * 5_000, "not JSON"),  # past Python's recursion limit
    ("json_trigger_value", '"' + "x" * 20_000 + '"', "20,002 bytes"),
    ("json_value", "{}", "a component state (embedviz's components keep none)"),
    ("string_value", "[" * 5_000, None),
])
def test_which_component_states_the_guard_drops(field, text, problem):
    from streamlit.proto.WidgetStates_pb2 import WidgetState

    state = WidgetState(id="w")
    setattr(state, field, text)
    assert compat.component_state_problem(state) == problem


def test_each_speed_patch_can_be_left_out_by_name_and_a_wrong_name_is_refused():
    """What benchmarks/README.md's with/without table measures: the same checkout with one speed patch left out."""
    probe = ("from embedviz.app import compat\ncompat.install()\n"
             "print(sorted(f'{o.__name__}.{n}' for o, n, _ in compat._PATCHES if getattr(getattr(o, n), 'embedviz_compat', 0)))\n"
             "print(sorted(compat._speed_off))")

    def installed(off: str) -> list[str]:
        out = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, timeout=120,
                             env={**os.environ, "PYTHONPATH": str(ROOT), compat.SPEED_OFF_ENV: off})
        assert out.returncode == 0, out.stderr[-2000:]
        return out.stdout.strip().splitlines()

    every = sorted(f"{o.__name__}.{n}" for o, n, _ in compat._PATCHES)
    assert installed("") == [str(every), "[]"]
    assert installed("this_run") == [str(every), "['this_run']"]  # a memo, not a patch: every patch still on
    with pytest.raises(ValueError, match="no speed patch"):
        compat.speed.speed_off({compat.SPEED_OFF_ENV: "this_run,thme"})
    assert compat.speed.speed_off({compat.SPEED_OFF_ENV: "this_run"}) == {"this_run"}


def test_a_run_without_the_this_run_memo_gets_a_throwaway(monkeypatch, tmp_path):
    monkeypatch.setattr(compat.speed, "memo_on", False)
    script = tmp_path / "page.py"
    script.write_text("import streamlit as st\nfrom embedviz.app import compat\n"
                      "compat.this_run()['x'] = 1\nst.write(compat.this_run())\n")
    at = AppTest.from_file(str(script)).run()
    assert not at.exception and at.json[-1].value == "{}"


# ------------------------------------------------------------------------------------------------ the version check


def test_the_version_the_patches_were_written_for_is_the_one_the_lock_installs():
    pin = re.search(r"^streamlit==(\S+) ", (ROOT / "requirements.lock").read_text(), re.M).group(1)
    assert compat.STREAMLIT == pin


def _patched() -> set[str]:
    return {f"{o.__name__}.{n}" for o, n, _ in compat._PATCHES if getattr(getattr(o, n, None), "embedviz_compat", False)}


@pytest.fixture
def bare_streamlit(monkeypatch):
    """Streamlit as installed, every patch taken off, and install() as in a fresh process (all put back after)."""
    for owner, name, _ in compat._PATCHES:
        monkeypatch.setattr(owner, name, original(getattr(owner, name)))
    monkeypatch.setattr(compat, "_settled", None)
    monkeypatch.setattr(compat, "_speed_off", frozenset())
    monkeypatch.setattr(compat.speed, "memo_on", True)
    assert _patched() == set()
    return monkeypatch


def test_on_the_pinned_streamlit_every_guard_fits_and_every_patch_goes_on(bare_streamlit):
    assert compat.guards.moved() == []
    compat.install()
    assert _patched() == {f"{o.__name__}.{n}" for o, n, _ in compat._PATCHES} and compat.speed.memo_on


def test_on_another_streamlit_the_speed_patches_are_left_out_with_one_log_line(bare_streamlit, caplog):
    bare_streamlit.setattr(streamlit, "__version__", "1.99.0")
    with caplog.at_level(logging.WARNING, logger="embedviz.app.compat"):
        for _ in range(3):  # the frame installs on every run
            compat.install()
    said = [r.getMessage() for r in caplog.records if r.name == "embedviz.app.compat"]
    assert len(said) == 1 and "1.99.0" in said[0] and "speed patches are left out" in said[0]
    assert _patched() == {f"{o.__name__}.{n}" for o, n, *_ in compat.guards.PATCHES}  # the guards, and only they
    assert not compat.speed.memo_on


def _signature_changed(monkeypatch, owner, name):
    monkeypatch.setattr(owner, name, lambda self, request, *args: None)


def _gone(monkeypatch, owner, name):
    monkeypatch.delattr(owner, name)


def _moved_targets():
    from streamlit.runtime import Runtime
    from streamlit.runtime.state.session_state import SessionState

    return [  # (what moved, how, what the message names)
        ("url seed", lambda mp: _signature_changed(mp, SessionState, "_seed_widget_from_url"),
         "SessionState._seed_widget_from_url takes (self, request, *args)"),
        ("url param", lambda mp: _gone(mp, SessionState, "_clear_url_param"), "SessionState._clear_url_param is gone"),
        ("clear_cache", lambda mp: mp.setattr(AppSession, "handle_backmsg", lambda self, msg: None),
         "no longer sends clear_cache"),
        ("component states", lambda mp: _signature_changed(mp, SessionState, "on_script_will_rerun"),
         "SessionState.on_script_will_rerun takes"),
        ("session end", lambda mp: _gone(mp, Runtime, "disconnect_session"), "Runtime.disconnect_session is gone"),
        ("uploads", lambda mp: _signature_changed(mp, MemoryUploadedFileManager, "add_file"),
         "MemoryUploadedFileManager.add_file takes"),
    ]


@pytest.mark.parametrize("case", range(len(_moved_targets())), ids=[c[0] for c in _moved_targets()])
def test_a_guard_whose_target_moved_stops_the_server_saying_what_to_pin(bare_streamlit, case):
    _, move, named = _moved_targets()[case]
    bare_streamlit.setattr(streamlit, "__version__", "1.99.0")
    move(bare_streamlit)
    with pytest.raises(compat.StreamlitMoved) as stopped:
        compat.install()
    assert named in str(stopped.value) and "streamlit==1.67.0" in str(stopped.value) \
        and "1.99.0" in str(stopped.value)
    assert _patched() == set()  # stopped before it patched anything: nothing half-guarded


def test_a_served_process_whose_guard_cannot_go_on_exits_with_the_message(tmp_path):
    """The served start-up (serving.lifespan) installs before the first connection: its refusal ends the process."""
    from deploy.launcher import free_port, start_streamlit

    (tmp_path / "sitecustomize.py").write_text(  # a Streamlit whose clear_cache handler took an argument
        "import streamlit\nstreamlit.__version__ = '1.99.0'\n"
        "from streamlit.runtime.app_session import AppSession\n"
        "AppSession._handle_clear_cache_request = lambda self, request: None\n")
    log = tmp_path / "server.log"
    proc = start_streamlit(free_port(), log_path=log, env={"PYTHONPATH": str(tmp_path), "EMBEDVIZ_WARM": "0"})
    try:
        code = proc.wait(60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)
    text = log.read_text()
    assert code != 0 and "AppSession._handle_clear_cache_request takes (self, request)" in text
    assert "Pin streamlit==1.67.0" in text
