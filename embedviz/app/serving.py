"""What the served process adds around Streamlit's own server: response headers on every HTTP answer, and the
runtime patches installed before the first client can connect. ``serve.py`` hands both to ``st.App``, with the
follow route of embedviz/app/classroom_route.py.

Headers. A value that slips into a page as markup (a link's text, a pasted config) must not make a reader's
browser fetch from, post to or be framed by another site, behind nginx or the Ingress or on a bare server alike.
The policy is the tightest under which every page works in Chromium (tests/e2e collect CSP violations from every
tab they open and fail on any); each directive says what needs it:

- scripts only from the app's own files: Streamlit's bundle, plotly's and KaTeX's chunks, a component's asset
  directory. No 'unsafe-inline' and no 'unsafe-eval': the inline scripts the app runs are allowed by their
  hashes (Streamlit's index.html sets ``window.prerenderReady``; ``BASE_URL_JS`` below; the presenter view's key
  handler and browser/page_a11y.js, our own files),
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
deploy/nginx.conf.template carries the same values (tests/test_deploy.py holds them equal): an operator who fronts
the app with it gets the same policy even from a bare ``streamlit run app.py``.
"""
from __future__ import annotations

import base64
import contextlib
import hashlib
import logging
from pathlib import Path

# Streamlit's index.html (streamlit==1.67.0): its one inline script, byte for byte. tests/app/test_serving.py
# fails if the installed bundle's inline scripts change.
STREAMLIT_INLINE_JS = "\n      window.prerenderReady = false\n    "
# The presenter view's clicker keys (the tour puts it on the page with st.html): allowed by its hash, so this file
# is one of the scripts of ours that run inline, and a changed file is allowed as soon as the server restarts.
PRESENTER_KEYS_JS = (Path(__file__).parent / "browser" / "presenter_keys.js").read_text()
PAGE_A11Y_JS = (Path(__file__).parent / "browser" / "page_a11y.js").read_text()  # the document's language, its live region
TOUR_FIT_JS = (Path(__file__).parent / "browser" / "tour_fit.js").read_text()  # a tour step's chart sized to the screen
# Where the server is, told to Streamlit's frontend before its bundle runs. Without it the frontend guesses: on a page
# path such as /sinusoidal it first asks /sinusoidal/_stcore/health and /sinusoidal/_stcore/host-config (it allows for
# an app served under a base path), gets two 404s (the console errors Lighthouse lists), waits 100 ms and asks /.
# ``window.__streamlit.BACKEND_BASE_URL`` is the frontend's own setting for an app embedded elsewhere; the base is
# the directory the page's relative ``./static/`` bundle loads from, so it holds under a proxy's path prefix too.
BASE_URL_JS = 'window.__streamlit = Object.assign({}, window.__streamlit, {BACKEND_BASE_URL: new URL(".", document.baseURI).href})'
_log = logging.getLogger("embedviz.serving")


def script_hash(source: str) -> str:
    """The CSP hash source that allows exactly this inline script's text."""
    digest = base64.b64encode(hashlib.sha256(source.encode()).digest()).decode()
    return f"'sha256-{digest}'"


POLICY: dict[str, str] = {
    "default-src": "'none'",
    "script-src": " ".join(("'self'", "'wasm-unsafe-eval'", script_hash(STREAMLIT_INLINE_JS), script_hash(BASE_URL_JS),
                             script_hash(PRESENTER_KEYS_JS), script_hash(PAGE_A11Y_JS), script_hash(TOUR_FIT_JS))),
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
    (plotly's 4 MB chunk) and run in an extra task.

    An error raised before the answer began (a route's bug, a store that answers nonsense) is answered here, 500
    with the headers, and logged once with its trace: Starlette's own 500 comes from its outermost layer, outside
    every middleware a script adds, so it went out without them."""

    def __init__(self, app, headers: dict[str, str] | None = None) -> None:
        self.app = app
        chosen = HEADERS if headers is None else headers
        self._names = {name.lower().encode() for name in chosen}
        self._headers = [(name.lower().encode(), value.encode()) for name, value in chosen.items()]

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        started = False

        async def send_with_headers(message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                kept = [(k, v) for k, v in message.get("headers", ()) if k.lower() not in self._names]
                message = {**message, "headers": kept + self._headers}
            await send(message)

        try:
            await self.app(scope, receive, send_with_headers)
        except Exception:
            if started:
                raise
            _log.exception("answering %s %s", scope.get("method"), scope.get("path"))
            await send_with_headers({"type": "http.response.start", "status": 500, "headers": [
                (b"content-type", b"text/plain; charset=utf-8"), (b"cache-control", b"no-store")]})
            await send({"type": "http.response.body", "body": b"Internal Server Error"})


class BaseUrl:
    """ASGI middleware: Streamlit's page (its index.html, served at / and at every page path) gets ``BASE_URL_JS``
    just before the bundle's module script, so the frontend asks the server where it is instead of guessing."""

    MARK = b'<script type="module"'

    def __init__(self, app) -> None:
        self.app = app
        self._script = b"<script>" + BASE_URL_JS.encode() + b"</script>\n    "

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http" or scope.get("method") != "GET" or scope.get("path", "").startswith(("/_stcore/", "/static/")):
            await self.app(scope, receive, send)
            return
        start: dict | None = None
        parts: list[bytes] = []

        async def rewrite(message) -> None:
            nonlocal start
            if message["type"] == "http.response.start":
                headers = message.get("headers", [])
                kind = next((v for k, v in headers if k == b"content-type"), b"")
                if message.get("status") == 200 and kind.startswith(b"text/html") and not any(
                        k == b"content-encoding" for k, _ in headers):
                    start = message
                    return
            elif message["type"] == "http.response.body" and start is not None:
                parts.append(message.get("body", b""))
                if message.get("more_body", False):
                    return
                body = b"".join(parts)
                if self.MARK in body and self._script not in body:
                    body = body.replace(self.MARK, self._script + self.MARK, 1)
                headers = [(k, v) for k, v in start.get("headers", []) if k != b"content-length"]
                await send({**start, "headers": headers + [(b"content-length", str(len(body)).encode())]})
                await send({"type": "http.response.body", "body": body})
                return
            await send(message)

        await self.app(scope, receive, rewrite)


@contextlib.asynccontextmanager
async def lifespan(app):
    """At server start, after Streamlit's runtime exists and before the first connection is accepted: the
    thread cap (before anything loads numpy or torch), then the runtime patches, so an upload or a clear_cache
    request sent before any page has run is already refused. The frame installs them again (idempotent), which is
    what covers AppTest and a bare ``streamlit run app.py``."""
    from embedviz._ast_lock import serialize_ast_parse
    from embedviz._threads import limit_threads

    limit_threads()
    serialize_ast_parse()  # before the warm-up thread and the first sessions parse at once
    # The libraries the pages load on first use, loaded once here: sessions' script threads (and the warm-up
    # thread) that import pandas for the first time at once can meet it half initialised ("partially initialized
    # module 'pandas' has no attribute 'Series'", a failed page), and plotly reaches pandas lazily while it builds
    # a figure.
    import pandas  # noqa: F401
    import plotly.graph_objects  # noqa: F401

    import embedviz.input_layer.embeddings  # noqa: F401  (the core's torch modules, and torch with them)

    from embedviz.app import compat, warm

    warm.settle_heap()  # the libraries just loaded stay for the process's life: the collector need not walk them
    compat.install()
    from embedviz.app import classroom_route

    classroom_route.answer_held_on_stop()  # a stop does not wait for the follow requests the route holds
    # the warm-up from the server's start, not its first session: a class's first Next onto a page the server has
    # not opened came 8 s after start and met the warm-up still reading that page's model
    warm.start()
    global _routes_served
    _routes_served = True  # serve.py mounts classroom_route.routes() with this lifespan
    yield


# ------------------------------------------------------------------------------------------------ HTTP routes
_routes_served = False


def routes_served() -> bool:
    """Whether this process serves the follow route (started from serve.py; not AppTest, not ``streamlit run
    app.py``, where a follower polls with a fragment instead)."""
    return _routes_served
