"""Where pip takes the locked torch wheel from, decided before anything is installed.

requirements.lock pins torch's CPU build (``torch==2.13.0+cpu``) by its sha256 hash. The public package registry
has no ``+cpu`` build; PyTorch's own CPU index (https://download.pytorch.org/whl/cpu) has it, and so does a wheel
folder on a machine without that index (the same file, the same hash). Letting pip find out by trying an
unreachable index costs minutes of timeouts and retries, so this script decides first, with no network access: it
reads pip's own configuration (``pip config list``: files and PIP_* variables, as pip would use them) and looks in
the local places it names.

In order:
1. ``--wheels DIR`` (``make run TORCH_WHEELS=DIR``): that folder, which must hold the locked wheel.
2. A local place pip already uses (a find-links folder, a file:// index) that holds a torch file with the lock's
   hash: that folder.
3. A place pip already uses that is PyTorch's index (or ``--index``): nothing to add.
4. pip configured offline (no-index) and none of the above: stop now and say what to do.
5. Otherwise PyTorch's CPU index (``--index``), added as an extra index, as the Dockerfile does.

Usage (the Makefile's):  python tools/torch_source.py [--wheels DIR] [--index URL] [--uv] [-- COMMAND ...]
Without a command it prints the decision. With one it runs COMMAND with the source's flags appended: pip's
(``--find-links DIR`` / ``--extra-index-url URL``) or, with ``--uv``, those of ``uv pip compile`` (uv does not read
pip's configuration, so every source is named; uv looks at its indexes one at a time unless told to match pip).

Standard library only: it runs before anything is installed.
"""
from __future__ import annotations

import argparse
import ast
import hashlib
import os
import re
import subprocess
import sys
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urljoin, urlsplit
from urllib.request import url2pathname

PYTORCH_CPU_INDEX = "https://download.pytorch.org/whl/cpu"
ROOT = Path(__file__).resolve().parents[1]
_TRUE = ("1", "true", "yes", "on")


@dataclass(frozen=True)
class Wanted:
    """The torch wheel to find: its exact version and the sha256 hashes a file must have (None: any, for `make
    lock`, which is about to write the hash down)."""
    version: str
    hashes: frozenset[str] | None

    @property
    def prefix(self) -> str:
        return f"torch-{self.version}-"  # a wheel's name: torch-2.13.0+cpu-cp311-cp311-<platform>.whl

    def accepts(self, digest: str) -> bool:
        return self.hashes is None or digest in self.hashes


@dataclass(frozen=True)
class Source:
    kind: str  # "folder" (a local directory), "configured" (pip already names it), "index" (added), "none"
    where: str  # the folder or URL
    why: str  # one sentence for the terminal

    def pip_flags(self) -> list[str]:
        if self.kind == "folder":
            return ["--find-links", self.where]
        return ["--extra-index-url", self.where] if self.kind == "index" else []

    def uv_flags(self, config: dict[str, str]) -> list[str]:
        if self.kind == "folder":
            return ["--find-links", self.where]
        if self.kind == "configured" and self.where in option_list(config, "find-links"):
            return ["--find-links", self.where]
        # pip looks at every index for every package; uv by default stops at the first index that has a name
        # (PyTorch's index also carries numpy and others), which would take their hashes from one index only
        return ["--extra-index-url", self.where, "--index-strategy", "unsafe-best-match"]


def locked_torch(lock_text: str) -> Wanted:
    """requirements.lock's torch entry: the file `make setup` installs."""
    entry = re.search(r"^torch==(\S+)((?:[^\n]*\\\n)*[^\n]*)", lock_text, re.M)
    if not entry:
        raise SystemExit("requirements.lock has no torch== entry")
    return Wanted(entry.group(1), frozenset(re.findall(r"--hash=sha256:([0-9a-f]{64})", entry.group(2))))


def required_torch(requirements_text: str) -> Wanted:
    """requirements.txt's torch pin in its CPU build (PyTorch's CPU index labels its builds ``+cpu``), any hash:
    the file `make lock` will lock, whose hash the old lock may not know yet."""
    pin = re.search(r"^torch==([^\s#+]+)", requirements_text, re.M)
    if not pin:
        raise SystemExit("requirements.txt has no exact torch== pin")
    return Wanted(f"{pin.group(1)}+cpu", None)


def parse_config_list(text: str) -> dict[str, str]:
    """`pip config list` (lines ``section.key='value'``) as {key: value}, with pip's precedence for `pip install`:
    the [global] section, then [install], then PIP_* variables (shown as ``:env:``), each overriding the one
    before. (pip itself merges the files: a virtualenv's over the user's over the system's.)"""
    by_section: dict[str, dict[str, str]] = {}
    for line in text.splitlines():
        name, sep, value = line.partition("=")
        section, dot, key = name.rpartition(".")
        if sep and dot:
            by_section.setdefault(section, {})[key] = ast.literal_eval(value)
    merged: dict[str, str] = {}
    for section in ("global", "install", ":env:"):
        merged.update(by_section.get(section, {}))
    return merged


def option_list(config: dict[str, str], key: str) -> list[str]:
    """A list option as pip reads it from a file or a variable: whitespace-separated."""
    return config.get(key, "").split()


def read_pip_config(python: str = sys.executable) -> dict[str, str]:
    """pip's configuration as this interpreter's pip sees it (no network; a fraction of a second)."""
    done = subprocess.run([python, "-m", "pip", "config", "list"], capture_output=True, text=True, timeout=60)
    if done.returncode != 0:
        raise SystemExit(f"`pip config list` failed: {done.stderr.strip()}")
    return parse_config_list(done.stdout)


def local_path(location: str) -> Path | None:
    """The directory or file a find-links / index entry names on this machine, or None for a remote URL."""
    parts = urlsplit(location)
    if parts.scheme == "file":
        return Path(url2pathname(parts.path))
    return Path(location).expanduser() if parts.scheme == "" else None


def sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as file:
        for block in iter(lambda: file.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def wheel_in_folder(folder: Path, torch: Wanted) -> Path | None:
    """The locked torch wheel in a folder: a file named for the locked version whose hash the lock accepts."""
    if not folder.is_dir():
        return None
    for path in sorted(folder.iterdir()):
        if unquote(path.name).startswith(torch.prefix) and path.name.endswith(".whl") and torch.accepts(sha256(path)):
            return path
    return None


class _Links(HTMLParser):
    def __init__(self):
        super().__init__()
        self.hrefs: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag == "a":
            self.hrefs += [value for name, value in attrs if name == "href" and value]


def wheel_in_local_index(index: Path, torch: Wanted) -> Path | None:
    """The locked torch wheel behind a PEP 503 index on disk (``<index>/torch/index.html``), by the sha256 the page
    states for it (pip checks the file itself against the lock when it installs)."""
    page = index / "torch" / "index.html"
    if not page.is_file():
        return None
    links = _Links()
    links.feed(page.read_text(errors="replace"))
    for href in links.hrefs:
        url, _, fragment = href.partition("#")
        target = Path(url2pathname(urlsplit(urljoin(page.as_uri(), url)).path))
        if (unquote(target.name).startswith(torch.prefix) and torch.accepts(fragment.removeprefix("sha256="))
                and target.is_file()):
            return target
    return None


def is_torch_index(location: str, index: str) -> bool:
    """A location that serves the CPU build: ``index``, PyTorch's CPU index (or a page under it), or PyTorch's index
    of every build (``/whl``, ``/whl/torch``); not one of its other builds' indexes (``/whl/cu128`` has no +cpu)."""
    url = location.rstrip("/")
    every_build = PYTORCH_CPU_INDEX.rsplit("/", 1)[0]  # https://download.pytorch.org/whl
    return bool(index and url == index.rstrip("/")) or url.startswith(PYTORCH_CPU_INDEX) or \
        url in (every_build, f"{every_build}/torch")


def decide(config: dict[str, str], torch: Wanted, wheels: str = "", index: str = PYTORCH_CPU_INDEX) -> Source:
    """The one source of the locked torch wheel for a pip configured as `config` (parse_config_list's)."""
    wanted = f"torch {torch.version}"
    if wheels:
        found = wheel_in_folder(Path(wheels).expanduser(), torch)
        if found:
            return Source("folder", str(found.parent), f"{wanted} from TORCH_WHEELS ({found.name})")
        hashed = " with the hash in requirements.lock" if torch.hashes is not None else ""
        return Source("none", wheels, f"TORCH_WHEELS={wheels} holds no {torch.prefix}*.whl file{hashed}")
    offline = config.get("no-index", "").lower() in _TRUE
    find_links = option_list(config, "find-links")
    indexes = [] if offline else [config.get("index-url", ""), *option_list(config, "extra-index-url")]
    indexes = [url for url in indexes if url]
    for location in find_links:
        folder = local_path(location)
        found = wheel_in_folder(folder, torch) if folder else None
        if found:
            return Source("folder", str(found.parent), f"{wanted} from the local folder {found.parent} (find-links)")
    for location in indexes:
        folder = local_path(location)
        found = wheel_in_local_index(folder, torch) if folder else None
        if found:
            return Source("folder", str(found.parent), f"{wanted} from the local index {location}")
    for location in [*find_links, *indexes]:
        if is_torch_index(location, index):
            return Source("configured", location, f"{wanted} from {location}, which pip's configuration names")
    if offline:
        return Source("none", "", f"pip is configured offline (no-index) and no folder it reads holds the "
                                  f"{wanted} wheel: download it from {PYTORCH_CPU_INDEX}/torch/ and run make with "
                                  "TORCH_WHEELS=<its folder>")
    if not index:
        return Source("none", "", f"TORCH_INDEX is empty and no local folder holds the {wanted} wheel: set "
                                  "TORCH_WHEELS=<a folder with it> or TORCH_INDEX=<an index that has it>")
    return Source("index", index, f"{wanted} from PyTorch's CPU index {index} (no local folder holds it)")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--wheels", default="", help="a folder that holds the locked torch wheel")
    parser.add_argument("--index", default=PYTORCH_CPU_INDEX, help="the index to add when nothing local has it")
    parser.add_argument("--uv", action="store_true", help="flags for `uv pip compile` instead of pip's")
    parser.add_argument("command", nargs=argparse.REMAINDER, help="-- COMMAND ...: run it with the flags appended")
    args = parser.parse_args(argv)
    config = read_pip_config()
    torch = required_torch((ROOT / "requirements.txt").read_text()) if args.uv else \
        locked_torch((ROOT / "requirements.lock").read_text())
    source = decide(config, torch, args.wheels, args.index)
    print(("torch source: " if source.kind != "none" else "no torch source: ") + source.why, file=sys.stderr)
    if source.kind == "none":
        return 2
    flags = source.uv_flags(config) if args.uv else source.pip_flags()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        print(" ".join(flags))
        return 0
    sys.stdout.flush()
    os.execvp(command[0], [*command, *flags])
    return 0  # not reached: exec replaces this process


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
