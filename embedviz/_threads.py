"""One thread per process for BLAS (numpy) and torch: the one place every entry point passes through.

A server shares its cores among sessions; on 2 cores, multi-threaded matrix products that fight over them were
20-100x slower under load than single-threaded ones. The app frame (``frame.run``), the replica launcher
(``deploy/launcher.py``, which also hands :data:`THREAD_ENV` to every replica it starts) and the tests
(``tests/conftest.py``) call :func:`limit_threads` before their work.

BLAS libraries read their thread count from the environment once, when they load, so the variables are set first;
a library that is already loaded is asked directly (threadpoolctl if installed, else OpenBLAS's own
``set_num_threads`` through ctypes). torch reads ``OMP_NUM_THREADS`` when it loads and is set directly if it
already has. The count then holds for every thread of the process, including threads started later (a server's
session threads), which is what ``tests/test_threads.py`` checks. A variable the user set explicitly is kept.
"""
from __future__ import annotations

import ctypes
import os
import sys
from collections.abc import Mapping
from pathlib import Path

THREADS = 1
THREAD_ENV = {
    "OPENBLAS_NUM_THREADS": str(THREADS),  # numpy's bundled OpenBLAS
    "OMP_NUM_THREADS": str(THREADS),  # torch's intra-op pool (OpenMP) and any OpenMP BLAS
    "MKL_NUM_THREADS": str(THREADS),  # an MKL build of numpy or torch
}
# OpenBLAS's setter and getter under the names its builds export (numpy's wheels: scipy_openblas, 64-bit ints)
_OPENBLAS_PREFIXES = ("scipy_openblas", "openblas")
_OPENBLAS_SUFFIXES = ("64_", "_64_", "")
_limited: set[str] = set()  # the libraries already capped in this process


def thread_env(environ: Mapping[str, str] | None = None) -> dict[str, str]:
    """``environ`` (default: this process's) with the thread variables added where unset: for a child process."""
    env = dict(os.environ if environ is None else environ)
    for name, value in THREAD_ENV.items():
        env.setdefault(name, value)
    return env


def limit_threads() -> None:
    """Cap BLAS and torch at THREADS threads for this whole process (idempotent: cheap on every app rerun)."""
    for name, value in THREAD_ENV.items():
        os.environ.setdefault(name, value)
    if "numpy" in sys.modules and "numpy" not in _limited:  # loaded before us: the environment came too late
        _limit_loaded_blas(int(os.environ["OPENBLAS_NUM_THREADS"]))
    if "torch" in sys.modules and "torch" not in _limited:
        _limit_torch(int(os.environ["OMP_NUM_THREADS"]))
    _limited.update(name for name in ("numpy", "torch") if name in sys.modules)


def blas_threads() -> int | None:
    """The thread count of the loaded OpenBLAS (None if numpy uses another BLAS or has not loaded one)."""
    for lib in _loaded_openblas():
        for fn in _openblas_functions(lib, "get_num_threads"):
            fn.restype = ctypes.c_int
            return int(fn())
    return None


# helper functions


def _limit_loaded_blas(n: int) -> None:
    try:
        from threadpoolctl import threadpool_limits  # knows MKL and BLIS too
    except ImportError:
        for lib in _loaded_openblas():
            for fn in _openblas_functions(lib, "set_num_threads"):
                fn.argtypes = [ctypes.c_int]
                fn(n)
                break
    else:
        threadpool_limits(n)


def _limit_torch(n: int) -> None:
    torch = sys.modules["torch"]
    torch.set_num_threads(n)
    try:
        torch.set_num_interop_threads(n)  # allowed only before any inter-op work has started
    except RuntimeError:
        pass


def _loaded_openblas() -> list[ctypes.CDLL]:
    """The OpenBLAS shared libraries mapped into this process (numpy's wheel ships its own)."""
    try:
        maps = Path("/proc/self/maps").read_text()
    except OSError:  # not Linux: rely on the environment
        return []
    paths = {line.split()[-1] for line in maps.splitlines() if line.strip()}  # the mapped file is the last field
    return [ctypes.CDLL(p) for p in sorted(paths) if p.startswith("/") and "openblas" in Path(p).name.lower()]


def _openblas_functions(lib: ctypes.CDLL, name: str):
    for prefix in _OPENBLAS_PREFIXES:
        for suffix in _OPENBLAS_SUFFIXES:
            fn = getattr(lib, f"{prefix}_{name}{suffix}", None)
            if fn is not None:
                yield fn
