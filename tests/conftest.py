"""Shared test setup: run from the repo root so AppTest finds app.py and app_pages/; oracles that cannot vanish."""
import importlib
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


def oracle_required() -> bool:
    """True in CI (CI=true, as .ci/run runs) or with EMBEDVIZ_REQUIRE_ORACLE=1: a missing oracle is then a failure."""
    return os.environ.get("EMBEDVIZ_REQUIRE_ORACLE") == "1" or os.environ.get("CI", "").lower() in ("1", "true")


def require_oracle(module: str):
    """Import an independent reference (transformers, ...) like pytest.importorskip, but never skip silently in CI.

    On a user's machine without it the test skips and says how to make that a failure; with CI set or
    EMBEDVIZ_REQUIRE_ORACLE=1 (as EMBEDVIZ_REQUIRE_BROWSER does for the browser tests) it fails.
    """
    try:
        return importlib.import_module(module)
    except ImportError as error:
        if oracle_required():
            pytest.fail(f"the oracle {module} cannot be imported ({error}); CI / EMBEDVIZ_REQUIRE_ORACLE=1 make "
                        "this a failure, not a skip: install requirements-test.txt", pytrace=False)
        pytest.skip(f"{module} is not installed ({error}); set EMBEDVIZ_REQUIRE_ORACLE=1 to make this a failure")
