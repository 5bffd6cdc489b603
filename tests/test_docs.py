"""The README and docs/ point at what exists: every relative link and every repository path they name in backticks
is a file or folder of this checkout, and none leads outside it (a reader of the repository has nothing else)."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.conftest import ROOT

DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"\]\(([^)\s#]+)(?:#[^)]*)?\)")
# a backticked repository path: starts with one of the repository's own top-level folders or files
TOP = sorted(p.name for p in ROOT.iterdir() if not p.name.startswith("."))
PATH = re.compile(r"`((?:%s)(?:/[\w.*<>-]+)*/?)`" % "|".join(re.escape(n) for n in TOP + [".ci"]))


def relative_links(text: str) -> list[str]:
    return [target for target in LINK.findall(text) if not re.match(r"[a-z]+:", target)]


def named_paths(text: str) -> list[str]:
    """Backticked paths such as `embedviz/app/compat.py` or `tests/e2e`; a pattern (`<stem>`, `*`) is left out."""
    return [p for p in PATH.findall(text) if "<" not in p and "*" not in p]


def test_the_scans_find_what_they_look_for():
    text = "see [the map](docs/architecture.md), [x](https://example.org) and `embedviz/app/compat.py`, `tests/<x>.py`"
    assert relative_links(text) == ["docs/architecture.md"]
    assert named_paths(text) == ["embedviz/app/compat.py"]


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_link_and_named_path_exists_inside_the_repository(doc):
    text = doc.read_text(encoding="utf-8")
    missing, outside = [], []
    for target in relative_links(text):
        resolved = (doc.parent / target).resolve()
        (outside if ROOT not in resolved.parents and resolved != ROOT else missing if not resolved.exists()
         else []).append(target)
    missing += [p for p in named_paths(text) if not (ROOT / p).exists()]
    assert not outside, f"{doc.name} links outside the repository: {outside}"
    assert not missing, f"{doc.name} names what does not exist: {missing}"


def test_the_readme_links_the_map_and_the_page_guide():
    links = relative_links((ROOT / "README.md").read_text(encoding="utf-8"))
    assert {"docs/architecture.md", "docs/pages.md"} <= set(links)
