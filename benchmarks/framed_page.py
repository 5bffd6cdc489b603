"""The floor inside the app's frame: what every embedviz page pays for the frame alone, for benchmarks/feel.py.

The app's own frame (``embedviz.app.frame.run``: page config, language switch, the navigation of every page, the
sidebar's tour controls, the tour panel) with the default page replaced by the floor (benchmarks/baseline_page.py:
one slider, one small heatmap). Its ratio to the bare floor in the same run is the frame's cost per open and per
step:

    PYTHONPATH=. OPENBLAS_NUM_THREADS=1 .venv/bin/python -m benchmarks.feel --pages none --script benchmarks/framed_page.py
"""
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

from embedviz.app import frame  # noqa: E402

FLOOR = str(Path(__file__).with_name("baseline_page.py"))


def framed(body: str) -> None:
    """Run the app's frame with the default page replaced by the script ``body`` (a path), every other page as the
    app lists it (paths made absolute: st.Page resolves relative ones next to the running script). The app's own
    list is put back after the run: AppTest runs probes in the test process, where other tests read it."""
    app_pages = frame.PAGES
    frame.PAGES = [
        (section, [(body if url == "home" else str(ROOT / file), title, icon, url) for file, title, icon, url in entries])
        for section, entries in app_pages
    ]
    try:
        frame.run()
    finally:
        frame.PAGES = app_pages

if __name__ == "__main__":  # served by Streamlit; benchmarks/element_cost.py imports framed() for its framed probes
    framed(FLOOR)
