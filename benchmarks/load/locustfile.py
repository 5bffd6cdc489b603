"""Locust users that are students on embedviz, speaking Streamlit's websocket protocol (no browser).

    .venv/bin/python -m locust -f benchmarks/load/locustfile.py --headless -u 30 -r 5 -t 60s --host http://127.0.0.1:8501

Each user opens one page (chosen at random among the pages with sliders, or from $EMBEDVIZ_LOAD_PAGES, a
comma-separated list of URL paths), then every 3-8 s (think time; $EMBEDVIZ_LOAD_THINK="3,8") drags one of the
page's sliders a few steps and waits for the rerun to finish. Locust records two request types:

- ``WS open``: first run of the page (connect -> ``script_finished``);
- ``WS step``: one slider move (``rerun_script`` sent -> ``script_finished``), the wait a student feels;
- ``WS train``: the same on Trained embedding, whose sliders sit in a form: a press of its Train button.

A run that ends in a traceback, a compile error or no ``script_finished`` within $EMBEDVIZ_LOAD_TIMEOUT seconds
(default 60) is a Locust failure. With $EMBEDVIZ_LOAD_STEPS=n each student leaves after n steps, and Locust
stops when all have (the smoke test's bounded run). With $EMBEDVIZ_LOAD_SAMPLES set to a path, every sample (kind, page, seconds,
error) is also written there as JSON when the test stops, for benchmarks/load/run.py's exact percentiles.
"""
from __future__ import annotations

import json
import os
import random
import time
from pathlib import Path

import gevent
from locust import User, between, events, task
from locust.exception import StopUser

from benchmarks.load.stclient import StreamlitSession

# Pages whose widgets include sliders (the home and real-model pages have text inputs and selects only).
# url paths (with a query where the sliders sit in a tab other than the one a page opens on)
SLIDER_PAGES = ["token-embeddings", "dot-product", "trained-embedding", "why-position", "why-sine-cosine", "sinusoidal",
                "learned-positions?learn_tab=Rotation+%28PCA%29", "input-layer", "rope", "compare", "context-extension"]
FORM_PAGES = {"trained-embedding"}  # its sliders sit in a form: the server sees them only when Train is pressed
PAGES = [p for p in os.environ.get("EMBEDVIZ_LOAD_PAGES", ",".join(SLIDER_PAGES)).split(",") if p]
THINK = tuple(float(x) for x in os.environ.get("EMBEDVIZ_LOAD_THINK", "3,8").split(","))
TIMEOUT = float(os.environ.get("EMBEDVIZ_LOAD_TIMEOUT", "60"))
STEPS = int(os.environ.get("EMBEDVIZ_LOAD_STEPS", "0"))  # > 0: each student stops after this many steps
SAMPLES: list[dict] = []
_finished_students = 0


class Student(User):
    wait_time = between(*THINK)

    def on_start(self) -> None:
        self.page = random.choice(PAGES)
        self.session: StreamlitSession | None = None
        self._open()

    def _open(self) -> None:
        self.session = StreamlitSession(self.host, timeout=TIMEOUT, seed=random.randrange(2**32))
        if not self._record("open", lambda: self.session.open(self.page)):
            self.session.close()
            self.session = None  # the next task opens the page again, as a student who reloads

    @task
    def move_slider(self) -> None:
        if self.session is None:
            self._open()
            return
        # On a page whose sliders sit in a form (training is an explicit action), a move sent to the server is a
        # press of its Train button: recorded apart, as "train", so it does not pass for a slider step.
        kind = "train" if self.page.split("?")[0] in FORM_PAGES else "step"
        if not self._record(kind, self.session.move_slider):
            self.session.close()
            self.session = None
        self.steps = getattr(self, "steps", 0) + 1
        if STEPS and self.steps >= STEPS:
            self._leave()

    def _leave(self) -> None:
        """A student with all steps done leaves; when the last one has, Locust stops (a test needs no clock)."""
        global _finished_students
        _finished_students += 1
        runner = self.environment.runner
        if runner is not None and _finished_students >= runner.target_user_count:
            gevent.spawn_later(0.1, runner.quit)
        raise StopUser()

    def on_stop(self) -> None:
        if self.session is not None:
            self.session.close()

    def _record(self, kind: str, action) -> bool:
        start = time.perf_counter()
        error, length = None, 0
        try:
            length = action().bytes
        except Exception as exc:  # noqa: BLE001 - every failure is a Locust failure with its message
            error = exc
        seconds = time.perf_counter() - start
        self.environment.events.request.fire(
            request_type="WS", name=kind, response_time=seconds * 1000, response_length=length, exception=error,
            context={"page": self.page},
        )
        SAMPLES.append({"kind": kind, "page": self.page, "seconds": seconds, "error": None if error is None else str(error)})
        return error is None


@events.test_stop.add_listener
def _write_samples(environment, **_kwargs) -> None:
    path = os.environ.get("EMBEDVIZ_LOAD_SAMPLES")
    if path:
        Path(path).write_text(json.dumps(SAMPLES))
