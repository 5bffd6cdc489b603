"""Tabs bound to the URL by their label, so only the open tab's content runs and a shared link opens that tab.

Streamlit 1.67 runs bound tabs lazily: ``tab.open`` is True for the selected tab only. The URL and the session hold
the tab's label in the reader's language; a label from the other language (a session that just switched, or a link
shared across languages) is mapped to this language's label before the tabs are drawn.
"""
from __future__ import annotations

from collections.abc import Sequence

import streamlit as st

from embedviz.app.i18n import catalog, t
from embedviz.app.widgets import BIND


def bound_tabs(key: str, label_keys: Sequence[str]) -> Sequence:
    """``st.tabs`` over the translated ``label_keys`` (i18n keys), bound to ``?key=``; check ``tab.open``."""
    labels = [t(k) for k in label_keys]
    chosen = st.session_state.get(key) or st.query_params.get(key)
    if chosen and chosen not in labels:
        for label_key, label in zip(label_keys, labels):
            if chosen in catalog()[label_key].values():
                st.session_state[key] = label
    return st.tabs(labels, key=key, bind=BIND)
