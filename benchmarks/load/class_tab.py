"""A class's tab at the protocol level (no browser): a Streamlit session (benchmarks/load/stclient.py) that also knows
its buttons, radios, markdown texts and auto-rerun fragments, presses them by their keys (embedviz/lessons/widget_keys.py),
and asks the class follow route as embedviz/app/browser/classroom_follow.js does. The class benchmarks
(benchmarks/load/follow.py, class_hostile.py, locust_class.py) and the hostile-session tests drive it.
"""
from __future__ import annotations

import http.client
import json
import socket
import time
from urllib.parse import parse_qs, quote

from streamlit.components.v2.bidi_component.main import _make_trigger_id
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ClientState_pb2 import ClientState
from streamlit.proto.WidgetStates_pb2 import WidgetState

from benchmarks.load.stclient import StreamlitSession
from embedviz.lessons import tours
from embedviz.app.classroom_route import position_text
from embedviz.app.i18n import catalog

ROUTE_COOKIE = "embedviz_route"
FOLLOW_COMPONENT = "embedviz.classroom_follow"


def en(key: str, **fields) -> str:
    text = catalog()[key]["en"]
    return text.format(**fields) if fields else text


def panel_texts(lesson: str) -> dict[str, int]:
    """The tour panel's text of each of the lesson's steps -> the step."""
    return {en(f"tour.{lesson}.{s.name}"): k for k, s in enumerate(tours.TOURS[lesson].steps, 1)}


class ClassSession(StreamlitSession):
    """A tab that also knows its buttons, radios, markdown texts and auto-rerun fragments."""

    def __init__(self, base_url: str, *, route: str = "", lesson: str = "000", **kw):
        super().__init__(base_url, **kw)
        self.base_url, self.route = base_url, route
        self.lesson, self.panel_texts = lesson, panel_texts(lesson)
        self.widgets: dict[str, str] = {}  # widget id -> kind
        self.in_fragment: dict[str, str] = {}  # widget id -> the fragment it was drawn in (its change reruns that)
        self.fragments: dict[str, float] = {}
        self.texts: list[str] = []
        self.follow: dict | None = None  # the follow component's id and data, as the last run sent them
        self.http: http.client.HTTPConnection | None = None
        self.runs = self.polls = 0
        self.panel_at: dict[int, float] = {}  # step -> when the tour panel's text of that step first arrived

    def connect(self) -> None:
        import websocket

        header = [f"Cookie: {ROUTE_COOKIE}={self.route}"] if self.route else None
        self.ws = websocket.create_connection(self.ws_url, subprotocols=["streamlit"], timeout=self.timeout,
                                              header=header)

    def on_message(self, msg, kind: str) -> None:
        if kind == "auto_rerun":
            self.fragments[msg.auto_rerun.fragment_id] = msg.auto_rerun.interval
        elif kind == "stop_auto_rerun":
            for fid in msg.stop_auto_rerun.fragment_ids:
                self.fragments.pop(fid, None)
        elif kind == "new_session" and not msg.metadata.run.fragment_ids:  # a fragment's run redraws only itself
            self.texts = []
            self.follow = None
            # a full run draws every widget again: one a page switch or a step left behind is not there to press
            # (a whole tour's Next would otherwise find its first page's button, which the server no longer knows)
            self.widgets, self.in_fragment = {}, {}
        elif kind == "script_finished":
            self.runs += 1  # a full run or a fragment's: what the server's GIL paid for this tab
        elif kind == "delta" and msg.delta.WhichOneof("type") == "new_element":
            element = msg.delta.new_element
            which = element.WhichOneof("type")
            if which in ("button", "radio"):
                self.widgets[getattr(element, which).id] = which
                self.in_fragment[getattr(element, which).id] = msg.delta.fragment_id
            elif which == "markdown":
                self.texts.append(element.markdown.body)
                k = self.panel_texts.get(element.markdown.body)
                if k is not None:
                    # the browser draws each element as it arrives: the panel has moved here, before the page
                    # under it has been drawn and the run has finished
                    self.panel_at.setdefault(k, time.perf_counter())
            elif which == "bidi_component" and element.bidi_component.component_name == FOLLOW_COMPONENT:
                self.follow = {"id": element.bidi_component.id, **json.loads(element.bidi_component.json)}

    def widget(self, key: str) -> str:
        return next(w for w in self.widgets if w.endswith(f"-{key}"))  # "-": cls_reveal_003_3 is not ..._003_13

    def send_widget(self, state: WidgetState):
        self.send_rerun([state], fragment_id=self.in_fragment.get(state.id, ""))
        return self.read_until_finished()

    def click(self, key: str):
        return self.send_widget(WidgetState(id=self.widget(key), trigger_value=True))

    def choose(self, key_prefix: str, label: str):
        """Pick a radio's option; the browser sends the option's shown text."""
        rid = next(w for w, kind in self.widgets.items() if kind == "radio" and key_prefix in w)
        return self.send_widget(WidgetState(id=rid, string_value=label))

    def poll(self) -> None:
        """What the browser's timer does: rerun each auto-rerun fragment."""
        for fid in list(self.fragments):
            state = ClientState(query_string=self.query_string, page_script_hash=self.page_script_hash,
                                fragment_id=fid, is_auto_rerun=True)
            self.ws.send_binary(BackMsg(rerun_script=state).SerializeToString())
            self.read_until_finished()

    def step(self) -> int:
        return int(parse_qs(self.query_string).get("step", ["0"])[0])

    def ask(self, seen: str | None = None) -> str:
        """What classroom_follow.js does: GET the follow route, naming what the page shows (``seen``: the route holds
        the answer while the class is there); the position it names ("gone:404" etc. when there is none)."""
        try:
            return self._ask(seen)
        except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
            # the server closed the kept-alive connection while it sat idle past uvicorn's keep-alive timeout (5 s:
            # a tab waiting that long for its rerun on a loaded machine); a browser's fetch opens a new one
            return self._ask(seen)

    def _ask(self, seen: str | None) -> str:
        if self.http is None:
            host, port = self.base_url.split("//", 1)[1].rsplit(":", 1)
            self.http = http.client.HTTPConnection(host, int(port), timeout=self.timeout)
            self.http.connect()
            # as Chromium's sockets: without it each answer on a kept-alive connection waited ~40 ms (Nagle's
            # algorithm against the delayed ACK), a latency no browser sees
            self.http.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        headers = {"Cookie": f"{ROUTE_COOKIE}={self.route}"} if self.route else {}
        try:
            query = f"?seen={quote(seen)}" if seen is not None else ""
            self.http.request("GET", self.follow["route"] + query, headers=headers)
            answer = self.http.getresponse()
            body = answer.read()
        except (OSError, http.client.HTTPException):
            self.http.close()
            self.http = None
            raise
        self.polls += 1
        if answer.status != 200:
            return f"gone:{answer.status}"
        return position_text(**json.loads(body))

    def shown(self) -> str:
        return position_text(**self.follow["seen"])

    def trigger_moved(self, there: str):
        """The component's setTriggerValue("moved", there): the browser's rerun with the trigger's widget state."""
        state = WidgetState(id=_make_trigger_id(self.follow["id"], "events"),
                            json_trigger_value=json.dumps([{"event": "moved", "value": there}]))
        return self.send_widget(state)

    def hang_up(self) -> None:
        """End a held ask from another thread (the class is over): its read fails at once."""
        sock = self.http.sock if self.http is not None else None
        if sock is not None:
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def close(self) -> None:
        if self.http is not None:
            self.http.close()
        super().close()
