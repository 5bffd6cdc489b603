"""The layers of ARCHITECTURE.md, checked on every run: no streamlit in the core, no math in the pages."""
import re
from pathlib import Path

import pytest

from embedviz.app.frame import PAGES
from tests.conftest import ROOT

PAGE_FILES = sorted((ROOT / "app_pages").glob("*.py"))
CORE_FILES = [p for p in (ROOT / "embedviz").rglob("*.py") if "app" not in p.relative_to(ROOT / "embedviz").parts[:1]]


def test_every_page_file_is_in_the_navigation_and_back():
    registered = {file for _, entries in PAGES for file, *_ in entries}
    on_disk = {f"app_pages/{p.name}" for p in PAGE_FILES}
    assert registered == on_disk


def test_there_is_no_pages_folder_for_streamlit_to_serve_bare():
    assert not (ROOT / "pages").exists()


@pytest.mark.parametrize("path", CORE_FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_core_never_imports_streamlit(path: Path):
    assert not re.search(r"^\s*(import streamlit|from streamlit)", path.read_text(), re.M)


@pytest.mark.parametrize("path", PAGE_FILES, ids=lambda p: p.name)
def test_pages_are_thin_and_hold_no_math(path: Path):
    text = path.read_text()
    assert len(text.splitlines()) <= 250, f"{path.name}: move logic into embedviz/"
    assert not re.search(r"^\s*(import numpy|import torch|from torch|from numpy)", text, re.M)
    assert not re.search(r"np\.(sin|cos|exp|linalg)", text)
