"""requirements.lock (written by `make lock`) is the hashed lock of the runtime environment: it must agree with
every pin of requirements.txt and requirements-extra.txt, and hold a sha256 hash for every package, so that
`pip install --no-deps --require-hashes -r requirements.lock` installs exactly what the requirements name, and
nothing but the runtime (tests and benchmarks add their own files)."""
from __future__ import annotations

import re
from importlib import metadata
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[1]
LOCK = ROOT / "requirements.lock"
RUNTIME = ("requirements.txt", "requirements-extra.txt")
_ENTRY = re.compile(r"^(?P<name>[A-Za-z0-9][A-Za-z0-9._-]*)==(?P<version>\S+)(?P<rest>(?:[^\n]*\\\n)*[^\n]*)", re.M)


def locked(text: str) -> dict[str, tuple[Version, list[str]]]:
    """{canonical name: (version, [sha256 hashes])} of a pip-compile / uv lock file."""
    out = {}
    for m in _ENTRY.finditer(text):
        hashes = re.findall(r"--hash=sha256:([0-9a-f]{64})", m.group("rest"))
        out[canonicalize_name(m.group("name"))] = (Version(m.group("version")), hashes)
    return out


def pins(name: str) -> list[Requirement]:
    lines = (line.split("#", 1)[0].strip() for line in (ROOT / name).read_text().splitlines())
    return [Requirement(line) for line in lines if line and not line.startswith("-")]


def test_the_parser_reads_a_lock_entry_and_its_hashes():
    text = "torch==2.13.0+cpu \\\n    --hash=sha256:" + "a" * 64 + "\n    # via -r requirements.txt\nnumpy==2.4.6\n"
    assert locked(text) == {"torch": (Version("2.13.0+cpu"), ["a" * 64]), "numpy": (Version("2.4.6"), [])}


@pytest.mark.parametrize("name", RUNTIME)
def test_every_pin_of_the_requirements_is_in_the_lock(name):
    lock = locked(LOCK.read_text())
    for req in pins(name):
        key = canonicalize_name(req.name)
        assert key in lock, f"{req} ({name}) is not in requirements.lock: run `make lock`"
        version, _ = lock[key]
        # torch's CPU build is 2.13.0+cpu, which ==2.13.0 admits (a local label), as pip does
        assert req.specifier.contains(version, prereleases=True), f"{name} pins {req}, the lock has {version}: make lock"


def test_every_locked_package_has_a_hash():
    lock = locked(LOCK.read_text())
    assert len(lock) > 20  # the whole closure (streamlit alone brings dozens), not the direct pins only
    assert [name for name, (_, hashes) in lock.items() if not hashes] == []


def test_the_lock_holds_the_runtime_only():
    """`make run` installs the lock: nothing only the tests or the benchmarks need is in it."""
    lock, runtime = locked(LOCK.read_text()), {canonicalize_name(r.name) for name in RUNTIME for r in pins(name)}
    for name in ("requirements-test.txt", "requirements-bench.txt"):
        for req in pins(name):
            assert canonicalize_name(req.name) not in runtime, f"{req} ({name}) is also a runtime pin"
    assert {"pytest", "hypothesis", "playwright", "transformers", "locust"} & set(lock) == set()


def test_the_lock_is_the_whole_closure_of_the_runtime():
    """--no-deps installs exactly the lock, so every package a runtime package needs (on this interpreter, read from
    the installed distributions' metadata) must be in it; only requirements-extra.txt's packages are installed
    without their declared dependencies."""
    lock = locked(LOCK.read_text())
    no_deps = {canonicalize_name(r.name) for r in pins("requirements-extra.txt")}
    todo = [canonicalize_name(r.name) for r in pins("requirements.txt")]
    seen, missing = set(), []
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        if name not in lock:
            missing.append(name)
            continue
        for line in metadata.requires(name) or []:
            req = Requirement(line)
            if req.marker is None or req.marker.evaluate({"extra": ""}):
                todo.append(canonicalize_name(req.name))
    assert missing == [], f"needed at run time but not locked: {missing}; run `make lock`"
    assert len(seen) > 20 and no_deps <= set(lock)

