"""Cached core calls for the Home page: one sentence through token ids, token vectors and positions."""
from __future__ import annotations

from collections.abc import Sequence

import streamlit as st

from embedviz import figures


@st.cache_data(max_entries=32, show_spinner=False)
def embed_text(text: str, d_model: int, seed: int = 0):
    from embedviz.input_layer import embeddings  # torch: imported on first use so pages without it start faster

    return embeddings.embed_text(text, d_model=d_model, max_context_length=max(len(text.encode()), 1), seed=seed)


def input_figure(tok, pos, inputs, labels: Sequence[str], *, title: str, x_title: str, downsample_note: str,
                 subplot_titles: Sequence[str]):
    """Token vectors, position vectors and their sum as three heatmaps side by side (rows: the tokens).

    Drawn through ``plot(input_figure, ...)``, so a page open whose text was seen before reads the figure from the
    cache instead of building four plotly figures again (about 100 ms of server CPU)."""
    panels = [figures.heatmap(m, y=list(labels), title="", x_title=x_title, downsample_note=downsample_note) for m in (tok, pos, inputs)]
    return figures.side_by_side(panels, title=title, subplot_titles=list(subplot_titles))
