"""What the served process adds around Streamlit's own server: response headers on every HTTP answer, and the
runtime patches installed before the first client can connect. ``serve.py`` hands both to ``st.App``.

Headers. A value that slips into a page as markup (a link's text, a pasted config) must not make a reader's
browser fetch from, post to or be framed by another site, behind nginx or the Ingress or on a bare server alike.
The policy is the tightest under which every page works in Chromium (tests/e2e collect CSP violations from every
tab they open and fail on any); each directive says what needs it:

- scripts only from the app's own files: Streamlit's bundle, plotly's and KaTeX's chunks, a component's asset
  directory. No 'unsafe-inline' and no 'unsafe-eval': the two inline scripts the app runs are allowed by their
  hashes (Streamlit's index.html sets ``window.prerenderReady``; the presenter view's key handler, our own file),
  so markup that reached the page still could not run a script of its own. 'wasm-unsafe-eval' lets Streamlit's
  protobuf decoder compile its small 64-bit-integer WebAssembly helper (long.js; it falls back to plain JS, but
  the refusal is a violation on every page); it allows no JavaScript eval.
- styles: 'unsafe-inline' is needed. Streamlit's frontend styles every element with emotion, which writes
  ``<style>`` tags and ``style=`` attributes at run time, with no nonce to give it.
- images, fonts and media: the app itself, plus data: and blob: (plotly's and Streamlit's image downloads,
  KaTeX's and the bundle's inlined fonts).
- connections (the websocket, uploads, health checks) and workers: the app itself.
- nothing is framed and nothing frames the app: frame-ancestors 'none' and X-Frame-Options DENY.
- no <base> to move relative URLs, no forms posted anywhere, no plugins.

``X-Content-Type-Options: nosniff`` keeps a browser from running an upload's bytes as a script or style,
``Referrer-Policy: same-origin`` keeps a page's URL (its settings) from travelling to another site with a click.
deploy/nginx.conf.template and deploy/k8s/headers.yaml carry the same values (tests/test_deploy.py holds them
equal): an operator who fronts the app with them gets the same policy even from a bare ``streamlit run app.py``.
"""
from __future__ import annotations

import asyncio
import base64
import collections
import contextlib
import hashlib
import json
import time
from pathlib import Path

import anyio

# Streamlit's index.html (streamlit==1.67.0): its one inline script, byte for byte. tests/app/test_serving.py
# fails if the installed bundle's inline scripts change.
STREAMLIT_INLINE_JS = "\n      window.prerenderReady = false\n    "
# The presenter view's clicker keys (the tour puts it on the page with st.html): allowed by its hash, so this file
# is the one script of ours that runs inline, and a changed file is allowed as soon as the server restarts.
PRESENTER_KEYS_JS = (Path(__file__).parent / "browser" / "presenter_keys.js").read_text()


def script_hash(source: str) -> str:
    """The CSP hash source that allows exactly this inline script's text."""
    digest = base64.b64encode(hashlib.sha256(source.encode()).digest()).decode()
    return f"'sha256-{digest}'"


POLICY: dict[str, str] = {
    "default-src": "'none'",
    "script-src": " ".join(("'self'", "'wasm-unsafe-eval'", script_hash(STREAMLIT_INLINE_JS), script_hash(PRESENTER_KEYS_JS))),
    "style-src": "'self' 'unsafe-inline'",
    "img-src": "'self' data: blob:",
    "font-src": "'self' data:",
    "media-src": "'self' data: blob:",
    "connect-src": "'self'",
    "worker-src": "'self'",
    "manifest-src": "'self'",
    "frame-src": "'none'",
    "frame-ancestors": "'none'",
    "object-src": "'none'",
    "base-uri": "'none'",
    "form-action": "'none'",
}
CONTENT_SECURITY_POLICY = "; ".join(f"{name} {sources}" for name, sources in POLICY.items())
HEADERS: dict[str, str] = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
}


class SecurityHeaders:
    """ASGI middleware: every HTTP response carries ``headers`` (replacing any of the same name); websockets pass
    through untouched. Pure ASGI rather than Starlette's BaseHTTPMiddleware, which would buffer each response
    (plotly's 4 MB chunk) and run in an extra task."""

    def __init__(self, app, headers: dict[str, str] | None = None) -> None:
        self.app = app
        chosen = HEADERS if headers is None else headers
        self._names = {name.lower().encode() for name in chosen}
        self._headers = [(name.lower().encode(), value.encode()) for name, value in chosen.items()]

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message) -> None:
            if message["type"] == "http.response.start":
                kept = [(k, v) for k, v in message.get("headers", ()) if k.lower() not in self._names]
                message = {**message, "headers": kept + self._headers}
            await send(message)

        await self.app(scope, receive, send_with_headers)


@contextlib.asynccontextmanager
async def lifespan(app):
    """At server start, after Streamlit's runtime exists and before the first connection is accepted: the
    thread cap (before anything loads numpy or torch), then the runtime patches, so an upload or a clear_cache
    request sent before any page has run is already refused. The frame installs them again (idempotent), which is
    what covers AppTest and a bare ``streamlit run app.py``."""
    from embedviz._threads import limit_threads

    limit_threads()
    # The libraries the pages load on first use, loaded once here: sessions' script threads (and the warm-up
    # thread) that import pandas for the first time at once can meet it half initialised ("partially initialized
    # module 'pandas' has no attribute 'Series'", a failed page), and plotly reaches pandas lazily while it builds
    # a figure.
    import pandas  # noqa: F401
    import plotly.graph_objects  # noqa: F401

    import embedviz.input_layer.embeddings  # noqa: F401  (the core's torch modules, and torch with them)

    from embedviz.app import compat

    compat.install()
    global _routes_served
    _routes_served = True  # serve.py mounts routes() with this lifespan
    yield


# ------------------------------------------------------------------------------------------------ the follow route
# A following student's tab asks where its class is (embedviz/app/browser/class_follow.js) and reruns the app only
# when the answer changed: a poll is one small HTTP answer, not a script run (a fragment's rerun cost ~2.7 ms of
# the server's one GIL, so a hundred students cost a third of a core doing nothing). The answer is what every
# member may see (ClassState.position): no teacher token, no member, no answer.
CLASS_ROUTE = "/api/class/{code}/step"
FRESH_SECONDS = 0.25  # an open class's position is read from the store at most this often per replica
NEW_READS_PER_SECOND = 20  # store reads for codes not known open (a typo, an expired class, a guesser)
NEW_READS_BURST = 40
KNOWN_CODES = 2 * 200  # positions kept (classroom.MAX_CLASSES open classes fit twice)
_routes_served = False


def class_route(code: str) -> str:
    """The path a follower's tab polls for class ``code`` (a join code: letters and digits only)."""
    return CLASS_ROUTE.replace("{code}", code)


def routes_served() -> bool:
    """Whether this process serves the follow route (started from serve.py; not AppTest, not ``streamlit run
    app.py``, where a follower polls with a fragment instead)."""
    return _routes_served


class TokenBucket:
    """``rate`` events per second on average, ``burst`` at once."""

    def __init__(self, rate: float, burst: float, clock=time.monotonic):
        self.rate, self.burst, self._clock = rate, burst, clock
        self._tokens, self._at = float(burst), clock()

    def take(self) -> bool:
        now = self._clock()
        self._tokens = min(self.burst, self._tokens + (now - self._at) * self.rate)
        self._at = now
        if self._tokens < 1:
            return False
        self._tokens -= 1
        return True


class ClassFollowRoute:
    """``GET CLASS_ROUTE``: 200 ``{"lesson", "step", "revealed"}``; 400 for a string that is no join code (no store
    read); 404 for no open class; 503 when the store cannot be reached; 429 (Retry-After) past the budget.

    Bounded by what it reads, not by who asks (a school's students share one address behind its NAT, and behind
    nginx every request comes from nginx): an open class is read from the store at most once per FRESH_SECONDS
    however many tabs poll it (one read answers every request waiting for it), and a code not known open costs a
    token of NEW_READS_PER_SECOND. So the store sees at most (open classes) / FRESH_SECONDS + NEW_READS_PER_SECOND
    reads a second from each replica, whatever is sent. Store reads run in a worker thread: a Redis call that
    waits (up to its 1 s timeout) must not stall the event loop that carries every websocket."""

    def __init__(self, store=None, *, clock=time.monotonic, fresh: float = FRESH_SECONDS,
                 rate: float = NEW_READS_PER_SECOND, burst: float = NEW_READS_BURST, known: int = KNOWN_CODES):
        self._store, self._clock, self._fresh, self._known = store, clock, fresh, known
        self._bucket = TokenBucket(rate, burst, clock)
        self._positions: collections.OrderedDict[str, tuple[float, bytes]] = collections.OrderedDict()
        self._reading: dict[str, asyncio.Future] = {}  # code -> the store read under way

    def _read(self, code: str) -> tuple[int, bytes]:
        from embedviz import classroom

        store = self._store or classroom.shared_store()
        try:
            lesson, step, revealed = store.state(code).position
        except classroom.ClassError as error:
            status = 503 if error.code == "offline" else 404
            return status, json.dumps({"error": error.code}).encode()
        return 200, json.dumps({"lesson": lesson, "step": step, "revealed": revealed},
                               separators=(",", ":")).encode()

    @staticmethod
    def _answer(status: int, body: bytes, **headers: str):
        from starlette.responses import Response

        return Response(body, status_code=status, media_type="application/json",
                        headers={"Cache-Control": "no-store", **headers})

    async def endpoint(self, request):
        """The route's request -> response (Starlette calls a method as an endpoint, an instance as an ASGI app)."""
        from embedviz.classroom import CODE_RE

        code = request.path_params.get("code", "")
        if not CODE_RE.fullmatch(code):
            return self._answer(400, b'{"error":"malformed"}')
        known = self._positions.get(code)
        if known and self._clock() - known[0] < self._fresh:
            self._positions.move_to_end(code)
            return self._answer(200, known[1])
        if code in self._reading:  # another tab's request is reading it: share its answer
            status, body = await asyncio.shield(self._reading[code])
            return self._answer(status, body)
        if known is None and not self._bucket.take():
            return self._answer(429, b'{"error":"rate"}', **{"Retry-After": "1"})
        future = asyncio.get_running_loop().create_future()
        self._reading[code] = future
        try:
            status, body = await anyio.to_thread.run_sync(self._read, code)
        except BaseException as error:
            future.set_exception(error)
            future.exception()  # retrieved: no "never retrieved" warning when nobody was waiting
            raise
        finally:
            del self._reading[code]
        future.set_result((status, body))
        if status == 200:
            self._positions[code] = (self._clock(), body)
            self._positions.move_to_end(code)
            while len(self._positions) > self._known:
                self._positions.popitem(last=False)
        else:
            self._positions.pop(code, None)  # closed or unreachable: the next ask reads again, with a token
        return self._answer(status, body)


def routes() -> list:
    """The HTTP routes serve.py adds to Streamlit's."""
    from starlette.routing import Route

    return [Route(CLASS_ROUTE, ClassFollowRoute().endpoint, methods=["GET"])]
