"""A browser's upload still works with the server's upload guard (embedviz/app/compat/guards.py: only file ids the server
issued are stored): Chromium uploads a table on the Real model page's upload tab and the page reads it."""
from __future__ import annotations

import io
import urllib.parse

import numpy as np
import pytest

from embedviz.app.i18n import catalog
from embedviz.lessons.widget_keys import RealModel as K
from tests.e2e.conftest import LOAD_TIMEOUT_MS, exceptions, open_app, wait_idle

pytestmark = pytest.mark.e2e


def test_a_browser_uploads_a_table_and_the_page_reads_it(tab, tmp_path):
    table = np.random.default_rng(0).standard_normal((300, 16)).astype(np.float32)
    path = tmp_path / "mine.npy"
    buf = io.BytesIO()
    np.save(buf, table)
    path.write_bytes(buf.getvalue())
    query = urllib.parse.urlencode({K.TAB: catalog()["real.tab_upload"]["en"]})
    open_app(tab, f"real-model?{query}")
    tab.locator("[data-testid='stFileUploaderDropzoneInput']").set_input_files(str(path))
    ok = tab.locator("[data-testid='stAlertContentSuccess']")
    ok.first.wait_for(timeout=LOAD_TIMEOUT_MS)
    wait_idle(tab, timeout=LOAD_TIMEOUT_MS)
    assert "300" in ok.first.inner_text() and "16" in ok.first.inner_text()
    assert not exceptions(tab)
