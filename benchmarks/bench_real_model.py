"""Real model and Learned positions pages: model load, core lookups, PCA, and page rerun times at the defaults and
slider extremes.

Run: .venv/bin/python -m benchmarks.bench_real_model
"""
from __future__ import annotations

import io
import os
import time
from pathlib import Path

import numpy as np
from embedviz.lessons.widget_keys import LearnedPositions, RealModel

ROOT = Path(__file__).resolve().parents[1]

from benchmarks._apptest import chart_sizes, median_time, print_header, print_row  # noqa: E402
from embedviz.positions import analysis as position_analysis  # noqa: E402
from embedviz.app.locales.learned_positions import STRINGS as LEARN  # noqa: E402
from embedviz.app.locales.real_model import STRINGS  # noqa: E402
from embedviz.models.pretrained import load_bundled_model  # noqa: E402
from embedviz.similarity import cosine_similarity_matrix, pca_2d  # noqa: E402
from embedviz.models.word_vectors import analogy, nearest_neighbours  # noqa: E402

PAGE = str(ROOT / "app_pages" / "real_model.py")
TABS = {code: STRINGS[f"real.tab_{code}"]["en"] for code in ("pairs", "analogy", "neighbours", "map", "upload")}
LEARNED = str(ROOT / "app_pages" / "learned_positions.py")  # the position table's own page
LEARN_TABS = {code: LEARN[f"learn.tab_{code}"]["en"] for code in ("steps", "matrix", "rotation", "distance")}
UPLOAD_SHAPE = (1_024, 976)  # the costliest table the upload views take whole: 1,024 rows x 976 = 1M values (the cap)


def randomized_pca(table: np.ndarray) -> np.ndarray:
    return pca_2d(table, solver="randomized")  # what the Learned positions page's rotation tab draws


def core_numbers() -> None:
    load_bundled_model.cache_clear()
    start = time.perf_counter()
    model = load_bundled_model()
    load = time.perf_counter() - start
    table, tid = model.token_embeddings, model.token_id
    positions = model.position_embeddings
    wide = np.random.default_rng(0).standard_normal(UPLOAD_SHAPE).astype(np.float32)
    rows = [
        ("load_bundled_model (cold read of 2 tensors + tokenizer)", load),
        ("nearest_neighbours('cat', k=10) over 30,522 rows",
         median_time(lambda: nearest_neighbours(table, tid("cat")))),
        ("analogy(king, man, woman, k=10)",
         median_time(lambda: analogy(table, tid("king"), tid("man"), tid("woman")))),
        ("cosine matrix of the 512 position rows", median_time(cosine_similarity_matrix, positions)),
        ("smoothness of the 512 position rows", median_time(position_analysis.smoothness, positions)),
        ("pca_2d 512 x 384 (randomized: subspace iteration)", median_time(randomized_pca, positions)),
        ("pca_2d 512 x 384 (full SVD, for comparison)", median_time(pca_2d, positions)),
        (f"pca_2d {UPLOAD_SHAPE[0]:,} x {UPLOAD_SHAPE[1]} (randomized, upload at the cap)",
         median_time(randomized_pca, wide)),
        (f"pca_2d {UPLOAD_SHAPE[0]:,} x {UPLOAD_SHAPE[1]} (full SVD, for comparison, 1 run)",
         median_time(pca_2d, wide, repeats=1)),
    ]
    print(f"### Core (median of 3; OPENBLAS_NUM_THREADS={os.environ.get('OPENBLAS_NUM_THREADS', 'unset')}, "
          f"load average {os.getloadavg()[0]:.1f})\n")
    print_header("what", "time", align="lr")
    for name, seconds in rows:
        print_row(name, f"{seconds * 1000:,.1f} ms")


def _npy(array) -> bytes:
    buffer = io.BytesIO()
    np.save(buffer, array)
    return buffer.getvalue()


def page_numbers() -> None:
    from streamlit.testing.v1 import AppTest

    results, largest = [], (0, "")

    def measure(label: str, tab: str, change=None, *, page: str = PAGE, key: str = RealModel.TAB,
                tabs: dict = TABS) -> None:
        """First run after the change (cold caches for a new value), then the median of 3 reruns."""
        nonlocal largest
        at = AppTest.from_file(page, default_timeout=120)
        at.session_state[key] = tabs[tab]
        at.run()
        start = time.perf_counter()
        if change is not None:
            change(at)
        at.run()
        first = time.perf_counter() - start
        rerun = median_time(at.run)
        assert not at.exception, (label, at.exception)
        errors = [e.value for e in at.error]
        sizes = chart_sizes(at)
        if sizes and max(sizes) > largest[0]:
            largest = (max(sizes), label)
        results.append((label, first, rerun, len(sizes), "error shown" if errors else ""))

    def upload(n: int | None):
        def change(at):
            at.file_uploader(key=RealModel.UPLOAD).upload("wide.npy", _npy(np.random.default_rng(1).standard_normal(
                UPLOAD_SHAPE).astype(np.float32)))
            if n is not None:
                at.run()
                at.slider(key=RealModel.ROWS).set_value(n)
        return change

    for tab in TABS:
        measure(f"{tab} tab, defaults", tab)
    measure("analogy k = 1", "analogy", lambda at: at.slider(key=RealModel.ANALOGY_K).set_value(1))
    measure("analogy k = 30", "analogy", lambda at: at.slider(key=RealModel.ANALOGY_K).set_value(30))
    measure("neighbours k = 1", "neighbours", lambda at: at.slider(key=RealModel.K).set_value(1))
    measure("neighbours k = 50", "neighbours", lambda at: at.slider(key=RealModel.K).set_value(50))
    learned = {"page": LEARNED, "key": LearnedPositions.TAB, "tabs": LEARN_TABS}
    for tab in LEARN_TABS:
        measure(f"learned positions: {tab} tab, defaults", tab, **learned)
    for window in ((0, 1), (3, 509), (500, 511)):
        measure(f"learned positions: matrix window {window}", "matrix",
                lambda at, w=window: at.slider(key=LearnedPositions.WINDOW).set_value(w), **learned)
        measure(f"learned positions: PCA window {window}", "rotation",
                lambda at, w=window: at.slider(key=LearnedPositions.ROWS).set_value(w), **learned)
    measure(f"upload {UPLOAD_SHAPE[0]:,} x {UPLOAD_SHAPE[1]}, 256 rows (default)", "upload", upload(None))
    measure(f"upload {UPLOAD_SHAPE[0]:,} x {UPLOAD_SHAPE[1]}, rows = 2", "upload", upload(2))
    measure(f"upload {UPLOAD_SHAPE[0]:,} x {UPLOAD_SHAPE[1]}, rows = 1,024 (max)", "upload", upload(1_024))

    print("\n### Page reruns (AppTest; 'first' includes computing a new value, 'rerun' is the median of 3)\n")
    print_header("view", "first", "rerun", "charts", "note", align="lrrrl")
    for label, first, rerun, charts, note in results:
        print_row(label, f"{first:.3f} s", f"{rerun:.3f} s", charts, note)
    print(f"\nLargest chart JSON: {largest[0]:,} bytes ({largest[1]}); limit 1,000,000.")


def main() -> None:
    core_numbers()
    page_numbers()


if __name__ == "__main__":
    main()
