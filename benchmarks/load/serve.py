"""`streamlit run` with a thread dump on SIGUSR1 and a log line when the server drops a session.

    .venv/bin/python benchmarks/load/serve.py app.py --server.port 8501 ...   # then: kill -USR1 <pid>

Arguments are those of `streamlit run` after the script. faulthandler writes every thread's stack to stderr on
SIGUSR1 (it is async-signal-safe, so it works while the event loop or a script thread is stuck). Streamlit drops
a session without closing its websocket when the session's send queue overflows (see freeze_repro.py); its own
log says so only at debug level, so this wrapper adds one warning line each time it happens. Every 10 s it
also logs the time spent in garbage collection (Streamlit's runner.postScriptGC runs a full one after each run).
"""
from __future__ import annotations

import faulthandler
import logging
import signal
import sys


def _log_dropped_sessions() -> None:
    from streamlit.runtime import runtime as rt

    original = rt.Runtime.disconnect_session
    log = logging.getLogger("embedviz.serve")

    def disconnect_session(self, session_id, *args, **kwargs):
        import traceback

        caller = traceback.extract_stack(limit=2)[0]
        if caller.name == "_loop_coroutine":  # the flush loop: a send to this client failed
            log.warning("session %s dropped by the server: its websocket send queue is full or closed", session_id)
        return original(self, session_id, *args, **kwargs)

    rt.Runtime.disconnect_session = disconnect_session


def _log_gc_time(every: float = 10.0) -> None:
    """Every ``every`` s, log the time the garbage collector held the GIL (every thread waits while it runs)."""
    import gc
    import threading
    import time

    spent = {0: 0.0, 1: 0.0, 2: 0.0}
    count = {0: 0, 1: 0, 2: 0}
    started: list[float] = []

    def callback(phase, info):
        if phase == "start":
            started.append(time.perf_counter())
        elif started:
            spent[info["generation"]] += time.perf_counter() - started.pop()
            count[info["generation"]] += 1

    gc.callbacks.append(callback)
    log = logging.getLogger("embedviz.serve")

    def report():
        last = 0.0
        while True:
            time.sleep(every)
            total = sum(spent.values())
            if total != last:
                log.warning("gc so far: %d full collections %.1f s, %d young %.1f s", count[2], spent[2],
                            count[0] + count[1], spent[0] + spent[1])
                last = total

    threading.Thread(target=report, daemon=True, name="gc-report").start()


def main() -> None:
    faulthandler.register(signal.SIGUSR1, all_threads=True)
    logging.basicConfig()
    _log_dropped_sessions()
    _log_gc_time()
    from streamlit.web.cli import main as streamlit_main

    sys.argv = ["streamlit", "run", *sys.argv[1:]]
    streamlit_main()


if __name__ == "__main__":
    main()
