"""Text answers compressed by the app server itself (gzip), each static file compressed once per process.

Measured with Chromium (benchmarks/first_open.py): a first open of Home downloaded 7.5 MB, none of it compressed.
Streamlit 1.67 gzips some answers (its SelectiveGZipMiddleware) but deliberately not its bundle in ``/static/`` nor
the page itself, because Starlette's GZipMiddleware compresses every answer again and keeps nothing: for a 4.7 MB
plotly chunk that is CPU on every request, at the worst moment (a class opening the app at once). Here a file
(an answer with an ETag: Streamlit's bundle, a component's files) is compressed once, at level 9, in a worker
thread, and its compressed bytes are kept (``CACHE_BYTES`` at most); the next request for the same file and ETag
gets them without compressing again, and a content-hashed file of ``/static/`` (served ``immutable``: its name
changes with its content) without even reading it from disk. Answers without an ETag (the page, host-config,
JSON) are compressed as they stream, chunk by chunk at level 6, never buffered whole.

Only text is compressed (HTML, JavaScript, CSS, JSON, SVG, source maps, wasm); fonts in woff2 and PNG are already
compressed, range requests and HEAD pass as they are, websockets are never touched. Streamlit's own gzip is kept
out (the inner app never sees Accept-Encoding), so nothing is compressed twice.
"""
from __future__ import annotations

import asyncio
import collections
import zlib

import anyio

MINIMUM_BYTES = 1_000  # below this the gzip header and the CPU are not worth it (Streamlit's own minimum)
FILE_LEVEL = 9  # once per file: the smallest
STREAM_LEVEL = 6  # every answer without an ETag: zlib's default, most of 9's gain at a third of its time
CACHE_BYTES = 64 * 1024 * 1024  # compressed files kept (Streamlit's whole bundle compresses to about 8 MB)
MAX_FILE_BYTES = 32 * 1024 * 1024  # a larger file is streamed, not held whole to be compressed once
COMPRESSIBLE = (b"text/", b"application/javascript", b"application/json", b"application/manifest+json",
                b"application/xml", b"image/svg+xml", b"application/wasm", b"font/ttf", b"font/otf")


def accepts_gzip(headers) -> bool:
    """Whether the request's Accept-Encoding names gzip (without q=0)."""
    for name, value in headers:
        if name == b"accept-encoding":
            for part in value.lower().split(b","):
                coding, _, params = part.strip().partition(b";")
                if coding.strip() in (b"gzip", b"*"):
                    return params.replace(b" ", b"") not in (b"q=0", b"q=0.0", b"q=0.00", b"q=0.000")
    return False


def gzip_bytes(data: bytes, level: int = FILE_LEVEL) -> bytes:
    """``data`` as one gzip member (what a browser's Content-Encoding: gzip expects)."""
    packer = zlib.compressobj(level, zlib.DEFLATED, 31)
    return packer.compress(data) + packer.flush()


def _header(headers, name: bytes) -> bytes | None:
    for key, value in headers:
        if key == name:
            return value
    return None


def _compressible(headers) -> bool:
    kind = (_header(headers, b"content-type") or b"").lower()
    return (kind.startswith(COMPRESSIBLE) and _header(headers, b"content-encoding") is None
            and b"no-transform" not in (_header(headers, b"cache-control") or b"").lower())


def _compressed_headers(headers, length: int | None) -> list[tuple[bytes, bytes]]:
    """The answer's headers for its gzip body: Content-Encoding, Vary, the new length (none when streamed), and a weak
    ETag (the compressed bytes differ from the identity file the strong one names)."""
    out = [(k, v) for k, v in headers if k not in (b"content-length", b"content-encoding", b"etag", b"vary")]
    etag = _header(headers, b"etag")
    if etag is not None:
        out.append((b"etag", etag if etag.startswith(b"W/") else b"W/" + etag))
    vary = _header(headers, b"vary")
    out += [(b"content-encoding", b"gzip"), (b"vary", vary + b", Accept-Encoding" if vary else b"Accept-Encoding")]
    if length is not None:
        out.append((b"content-length", str(length).encode()))
    return out


class _Cache:
    """Compressed files by (path, ETag), least recently used dropped past ``limit`` bytes; one compression per file
    however many ask for it at once."""

    def __init__(self, limit: int = CACHE_BYTES) -> None:
        self.limit, self.bytes = limit, 0
        self._files: collections.OrderedDict[tuple, tuple[list, bytes]] = collections.OrderedDict()
        self._immutable: dict[str, tuple] = {}  # /static/ path -> its key (a hashed name never changes content)
        self._making: dict[tuple, asyncio.Future] = {}
        self.compressions = 0  # how many times a file was compressed (tests: once per file)

    def get(self, key) -> tuple[list, bytes] | None:
        found = self._files.get(key)
        if found is not None:
            self._files.move_to_end(key)
        return found

    def immutable(self, path: str) -> tuple[list, bytes] | None:
        key = self._immutable.get(path)
        return None if key is None else self.get(key)

    async def make(self, key, headers: list, body: bytes, immutable: bool) -> tuple[list, bytes]:
        """The compressed file for ``key``: compressed now in a worker thread, or by the request already doing it."""
        if key in self._making:
            return await asyncio.shield(self._making[key])
        future = asyncio.get_running_loop().create_future()
        self._making[key] = future
        try:
            packed = await anyio.to_thread.run_sync(gzip_bytes, body)
            self.compressions += 1
            entry = (_compressed_headers(headers, len(packed)), packed)
            self._files[key] = entry
            self.bytes += len(packed)
            if immutable:
                self._immutable[key[0]] = key
            while self.bytes > self.limit and self._files:
                old_key, (_, old) = self._files.popitem(last=False)
                self.bytes -= len(old)
                self._immutable.pop(old_key[0], None)
            future.set_result(entry)
            return entry
        except BaseException as error:
            future.set_exception(error)
            future.exception()  # retrieved: no warning when nobody else waited
            raise
        finally:
            del self._making[key]


class Compression:
    """ASGI middleware: gzip for text answers to clients that accept it (see the module's docstring)."""

    def __init__(self, app, cache: _Cache | None = None) -> None:
        self.app = app
        self.cache = cache or _Cache()

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = scope.get("headers", [])
        inner = {**scope, "headers": [(k, v) for k, v in headers if k != b"accept-encoding"]}
        if (scope.get("method") != "GET" or not accepts_gzip(headers)
                or any(k in (b"range", b"if-range") for k, _ in headers)):
            await self.app(inner, receive, send)
            return
        path = scope.get("path", "")
        conditional = any(k in (b"if-none-match", b"if-modified-since") for k, _ in headers)
        if not conditional and path.startswith("/static/"):
            kept = self.cache.immutable(path)
            if kept is not None:
                await _send_whole(send, 200, kept)
                return
        await _Answer(self.cache, path, send).run(self.app, inner, receive)


async def _send_whole(send, status: int, entry: tuple[list, bytes]) -> None:
    headers, body = entry
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


class _Answer:
    """One answer on its way out: passed as it is, compressed once as a file, or compressed as it streams."""

    def __init__(self, cache: _Cache, path: str, send) -> None:
        self.cache, self.path, self.send = cache, path, send
        self.mode = "pass"
        self.start: dict | None = None
        self.parts: list[bytes] = []
        self.size = 0
        self.packer = None

    async def run(self, app, scope, receive) -> None:
        await app(scope, receive, self.on_message)

    async def on_message(self, message) -> None:
        if message["type"] == "http.response.start":
            await self._begin(message)
        elif message["type"] == "http.response.body" and self.mode != "pass":
            await self._body(message.get("body", b""), message.get("more_body", False))
        else:
            await self.send(message)

    async def _begin(self, message) -> None:
        headers = list(message.get("headers", []))
        length = _header(headers, b"content-length")
        small = length is not None and int(length) < MINIMUM_BYTES
        if message.get("status") != 200 or not _compressible(headers) or small:
            await self.send(message)
            return
        etag = _header(headers, b"etag")
        if etag is not None and (length is None or int(length) <= MAX_FILE_BYTES):
            self.key = (self.path, etag, length)
            kept = self.cache.get(self.key)
            if kept is not None:
                self.mode = "kept"
                await _send_whole(self.send, 200, kept)
                return
            self.mode, self.start = "file", {**message, "headers": headers}
            return
        self.mode = "stream"
        self.packer = zlib.compressobj(STREAM_LEVEL, zlib.DEFLATED, 31)
        await self.send({**message, "headers": _compressed_headers(headers, None)})

    async def _body(self, body: bytes, more: bool) -> None:
        if self.mode == "kept":  # the inner app's copy of a file already sent compressed: read and dropped
            return
        if self.mode == "file":
            self.parts.append(body)
            self.size += len(body)
            if more:
                return
            data = b"".join(self.parts)
            self.parts = []
            immutable = b"immutable" in (_header(self.start["headers"], b"cache-control") or b"")
            entry = await self.cache.make(self.key, self.start["headers"], data, immutable and self.path.startswith("/static/"))
            await _send_whole(self.send, 200, entry)
            return
        packed = self.packer.compress(body)
        # A chunk that more follow is flushed, so a streamed answer reaches the browser as it is made.
        packed += self.packer.flush(zlib.Z_SYNC_FLUSH if more else zlib.Z_FINISH)
        await self.send({"type": "http.response.body", "body": packed, "more_body": more})
