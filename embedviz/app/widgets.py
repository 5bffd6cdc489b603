"""Shared widgets whose values live in the URL (``bind="query-params"``), so a shared link reopens the same view.

Keys are the query-parameter names, each named once in ``embedviz/lessons/widget_keys.py`` (one class per page,
every key with its page's prefix, so two pages never share one).
Labels are i18n keys.
"""
from __future__ import annotations

import functools
import hashlib
import importlib
import inspect
from collections.abc import Callable, Sequence

import plotly.graph_objects as go
import streamlit as st
from plotly.basedatatypes import BaseFigure

from embedviz.app import compat
from embedviz.app.errors import localized
from embedviz.app.i18n import catalog, plotly_locale, t
from embedviz.app.markup import escape, trusted
from embedviz.downsample import log_options  # noqa: F401  (the stops of the pages' log-scale sliders)
from embedviz.figures import merged, shown_as_text
from embedviz.figures.screen import fitted
from embedviz.figures.describe import WORDS as ALT_WORDS, text_alternative
from embedviz.figures.export import COLUMNS, figure_csv, file_name, slug

BIND = "query-params"
PRESENT_KEY, IMAGE_KEY = "present", "img"  # presenter switch, toolbar image format (set in embedviz/app/tour.py)
PRESENT_FONT = 20  # figure text size when projecting (the template's is 13)
# A chart's width in CSS px, which the server cannot see: a 390 px phone's main area keeps 16 px each side; a
# projector's 1280 px window beside the open sidebar gives the main area about 900 px (taken narrower, so a
# legend's rows are counted on the safe side). A phone is what its browser says it is ("Mobi" in the user agent,
# as iOS and Android browsers send): a phone's charts get their titles broken into lines, a desktop's stay as built.
PHONE_WIDTH, DESKTOP_WIDTH = 358, 760
# plotly.js 4's toolbar offers to upload the chart to Plotly Cloud ("Share chart..."): a classroom app sends nothing
# off the machine (the CSP would refuse it anyway), and the button was one more untranslated Tab stop.
TOOLBAR = {"displaylogo": False, "modeBarButtonsToRemove": ["sendChartToCloud"]}


def int_slider(key: str, label: str, min_value: int, max_value: int, value: int, *, step: int = 1, help: str | None = None) -> int:
    """An integer slider bound to ``?key=``; ``label``/``help`` are i18n keys."""
    return st.slider(
        t(label), min_value, max_value, value, step=step, key=key, help=t(help) if help else None, bind=BIND
    )


def choice_slider(
    key: str, label: str, options: Sequence, value, *, format_func: Callable = str, help: str | None = None
):
    """A select_slider over fixed options (e.g. a log scale of rope_theta values) bound to ``?key=``."""
    return st.select_slider(
        t(label), options=list(options), value=value, format_func=format_func, key=key,
        help=t(help) if help else None, bind=BIND,
    )


def segmented(key: str, label: str, options: Sequence, value, *, format_func: Callable = str):
    """A one-of-few control bound to ``?key=``; never empty (required)."""
    return st.segmented_control(
        t(label), list(options), default=value, format_func=format_func, key=key, required=True, bind=BIND
    )


def pc_axes() -> tuple[str, str]:
    """The two axis titles of a PCA picture in the reader's language (principal component 1, 2)."""
    first, second = t("common.pc_axes").split("|")
    return first, second


def human_number(x: float) -> str:
    """10000.0 -> '10,000'; 1e6 -> '1,000,000'; 0.5 -> '0.5'; 1e23 -> '1e+23' (past 1e15 a float's digits are not
    all exact: int(1e23) prints 99,999,999,999,999,991,611,392)."""
    if abs(x) >= 1e15:
        return f"{x:.4g}"
    return f"{int(x):,}" if float(x).is_integer() else f"{x:g}"


def lead(key: str) -> None:
    """A page's first words: what its first figure shows and what to look for (i18n ``key``). The rest of its
    intro goes under the figure (``details``), so a reader meets the figure on the first screen: at 1280 x 720 it
    starts in the top 60% of the screen (tests/e2e/test_first_screen.py), after at most 60 words
    (tests/app/test_density.py)."""
    st.markdown(t(key))


def details(*texts: str, formula: str | None = None) -> None:
    """What a page says beyond its lead, after its first figure: its formula in LaTeX, then its intro and notes
    (``texts``, translated: context, caveats, history) in a closed Details expander."""
    if formula:
        st.latex(trusted(formula))  # the page's own formula
    if texts:
        with st.expander(t("common.details")):
            for text in texts:
                st.markdown(escape(text))  # a catalog text (t) passes as it is; anything else shows as text


def page_header(title: str, lead_key: str) -> None:
    """A page's title and its lead, each named by its catalog key written out at the call
    (``page_header("sin.title", "sin.lead")``) so a search for a key finds the page that shows it; the formula and
    the intro follow the first figure (``details``)."""
    st.title(t(title))
    lead(lead_key)


def plot(fig, *args, key: str | None = None, csv: Callable[[], str] | None = None, **kwargs) -> None:
    """Show a figure with the embedviz template as drawn (theme=None), full width, with its data as CSV below it.

    ``plot(builder, *args, **kwargs)`` (a function of ``embedviz.figures``, not its result) builds the figure
    through a cache shared by sessions: a rerun whose inputs for that chart did not change does not rebuild it.
    Building a plotly figure costs 10-500 ms of server CPU (every property is validated); reading it back from the
    cache about 10 ms (each caller gets its own copy). The arguments are what the builder takes.
    The toolbar's camera saves a slide-ready PNG at 2x scale, or an SVG (the sidebar's image format); plotly.js draws
    both in the browser, offline. Projecting (the presenter switch) enlarges the figure's text.
    ``csv``: a function giving the CSV instead of the traces' rows (one row per item with every column the chart
    was drawn from), so a chart has one CSV button, not two: each button is redrawn on every rerun.
    """
    fig = figure_for(fig, args, kwargs)
    title = fig.layout.title.text or "figure"
    alt = text_alternative(fig, {name: t(f"common.alt_{name}") for name in ALT_WORDS})  # what a screen reader says
    config = chart_config(title)
    shown = shown_figure(fig, fit=True)
    # the figure's own height given to Streamlit too: its box has that height before plotly.js (a 4.7 MB chunk) has
    # loaded and drawn, so the text under it does not jump down when the chart appears (a layout shift)
    height = shown.layout.height if isinstance(shown.layout.height, (int, float)) else "content"
    st.plotly_chart(shown, theme=None, key=key, config=config, alt=alt, height=int(height) if height != "content" else height)
    columns = {name: t(f"common.csv_col_{name}") for name in COLUMNS}
    download_csv(csv or (lambda: figure_csv(fig, columns)), title, key=key or _csv_key(fig, title))


def chart_config(title: str | None) -> dict:
    """plotly.js's options for a chart titled ``title``, a Streamlit chart's or a live figure's: the toolbar's words
    in the reader's language, its camera saving a PNG at 2x scale (or the sidebar's image format) named after the
    title; on a phone no toolbar, which sat on the title (plotly shows it on every touch), and a phone saves no
    slides (tests/e2e/test_phone_toolbar.py)."""
    image = {"format": st.session_state.get(IMAGE_KEY) or "png", "scale": 2, "filename": slug(title or "figure")}
    return {**TOOLBAR, "toImageButtonOptions": image, **({"displayModeBar": False} if on_phone() else {}),
            **plotly_locale()}


def figure_for(fig, args: tuple, kwargs: dict) -> go.Figure:
    """The figure ``plot`` shows: ``fig``, or ``fig(*args, **kwargs)`` built through the shared cache (as built: the
    CSV and the alt text read it; ``shown_figure`` is what the browser draws)."""
    if not isinstance(fig, BaseFigure):
        for name, words in (("downsample_note", "common.downsampled"), ("scale_key", "common.scale_key")):
            if name not in kwargs and _takes(fig, name):
                kwargs[name] = t(words)  # the figure code's few words of its own, in the reader's language
        spec = _figure_spec(fig.__module__, fig.__qualname__, args, tuple(sorted(kwargs.items())))
        fig = compat.unchecked_figure(spec)  # the builder's own figure, validated once when it was built
    elif args or kwargs:
        raise TypeError("plot(figure) takes no other arguments; plot(builder, *args, **kwargs) builds one")
    return fig


def shown_figure(fig: go.Figure, *, fit: bool = False) -> go.Figure:
    """What the browser draws of ``fig``: a reader's words as text, never plotly markup (the CSV and the alt text
    keep them raw), with the presenter view's larger text when projecting. ``fit``: fitted to the screen's width
    too (``embedviz.figures.screen.fitted``: on a phone, titles and legend entries broken into lines; a legend
    under the plot given the room its rows need), for a figure the browser does not fit itself."""
    spec = fig.to_dict()
    if st.session_state.get(PRESENT_KEY):
        spec["layout"] = merged(spec.get("layout") or {}, dict(
            font=dict(size=PRESENT_FONT), title=dict(font=dict(size=PRESENT_FONT + 6)),
            hoverlabel=dict(font=dict(size=PRESENT_FONT))))
    if fit:
        phone = on_phone()
        spec = fitted(spec, width=PHONE_WIDTH if phone else DESKTOP_WIDTH, wrap_texts=phone)
    return compat.unchecked_figure(shown_as_text(spec))


def url_cut_toast(key: str, kept: int, sent: int) -> None:
    """A link's text was longer than its field: say so, in the reader's language (compat's URL guard calls this)."""
    st.toast(t("common.url_cut", key=key, kept=kept, sent=sent))


def on_phone() -> bool:
    """Whether the reader's browser is a phone's (its user agent says "Mobi", as iOS's and Android's do)."""
    try:
        agent = st.context.headers.get("User-Agent") or ""
    except Exception:  # noqa: BLE001 - no request behind this run (AppTest, a bare script): not a phone
        return False
    return "Mobi" in agent


@functools.lru_cache(maxsize=None)
def _takes(builder, name: str) -> bool:
    """Whether a figure builder has a parameter ``name``."""
    return name in inspect.signature(builder).parameters


def _csv_key(fig, title: str) -> str:
    """A stable key for a chart's CSV button: its title and traces (two charts on a page never share both)."""
    names = "|".join(f"{trace.type}:{trace.name}" for trace in fig.data)
    return "csv_" + hashlib.sha1(f"{title}|{names}".encode()).hexdigest()[:12]


def download_csv(data: Callable[[], str] | str, title: str, *, key: str) -> None:
    """A small "CSV" download button; ``data`` may be a function, called only when the button is clicked."""
    st.download_button(t("common.csv"), data, file_name=file_name(title), mime="text/csv", key=f"dl_{key}",
                       on_click="ignore", help=t("common.csv_help"))


@st.cache_data(max_entries=64, show_spinner=False)
def _figure_spec(module: str, name: str, args: tuple, kwargs: tuple) -> dict:
    """``module.name(*args, **kwargs)`` as a plain dict (arrays stay numpy): what ``plot`` draws, cached."""
    builder = getattr(importlib.import_module(module), name)
    return builder(*args, **dict(kwargs)).to_dict()


def notice(key: str, **values) -> None:
    """The blue "Notice:" box a page ends a point with; ``key`` is an i18n key, ``values`` fill its fields."""
    st.info(t("common.notice", text=t(key, **values)))


def show_error(error: Exception) -> None:
    """A user-input error as a red box with its message in the reader's language, never a traceback."""
    st.error(t("common.input_error", message=localized(error)))


def lesson_button(key: str, label: str, values: dict, *, help: str | None = None) -> None:
    """A button that puts a lesson's settings into URL-bound widgets (``values``: widget key -> value).

    It writes session state in its on_click callback, which Streamlit runs before the next script run, so the
    widgets are created with the new values and their bound query parameters follow.
    """
    st.button(t(label), key=key, help=t(help) if help else None, on_click=_set_state, args=(dict(values),),
              icon=":material/school:")


def tab_labels(key: str, label_keys: Sequence[str]) -> list[str]:
    """The labels (i18n keys) of tabs bound to the URL as ?<key>=, in the current language.

    Bound tabs hold their label, so a tab chosen in the other language (a session that just switched, or a shared
    link) is mapped to this language's label, and a label no tab has any more (an old link to a tab that moved to
    a page of its own, such as Real model's "Position table") opens the first tab.
    """
    labels = [t(k) for k in label_keys]
    chosen = st.session_state.get(key) or st.query_params.get(key)
    if chosen and chosen not in labels:
        known = {text: label for k, label in zip(label_keys, labels) for text in catalog()[k].values()}
        st.session_state[key] = known.get(chosen, labels[0])
    return labels


def _set_state(values: dict) -> None:
    for widget_key, value in values.items():
        st.session_state[widget_key] = value


def bound_tabs(key: str, label_keys: Sequence[str]):
    """Tabs bound to ``?key=`` by label (Streamlit then runs them lazily: test ``tab.open`` before drawing one).

    ``label_keys`` are i18n keys; a tab chosen in the other language stays open across the switch (``tab_labels``).
    """
    return st.tabs(tab_labels(key, label_keys), key=key, bind=BIND)
