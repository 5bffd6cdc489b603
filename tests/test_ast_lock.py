"""Parses in several threads at once: CPython 3.11's AST conversion keeps its recursion depth interpreter-wide, so
two threads converting at once fail with a SystemError (a page that failed behind nginx while the warm-up read a
model's .npz). embedviz._ast_lock makes every ast.parse take one lock; each case runs in a fresh interpreter."""
from __future__ import annotations

import subprocess
import sys

import pytest

from tests.conftest import ROOT

# Four threads parse a page and an .npy header (numpy reads them with ast.literal_eval) while they litter cyclic
# garbage whose finalizers run Python code: a collection inside one thread's conversion then switches threads.
RACE = """
import ast, gc, sys, threading, time
sys.setswitchinterval(1e-6)
gc.set_threshold(50, 5, 5)
if sys.argv[1] == "locked":
    from embedviz._ast_lock import serialize_ast_parse
    serialize_ast_parse()
source = open(sys.argv[2]).read()
errors = []
class Finalized:
    def __del__(self):
        sum(range(50))
def work():
    end = time.monotonic() + float(sys.argv[3])
    while time.monotonic() < end and not errors:
        for _ in range(20):
            a, b = Finalized(), Finalized()
            a.b, b.a = b, a
        try:
            ast.parse(source)
            ast.literal_eval("{'descr': '<f4', 'fortran_order': False, 'shape': (1024, 128), }")
        except SystemError as error:
            errors.append(str(error))
threads = [threading.Thread(target=work) for _ in range(4)]
for t in threads: t.start()
for t in threads: t.join()
print(len(errors), errors[:1])
"""


def _race(mode: str, seconds: float) -> tuple[int, str]:
    out = subprocess.run([sys.executable, "-c", RACE, mode, str(ROOT / "app_pages" / "rope.py"), str(seconds)],
                         capture_output=True, text=True, timeout=120, cwd=ROOT, check=True)
    count, sample = out.stdout.strip().split(" ", 1)
    return int(count), sample


def test_parses_in_four_threads_never_fail_with_the_lock():
    count, sample = _race("locked", 3.0)
    assert count == 0, sample


@pytest.mark.skipif(sys.version_info >= (3, 12), reason="the race is CPython 3.11's (the project's Python)")
def test_without_the_lock_the_same_parses_fail_on_this_python():
    """The guard's reason, shown: the same threads without the lock meet the SystemError (0.03-0.14 s here)."""
    count, sample = _race("bare", 20.0)
    assert count > 0 and "recursion depth mismatch" in sample, sample
