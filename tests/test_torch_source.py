"""tools/torch_source.py: where `make setup` takes the locked torch wheel from, decided before pip runs.

Two kinds of machine, each with a fake pip configuration, no network: (a) a user's machine whose pip reaches the
public registry (PyTorch's CPU index is added), (b) a machine with a local wheel folder and no other index (that
folder is used, and no index is ever asked). The fake wheel is a small file whose sha256 plays the lock's hash.
"""
from __future__ import annotations

import hashlib
import os
import re
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT
from tools import torch_source
from tools.torch_source import PYTORCH_CPU_INDEX, Wanted, decide, parse_config_list

WHEEL = "torch-2.13.0+cpu-cp311-cp311-manylinux_2_28_x86_64.whl"
PUBLIC = "https://pypi.org/simple"


def wheel(folder: Path, body: bytes = b"the locked torch wheel", name: str = WHEEL) -> Wanted:
    """A wheel file in `folder`, and the lock entry that accepts exactly it."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_bytes(body)
    return Wanted("2.13.0+cpu", frozenset({hashlib.sha256(body).hexdigest()}))


LOCKED = Wanted("2.13.0+cpu", frozenset({"0" * 64}))


# -- reading pip's configuration ------------------------------------------------------------------------------------

def test_a_config_listing_is_read_with_pips_precedence():
    """[install] overrides [global] and a PIP_* variable (":env:") overrides both; multi-line values keep their
    entries (pip splits them on whitespace)."""
    listing = ("global.find-links='/opt/wheels'\n"
               "global.extra-index-url='file:///opt/pypi/simple file:///opt/pypi-more/simple'\n"
               "global.index-url='https://mirror.example/simple'\n"
               "install.index-url='https://install.example/simple'\n"
               "global.no-index='false'\n"
               ":env:.no-index='1'\n"
               ":env:.find-links='\\n/a\\nfile:///b'\n")
    config = parse_config_list(listing)
    assert config["index-url"] == "https://install.example/simple"
    assert config["no-index"] == "1"
    assert torch_source.option_list(config, "find-links") == ["/a", "file:///b"]
    assert torch_source.option_list(config, "extra-index-url") == ["file:///opt/pypi/simple",
                                                                   "file:///opt/pypi-more/simple"]


def clean_env(config_file: Path) -> dict[str, str]:
    """This process's environment with pip's own variables replaced by one fake configuration file (pip still
    reads the machine's global files; the fake file overrides the keys it sets, and hides the user's file)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PIP_")}
    env["PIP_CONFIG_FILE"] = str(config_file)
    return env


def test_real_pip_reads_a_fake_configuration(tmp_path, monkeypatch):
    """The script asks pip itself: a fake file's keys come back as pip reads them."""
    conf = tmp_path / "pip.conf"
    conf.write_text(f"[global]\nfind-links =\n    {tmp_path / 'w'}\n    file:///x\nindex-url = {PUBLIC}\n"
                    "[install]\nno-index = yes\n")
    for name in [k for k in os.environ if k.startswith("PIP_")]:
        monkeypatch.delenv(name)
    monkeypatch.setenv("PIP_CONFIG_FILE", str(conf))
    config = torch_source.read_pip_config()
    assert torch_source.option_list(config, "find-links") == [str(tmp_path / "w"), "file:///x"]
    assert config["index-url"] == PUBLIC and config["no-index"] == "yes"


# -- the two machines -----------------------------------------------------------------------------------------------

def test_machine_b_a_local_wheel_folder_is_used(tmp_path):
    """This kind of machine: pip's find-links names the folder that holds the locked wheel."""
    locked = wheel(tmp_path / "wheels")
    config = {"find-links": str(tmp_path / "wheels"), "extra-index-url": "file:///opt/pypi/simple"}
    source = decide(config, locked)
    assert source.kind == "folder" and source.where == str(tmp_path / "wheels")
    assert source.pip_flags() == ["--find-links", str(tmp_path / "wheels")]
    assert source.uv_flags(config) == ["--find-links", str(tmp_path / "wheels")]  # uv does not read pip.conf


def test_machine_a_the_public_registry_gets_pytorchs_cpu_index():
    """A user's machine: pip reaches the public registry and nothing local holds the wheel."""
    for config in ({}, {"index-url": PUBLIC}, {"find-links": "/nonexistent/folder"}):
        source = decide(config, LOCKED)
        assert source.kind == "index" and source.pip_flags() == ["--extra-index-url", PYTORCH_CPU_INDEX]
        # uv, asked for the same, must look at both indexes for every package as pip does
        assert source.uv_flags(config) == ["--extra-index-url", PYTORCH_CPU_INDEX,
                                           "--index-strategy", "unsafe-best-match"]


def test_a_mirror_of_pytorchs_index_replaces_it():
    source = decide({"index-url": PUBLIC}, LOCKED, index="https://mirror.example/pytorch/cpu")
    assert source.pip_flags() == ["--extra-index-url", "https://mirror.example/pytorch/cpu"]


def test_a_pip_that_already_names_pytorchs_index_gets_nothing_added():
    for config in ({"extra-index-url": f"{PUBLIC} {PYTORCH_CPU_INDEX}/"},
                   {"index-url": "https://mirror.example/pytorch/cpu"}):
        source = decide(config, LOCKED, index="https://mirror.example/pytorch/cpu")
        assert source.kind == "configured" and source.pip_flags() == []


def test_pytorchs_index_of_another_build_is_not_the_cpu_one():
    """A pip configured for a CUDA build's index still gets the CPU index added (that index has no +cpu files)."""
    source = decide({"extra-index-url": "https://download.pytorch.org/whl/cu128"}, LOCKED)
    assert source.kind == "index" and source.pip_flags() == ["--extra-index-url", PYTORCH_CPU_INDEX]
    assert decide({"find-links": "https://download.pytorch.org/whl/torch/"}, LOCKED).kind == "configured"


def test_a_wheel_with_another_hash_is_not_the_locked_one(tmp_path):
    """A folder holding a torch 2.13.0+cpu file the lock does not accept is passed over (pip would refuse it)."""
    wheel(tmp_path / "wheels", b"another build")
    config = {"find-links": str(tmp_path / "wheels")}
    assert decide(config, LOCKED).kind == "index"
    assert decide({**config, "no-index": "true"}, LOCKED).kind == "none"
    named = decide(config, LOCKED, wheels=str(tmp_path / "wheels"))
    assert named.kind == "none" and "TORCH_WHEELS" in named.why and "hash" in named.why


def test_a_folder_of_another_version_is_passed_over(tmp_path):
    locked = wheel(tmp_path / "wheels", name="torch-2.12.0+cpu-cp311-cp311-manylinux_2_28_x86_64.whl")
    assert decide({"find-links": str(tmp_path / "wheels")}, locked).kind == "index"


def test_torch_wheels_names_the_folder_first(tmp_path):
    """make TORCH_WHEELS=DIR: that folder, even when pip's configuration names an index that has torch."""
    locked = wheel(tmp_path / "mine")
    source = decide({"extra-index-url": PYTORCH_CPU_INDEX}, locked, wheels=str(tmp_path / "mine"))
    assert source.kind == "folder" and source.pip_flags() == ["--find-links", str(tmp_path / "mine")]


def test_a_local_pep503_index_holding_the_wheel_counts_as_local(tmp_path):
    """A file:// index (a mirror on disk, as this machine's /opt/pypi) whose torch page links the locked file."""
    files = tmp_path / "mirror" / "files"
    locked = wheel(files)
    (digest,) = locked.hashes
    page = tmp_path / "mirror" / "simple" / "torch" / "index.html"
    page.parent.mkdir(parents=True)
    page.write_text(f'<html><body><a href="../../files/{WHEEL.replace("+", "%2B")}#sha256={digest}">{WHEEL}</a>'
                    "</body></html>")
    source = decide({"extra-index-url": (tmp_path / "mirror" / "simple").as_uri()}, locked)
    assert source.kind == "folder" and source.where == str(files)
    # the same index under no-index is not read by pip, so it is not a source
    offline = {"extra-index-url": (tmp_path / "mirror" / "simple").as_uri(), "no-index": "1"}
    assert decide(offline, locked).kind == "none"


def test_offline_without_the_wheel_stops_at_once_and_says_what_to_do():
    source = decide({"no-index": "1", "find-links": "/nonexistent"}, LOCKED)
    assert source.kind == "none" and "TORCH_WHEELS" in source.why and PYTORCH_CPU_INDEX in source.why
    assert decide({"index-url": PUBLIC}, LOCKED, index="").kind == "none"


def test_make_lock_takes_any_hash_of_the_pinned_version(tmp_path):
    """`make lock` writes the hash down, so it looks for requirements.txt's version, not the old lock's file."""
    wanted = torch_source.required_torch("numpy==2.4.6\ntorch==2.13.0  # exactly\n")
    assert wanted == Wanted("2.13.0+cpu", None)
    wheel(tmp_path / "new", b"a build the lock has not seen")
    assert decide({"find-links": str(tmp_path / "new")}, wanted).kind == "folder"


def test_the_lock_entry_is_read_with_its_hashes():
    text = "tqdm==4.70.1\ntorch==2.13.0+cpu \\\n    --hash=sha256:" + "a" * 64 + " \\\n    --hash=sha256:" + \
        "b" * 64 + "\n    # via -r requirements.txt\n"
    assert torch_source.locked_torch(text) == Wanted("2.13.0+cpu", frozenset({"a" * 64, "b" * 64}))


# -- the script as the Makefile runs it ------------------------------------------------------------------------------

def run_script(conf: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(ROOT / "tools" / "torch_source.py"), *args], env=clean_env(conf),
                          capture_output=True, text=True, timeout=60)


@pytest.fixture
def index_that_records_connections():
    """A loopback port that accepts TCP connections and never answers: an index the decision must not ask."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(8)
    server.setblocking(False)
    yield f"http://127.0.0.1:{server.getsockname()[1]}/simple"

    def connected() -> bool:
        try:
            server.accept()[0].close()
            return True
        except BlockingIOError:
            return False
    assert not connected(), "the decision contacted an index"
    server.close()


def test_the_script_decides_without_asking_any_index(tmp_path, index_that_records_connections):
    """Machine (a) through the real script and pip: PyTorch's index is added to the command, and neither the
    configured index nor PyTorch's is contacted to decide (the fixture's port sees no connection)."""
    conf = tmp_path / "pip.conf"
    conf.write_text(f"[global]\nindex-url = {index_that_records_connections}\nfind-links =\nextra-index-url =\n")
    done = run_script(conf, "--index", index_that_records_connections.replace("/simple", "/torch"))
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["--extra-index-url", index_that_records_connections.replace("/simple", "/torch")]
    done = run_script(conf, "--", sys.executable, "-c", "import sys; print(sys.argv[1:])")
    assert done.stdout.strip() == str(["--extra-index-url", PYTORCH_CPU_INDEX]), "the command gets the flags"


def test_the_script_offline_fails_fast_with_the_remedy(tmp_path, index_that_records_connections):
    conf = tmp_path / "pip.conf"
    conf.write_text(f"[global]\nno-index = true\nfind-links = {tmp_path}\n"
                    f"index-url = {index_that_records_connections}\n")
    done = run_script(conf, "--", sys.executable, "-c", "print('pip ran')")
    assert done.returncode == 2 and "pip ran" not in done.stdout
    assert "TORCH_WHEELS" in done.stderr


# -- the recipes agree -----------------------------------------------------------------------------------------------

def test_makefile_and_dockerfile_take_torch_from_the_same_places():
    """The Makefile installs the lock through the decision with every hash checked and names no machine's folder
    by default; the image (no pip configuration, nothing local) adds the same index the decision adds there."""
    makefile = (ROOT / "Makefile").read_text()
    assert re.search(r"^TORCH_WHEELS \?=[ \t]*$", makefile, re.M), "the default names no folder"
    assert re.search(rf"^TORCH_INDEX +\?= {re.escape(PYTORCH_CPU_INDEX)}$", makefile, re.M)
    (install,) = [line for line in makefile.splitlines() if "-m pip install" in line and "requirements.lock" in line]
    assert install.strip().startswith("$(TORCH_SOURCE) -- $(PY) -m pip install")
    assert "--require-hashes" in install and "--no-deps" in install
    assert re.search(r"^TORCH_SOURCE += \$\(PY\) tools/torch_source\.py ", makefile, re.M)
    dockerfile = re.sub(r"\\\n\s*", " ", (ROOT / "Dockerfile").read_text())
    (docker_install,) = [line for line in dockerfile.splitlines() if "-r requirements.lock" in line]
    assert " ".join(decide({}, LOCKED).pip_flags()) in docker_install
    assert "--require-hashes" in docker_install
