"""A hostile client against a real server on loopback, speaking Streamlit's own protocol (benchmarks/load's
client): what embedviz/app/compat/guards.py and .streamlit/config.toml refuse.

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
from tests.conftest import run_async

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


# ------------------------------------------------------------------ one client's sockets (embedviz/app/connections.py)


@pytest.fixture(scope="module")
def small_server(tmp_path_factory):
    """A server with 1,024 open files at most, as a systemd unit without LimitNOFILE (or a default shell) runs it."""
    from deploy.launcher import serving_process

    log = tmp_path_factory.mktemp("nofile") / "server.log"
    with serving_process(log, nofile=1024) as (url, proc):
        yield url, proc, log


def _timed_get(url: str, timeout: float = 10.0) -> tuple[float, int | str]:
    t0 = time.monotonic()
    try:
        status: int | str = requests.get(url, timeout=timeout).status_code
    except requests.RequestException as error:
        status = type(error).__name__
    return time.monotonic() - t0, status


def _hold(url: str, n: int) -> list:
    """``n`` sockets to the server: every other one sends nothing, the rest a request head one line at a time."""
    import socket
    from urllib.parse import urlparse

    where = urlparse(url)
    held = []
    for i in range(n):
        s = socket.create_connection((where.hostname, where.port), timeout=5)
        if i % 2:
            s.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")
        held.append(s)
    return held


def _closed_by_server(s) -> bool:
    s.setblocking(False)
    try:
        return s.recv(1) == b""
    except BlockingIOError:
        return False
    except OSError:
        return True


def test_a_server_with_1024_files_answers_a_student_while_one_client_holds_1100_sockets(small_server):
    """1,100 idle and trickling sockets against 1,024 files: health, the page and a new session still answer within
    a couple of seconds, the server burns no CPU and writes no flood of log lines, and every held socket is closed
    once its head is overdue. Before the limits: health and / timed out (20 s), a new session timed out (60 s), 100 s of
    CPU and 670 MB of log (asyncio's accept loop logging EMFILE) in 80 s."""
    from deploy.launcher import cpu_seconds
    from embedviz.app.connections import HEAD_SECONDS

    url, proc, log = small_server
    requests.get(url + "/_stcore/health", timeout=30)
    cpu0, log0 = cpu_seconds(proc.pid), log.stat().st_size
    held = _hold(url, 1_100)
    try:
        for header in range(2):  # the trickling half goes on sending a header line now and then
            time.sleep(1.0)
            for s in held[1::2]:
                try:
                    s.sendall(b"X-Slow: %d\r\n" % header)
                except OSError:
                    pass
        for path in ("/_stcore/health", "/"):
            seconds, status = _timed_get(url + path)
            assert status == 200 and seconds < 2.0, (path, seconds, status)
        t0 = time.monotonic()
        student = StreamlitSession(url, timeout=30)
        try:
            student.connect()
            run = student.open("home")
            assert time.monotonic() - t0 < 10.0 and run.seconds < 10.0, (time.monotonic() - t0, run.seconds)
        finally:
            student.close()
        time.sleep(HEAD_SECONDS + 2.0)
        closed = sum(_closed_by_server(s) for s in held)
        assert closed >= 0.99 * len(held), f"{closed} of {len(held)} held sockets closed by the server"
        assert cpu_seconds(proc.pid) - cpu0 < 8.0, cpu_seconds(proc.pid) - cpu0
        assert log.stat().st_size - log0 < 20_000, log.read_text(errors="replace")[-3_000:]
    finally:
        for s in held:
            s.close()


def _raw(url: str, request: bytes, pieces: int = 1) -> bytes:
    """Send ``request`` in ``pieces`` and return what the server answers before it closes (or 5 s pass)."""
    import socket
    from urllib.parse import urlparse

    where = urlparse(url)
    with socket.create_connection((where.hostname, where.port), timeout=5) as s:
        step = -(-len(request) // pieces)
        try:
            for i in range(0, len(request), step):
                s.sendall(request[i:i + step])
                time.sleep(0.05 if pieces > 1 else 0)
        except OSError:
            pass
        answer = b""
        try:
            while chunk := s.recv(65536):
                answer += chunk
                if b"\r\n\r\n" in answer and b"connection: close" not in answer.lower():
                    break
        except OSError:
            pass
        return answer


def _status_and_headers(answer: bytes) -> tuple[int, dict[str, str]]:
    head = answer.split(b"\r\n\r\n", 1)[0].decode("latin-1").split("\r\n")
    headers = {}
    for line in head[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    return int(head[0].split()[1]), headers


@pytest.mark.parametrize("pieces", [1, 8])
def test_a_request_head_over_16_kb_is_refused_with_the_security_headers(small_server, pieces):
    """The README's 16 KB request head holds in one piece and in several (h11 alone checked only a head still
    incomplete: a 60 KB request line in one piece was served), and the refusal carries the security headers."""
    from embedviz.app.connections import MAX_HEAD_BYTES
    from embedviz.app.serving import HEADERS

    url = small_server[0]
    target = b"/?q=" + b"a" * (60 * 1024)
    status, headers = _status_and_headers(_raw(url, b"GET " + target + b" HTTP/1.1\r\nHost: x\r\n\r\n", pieces))
    assert status == 431
    assert {name: headers.get(name.lower()) for name in HEADERS} == HEADERS
    within = b"GET /?q=" + b"a" * (MAX_HEAD_BYTES - 200) + b" HTTP/1.1\r\nHost: x\r\n\r\n"
    assert _status_and_headers(_raw(url, within, pieces))[0] == 200  # a long link under the limit is served


def test_uvicorns_own_400_carries_the_security_headers(small_server):
    """A malformed head is refused by uvicorn's protocol before any app runs: that answer too has the headers."""
    from embedviz.app.serving import HEADERS

    url = small_server[0]
    status, headers = _status_and_headers(_raw(url, b"GET / HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n"))
    assert status == 400 and {name: headers.get(name.lower()) for name in HEADERS} == HEADERS


def test_an_error_before_the_answer_is_a_500_with_the_security_headers():
    """A route that raises (the follow route on a store answering nonsense did) is answered by SecurityHeaders, 500
    with the headers; Starlette's own 500 comes from outside every middleware serve.py adds, without them."""
    from starlette.applications import Starlette
    from starlette.middleware import Middleware
    from starlette.routing import Route
    from starlette.testclient import TestClient

    from embedviz.app.serving import HEADERS, SecurityHeaders

    def broken(request):
        raise TypeError("a store's reply of the wrong type")

    app = Starlette(routes=[Route("/api/class/{code}/step", broken)], middleware=[Middleware(SecurityHeaders)])
    answer = TestClient(app, raise_server_exceptions=False).get("/api/class/ABC234/step")
    assert answer.status_code == 500 and "wrong type" not in answer.text
    assert {name: answer.headers.get(name) for name in HEADERS} == HEADERS


# ----------------------------------------------------- requests per address (embedviz/app/request_limit.py); runs last:
# it spends the loopback address's bucket of the module's small server


async def _hammer(url: str, path: str, connections: int, seconds: float) -> dict[int, int]:
    """``connections`` keep-alive connections asking ``path`` one request after another for ``seconds``."""
    import asyncio
    from urllib.parse import urlparse

    where = urlparse(url)
    counts: dict[int, int] = {}
    request = f"GET {path} HTTP/1.1\r\nHost: x\r\n\r\n".encode()
    deadline = time.monotonic() + seconds

    async def one() -> None:
        reader, writer = await asyncio.open_connection(where.hostname, where.port)
        try:
            while time.monotonic() < deadline:
                writer.write(request)
                head = await reader.readuntil(b"\r\n\r\n")
                status = int(head.split(b" ", 2)[1])
                length = int(next((line.split(b":")[1] for line in head.split(b"\r\n")
                                   if line.lower().startswith(b"content-length:")), b"0"))
                await reader.readexactly(length)
                counts[status] = counts.get(status, 0) + 1
        except (OSError, asyncio.IncompleteReadError):
            counts[-1] = counts.get(-1, 0) + 1
        finally:
            writer.close()

    await asyncio.gather(*(one() for _ in range(connections)))
    return counts


def test_one_address_hammering_health_is_slowed_to_the_rate_while_a_bystander_reruns(small_server):
    """300 keep-alive connections asking /_stcore/health as fast as they can: past the burst a class needs, the
    address gets RATE answers a second (the rest wait their turn or get 429), and a bystander's reruns go on. Before
    the limit the server answered every one (thousands a second, a core pinned) and the bystander's rerun slowed ~10x."""
    import threading

    from deploy.launcher import cpu_seconds
    from embedviz.app.request_limit import BURST, RATE

    url, proc = small_server[:2]
    bystander = StreamlitSession(url, timeout=60)
    bystander.connect()
    reruns: list[float] = []
    stop = threading.Event()

    def rerun_now_and_then() -> None:
        while not stop.is_set():
            reruns.append(bystander.open("home").seconds)
            stop.wait(0.5)

    try:
        reruns.append(bystander.open("home").seconds)  # the first run, before the flood
        witness = threading.Thread(target=rerun_now_and_then)
        cpu0, t0 = cpu_seconds(proc.pid), time.monotonic()
        witness.start()
        counts = run_async(_hammer(url, "/_stcore/health", 300, 8.0))
        seconds, cpu = time.monotonic() - t0, cpu_seconds(proc.pid) - cpu0
        stop.set()
        witness.join(timeout=60)
    finally:
        stop.set()
        bystander.close()
    print(f"answers {counts} in {seconds:.1f} s, server CPU {cpu:.1f} s, bystander reruns {[round(r, 2) for r in reruns]}, "
          f"load {open('/proc/loadavg').read().split()[:3]}")
    assert counts.get(200, 0) <= BURST + RATE * seconds * 1.3 + 300, counts
    assert counts.get(200, 0) >= min(BURST, 1_000), counts  # not refused wholesale: a class's burst gets through
    assert len(reruns) >= 3 and max(reruns[1:]) < 5.0, reruns


def test_the_frontend_still_reads_the_base_url_the_page_gives_it():
    """serving.BaseUrl sets window.__streamlit.BACKEND_BASE_URL; the installed bundle must still read it there (an
    upgrade that drops it would bring the page-path 404s back silently)."""
    import streamlit

    bundle = Path(streamlit.__file__).parent / "static"
    index = (bundle / "index.html").read_text()
    script = re.search(r'src="\./(static/js/index\.[^"]+\.js)"', index).group(1)
    text = (bundle / script).read_text()
    assert "window.__streamlit" in text and "BACKEND_BASE_URL" in text
