"""Cached core calls for the Home page: one sentence through token ids, token vectors and positions."""
from __future__ import annotations

import streamlit as st


@st.cache_data(max_entries=32, show_spinner=False)
def embed_text(text: str, d_model: int, seed: int = 0):
    from embedviz import embeddings  # torch: imported on first use so pages without it start faster

    return embeddings.embed_text(text, d_model=d_model, max_context_length=max(len(text.encode()), 1), seed=seed)
