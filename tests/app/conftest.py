"""Page scripts run here without the frame (AppTest on app_pages/), so the frame's one explicit step runs first."""
from __future__ import annotations

import pytest

from embedviz.app import compat


@pytest.fixture(scope="session", autouse=True)
def _streamlit_patches():
    compat.install()  # what frame.run() does before any page: URL values guarded, clear_cache refused
