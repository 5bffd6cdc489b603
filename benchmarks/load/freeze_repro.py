"""Reproduce "sessions freeze under concurrent use" at the protocol level, and show it gone.

    .venv/bin/python -m benchmarks.load.freeze_repro                       # 6 sessions, embedviz's RoPE page
    .venv/bin/python -m benchmarks.load.freeze_repro --sessions 30 --duration 60
    .venv/bin/python -m benchmarks.load.freeze_repro --minimal             # a 12-line app, no embedviz: upstream

Each session is a browser tab whose student drags a slider fast, again and again for ``--duration`` seconds:
a drag is 3..``--burst`` steps, one ``rerun_script`` every ``--interval`` seconds whether or not the last run
finished (as the browser does on every slider step); then the student lets go and waits (up to ``--settle``
seconds) until the page shows the run finished, pauses 0.2-1 s, and drags again. The tab's reader takes
``--read-delay`` seconds per ForwardMsg (0 = as fast as it can; a starved Chromium reads slowly).

A session is FROZEN if, after letting go, its last rerun did not finish within ``--settle`` seconds, or if it
ever showed "Running" (a rerun sent, no ``script_finished`` since) for longer than ``--frozen`` seconds. The
server is started here (127.0.0.1, a free port) through serve.py, with ``--server-arg`` options passed through:
``faulthandler`` dumps its threads on SIGUSR1 into its log (``--dump`` sends it when a session is seen stuck),
and the log shows the time spent in garbage collection. Exit code 1 if any session froze.

What it showed (see deploy/README.md, "How many students a server holds"): with Streamlit's defaults, ``runner.postScriptGC`` runs a
full ``gc.collect(2)`` at the end of every script run, and ``runner.fastReruns`` starts a new script thread for
every slider step while the interrupted run goes on to its next Streamlit call and then collects too. In a
process holding torch, plotly and numpy (~220,000 objects) one collection takes 0.2 s on an idle core and 1-2 s
on a busy one, holding the GIL: every session's script and the websocket loop wait. Fast drags from a few
students make collections back to back, and sessions wait tens of seconds for a run that is already done or
not yet scheduled. The upstream reproduction: ``--minimal`` (Streamlit defaults) against
``--minimal --server-arg "--runner.postScriptGC false --runner.fastReruns false"``.
"""
from __future__ import annotations

import argparse
import os
import signal
import sys
import tempfile
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]

import websocket  # noqa: E402
from streamlit.proto.BackMsg_pb2 import BackMsg  # noqa: E402
from streamlit.proto.ClientState_pb2 import ClientState  # noqa: E402
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg  # noqa: E402
from streamlit.proto.WidgetStates_pb2 import WidgetState  # noqa: E402

from deploy.launcher import free_port, rss_bytes, stop_process, wait_healthy  # noqa: E402
from benchmarks.load.stclient import StreamlitSession  # noqa: E402

# The smallest app that shows it: one slider, a page of elements, and a heap the size of an app that imports
# torch/plotly/pandas (~200,000-400,000 live objects), which every full garbage collection has to walk.
MINIMAL_APP = '''import streamlit as st
import numpy as np

@st.cache_resource
def big_heap():  # stands in for torch + plotly + pandas: many live objects
    return [{"i": i} for i in range(400_000)]

big_heap()
x = st.slider("x", 0, 100, 50)
for i in range(40):
    st.write(f"row {i}: {x * i}")
st.line_chart(np.sin(np.arange(2_000) / (x + 1)))
'''
SERVER = Path(__file__).with_name("serve.py")


class Tab(threading.Thread):
    """One fast-dragging student: a writer (this thread) and a slow reader (a helper thread)."""

    def __init__(self, url: str, page: str, *, interval: float, read_delay: float, duration: float, settle: float,
                 seed: int, burst: int = 15):
        super().__init__(daemon=True)
        self.session = StreamlitSession(url, timeout=120, seed=seed)
        self.page, self.interval, self.read_delay = page, interval, read_delay
        self.duration, self.settle = duration, settle
        self.lock = threading.Lock()
        self.sent = self.finished = 0
        self.waiting_since: float | None = None  # when the oldest unanswered rerun was sent
        self.longest_wait = 0.0
        self.final_ok: bool | None = None
        self.burst = burst
        self.lets_go = 0
        self.error = ""
        self.closed = threading.Event()

    def _reader(self) -> None:
        ws = self.session.ws
        ws.settimeout(None)
        while not self.closed.is_set():
            try:
                opcode, data = ws.recv_data()
            except Exception:  # noqa: BLE001 - the socket closes at the end
                break
            if opcode != websocket.ABNF.OPCODE_BINARY:
                if opcode == websocket.ABNF.OPCODE_CLOSE:
                    if not self.closed.is_set():  # (our own close at the end is answered with one too)
                        self.error = self.error or "server closed the websocket"
                    break
                continue
            msg = ForwardMsg()
            msg.ParseFromString(data)
            # FINISHED_EARLY_FOR_RERUN only says a newer run replaces this one: the page is still "Running".
            if msg.WhichOneof("type") == "script_finished" and msg.script_finished != ForwardMsg.FINISHED_EARLY_FOR_RERUN:
                with self.lock:
                    self.finished += 1
                    if self.waiting_since is not None:
                        self.longest_wait = max(self.longest_wait, time.monotonic() - self.waiting_since)
                    self.waiting_since = None
            if self.read_delay:
                time.sleep(self.read_delay)

    def wait_now(self) -> float:
        with self.lock:
            return 0.0 if self.waiting_since is None else time.monotonic() - self.waiting_since

    def _send(self) -> None:
        s = self.session
        slider = s.rng.choice(list(s.sliders.values()))
        widget = WidgetState(id=slider.id)
        value = slider.moved(s.rng)
        slider.value = value
        if slider.options:
            widget.string_array_value.data.extend(slider.options[int(i)] for i in value)
        else:
            widget.double_array_value.data.extend(value)
        state = ClientState(query_string=s.query_string, page_script_hash=s.page_script_hash)
        state.widget_states.widgets.append(widget)
        with self.lock:
            self.sent += 1
            if self.waiting_since is None:
                self.waiting_since = time.monotonic()
        s.ws.send_binary(BackMsg(rerun_script=state).SerializeToString())

    def run(self) -> None:
        try:
            self.session.open(self.page)
            reader = threading.Thread(target=self._reader, daemon=True)
            reader.start()
            end = time.monotonic() + self.duration
            while time.monotonic() < end and not self.error:
                for _ in range(self.session.rng.randint(3, self.burst)):  # one drag: a step every interval
                    self._send()
                    time.sleep(self.interval)
                # let go of the slider and wait for the page to catch up
                deadline = time.monotonic() + self.settle
                while time.monotonic() < deadline and self.waiting_since is not None and not self.error:
                    time.sleep(0.05)
                self.lets_go += 1
                if self.waiting_since is not None:
                    self.final_ok = False
                    self.error = self.error or f"a rerun did not finish within {self.settle:.0f} s"
                time.sleep(self.session.rng.uniform(0.2, 1.0))
            if self.final_ok is None:
                self.final_ok = not self.error
        except Exception as exc:  # noqa: BLE001 - reported per session
            self.error = repr(exc)
        finally:
            self.closed.set()
            self.session.close()


def _threads(pid: int) -> int:
    """How many threads the server has now (Streamlit runs each script run in a thread of its own)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("Threads:"):
                return int(line.split()[1])
    except (OSError, ValueError):
        pass
    return 0


def start_server(app: Path, port: int, log: Path, server_args: list[str]) -> "subprocess.Popen":
    import subprocess

    cmd = [sys.executable, str(SERVER), str(app), "--server.headless", "true", "--server.address", "127.0.0.1",
           "--server.port", str(port), "--browser.gatherUsageStats", "false", "--server.fileWatcherType", "none",
           *server_args]
    env = dict(os.environ, OPENBLAS_NUM_THREADS=os.environ.get("OPENBLAS_NUM_THREADS", "1"))
    return subprocess.Popen(cmd, cwd=app.parent, env=env, stdout=open(log, "ab"), stderr=subprocess.STDOUT,
                            stdin=subprocess.DEVNULL)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sessions", type=int, default=6)
    parser.add_argument("--duration", type=float, default=60.0, help="seconds of fast slider moves (default 60)")
    parser.add_argument("--interval", type=float, default=0.15, help="seconds between two slider steps (0.15)")
    parser.add_argument("--burst", type=int, default=15, help="most steps in one drag (15)")
    parser.add_argument("--read-delay", type=float, default=0.0, help="seconds the tab takes per ForwardMsg (0)")
    parser.add_argument("--settle", type=float, default=60.0, help="seconds the last rerun may take (60)")
    parser.add_argument("--frozen", type=float, default=30.0, help="a wait longer than this is a freeze (30 s)")
    parser.add_argument("--page", default="rope", help="embedviz page (URL path) to use (default rope)")
    parser.add_argument("--minimal", action="store_true", help="serve a 12-line app instead of embedviz (upstream)")
    parser.add_argument("--dump", action="store_true", help="SIGUSR1 the server (thread dump) on a freeze")
    parser.add_argument("--server-arg", action="append", default=[], help="extra `streamlit run` option, repeatable")
    parser.add_argument("--log", type=Path, help="server log (default: a temp file, printed at the end)")
    args = parser.parse_args(argv)

    tmp = Path(tempfile.mkdtemp(prefix="freeze-"))
    if args.minimal:
        app, page = tmp / "app.py", ""
        app.write_text(MINIMAL_APP)
    else:
        app, page = ROOT / "app.py", args.page
    log = args.log or tmp / "server.log"
    port = free_port()
    server = start_server(app, port, log, [a for arg in args.server_arg for a in arg.split()])
    url = f"http://127.0.0.1:{port}"
    try:
        wait_healthy(f"{url}/_stcore/health", timeout=120, proc=server, log_path=log)
        warm = StreamlitSession(url, timeout=120)
        warm.open(page)
        warm.close()
        rss0 = rss_bytes(server.pid)
        tabs = [Tab(url, page, interval=args.interval, read_delay=args.read_delay, duration=args.duration,
                    settle=args.settle, seed=i, burst=args.burst) for i in range(args.sessions)]
        t0 = time.monotonic()
        for tab in tabs:
            tab.start()
            time.sleep(0.05)
        dumped = False
        threads = []
        while any(t.is_alive() for t in tabs):
            time.sleep(1.0)
            threads.append(_threads(server.pid))
            stuck = [i for i, t in enumerate(tabs) if t.wait_now() > args.frozen]
            if stuck and args.dump and not dumped:
                os.kill(server.pid, signal.SIGUSR1)
                dumped = True
                print(f"t={time.monotonic() - t0:.0f}s sessions {stuck} waiting > {args.frozen:.0f} s: thread dump "
                      f"sent to {log}", flush=True)
        rss1 = rss_bytes(server.pid)
    finally:
        stop_process(server)

    frozen = 0
    print(f"\n{args.sessions} sessions, {'minimal app' if args.minimal else 'embedviz /' + page}, "
          f"a step every {args.interval} s for {args.duration:.0f} s, reader {args.read_delay * 1000:.0f} ms/msg, "
          f"server args {args.server_arg or '-'}")
    print("| session | drags | reruns sent | runs finished | longest 'Running' (s) | verdict |")
    print("|---:|---:|---:|---:|---:|---|")
    for i, t in enumerate(tabs):
        bad = bool(t.error) or not t.final_ok or t.longest_wait > args.frozen
        frozen += bad
        print(f"| {i} | {t.lets_go} | {t.sent} | {t.finished} | {max(t.longest_wait, t.wait_now()):.1f} | "
              f"{'FROZEN' if bad else 'ok'}{' ' + t.error if t.error else ''} |")
    print(f"\nfrozen sessions: {frozen} of {args.sessions}; server RSS {rss0 / 2**20:.0f} -> {rss1 / 2**20:.0f} MB; "
          f"server threads max {max(threads, default=0)}, mean {sum(threads) / max(1, len(threads)):.0f}; server log: {log}")
    return 1 if frozen else 0


if __name__ == "__main__":
    sys.exit(main())
