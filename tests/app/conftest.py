"""Page scripts run here without the frame (AppTest on app_pages/), so the frame's one explicit step runs first."""
from __future__ import annotations

import pytest

from embedviz.app import compat
from embedviz.app.widgets import url_cut_toast


@pytest.fixture(scope="session", autouse=True)
def _streamlit_patches():
    compat.install(url_cut_notice=url_cut_toast)  # what frame.run() does before any page: URL values guarded, clear_cache refused
