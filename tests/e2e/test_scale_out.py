"""Scale out for real, on loopback: two app replicas behind nginx (deploy/launcher.py), browsers through nginx.

Every page renders through the load balancer; each browser stays on its replica (cookie affinity, checked in
nginx's access log); when one replica stops, returning and new browsers are served by the other.
Skips without nginx (says how to install it) unless EMBEDVIZ_REQUIRE_BROWSER=1.
"""
from __future__ import annotations

import re
import time
import urllib.error
import urllib.request

import pytest

from deploy.launcher import Cluster, find_nginx
from tests.e2e.conftest import (
    CJK, ENTRIES, LOAD_TIMEOUT_MS, exceptions, h1_text, missing, new_context, new_tab, open_app, page_spec, t_en,
    wait_charts, wait_idle,
)

pytestmark = pytest.mark.e2e

ROUTE_COOKIE = "embedviz_route"
LOG_LINE = re.compile(r'"(?P<method>\S+) (?P<path>\S+) [^"]*" (?P<status>\d+) route=(?P<route>\S+) upstream=(?P<upstream>.+)$')


@pytest.fixture(scope="module")
def cluster(chromium, tmp_path_factory):
    if find_nginx() is None:
        missing("nginx not found: install it with `apt-get install nginx` (Debian/Ubuntu); the scale-out test runs "
                "it from a temp dir as the current user")
    with Cluster(replicas=2, prefix=tmp_path_factory.mktemp("nginx")) as running:
        yield running


def log_entries(cluster) -> list[dict]:
    """nginx's access log; ``upstream`` is the replica that answered (after a failed one, nginx logs "a, b")."""
    entries = [m.groupdict() for m in map(LOG_LINE.search, cluster.access_log.read_text().splitlines()) if m]
    for e in entries:
        e["tried"] = e["upstream"]
        e["upstream"] = e["upstream"].split(",")[-1].strip()
    return entries


def logged_upstream(cluster, route: str, timeout: float = 5.0) -> str:
    """The replica that answered the request with this route cookie. nginx writes the access-log line in its log
    phase, after the response has gone out, so a client can read the log before the line is there: wait for it."""
    deadline = time.monotonic() + timeout
    while True:
        upstream = next((e["upstream"] for e in reversed(log_entries(cluster)) if e["route"] == route), None)
        if upstream is not None:
            return upstream
        if time.monotonic() > deadline:
            pytest.fail(f"no access-log line for route {route} after {timeout} s")
        time.sleep(0.05)


def route_per_replica(cluster) -> dict[str, str]:
    """A route cookie value that nginx sends to each replica, found with plain HTTP probes (bounded)."""
    found: dict[str, str] = {}
    for i in range(64):
        route = f"probe-{i}"
        request = urllib.request.Request(f"{cluster.url}/_stcore/health", headers={"Cookie": f"{ROUTE_COOKIE}={route}"})
        with urllib.request.urlopen(request, timeout=10) as response:
            assert response.status == 200
        found.setdefault(logged_upstream(cluster, route), route)
        if len(found) == len(cluster.nodes):
            return found
    pytest.fail(f"64 route cookies all went to {sorted(found)}: the consistent hash does not spread browsers")


def student(browser, cluster, route: str | None = None):
    """A browser context through nginx, optionally already holding a route cookie (a returning student)."""
    context = new_context(browser, cluster.url)
    if route:
        context.add_cookies([{"name": ROUTE_COOKIE, "value": route, "url": cluster.url}])
    return context


def render(context, entry) -> None:
    spec = page_spec(entry)
    tab = new_tab(context)
    try:
        open_app(tab, spec.path, charts=spec.charts)
        assert not exceptions(tab), f"/{spec.url} through nginx: {exceptions(tab)}"
        assert h1_text(tab), f"/{spec.url} through nginx shows no title"
    finally:
        tab.close()


def render_all(context, entries) -> None:
    """Open the first page by URL, then reach the others by clicking the sidebar navigation (a student's path;
    it also skips reloading the app's JavaScript for every page)."""
    tab = new_tab(context)
    try:
        for i, entry in enumerate(entries):
            spec = page_spec(entry)
            if i == 0:
                open_app(tab, spec.path, charts=spec.charts)
            else:
                before = h1_text(tab)
                tab.locator("[data-testid='stSidebarNavLink']").filter(has_text=t_en(spec.title_key)).first.click()
                tab.wait_for_function(
                    "(b) => { const h = document.querySelector(\"[data-testid='stMain'] h1\"); return h && h.innerText !== b; }",
                    arg=before, timeout=LOAD_TIMEOUT_MS,
                )
                wait_idle(tab, timeout=LOAD_TIMEOUT_MS)
                wait_charts(tab, spec.charts)
            assert not exceptions(tab), f"/{spec.url} through nginx: {exceptions(tab)}"
            assert h1_text(tab), f"/{spec.url} through nginx shows no title"
    finally:
        tab.close()


def streams(cluster, route: str, *, until: set[str] | None = None, timeout: float = 20.0) -> set[str]:
    """The replicas that served this route's websockets (the Streamlit sessions). nginx logs a websocket when it
    closes, a moment after the browser context closed, so poll the log (bounded) until the route shows up."""
    deadline = time.monotonic() + timeout
    while True:
        entries = log_entries(cluster)
        found = {e["upstream"] for e in entries if e["route"] == route and e["path"].startswith("/_stcore/stream")}
        if (found >= until if until else found) or time.monotonic() > deadline:
            return found
        time.sleep(0.25)


def test_every_page_through_nginx_and_each_browser_keeps_its_replica(cluster, browser):
    routes = route_per_replica(cluster)
    contexts = {upstream: student(browser, cluster, route) for upstream, route in routes.items()}
    try:
        # The pages are shared out between the two replicas; every page is rendered once through nginx.
        upstreams = sorted(contexts)
        for k, upstream in enumerate(upstreams):
            render_all(contexts[upstream], ENTRIES[k :: len(upstreams)])
    finally:
        for context in contexts.values():
            context.close()
    for upstream, route in routes.items():
        assert streams(cluster, route, until={upstream}) == {upstream}, f"route {route}: sessions on {streams(cluster, route)}, not only {upstream}"


CSP_LOG = """window.__csp = []; document.addEventListener('securitypolicyviolation',
  (e) => window.__csp.push(e.violatedDirective + ' ' + e.blockedURI));"""


def test_the_recipe_sends_its_security_headers_and_no_page_trips_them(cluster, browser):
    """Every answer through the nginx recipe carries the app's security headers; the pages with the most machinery (plotly charts,
    the bundled model, training) load without one CSP violation, and an image from another host is blocked."""
    from embedviz.app.serving import HEADERS as expected

    for path in ("/", "/_stcore/health", "/static/"):
        try:
            response = urllib.request.urlopen(cluster.url + path, timeout=30)
        except urllib.error.HTTPError as error:  # a 404 carries them too ("always")
            response = error
        assert {name: response.headers.get(name) for name in expected} == expected, path
    context = new_context(browser, cluster.url)
    context.add_init_script(CSP_LOG)
    tab = new_tab(context)
    try:
        for url in ("home", "trained-embedding", "real-model", "modern-rope"):
            spec = page_spec(next(e for e in ENTRIES if e[3] == url))
            open_app(tab, spec.path, charts=spec.charts)
            assert not exceptions(tab), f"/{url} with the CSP: {exceptions(tab)}"
            assert tab.evaluate("window.__csp") == [], f"/{url} tripped the CSP"
        tab.evaluate("() => { const i = new Image(); i.src = 'http://127.0.0.2:9/track.png'; document.body.append(i); }")
        tab.wait_for_function("window.__csp.length > 0", timeout=10_000)
        assert tab.evaluate("window.__csp") == ["img-src http://127.0.0.2:9/track.png"]
    finally:
        context.close()


def test_when_a_replica_stops_new_sessions_still_work(cluster, browser):
    routes = route_per_replica(cluster)
    stopped = cluster.nodes[0].address
    survivor = cluster.nodes[1].address
    cluster.stop_replica(0)
    assert cluster.nodes[0].proc.poll() is not None

    # A returning student whose cookie points at the stopped replica, and a brand-new one.
    returning, newcomer = student(browser, cluster, routes[stopped]), student(browser, cluster)
    try:
        render(returning, ENTRIES[-1])
        render(newcomer, ENTRIES[0])
        # The view still comes from a shared link: language and page from the URL, on the surviving replica.
        tab = new_tab(newcomer)
        spec = page_spec(ENTRIES[-1])
        open_app(tab, f"{spec.path}?lang=简体中文", charts=spec.charts)
        assert CJK.search(h1_text(tab)) and not exceptions(tab)
        new_route = next(c["value"] for c in newcomer.cookies() if c["name"] == ROUTE_COOKIE)
    finally:
        returning.close()
        newcomer.close()
    assert streams(cluster, routes[stopped], until={survivor}) >= {survivor}, "the returning student was not moved to the survivor"
    assert streams(cluster, new_route) == {survivor}
