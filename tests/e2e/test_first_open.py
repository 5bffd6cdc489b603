"""What a classroom network carries when a student opens the app cold (embedviz/app/compression.py,
serving.BaseUrl), seen in Chromium's own network log (CDP's Network domain):

- every text file of Streamlit's bundle arrives gzipped (before: none of the 7.5 MB of Home), content-hashed files
  with a year's immutable lifetime;
- a page path (/sinusoidal) makes no request under itself: before, the frontend asked
  /sinusoidal/_stcore/health and /sinusoidal/_stcore/host-config first (two 404s, Lighthouse's console errors,
  and 100 ms lost before it asked /).
"""
from __future__ import annotations

import pytest

from embedviz.app.compression import MINIMUM_BYTES
from tests.e2e.conftest import IDLE, LOAD_TIMEOUT_MS, new_context, new_tab

pytestmark = pytest.mark.e2e


def _open(context, path: str) -> list[dict]:
    violations: list[str] = []
    page = new_tab(context, violations=violations)
    seen: dict[str, dict] = {}
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.on("Network.responseReceived", lambda e: seen.setdefault(e["requestId"], {}).update(
        url=e["response"]["url"], status=e["response"]["status"],
        headers={k.lower(): v for k, v in e["response"]["headers"].items()}))
    cdp.on("Network.loadingFinished", lambda e: seen.setdefault(e["requestId"], {}).update(bytes=e["encodedDataLength"]))
    try:
        page.goto(path, timeout=LOAD_TIMEOUT_MS)
        page.wait_for_selector(IDLE, timeout=LOAD_TIMEOUT_MS)
        page.wait_for_timeout(1_000)
    finally:
        page.close()
    assert not violations, violations
    return [r for r in seen.values() if "url" in r]


def test_a_cold_open_gets_the_bundle_gzipped_and_a_page_path_asks_only_the_server(browser, app_server):
    context = new_context(browser, app_server.url)  # its own, empty cache: a student's first open
    try:
        home = _open(context, "")
        scripts = [r for r in home if "/static/js/" in r["url"] and r["status"] == 200]
        assert len(scripts) > 20
        plain = [r["url"] for r in scripts if r["headers"].get("content-encoding") != "gzip"
                 and int(r["headers"].get("content-length", 0)) >= MINIMUM_BYTES]
        assert not plain, plain
        assert all("immutable" in r["headers"].get("cache-control", "") for r in scripts)
        biggest = max(scripts, key=lambda r: r.get("bytes", 0))
        assert biggest["bytes"] < 2_000_000, biggest  # plotly's 4.7 MB chunk
        page = _open(context, "sinusoidal")
        base = app_server.url.rstrip("/") + "/sinusoidal/"
        assert not [r["url"] for r in page if r["url"].startswith(base)]
        assert not [(r["url"], r["status"]) for r in home + page if r["status"] >= 400]
    finally:
        context.close()
