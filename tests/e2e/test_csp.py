"""The served Content-Security-Policy (embedviz/app/serving.py) in Chromium: the pages work under it with zero
violations, and it is live (what it forbids is blocked and reported).

Every tab the e2e tests open reports violations (the ``tab`` fixture fails on any), so all browser tests hold the
pages to the policy; this test adds the parts no other test reaches in one session: KaTeX and charts in the
Chinese UI, the presenter view's inline key handler (allowed by its hash), a chart's PNG export, a CSV download,
and a control that shows the listener sees what the policy blocks.
"""
from __future__ import annotations

import pytest

from urllib.parse import quote

from embedviz.app.i18n import LANG_KEY, LANGUAGES, catalog
from tests.e2e.conftest import CJK, LOAD_TIMEOUT_MS, exceptions, h1_text, new_tab, open_app

pytestmark = pytest.mark.e2e

# What a script that reached the page would try: an inline script, eval, an image and a request to another host.
HOSTILE_JS = """async () => {
  const s = document.createElement("script");
  s.textContent = "window.embedvizInjected = 1";
  document.head.appendChild(s);
  setTimeout("window.embedvizEvaluated = 1", 0);  // a string timer is eval (DevTools' own evaluate is exempt)
  const img = new Image();
  img.src = "http://127.0.0.2:9/track.png";
  document.body.appendChild(img);
  let fetched = true;
  try { await fetch("http://127.0.0.2:9/beacon"); } catch (e) { fetched = false; }
  await new Promise((r) => setTimeout(r, 300));
  return {injected: window.embedvizInjected === 1, evaluated: window.embedvizEvaluated === 1, fetched};
}"""


def test_pages_run_under_the_policy_and_what_it_forbids_is_blocked(app_server):
    violations: list[str] = []
    errors: list[str] = []
    page = new_tab(app_server.context, errors=errors, violations=violations)
    try:
        # KaTeX, plotly and Streamlit's bundle, in the Chinese UI (a bound widget keeps its label in the URL)
        # (RoPE's wavelength tab: its first tabs are live figures, whose plotly the live test exports)
        wave = quote(catalog()["rope.tab_wave"]["zh"])
        open_app(page, f"rope?{LANG_KEY}={quote(LANGUAGES['zh'])}&rope_tab={wave}", charts=1)
        assert page.locator(".katex").count() > 0 and CJK.search(h1_text(page))
        with page.expect_download(timeout=LOAD_TIMEOUT_MS) as png:  # plotly's export: canvas, data: and blob: URLs
            page.locator("[data-testid='stPlotlyChart']").first.hover()
            page.locator("[data-testid='stPlotlyChart'] .modebar-btn[data-title]").first.click()
        assert png.value.suggested_filename.endswith(".png")
        open_app(page, "?tour=003&step=5&present=true", charts=1)  # the presenter view's inline script
        page.wait_for_function("() => window.embedvizPresenterKeys === true", timeout=15_000)  # drawn by now
        open_app(page, "token-embeddings", charts=1)
        with page.expect_download(timeout=LOAD_TIMEOUT_MS) as csv:  # Streamlit's download through /media
            page.locator("[data-testid='stDownloadButton'] button").first.click()
        assert csv.value.suggested_filename.endswith(".csv")
        assert not exceptions(page)
        page.wait_for_timeout(500)  # violations arrive as events; let the last ones land
        assert not violations and not errors, (violations, errors)

        tried = page.evaluate(HOSTILE_JS)
        page.wait_for_timeout(500)
    finally:
        page.close()
    assert tried == {"injected": False, "evaluated": False, "fetched": False}, tried
    blocked = " ".join(violations)
    for directive in ("script-src-elem", "script-src", "img-src", "connect-src"):
        assert f"{directive} |" in blocked, (directive, violations)
