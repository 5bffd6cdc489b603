"""embedviz/app/serving.py without a server: the hashes name the scripts the browser runs inline, and the
middleware puts the headers on every HTTP answer (replacing any the app set) and leaves websockets alone.
A started server and Chromium check the rest (tests/test_hostile_server.py, tests/e2e/test_csp.py)."""
from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest
import streamlit

from embedviz.app import serving, tour, warm
from tests.conftest import run_async

INDEX_HTML = Path(streamlit.__file__).parent / "static" / "index.html"


def test_the_hash_is_the_one_csp_defines():
    # the example of the CSP Level 3 specification (and MDN): the hash of "alert('Hello, world.');"
    assert serving.script_hash("alert('Hello, world.');") == "'sha256-qznLcsROx4GACP2dm0UCKCzCG+HiZ1guq6ZZDob/Tng='"


def test_the_policy_allows_exactly_the_inline_scripts_the_page_runs():
    """Streamlit's index.html has one inline script (a new Streamlit that adds or changes one fails here), and the
    presenter view's block carries its script's text unchanged."""
    inline = re.findall(r"<script>(.*?)</script>", INDEX_HTML.read_text(), flags=re.S)
    assert inline == [serving.STREAMLIT_INLINE_JS]
    (presenter,) = re.findall(r"<script>(.*?)</script>", tour.PRESENT_KEYS, flags=re.S)
    script_src = serving.POLICY["script-src"].split()
    assert serving.script_hash(serving.STREAMLIT_INLINE_JS) in script_src
    assert serving.script_hash(presenter) in script_src
    assert not {"'unsafe-inline'", "'unsafe-eval'", "blob:", "data:", "*"} & set(script_src)


def _run(middleware, scope) -> list[dict]:
    sent: list[dict] = []

    async def receive():
        return {"type": "http.request", "body": b""}

    async def send(message):
        sent.append(message)

    run_async(middleware(scope, receive, send))
    return sent


async def _answer(scope, receive, send):
    if scope["type"] == "http":
        await send({"type": "http.response.start", "status": 200,
                    "headers": [(b"content-type", b"text/html"), (b"X-Frame-Options", b"SAMEORIGIN")]})
        await send({"type": "http.response.body", "body": b"<p>hi</p>"})
    else:
        await send({"type": "websocket.accept", "headers": [(b"x-test", b"1")]})


def test_every_http_answer_gets_the_headers_once_and_websockets_pass_untouched():
    start, body = _run(serving.SecurityHeaders(_answer), {"type": "http", "path": "/"})
    headers = [(k.decode(), v.decode()) for k, v in start["headers"]]
    names = [k.lower() for k, _ in headers]
    assert len(names) == len(set(names))  # the app's own X-Frame-Options replaced, not doubled
    assert dict(headers) == {"content-type": "text/html", **{k.lower(): v for k, v in serving.HEADERS.items()}}
    assert body == {"type": "http.response.body", "body": b"<p>hi</p>"}
    (accept,) = _run(serving.SecurityHeaders(_answer), {"type": "websocket", "path": "/_stcore/stream"})
    assert accept == {"type": "websocket.accept", "headers": [(b"x-test", b"1")]}


def test_the_server_loads_the_pages_libraries_before_its_first_connection():
    """A fresh server's first students open pages at once: their script threads must not be the first to import
    pandas (two at a time can meet it half initialised, and the page fails). In a fresh interpreter, the server's
    start-up alone leaves pandas, plotly's figures and torch loaded."""
    import subprocess
    import sys

    code = ("import asyncio, gc, sys\n"
            "from embedviz.app import serving\n"
            "assert 'pandas' not in sys.modules and gc.get_freeze_count() == 0\n"
            "async def start():\n"
            "    async with serving.lifespan(None):\n"
            "        print(sorted(m for m in ('pandas', 'plotly.graph_objects', 'torch') if m in sys.modules))\n"
            "        print(gc.get_freeze_count(), sum(gc.get_count()))\n"
            "asyncio.run(start())\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True)
    loaded, (frozen, young) = out.stdout.split("\n")[-3], map(int, out.stdout.split("\n")[-2].split())
    assert loaded == "['pandas', 'plotly.graph_objects', 'torch']", out.stdout + out.stderr
    # and set aside from the cyclic collector, whose full collections walked all of it (~0.3 s each, GIL held)
    assert frozen > 100_000 and young < 1_000, (frozen, young)


@pytest.mark.parametrize("asked", ["1", None])
def test_a_server_asked_to_warm_starts_its_warm_up_before_its_first_session(asked):
    """The warm-up starts with the server (EMBEDVIZ_WARM=1, as `make run` and the recipes set), so a class that
    starts minutes later finds the tours' steps computed; a server not asked starts none."""
    import os
    import subprocess
    import sys

    code = ("import asyncio\n"
            "from embedviz.app import serving, warm\n"
            "async def start():\n"
            "    async with serving.lifespan(None):\n"
            "        print(warm._thread is not None and warm._thread.is_alive())\n"
            "asyncio.run(start())\n")
    env = {k: v for k, v in os.environ.items() if k != warm.ENV} | ({warm.ENV: asked} if asked else {})
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True,
                         env=env)
    assert out.stdout.split("\n")[-2] == str(asked == "1"), out.stdout + out.stderr
