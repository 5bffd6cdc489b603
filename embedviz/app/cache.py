"""Cached core calls shared by several pages. Arguments are plain values; results are arrays (copied per caller).

Topic pages keep their own cached wrappers in ``embedviz/app/<topic>.py``; what more than one page needs is here.
"""
from __future__ import annotations

import streamlit as st

from embedviz import rope, sinusoidal


@st.cache_data(max_entries=32, show_spinner=False)
def embed_text(text: str, d_model: int, seed: int = 0):
    from embedviz import embeddings  # torch: imported on first use so pages without it start faster

    return embeddings.embed_text(text, d_model=d_model, max_context_length=max(len(text.encode()), 1), seed=seed)


@st.cache_data(max_entries=32, show_spinner=False)
def sinusoidal_table(num_positions: int, d_model: int, base: float):
    return sinusoidal.sinusoidal_table(num_positions, d_model, base)


@st.cache_data(max_entries=32, show_spinner=False)
def inverse_frequencies(head_dim: int, theta: float):
    return rope.inverse_frequencies(head_dim, theta)
