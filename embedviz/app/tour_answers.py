"""The tours' answers as the app reads them: computed by the core (``embedviz.lessons.tours.answer``), cached per step.

Its own module, not ``embedviz.app.tour``'s: the server's warm-up (``embedviz.app.warm``) fills this cache at start,
and the tour module imports the serving layer that starts the warm-up, so the warm-up may not import it back.
"""
from __future__ import annotations

import streamlit as st

from embedviz.lessons import tours


@st.cache_data(max_entries=64, show_spinner=False)
def answer(lesson: str, number: int) -> tuple[str, dict]:
    """The question's right option at the step's settings (computed by the core, cached per step)."""
    return tours.answer(lesson, number)
