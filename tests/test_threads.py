"""Thread caps hold for every entry point: one BLAS thread and one torch thread, seen from a thread started later.

The mechanism is embedviz/_threads.py. Each entry point is checked in the form it runs in: the tests themselves
(tests/conftest.py), the app frame (a fresh process runs app.py with AppTest, numpy loaded before the frame), and a
replica started by deploy/launcher.py from an environment without the variables. The counts are read from a new
threading.Thread, since a server's sessions run in threads started after the cap. On a 1-core machine a count of 1
is also the default, so these tests need at least 2 cores to tell a cap from no cap (CI and this machine have 2).
"""
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from deploy import launcher
from embedviz import _threads
from tests.conftest import ROOT

THREAD_VARS = tuple(_threads.THREAD_ENV)
# A fresh interpreter with none of the variables, importing numpy and torch before anything caps them; {body} then
# runs, and the counts seen by a thread started afterwards are printed as "blas torch". Run with `-c` from the
# repository root, it imports this checkout's embedviz (the current directory comes first on its sys.path).
SCRIPT = """
import threading
import numpy, torch
{body}
from embedviz._threads import blas_threads
seen = []
t = threading.Thread(target=lambda: seen.append((blas_threads(), torch.get_num_threads())))
t.start(); t.join()
print(*seen[0])
"""


def _clean_env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if k not in THREAD_VARS}


def _counts_in_fresh_process(body: str) -> tuple[int, int]:
    out = subprocess.run([sys.executable, "-c", SCRIPT.format(body=body)], env=_clean_env(), cwd=ROOT,
                         capture_output=True, text=True, timeout=240)
    assert out.returncode == 0, out.stderr[-2_000:]
    blas, torch_threads = out.stdout.split()[-2:]
    return int(blas), int(torch_threads)


def test_the_machine_can_tell_a_cap_from_no_cap():
    assert os.cpu_count() >= 2
    assert _counts_in_fresh_process("") == (os.cpu_count(), os.cpu_count())  # uncapped: one per core


def test_tests_run_capped_even_in_a_thread_started_now():
    import torch

    seen = []
    t = threading.Thread(target=lambda: seen.append((_threads.blas_threads(), torch.get_num_threads())))
    t.start()
    t.join()
    assert seen == [(1, 1)]
    assert all(os.environ[name] == "1" for name in THREAD_VARS)


def test_limit_threads_caps_libraries_that_loaded_first():
    assert _counts_in_fresh_process("from embedviz._threads import limit_threads; limit_threads()") == (1, 1)


def test_the_app_frame_caps_its_process():
    body = ("from streamlit.testing.v1 import AppTest\n"
            "at = AppTest.from_file('app.py', default_timeout=120).run()\n"
            "assert not at.exception, at.exception")
    assert _counts_in_fresh_process(body) == (1, 1)


def test_a_launched_replica_gets_the_thread_environment(monkeypatch, tmp_path):
    for name in THREAD_VARS:  # only the launcher may add them
        monkeypatch.delenv(name, raising=False)
    port = launcher.free_port()
    log = tmp_path / "replica.log"
    proc = launcher.start_streamlit(port, log_path=log)
    try:
        launcher.wait_healthy(f"http://{launcher.LOOPBACK}:{port}/_stcore/health", timeout=120, proc=proc,
                              log_path=log)
        environ = dict(entry.split("=", 1) for entry in
                       Path(f"/proc/{proc.pid}/environ").read_bytes().decode().split("\0") if "=" in entry)
    finally:
        launcher.stop_process(proc)
    assert {name: environ.get(name) for name in THREAD_VARS} == dict.fromkeys(THREAD_VARS, "1")


@pytest.mark.parametrize("given", [{}, {"OPENBLAS_NUM_THREADS": "4"}])
def test_thread_env_adds_the_variables_and_keeps_an_explicit_choice(given):
    env = _threads.thread_env({"PATH": "/bin", **given})
    assert env["PATH"] == "/bin" and env["OMP_NUM_THREADS"] == "1"
    assert env["OPENBLAS_NUM_THREADS"] == given.get("OPENBLAS_NUM_THREADS", "1")
