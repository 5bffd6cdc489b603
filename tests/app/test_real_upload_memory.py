"""An uploaded table is not held whole: a session keeps only the rows the views analyse (at most 1,000,000 values,
4 MB), so a class of thirty uploading 190 MB tables does not pin 6-12 GB of the server's memory."""
from __future__ import annotations

import io

import numpy as np

from embedviz.app import real_model_view as view
from embedviz.app.i18n import catalog
from tests.app import pagetest as pt


def _npy(table: np.ndarray) -> bytes:
    buf = io.BytesIO()
    np.save(buf, table)
    return buf.getvalue()


def test_a_large_upload_keeps_only_the_rows_the_views_use():
    table = np.random.default_rng(1).standard_normal((10_000, 1_000)).astype(np.float32)  # 40 MB
    at = pt.page("real_model", real_tab=catalog()["real.tab_upload"]["en"]).run()
    at.file_uploader(key="real_upload").upload("big.npy", _npy(table)).run()
    pt.ok(at)
    assert "10,000 rows × 1,000 columns" in at.success[0].value
    held = at.session_state[view.UPLOAD_STATE]
    assert held.shape == (10_000, 1_000)
    assert held.token_embeddings.shape == (1_000, 1_000) and held.token_embeddings.nbytes == 4_000_000
    np.testing.assert_array_equal(held.token_embeddings, table[:1_000])
    # the views still reach every row they offer, after the upload's bytes were released
    at.slider(key="real_rows").set_value(1_000).run()
    pt.ok(at)
    matrix = pt.values(pt.spec(at.get("plotly_chart")[0])["data"][0]["z"])
    assert matrix.size > 0 and np.isfinite(matrix).all()
    assert "10,000 rows × 1,000 columns" in at.success[0].value
