"""Cached core calls for the "Why position" page: lesson 003's word-order experiment on the reader's sentence."""
from __future__ import annotations

import streamlit as st

from embedviz.positions import attention


@st.cache_data(max_entries=64, show_spinner=False)
def word_order(text: str, split: str, shuffle: str, shuffled_text: str, seed: int, positions: str, d_model: int,
               causal: bool = False):
    """attention.WordOrderDemo for the sentence, plus the same run (same mask) without positions for comparison."""
    kwargs = dict(split=split, shuffle=shuffle, shuffled_text=shuffled_text, seed=seed, d_model=d_model,
                  causal=causal)
    result = attention.word_order_demo(text, positions=positions, **kwargs)
    plain = result if positions == "none" else attention.word_order_demo(text, positions="none", **kwargs)
    return result, plain.demo.max_difference
