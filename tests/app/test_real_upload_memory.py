"""An uploaded table is not held whole: a session keeps only the rows the views analyse (at most 1,000,000 values,
4 MB), so a class of thirty uploading 190 MB tables does not pin 6-12 GB of the server's memory."""
from __future__ import annotations

import io

import numpy as np

from embedviz.app import real_model_view as view
from embedviz.app.i18n import catalog
from embedviz.lessons.widget_keys import RealModel as K
from tests.app import pagetest as pt


def _npy(table: np.ndarray) -> bytes:
    buf = io.BytesIO()
    np.save(buf, table)
    return buf.getvalue()


def test_a_large_upload_keeps_only_the_rows_the_views_use():
    table = np.random.default_rng(1).standard_normal((10_000, 1_000)).astype(np.float32)  # 40 MB
    at = pt.page(K.MODEL, **{K.TAB: catalog()["real.tab_upload"]["en"]}).run()
    at.file_uploader(key=K.UPLOAD).upload("big.npy", _npy(table)).run()
    pt.ok(at)
    assert "10,000 rows × 1,000 columns" in at.success[0].value
    held = at.session_state[view.UPLOAD_STATE]
    assert held.shape == (10_000, 1_000)
    assert held.token_embeddings.shape == (1_000, 1_000) and held.token_embeddings.nbytes == 4_000_000
    np.testing.assert_array_equal(held.token_embeddings, table[:1_000])
    # the views still reach every row they offer, after the upload's bytes were released
    at.slider(key=K.ROWS).set_value(1_000).run()
    pt.ok(at)
    matrix = pt.values(pt.spec(at.get("plotly_chart")[0])["data"][0]["z"])
    assert matrix.size > 0 and np.isfinite(matrix).all()
    assert "10,000 rows × 1,000 columns" in at.success[0].value


def test_two_sessions_sending_the_same_file_id_each_see_their_own_table(monkeypatch):
    """The file id is the client's to choose: the views of an upload are cached per session, so a second session
    that sends the first one's id gets its own table's matrix, never the other's."""
    import uuid

    rng = np.random.default_rng(3)
    tables = [rng.standard_normal((40, 8)).astype(np.float32) for _ in range(2)]
    shown = []
    for name, table in zip("ab", tables):
        at = pt.page(K.MODEL, **{K.TAB: catalog()["real.tab_upload"]["en"]}).run()
        with monkeypatch.context() as m:
            m.setattr(uuid, "uuid4", lambda: uuid.UUID(int=7))  # the same file id for both uploads
            uploader = at.file_uploader(key=K.UPLOAD).upload(f"{name}.npy", _npy(table))
        uploader.run()
        pt.ok(at)
        assert at.session_state[view.UPLOAD_STATE].file_id == str(uuid.UUID(int=7))
        shown.append(pt.values(pt.spec(at.get("plotly_chart")[0])["data"][0]["z"]))
    for table, matrix in zip(tables, shown):
        unit = table / np.linalg.norm(table, axis=1, keepdims=True)  # cosine of every pair of rows, directly
        np.testing.assert_allclose(matrix.reshape(40, 40), unit @ unit.T, atol=1e-5)
