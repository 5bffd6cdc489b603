"""Shared test setup: run from the repo root so AppTest finds app.py and app_pages/."""
import os
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]


@pytest.fixture(autouse=True, scope="session")
def _repo_root_cwd():
    old = os.getcwd()
    os.chdir(ROOT)
    yield
    os.chdir(old)
