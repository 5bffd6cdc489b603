"""A Locust class of students following a teacher (kept apart from locustfile.py, whose students Locust spawns by
default):

    EMBEDVIZ_CLASS_CODE=ABC234 .venv/bin/python -m locust -f benchmarks/load/locust_class.py --headless -u 30 -r 5 -t 60s \
        --host http://127.0.0.1:8501
"""
from __future__ import annotations

import os
import random
import time

import gevent
from locust import User, between, task
from locust.exception import StopUser

from benchmarks.load import locustfile as base  # the module, not its Student: Locust spawns every User it finds
from embedviz.lessons.widget_keys import Tour

TIMEOUT = base.TIMEOUT

class ClassStudent(User):
    """A student in a class ($EMBEDVIZ_CLASS_CODE):
    joins with ``?class=CODE``, then asks the follow route as the browser's classroom_follow.js does (``HTTP step``,
    held by the route until the class moves) and only when the class moved sends the follow component's trigger, a
    rerun (``WS follow``);
    answers each question step once with a random option (``WS answer``), and records each move to a new step
    (``WS moved``, its time since the previous poll). The teacher is a person or benchmarks/load/follow.py,
    which also measures the teacher -> student latency and checks the counts exactly."""

    wait_time = between(0, 0)  # the ask paces itself: held by the route, or the fragment's run_every

    def on_start(self) -> None:
        from benchmarks.load.class_tab import ClassSession

        self.page = "class"
        self.session = ClassSession(self.host, timeout=TIMEOUT, seed=random.randrange(2**32))
        self.answered: set[int] = set()
        self.last_step = None
        code = os.environ.get("EMBEDVIZ_CLASS_CODE", "")
        if not self._record("open", lambda: self.session.open("", f"class={code}")):
            raise StopUser()

    @task
    def follow(self) -> None:
        from embedviz.lessons import tours
        from embedviz.app.i18n import catalog

        started = time.perf_counter()
        step = self.session.step()
        if step != self.last_step:
            if self.last_step is not None:
                self.environment.events.request.fire(request_type="WS", name="moved", response_time=0,
                                                     response_length=0, exception=None, context={})
            self.last_step = step
        question = tours.step("000", step).question if step else None  # the class's lesson (follow.py: 000)
        if question and step not in self.answered:
            self.answered.add(step)
            label = catalog()[f"tour.q.{question.id}.{random.choice(question.options)}"]["en"]
            self._record("answer", lambda: self.session.choose(Tour.QUESTION(f"000_{step}_"), label))
        follow = self.session.follow
        if follow is None:  # no follow route served: the page's fragment polls with a script run
            gevent.sleep(max(0.0, min(self.session.fragments.values(), default=1.0) - (time.perf_counter() - started)))
            self._record("follow", lambda: (self.session.poll(), type("R", (), {"bytes": 0})())[1])
            return
        began = time.perf_counter()
        try:
            there = self.session.ask(self.session.shown())
        except Exception as error:  # noqa: BLE001 - counted by Locust
            self.environment.events.request.fire(request_type="HTTP", name="step", response_time=0,
                                                 response_length=0, exception=error, context={})
            return
        self.environment.events.request.fire(request_type="HTTP", name="step",
                                             response_time=(time.perf_counter() - began) * 1000,
                                             response_length=0, exception=None, context={})
        if there != self.session.shown():
            self._record("follow", lambda: self.session.trigger_moved(there))
        else:  # a held answer: ask again at once; one that came at once, a period on
            gevent.sleep(max(0.0, follow["period_ms"] / 1000 - (time.perf_counter() - began)))

    def on_stop(self) -> None:
        self.session.close()

    _record = base.Student._record
