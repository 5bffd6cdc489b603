"""A hostile client against a real server on loopback, speaking Streamlit's own protocol (benchmarks/load's
client): what embedviz/app/compat.py and .streamlit/config.toml refuse.

- a ``clear_cache`` BackMsg leaves every cache in place (the next open trains nothing);
- an upload PUT under a file id the server never issued is answered 403 and stored nowhere; an issued one works;
- a websocket message over ``server.maxMessageSize`` closes that socket only; a second session still runs;
- the first client of a fresh server is already refused a made-up upload (the patches install at start);
- every HTTP answer carries the Content-Security-Policy and the other headers of embedviz/app/serving.py.

Each failed on the code before (checked with compat.install a no-op and maxMessageSize unset): the reopen after
clear_cache showed a progress bar (the default run trained again), the made-up id got 204, the socket announcing a
6 MB message stayed open waiting for it.
"""
from __future__ import annotations

import re
import struct
import time
import uuid
from pathlib import Path

import pytest

websocket = pytest.importorskip("websocket", reason="pip install -r requirements-test.txt (websocket-client)")
requests = pytest.importorskip("requests")

ROOT = Path(__file__).resolve().parents[1]

from streamlit.proto.BackMsg_pb2 import BackMsg  # noqa: E402
from streamlit.proto.Common_pb2 import FileURLsRequest  # noqa: E402
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg  # noqa: E402

from deploy.launcher import serving  # noqa: E402
from benchmarks.load.stclient import StreamlitSession  # noqa: E402

pytestmark = pytest.mark.slow
XSRF_COOKIE = "_streamlit_xsrf"


@pytest.fixture(scope="module")
def started(tmp_path_factory):
    """A fresh server and what its very first client's made-up upload got (before any other test touches it)."""
    with serving(tmp_path_factory.mktemp("hostile") / "server.log") as url:
        yield url, _upload_during_the_first_run(url)


@pytest.fixture(scope="module")
def server(started):
    return started[0]


def elements(session: StreamlitSession, page: str) -> list[str]:
    """Open ``page`` and return the kinds of element the run drew (a cache miss of a training run draws a
    progress bar)."""
    session.page_name, session.query_string, session.page_script_hash = page, "", ""
    session.send_rerun()
    kinds = []
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        msg = ForwardMsg()
        msg.ParseFromString(session.ws.recv())
        kind = msg.WhichOneof("type")
        if kind == "new_session":
            session.session_id = msg.new_session.initialize.session_id
        elif kind == "delta" and msg.delta.WhichOneof("type") == "new_element":
            kinds.append(msg.delta.new_element.WhichOneof("type"))
        elif kind == "script_finished" and msg.script_finished == ForwardMsg.FINISHED_SUCCESSFULLY:
            return kinds
    raise AssertionError(f"{page} did not finish")


def _upload_during_the_first_run(server: str) -> tuple[int, str]:
    """The first client of a fresh process: it asks for a run, and the moment Streamlit names its session (at the
    start of the process's first run, while that run is still importing the app) puts a file under a made-up id."""
    http = requests.Session()
    http.get(server + "/_stcore/health", timeout=30)
    s = StreamlitSession(server, timeout=120)
    s.connect()
    try:
        s.page_name = "home"
        s.send_rerun()
        while not s.session_id:
            msg = ForwardMsg()
            msg.ParseFromString(s.ws.recv())
            if msg.WhichOneof("type") == "new_session":
                s.session_id = msg.new_session.initialize.session_id
        return _put(server, s.session_id, str(uuid.uuid4()), http)
    finally:
        s.close()


def test_an_upload_before_any_page_ran_is_refused(started):
    """The patches are installed when the server starts (embedviz/app/serving.lifespan), not by the first page
    run: installed by the frame only, this upload was stored (204) while the first run imported the app."""
    status, text = started[1]
    assert status == 403 and "Unknown file id" in text, (status, text)


def test_every_answer_carries_the_security_headers(server):
    """The bare server (no nginx in front) sends the policy on the page, its assets, the API and a 404."""
    from embedviz.app.serving import HEADERS

    page = requests.get(server + "/", timeout=30)
    asset = re.search(r'src="\./(static/js/[^"]+\.js)"', page.text).group(1)
    for path in ("/", "/" + asset, "/_stcore/health", "/_stcore/host-config", "/no-such-file.png"):
        answer = page if path == "/" else requests.get(server + path, timeout=30)
        assert {name: answer.headers.get(name) for name in HEADERS} == HEADERS, path
    csp = dict(part.strip().split(" ", 1) for part in page.headers["Content-Security-Policy"].split(";"))
    assert "unsafe-inline" not in csp["script-src"] and "'unsafe-eval'" not in csp["script-src"]
    assert csp["frame-ancestors"] == "'none'" and csp["default-src"] == "'none'"
    assert page.headers["X-Frame-Options"] == "DENY" and page.headers["X-Content-Type-Options"] == "nosniff"


def test_a_clear_cache_request_leaves_every_cache(server):
    s = StreamlitSession(server, timeout=120)
    s.connect()
    try:
        elements(s, "trained-embedding")  # trains the default run once (or finds it trained)
        assert "progress" not in elements(s, "trained-embedding")  # the oracle: a cached run draws no bar
        s.ws.send_binary(BackMsg(clear_cache=True).SerializeToString())
        time.sleep(0.5)
        assert "progress" not in elements(s, "trained-embedding")
    finally:
        s.close()


def _put(server: str, session_id: str, file_id: str, xsrf: requests.Session) -> tuple[int, str]:
    token = xsrf.cookies.get(XSRF_COOKIE, "")
    answer = xsrf.put(f"{server}/_stcore/upload_file/{session_id}/{file_id}", headers={"X-Xsrftoken": token},
                      files={"file": ("t.npy", b"\0" * 1_000)}, timeout=30)
    return answer.status_code, answer.text


def test_an_upload_under_a_file_id_the_server_never_issued_is_refused(server):
    s = StreamlitSession(server, timeout=120)
    s.connect()
    http = requests.Session()
    http.get(server + "/_stcore/health", timeout=30)  # the XSRF cookie, as a browser gets it
    assert http.cookies.get(XSRF_COOKIE)
    try:
        elements(s, "home")
        status, text = _put(server, s.session_id, str(uuid.uuid4()), http)
        assert status == 403 and "Unknown file id" in text, text  # the id, not the XSRF token, refused
        s.ws.send_binary(BackMsg(file_urls_request=FileURLsRequest(request_id="1", file_names=["t.npy"],
                                                                   session_id=s.session_id)).SerializeToString())
        issued = None
        while issued is None:
            msg = ForwardMsg()
            msg.ParseFromString(s.ws.recv())
            if msg.WhichOneof("type") == "file_urls_response":
                (urls,) = msg.file_urls_response.file_urls
                issued = urls.file_id
        assert _put(server, s.session_id, issued, http)[0] == 204  # the browser's way still works
    finally:
        s.close()


def test_a_message_over_the_size_limit_closes_only_its_own_socket(server):
    """The header announces 6 MB and only a little of it follows: refused on the announced length, the socket
    closes at once (Streamlit's default 200 MB would wait for the rest, holding what came so far)."""
    s = StreamlitSession(server, timeout=120)
    s.connect()
    size = 6_000_000  # over maxMessageSize (5 MB), far under Streamlit's default 200 MB
    s.ws.sock.sendall(bytes([0x82, 0x80 | 127]) + struct.pack(">Q", size) + b"\0\0\0\0")  # header, mask key 0
    closed = False
    try:
        s.ws.sock.sendall(bytes(100_000))
        s.ws.settimeout(10)
        opcode, _ = s.ws.recv_data(control_frame=True)
        closed = opcode == websocket.ABNF.OPCODE_CLOSE
    except websocket.WebSocketTimeoutException:
        closed = False  # still waiting for the rest of the message
    except (OSError, websocket.WebSocketException):
        closed = True
    finally:
        s.close()
    assert closed
    other = StreamlitSession(server, timeout=120)
    try:
        assert other.open("home").seconds < 120
    finally:
        other.close()
