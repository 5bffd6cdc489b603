"""The classroom load test's own client, against a real server: every simulated student's step completes.

benchmarks/load/ measures the server with Locust users that speak Streamlit's websocket protocol. These tests run
that client for a few seconds against `streamlit run app.py` on 127.0.0.1 and check correctness, not speed (the
bounds are generous: the machine may be shared): the page opens, a slider move reruns the page on the server
(moved away the figures change, moved back they are the same bytes), and a short Locust run with 3 students,
2 slider moves each, ends by itself with every open and step finished and no failure.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("websocket", reason="pip install -r requirements-test.txt (websocket-client)")

ROOT = Path(__file__).resolve().parents[1]
LOAD = ROOT / "benchmarks" / "load"

from deploy.launcher import serving  # noqa: E402
from benchmarks.load.stclient import StepError, StreamlitSession  # noqa: E402
from embedviz.lessons.widget_keys import Sinusoidal as K  # noqa: E402

pytestmark = pytest.mark.slow


def widget_key(element_id: str) -> str:
    """The key a page gave a widget: Streamlit's element id ends in it (``$$ID-<hash>-<key>``)."""
    return element_id.split("-", 2)[-1]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with serving(tmp_path_factory.mktemp("load") / "server.log") as url:
        yield url


def test_a_slider_move_reruns_the_page_with_the_new_value(server):
    session = StreamlitSession(server, timeout=120, seed=0)
    try:
        opened = session.open("sinusoidal")
        assert session.page_script_hash, "st.navigation's page hash was not read from the first run"
        sliders = {widget_key(s.id): s for s in session.sliders.values()}
        assert {K.D_MODEL, K.LENGTH} <= sliders.keys()
        assert opened.messages > 10 and opened.bytes > 10_000  # the page's elements and figures came back
        d_model = sliders[K.D_MODEL]
        start, shown = list(d_model.value), session.figures_digest
        assert shown, "the page's figures were not read"
        session.move_slider(d_model.id, [0.0 if d_model.options else d_model.min])  # (select_slider: an index)
        assert session.figures_digest != shown, "the figures did not change when d_model moved"
        session.move_slider(d_model.id, start)
        # Moved back, the server draws exactly what it drew at first: the value sent is the value it used.
        assert session.figures_digest == shown
    finally:
        session.close()


def test_a_page_that_fails_is_reported_as_an_error(server):
    # A step must fail loudly, not time out quietly: a page that does not exist shows Streamlit's
    # "page not found" and falls back to the default page, which has no slider to move.
    session = StreamlitSession(server, timeout=120, seed=0)
    try:
        session.open("no-such-page")
        with pytest.raises(StepError, match="no slider"):
            session.move_slider()
    finally:
        session.close()


def test_a_short_locust_class_finishes_every_step(server, tmp_path):
    samples = tmp_path / "samples.json"
    env = dict(os.environ, EMBEDVIZ_LOAD_SAMPLES=str(samples), EMBEDVIZ_LOAD_THINK="0.5,1.5",
               EMBEDVIZ_LOAD_PAGES="token-embeddings,why-position,sinusoidal", EMBEDVIZ_LOAD_TIMEOUT="90",
               EMBEDVIZ_LOAD_STEPS="2")
    cmd = [sys.executable, "-m", "locust", "-f", str(LOAD / "locustfile.py"), "--headless", "--only-summary",
           "-u", "3", "-r", "3", "-t", "200s", "--stop-timeout", "90", "--host", server, "--loglevel", "WARNING"]
    done = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=240)
    assert samples.exists(), f"locust wrote no samples (exit {done.returncode}):\n{done.stdout[-2000:]}{done.stderr[-2000:]}"
    records = json.loads(samples.read_text())
    errors = [r for r in records if r["error"]]
    assert not errors, errors[:3]
    assert sum(r["kind"] == "open" for r in records) == 3  # every student opened a page once
    assert sum(r["kind"] == "step" for r in records) == 6  # and moved a slider twice, then left
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
