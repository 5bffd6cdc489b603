"""The frame every page shares: page config, the charts' layout boundary, the language switch, the navigation."""
from __future__ import annotations

import streamlit as st

from embedviz._ast_lock import serialize_ast_parse
from embedviz._threads import limit_threads
from embedviz.app import a11y, compat, warm
from embedviz.app.i18n import DEFAULT_LANGUAGE, LANG_KEY, LANGUAGES, current_language, remember_language, t
from embedviz.app.markup import trusted
from embedviz.app.pages import PAGES
from embedviz.lessons.widget_keys import RENAMED


# Each chart is a layout and paint boundary: plotly's redraw on a slider step reads sizes (getBoundingClientRect)
# after changing its SVG, which otherwise lays out and repaints the whole page each time. Measured (the retired
# feel probe, benchmarks/README.md: Token embeddings / Sinusoidal / RoPE / Context extension, with and without, twice): step ratio
# 2.01 -> 1.85 on average, renderer CPU per step -7%, 7 of 8 pairs faster; opens unchanged. Hover labels, the modebar
# and the full-screen button are drawn inside the chart's box (tests/e2e/test_browser.py checks they stay usable).
CHART_CSS = "<style>[data-testid='stPlotlyChart'] { contain: layout paint; }</style>"
# A page's first figure starts in the top 60% of a 1280 x 720 screen (tests/e2e/test_first_screen.py): Streamlit's
# 6rem above the title is cut to 4rem, just clear of its 3.75rem header (a tour sets its own, tour.py).
FIRST_SCREEN_CSS = "<style>.stMainBlockContainer { padding-top: 4rem; }</style>"
# The language switch and the tour control above the 14-entry navigation: under it they sat off a 720 px screen.
SIDEBAR_CSS = ("<style>[data-testid='stSidebarContent'] { display: flex; flex-direction: column; }"
               " [data-testid='stSidebarHeader'] { order: -2; }"
               " [data-testid='stSidebarUserContent'] { order: -1; padding-bottom: 1rem; }"
               # A collapsed sidebar is only moved off the screen: its 16 links and controls stayed Tab stops before
               # the page (Next was 23 presses away at 640 x 360). Hidden, they leave the Tab order; the delay lets
               # the sidebar slide out before it goes.
               " [data-testid='stSidebar'][data-collapsed='true'] { visibility: hidden;"
               " transition: visibility 0s linear 0.3s; }</style>")
# Streamlit's focus ring is the accent at half strength (2.5:1 against white): a solid outline in the accent itself
# (6.6:1 on white, 6.2:1 on the sidebar) shows a keyboard reader where they are (WCAG 2.4.7, 1.4.11).
FOCUS_CSS = ("<style>:is(a, button, input, select, textarea, summary, [tabindex]):focus-visible"
             " { outline: 2px solid #b0243b !important; outline-offset: 1px; }</style>")


def language_switch() -> str:
    """Sidebar language picker, kept in the URL as ?lang= so a shared link keeps the language."""
    # The bound widget keeps its option's label in the URL (?lang=简体中文) and drops anything else, so a typed
    # link's language code (?lang=zh) is taken here, once, before the widget first reads the URL.
    typed = st.query_params.get(LANG_KEY)
    if typed in LANGUAGES and LANG_KEY not in st.session_state:
        st.session_state[LANG_KEY] = typed
    with st.sidebar:
        st.segmented_control(
            "Language / 语言",
            list(LANGUAGES),
            default=DEFAULT_LANGUAGE,
            format_func=LANGUAGES.get,
            key=LANG_KEY,
            required=True,
            bind="query-params",
        )
    return remember_language()


def follow_renamed_keys() -> None:
    """A saved link's renamed URL keys (``?naive_L=256``) under their names today (``why_sinusoidal_L``), then a
    rerun: a bound widget takes its value from the URL the run started with, so the renamed link must start one.
    A link naming both keeps the new key's value."""
    old = [key for key in st.query_params if key in RENAMED]
    if not old:
        return
    for key in old:
        values = st.query_params.get_all(key)
        del st.query_params[key]
        if RENAMED[key] not in st.query_params:
            st.query_params[RENAMED[key]] = values if len(values) > 1 else values[0]
    st.rerun()


NAV_PAGES = "_nav_pages"  # session state: (language, the st.Page objects by url path) this session's runs reuse


def navigation():
    """The chosen page, and every page by its url path (the tours move between them)."""
    # st.Page resolves its file's path on disk (a stat of every directory on the way, each a release of the GIL
    # that a busy server makes the run wait to get back): 14 pages on every run were a fifth of a follower's
    # rerun's wall time in a class's burst. They are kept per session (st.navigation marks the chosen one, so no
    # two sessions share them) and rebuilt when the language, and so their titles, changes.
    lang = current_language()
    held = st.session_state.get(NAV_PAGES)
    if held and held[0] == lang:
        by_url = held[1]
    else:
        by_url = {
            url: st.Page(file, title=t(title), icon=icon, url_path=url, default=(url == "home"))
            for _, entries in PAGES for file, title, icon, url in entries
        }
        st.session_state[NAV_PAGES] = (lang, by_url)
    sections = {t(section): [by_url[url] for *_, url in entries] for section, entries in PAGES}
    return st.navigation(sections, expanded=True), by_url  # every page listed: by default Streamlit folds past 10


def document(page) -> None:
    """The document's title (the page's, and in a tour its step: "RoPE – step 8 of 12 – lesson 003 – embedviz"),
    language, and a new tour step said in the page's live region (embedviz/app/a11y.py)."""
    from embedviz.app import tour

    name = trusted(page.title)  # a catalog text: st.Page was given t(title)
    path = page.url_path or "/"  # the default page's path is ""
    step = tour.where()
    if step is None:
        a11y.document(t("common.doc_title", page=name), page=path)
        return
    lesson, number, total, said = step
    a11y.document(t("common.doc_title_step", page=name, k=number, n=total, lesson=lesson),
                  say=said, say_key=f"{lesson}:{number}:{current_language()}", page=path)


def run() -> None:
    limit_threads()  # before any page loads numpy or torch: one BLAS / torch thread per server process
    serialize_ast_parse()  # a bare `streamlit run app.py`: its sessions and the warm-up parse in several threads
    from embedviz.app import tour  # after limit_threads: the tours' answers come from the core (numpy, torch)
    from embedviz.app.widgets import url_cut_toast

    # Streamlit's runtime patches (URL values guarded, clear_cache refused, uploads bounded), once per process
    compat.install(url_cut_notice=url_cut_toast)
    follow_renamed_keys()  # before any widget reads the URL

    st.set_page_config(page_title="embedviz", page_icon="🧮", layout="wide",  # an emoji: a material icon favicon is fetched from a font CDN, which fails offline
                       initial_sidebar_state=tour.sidebar_state())  # collapsed when projecting
    st.html(CHART_CSS)  # a style-only block takes no space; unchanged, it costs nothing on a rerun
    st.html(SIDEBAR_CSS)
    st.html(FIRST_SCREEN_CSS)
    st.html(FOCUS_CSS)
    warm.start()  # once per process, in the background, when the server asked for it ($EMBEDVIZ_WARM=1)
    language_switch()
    page, pages = navigation()
    tour.arrive(page, pages)  # a tour step on another page switches before this run draws the sidebar or the panel
    tour.sidebar_controls()
    with st.sidebar:
        st.caption(t("common.sidebar_caption"))
    document(page)
    if tour.panel(page, pages):  # a lesson tour's step above the page; a question hides the page until answered
        page.run()
    else:  # the page's title stays the step's heading (a screen reader's way through a page is its headings)
        st.title(trusted(page.title))
