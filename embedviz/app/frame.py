"""The picture frame every page shares: page config, the language switch, and the navigation."""
from __future__ import annotations

import streamlit as st

from embedviz.app.i18n import DEFAULT_LANGUAGE, LANG_KEY, LANGUAGES, t

# (section i18n key, [(file, title i18n key, icon, url path)]) in reading order: ids -> vectors -> positions.
PAGES: list[tuple[str, list[tuple[str, str, str, str]]]] = [
    ("nav.start", [("pages/home.py", "home.nav", ":material/home:", "home")]),
    (
        "nav.tokens",
        [
            ("pages/token_embeddings.py", "tok.nav", ":material/table_rows:", "token-embeddings"),
            ("pages/trained_embedding.py", "train.nav", ":material/model_training:", "trained-embedding"),
        ],
    ),
    (
        "nav.positions",
        [
            ("pages/why_position.py", "why.nav", ":material/shuffle:", "why-position"),
            ("pages/sinusoidal.py", "sin.nav", ":material/waves:", "sinusoidal"),
            ("pages/rope.py", "rope.nav", ":material/rotate_right:", "rope"),
            ("pages/compare.py", "cmp.nav", ":material/compare:", "compare"),
            ("pages/context_extension.py", "ctx.nav", ":material/open_in_full:", "context-extension"),
        ],
    ),
    ("nav.models", [("pages/real_model.py", "real.nav", ":material/psychology:", "real-model")]),
]


def language_switch() -> str:
    """Sidebar language picker, kept in the URL as ?lang= so a shared link keeps the language."""
    with st.sidebar:
        return st.segmented_control(
            "Language / 语言",
            list(LANGUAGES),
            default=DEFAULT_LANGUAGE,
            format_func=LANGUAGES.get,
            key=LANG_KEY,
            required=True,
            bind="query-params",
        )


def navigation():
    pages = {
        t(section): [
            st.Page(file, title=t(title), icon=icon, url_path=url, default=(url == "home"))
            for file, title, icon, url in entries
        ]
        for section, entries in PAGES
    }
    return st.navigation(pages)


def run() -> None:
    st.set_page_config(page_title="embedviz", page_icon=":material/scatter_plot:", layout="wide")
    language_switch()
    page = navigation()
    with st.sidebar:
        st.caption(t("common.sidebar_caption"))
    page.run()
