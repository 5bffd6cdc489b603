"""A Streamlit session spoken at the protocol level: one websocket, BackMsg out, ForwardMsg in. No browser.

What a browser tab does, reduced to what loads the server:

1. open ``ws://HOST/_stcore/stream`` with subprotocol ``streamlit`` (the browser passes its XSRF token and a
   session id to resume as the 2nd and 3rd entries; a fresh session without an Origin header needs neither);
2. send ``BackMsg(rerun_script=ClientState(page_name=<url path>, query_string=...))``: the first run of a page;
3. read ForwardMsgs: ``new_session``, ``navigation`` (the ``page_script_hash`` st.navigation resolved), ``delta`` (the elements, among
   them the widgets with their ids), ``page_info_changed`` (the query string the page wrote), and at last
   ``script_finished``;
4. on a widget change send ``rerun_script`` again with ``widget_states`` (the changed value under the widget's
   id) and the page's ``page_script_hash``, and read until ``script_finished`` again.

The time from sending (2) or (4) to ``script_finished`` is what a student waits for the server (the browser's
drawing comes on top). An exception element or a compile error in the run counts as an error; so does no
``script_finished`` within ``timeout`` seconds (a frozen session).

Plain blocking code on websocket-client, so the same class runs in a thread (the freeze reproduction, the tests)
and in Locust's gevent users (gevent patches the socket module it uses).
"""
from __future__ import annotations

import hashlib
import random
import time
from dataclasses import dataclass, field

import websocket  # websocket-client
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ClientState_pb2 import ClientState
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from streamlit.proto.Slider_pb2 import Slider
from streamlit.proto.WidgetStates_pb2 import WidgetState

FINISHED = ForwardMsg.FINISHED_SUCCESSFULLY


class StepError(RuntimeError):
    """A step did not end in a clean ``script_finished``: a traceback, a compile error, a timeout, a closed socket."""


@dataclass
class SliderState:
    """What the client needs of a slider to move it like a student: its id, range, step and current value."""

    id: str
    label: str
    min: float
    max: float
    step: float
    value: list[float]
    options: list[str] = field(default_factory=list)  # st.select_slider: the value holds indices into these

    def moved(self, rng: random.Random, *, max_steps: int = 5) -> list[float]:
        """The value after a small drag: 1..max_steps steps left or right, kept inside [min, max]."""
        lo, hi = (0.0, float(len(self.options) - 1)) if self.options else (self.min, self.max)
        step = 1.0 if self.options else (self.step or (hi - lo) / 100 or 1.0)
        if hi <= lo:
            return list(self.value)
        v = self.value[0] if self.value else lo
        for _ in range(10):  # a drag that hits an end bounces back instead of sending the same value again
            n = rng.randint(1, max_steps) * rng.choice((-1, 1))
            new = min(hi, max(lo, v + n * step))
            if new != v:
                break
        new = round(new / step) * step if self.options else round(new, 10)
        return [new] + list(self.value[1:])  # a range slider: move its first handle


@dataclass
class StepResult:
    seconds: float
    messages: int
    bytes: int


class StreamlitSession:
    """One student's tab: ``open(page)`` then ``move_slider()`` as often as wanted; ``close()`` at the end."""

    def __init__(self, base_url: str, *, timeout: float = 60.0, seed: int | None = None):
        self.ws_url = base_url.replace("http://", "ws://").replace("https://", "wss://").rstrip("/") + "/_stcore/stream"
        self.timeout = timeout
        self.rng = random.Random(seed)
        self.ws: websocket.WebSocket | None = None
        self.page_name = ""
        self.page_script_hash = ""
        self.query_string = ""
        self.sliders: dict[str, SliderState] = {}
        self.session_id = ""
        # of the last finished run's figures (plotly charts and live figures): what the student sees change;
        # "" when the run drew none
        self.figures_digest = ""

    # the protocol

    def connect(self) -> None:
        self.ws = websocket.create_connection(self.ws_url, subprotocols=["streamlit"], timeout=self.timeout)

    def send_rerun(self, widget_states: list | None = None, *, fragment_id: str = "") -> None:
        """A ``rerun_script`` BackMsg as the browser sends it: the page, its query string, changed widgets, and the
        fragment the changed widget belongs to (then only that fragment runs)."""
        state = ClientState(query_string=self.query_string, page_script_hash=self.page_script_hash,
                            page_name="" if self.page_script_hash else self.page_name, fragment_id=fragment_id)
        for widget in widget_states or []:
            state.widget_states.widgets.append(widget)
        msg = BackMsg(rerun_script=state)
        self.ws.send_binary(msg.SerializeToString())

    def read_until_finished(self) -> StepResult:
        """Read ForwardMsgs until ``script_finished``; collect the page hash, the query string and the sliders."""
        start = time.perf_counter()
        deadline = start + self.timeout
        n = size = 0
        sliders: dict[str, SliderState] = {}
        digest, figures = hashlib.sha1(), 0
        error = None
        while True:
            left = deadline - time.perf_counter()
            if left <= 0:
                raise StepError(f"no script_finished within {self.timeout:.0f} s ({n} messages read)")
            self.ws.settimeout(left)
            try:
                opcode, data = self.ws.recv_data()
            except websocket.WebSocketTimeoutException:
                raise StepError(f"no script_finished within {self.timeout:.0f} s ({n} messages read)") from None
            except (websocket.WebSocketConnectionClosedException, OSError) as exc:
                raise StepError(f"websocket closed after {n} messages: {exc!r}") from None
            if opcode == websocket.ABNF.OPCODE_CLOSE:
                raise StepError(f"server closed the websocket after {n} messages")
            if opcode != websocket.ABNF.OPCODE_BINARY:
                continue
            n += 1
            size += len(data)
            msg = ForwardMsg()
            msg.ParseFromString(data)
            kind = msg.WhichOneof("type")
            self.on_message(msg, kind)
            if kind == "new_session":
                self.session_id = msg.new_session.initialize.session_id or self.session_id
                sliders = {}  # a run sends every element again
            elif kind == "navigation":  # st.navigation names the page it resolved; reruns ask for it by hash
                self.page_script_hash = msg.navigation.page_script_hash
            elif kind == "page_info_changed":
                self.query_string = msg.page_info_changed.query_string
            elif kind == "delta" and msg.delta.WhichOneof("type") == "new_element":
                element = msg.delta.new_element
                which = element.WhichOneof("type")
                if which == "slider":
                    s: Slider = element.slider
                    if not s.disabled:
                        # The browser keeps a widget's value; the server sends one only when it sets it.
                        known = self.sliders.get(s.id)
                        value = list(s.value) if s.set_value else known.value if known else list(s.default)
                        sliders[s.id] = SliderState(s.id, s.label, s.min, s.max, s.step, value, list(s.options))
                elif which == "plotly_chart":
                    digest.update(element.plotly_chart.spec.encode())
                    figures += 1
                elif which == "bidi_component":  # a live figure (embedviz/app/live): its figure rides in the data
                    digest.update(element.bidi_component.SerializeToString())
                    figures += 1
                elif which == "exception":
                    error = error or f"{element.exception.type}: {element.exception.message[:200]}"
            elif kind == "session_event" and msg.session_event.WhichOneof("type") == "script_compilation_exception":
                error = error or "script compilation error"
            elif kind == "script_finished":
                if msg.script_finished == ForwardMsg.FINISHED_EARLY_FOR_RERUN:
                    continue  # a newer run follows and will finish
                self.sliders = sliders or self.sliders
                self.figures_digest = digest.hexdigest() if figures else ""
                if error:
                    raise StepError(error)
                if msg.script_finished not in (FINISHED, ForwardMsg.FINISHED_FRAGMENT_RUN_SUCCESSFULLY):
                    raise StepError(f"script finished with status {msg.script_finished}")
                return StepResult(time.perf_counter() - start, n, size)

    def on_message(self, msg: ForwardMsg, kind: str) -> None:
        """Every ForwardMsg read, for a subclass that needs more than sliders (benchmarks/load/follow.py)."""

    # what a student does

    def open(self, page: str, query_string: str = "") -> StepResult:
        """Open a tab on ``page`` (its URL path, "" for the default page; "path?query" as a link has it, e.g. a
        page's tab) and wait for the first run."""
        page, _, query = page.partition("?")
        self.page_name, self.query_string, self.page_script_hash = page, query_string or query, ""
        if self.ws is None:
            self.connect()
        start = time.perf_counter()
        self.send_rerun()
        result = self.read_until_finished()
        result.seconds = time.perf_counter() - start
        return result

    def move_slider(self, slider_id: str | None = None, value: list[float] | None = None) -> StepResult:
        """Move one slider (a random one unless named) a few steps (or to ``value``); wait for the rerun."""
        if not self.sliders:
            raise StepError(f"page {self.page_name!r} shows no slider to move")
        slider = self.sliders[slider_id] if slider_id else self.rng.choice(list(self.sliders.values()))
        widget = WidgetState(id=slider.id)
        value = list(value) if value is not None else slider.moved(self.rng)
        slider.value = value
        if slider.options:  # st.select_slider: the browser sends the chosen options' labels
            widget.string_array_value.data.extend(slider.options[int(i)] for i in value)
        else:
            widget.double_array_value.data.extend(value)
        start = time.perf_counter()
        self.send_rerun([widget])
        result = self.read_until_finished()
        result.seconds = time.perf_counter() - start
        return result

    def close(self) -> None:
        if self.ws is not None:
            try:
                self.ws.close(timeout=2)
            except Exception:  # noqa: BLE001 - closing a socket that is already gone is fine
                pass
            self.ws = None
