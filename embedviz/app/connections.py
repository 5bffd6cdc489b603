"""What one client may hold of the server's connections: the limits uvicorn, as Streamlit starts it, does not set.

``streamlit run serve.py`` hands the ``st.App`` to Streamlit's ``UvicornRunner``
(streamlit/web/server/starlette/starlette_server.py, 1.67), which builds ``uvicorn.Config`` from a fixed list (TLS
files, the websocket implementation, its ping, size and compression, no access log) and lets a script set nothing
else: no ``limit_concurrency``, uvicorn's default keep-alive, h11's default head limit. And uvicorn has no timeout
for a request head at all: its keep-alive timer starts only after an answer and every byte received cancels it.
Measured on a server started under ``ulimit -n 1024``: 1,100 sockets that send nothing (or one header line now and
then) were held forever; once the files ran out, asyncio's accept loop logged ``EMFILE`` some 20,000 times a second
(670 MB of log and 100 s of CPU in 80 s) and ``/_stcore/health``, ``/`` and a new session stopped answering.

``install(config)`` sets, on the running server's ``uvicorn.Config`` before it accepts its first connection:

- uvicorn's own settings: ``timeout_keep_alive`` (an idle connection after an answer closes after
  ``KEEP_ALIVE_SECONDS``) and ``h11_max_incomplete_event_size`` (a head arriving in pieces past ``MAX_HEAD_BYTES``
  is refused), and no ``Server: uvicorn`` header;
- ``GuardedH11Protocol`` for every connection, for what uvicorn has no setting for:
  - a request head must be complete within ``HEAD_SECONDS`` of the connection (or of the previous answer), however
    its bytes trickle in; else the socket is closed;
  - a head over ``MAX_HEAD_BYTES`` is refused even when it arrives in one piece (h11 checks only a head still
    incomplete, so 60 KB in one packet used to be served), with 431;
  - at most ``connection_cap()`` connections, sized from the file limit this process actually has (a reserve kept
    for the files it opens itself, and for a burst accepted at once: ``accept_batch()``, the listen backlog). Past it the connection that has waited longest for its head is closed (a
    browser reopens an idle keep-alive connection at once; a slow-loris socket loses its place to a real student),
    or the new one if none is waiting. uvicorn's ``limit_concurrency`` is not used: it refuses only after a whole
    head has arrived (the file is already spent), with a 503 that bypasses the app, so without the security headers;
  - its own refusals (400, 431) carry the security headers of embedviz/app/serving.py.
- a log filter: a repeated warning (an invalid request, an accept error) is logged a few times a minute, then
  counted, never once per request.

Everything here acts on uvicorn's protocol object, before any ASGI app runs: the connection-level counterpart of the
per-address request limit (embedviz/app/request_limit.py). Behind nginx (every recipe that faces a network) nginx
bounds these first; this is what holds on a bare server and behind a proxy that lets a slow client through.
"""
from __future__ import annotations

import logging
import resource
import time

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

HEAD_SECONDS = 10.0  # a request head (the request line and headers) must arrive within this
KEEP_ALIVE_SECONDS = 5  # uvicorn's default, set explicitly: an idle connection after an answer
MAX_HEAD_BYTES = 16 * 1024  # the request line and headers together (README: "16 KB straight to the server")
RESERVE_FILES = 128  # at least this many files kept for the process itself (libraries, threads, uploads, Redis)
RESERVE_SHARE = 8  # ... or 1/8 of the limit, whichever is more
_log = logging.getLogger("embedviz.connections")


def file_limit() -> int:
    """The soft RLIMIT_NOFILE of this process (what accept() runs into), a large number when unlimited."""
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    return 1 << 20 if soft == resource.RLIM_INFINITY else int(soft)


def connection_cap(limit: int | None = None) -> int:
    """How many connections the server keeps open at once: the file limit less the process's own reserve."""
    limit = file_limit() if limit is None else limit
    return max(16, limit - max(RESERVE_FILES, limit // RESERVE_SHARE))


def accept_batch(limit: int | None = None) -> int:
    """The listening socket's backlog, which is also how many connections asyncio accepts in one go before any of
    them reaches ``connection_made`` (where the cap acts): half the reserve, so a burst cannot pass the file limit
    between two turns of the event loop. uvicorn's default is 2,048."""
    limit = file_limit() if limit is None else limit
    return min(2_048, max(16, (limit - connection_cap(limit)) // 2))


def head_size(event: h11.Request) -> int:
    """Bytes of a request head as sent: the request line and every header line."""
    line = len(event.method) + len(event.target) + len(event.http_version) + 8  # "GET " target " HTTP/1.1\r\n"
    return line + sum(len(name) + len(value) + 4 for name, value in event.headers) + 2


class _Counted(logging.Filter):
    """Lets a message through at most ``per_minute`` times a minute, then says how many it held back."""

    def __init__(self, per_minute: int = 5, clock=time.monotonic) -> None:
        super().__init__()
        self._per_minute, self._clock = per_minute, clock
        self._seen: dict[str, list] = {}  # message -> [minute started, count]

    def filter(self, record: logging.LogRecord) -> bool:
        key = str(record.msg)[:80]
        now = self._clock()
        entry = self._seen.get(key)
        if entry is None or now - entry[0] >= 60:
            held = entry[1] - self._per_minute if entry and entry[1] > self._per_minute else 0
            if len(self._seen) > 100:
                self._seen.clear()
            self._seen[key] = [now, 1]
            if held:
                record.msg = f"{record.msg} (and {held} more like it in the last minute)"
            return True
        entry[1] += 1
        return entry[1] <= self._per_minute


LOG_FILTER = _Counted()


class GuardedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol with a head deadline, a head-size limit, a connection cap and headed refusals.

    ``install`` makes a subclass that carries the cap and the headers; the class attributes here are its defaults."""

    cap: int = 1_000
    refusal_headers: list[tuple[bytes, bytes]] = []
    waiting: dict = {}  # connections waiting for a head, oldest first (a dict keeps insertion order)
    closed_slow = 0  # connections closed for a head that did not come in time (for the log line)

    def connection_made(self, transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._deadline = None
        self._refusal = 400
        self._head_bytes = 0  # received since the head began (h11 refuses one past MAX_HEAD_BYTES still incomplete)
        self.conn.next_event = self._checked_next_event(self.conn.next_event)
        if len(self.connections) > self.cap:
            victim = next(iter(self.waiting), None)
            if victim is None:
                _log.warning("connection refused: %d connections open (the cap), none waiting for a request", self.cap)
                transport.close()
                return
            self._forget(victim)
            victim.transport.close()
            _log.warning("at the connection cap (%d): closed the connection that waited longest for a request", self.cap)
        self._wait_for_head()

    # the head

    def data_received(self, data: bytes) -> None:
        if self._deadline is not None:
            self._head_bytes += len(data)
        super().data_received(data)

    def _wait_for_head(self) -> None:
        self._forget(self)
        self._head_bytes = 0
        self.waiting[self] = None
        self._deadline = self.loop.call_later(HEAD_SECONDS, self._head_too_slow)

    def _forget(self, protocol) -> None:
        self.waiting.pop(protocol, None)
        if protocol._deadline is not None:
            protocol._deadline.cancel()
            protocol._deadline = None

    def _head_too_slow(self) -> None:
        self._deadline = None
        self.waiting.pop(self, None)
        if not self.transport.is_closing():
            type(self).closed_slow += 1
            _log.warning("closed connections that sent no whole request head within %.0f s", HEAD_SECONDS)
            self.transport.close()

    def _checked_next_event(self, next_event):
        def checked():
            event = next_event()
            if isinstance(event, h11.Request):
                self._forget(self)
                if head_size(event) > MAX_HEAD_BYTES:
                    self._refusal = 431
                    raise h11.RemoteProtocolError("Request head too large", error_status_hint=431)
            return event

        return checked

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing() and self.conn.their_state is h11.IDLE:
            self._wait_for_head()  # kept alive: the next head has the same deadline

    def connection_lost(self, exc) -> None:
        self._forget(self)
        super().connection_lost(exc)

    # refusals

    def send_400_response(self, msg: str) -> None:
        """uvicorn's own refusal (a malformed or too large head), with the security headers and the right status."""
        self._forget(self)
        status = 431 if self._head_bytes > MAX_HEAD_BYTES else self._refusal
        if status == 431:
            msg = f"Request head over {MAX_HEAD_BYTES // 1024} KB"
        headers = [(b"content-type", b"text/plain; charset=utf-8"), (b"connection", b"close"), *self.refusal_headers]
        phrase = b"Request Header Fields Too Large" if status == 431 else b"Bad Request"
        try:
            for event in (h11.Response(status_code=status, headers=headers, reason=phrase), h11.Data(data=msg.encode("ascii")),
                          h11.EndOfMessage()):
                self.transport.write(self.conn.send(event))
        except h11.LocalProtocolError:  # the connection is past answering (a response already began)
            pass
        self.transport.close()


def install(config, headers: dict[str, str]) -> type[GuardedH11Protocol]:
    """Set the limits on a ``uvicorn.Config`` (already loaded, not yet serving) and return the protocol class it
    will use for every connection from now on."""
    guarded = type("GuardedH11Protocol", (GuardedH11Protocol,), {
        "cap": connection_cap(),
        "refusal_headers": [(name.lower().encode(), value.encode()) for name, value in headers.items()],
        "waiting": {},
    })
    config.timeout_keep_alive = KEEP_ALIVE_SECONDS
    config.backlog = accept_batch()  # create_server listens with it and accepts at most this many per turn
    config.h11_max_incomplete_event_size = MAX_HEAD_BYTES
    config.http_protocol_class = guarded  # read for each new connection (uvicorn's create_protocol)
    config.encoded_headers = [h for h in getattr(config, "encoded_headers", []) if h[0] != b"server"]
    for name in ("uvicorn.error", "asyncio", _log.name):
        if LOG_FILTER not in logging.getLogger(name).filters:
            logging.getLogger(name).addFilter(LOG_FILTER)
    _log.info("at most %d connections (file limit %d), a request head within %.0f s and %d KB",
              guarded.cap, file_limit(), HEAD_SECONDS, MAX_HEAD_BYTES // 1024)
    return guarded


class ServerLimits:
    """ASGI middleware that installs the limits when the server starts: uvicorn sends the app the lifespan scope with
    its ``LifespanOn.receive``, whose object holds the server's ``Config`` (``streamlit run`` gives the script no other
    way to reach it). Under another server, or none (AppTest), it changes nothing and says so once."""

    def __init__(self, app, *, headers: dict[str, str]) -> None:
        # The headers come from serve.py (serving.HEADERS): serving imports the class route, which reads this
        # module's connection cap, so importing serving here would close a loop.
        self.app = app
        self._headers = headers
        self.installed: type[GuardedH11Protocol] | None = None

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] == "lifespan" and self.installed is None:
            config = getattr(getattr(receive, "__self__", None), "config", None)
            try:
                import uvicorn

                ok = isinstance(config, uvicorn.Config) and issubclass(config.http_protocol_class, H11Protocol)
            except (ImportError, TypeError):
                ok = False
            if ok:
                self.installed = install(config, self._headers)
            else:
                _log.warning("not served by uvicorn's h11 protocol: the connection limits are not installed")
        await self.app(scope, receive, send)
