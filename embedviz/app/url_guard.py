"""A URL value a widget cannot take falls back to the widget's default, never to a traceback.

Links travel through chat apps and get cut, doubled or edited, so ``?rope_m=inf`` or ``?ctx_method=`` must open the
page at its defaults, the way Streamlit already treats ``?rope_m=abc``. Streamlit 1.67 seeds a URL-bound widget in
``SessionState._seed_widget_from_url`` and turns ValueError / TypeError / IndexError into "use the default", but:

1. an integer ``number_input`` given ``inf``, ``-inf``, ``1e999`` or a 5,000-digit number raises OverflowError
   (``int(float("inf"))`` in ``NumberInputSerde.deserialize``), which escapes as a traceback with server paths;
2. an empty value (``?key=``) of a required ``segmented_control`` is stored as ``None``: its registration says
   ``clearable=True`` whatever ``required`` is, so the page receives no choice at all;
3. a text longer than the field's ``max_chars`` is cut without a word, so a reader sees part of what was sent.

This module wraps that one method (streamlit is pinned in requirements.txt; tests/app/test_url_guard.py fails if a
new version changes what it wraps) so cases 1 and 2 take Streamlit's own invalid-value path (the parameter is removed
from the URL and the widget shows its default) and case 3 says, in a toast, how much of the text was kept. Minimal reproduction for upstream, with streamlit==1.67.0::

    # app.py
    import streamlit as st
    st.number_input("n", 0, 100, 5, key="n", bind="query-params")
    st.segmented_control("c", ["a", "b"], default="a", key="c", required=True, bind="query-params")
    st.write(st.session_state)
    # open /?n=inf  -> OverflowError: cannot convert float infinity to integer
    # open /?c=     -> c is None although required=True
"""
from __future__ import annotations

import functools

import streamlit as st
from streamlit.runtime.state.query_params import is_empty_url_value
from streamlit.runtime.state.session_state import SessionState

from embedviz.app.i18n import t

# Value types whose empty URL value means "no value", which no embedviz widget allows (text inputs are
# "string_value": for them an empty value is an empty text, kept as it is).
_NEVER_EMPTY = {"int_value", "double_value", "bool_value", "string_array_value", "int_array_value",
                "double_array_value"}


def _guarded(seed):
    @functools.wraps(seed)
    def seed_or_default(self, metadata, user_key, widget_id, url_value):
        if is_empty_url_value(url_value) and metadata.value_type in _NEVER_EMPTY:
            self._clear_url_param(user_key)
            return False
        try:
            seeded = seed(self, metadata, user_key, widget_id, url_value)
        except (OverflowError, ArithmeticError, RecursionError, MemoryError):
            self._clear_url_param(user_key)
            return False
        sent = url_value[-1] if isinstance(url_value, list) else url_value
        kept = self._new_session_state[user_key] if seeded else None
        if isinstance(kept, str) and metadata.value_type == "string_value" and len(kept) < len(sent):
            st.toast(t("common.url_cut", key=user_key, kept=len(kept), sent=len(sent)))
        return seeded

    seed_or_default.embedviz_guard = True
    return seed_or_default


def install() -> None:
    """Wrap Streamlit's URL seeding once per process (idempotent)."""
    if not getattr(SessionState._seed_widget_from_url, "embedviz_guard", False):
        SessionState._seed_widget_from_url = _guarded(SessionState._seed_widget_from_url)
