"""Shared test setup: one BLAS / torch thread (as every entry point), and the repo root as cwd for AppTest."""
from embedviz._threads import limit_threads

limit_threads()  # first: before the tests load numpy or torch

import os  # noqa: E402
import pathlib  # noqa: E402

import pytest  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parents[1]


@pytest.fixture(autouse=True, scope="session")
def _repo_root_cwd():
    old = os.getcwd()
    os.chdir(ROOT)
    yield
    os.chdir(old)
