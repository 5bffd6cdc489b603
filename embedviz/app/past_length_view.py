"""Cached core calls of "A real model past its length": glassllm's model read past its 128 trained tokens.

Each method's losses are cached per (text, method, factor, length): a page that shows four methods and then a fifth
computes only the fifth. A rerun spends at most RUN_CPU_BUDGET_S of this thread's CPU on new methods; the ones left
are offered behind a button (bounded by PRESS_CPU_BUDGET_S), as Trained embedding bounds its training. The math is in
embedviz.language_model (extension: the methods and the losses; heads: attention; copying: the copy check).
"""
from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlencode

import numpy as np
import streamlit as st

from embedviz.lessons import tours
from embedviz.app.i18n import catalog, t
from embedviz.downsample import SIMILARITY_POSITIONS, block_mean, log_spaced_indices
from embedviz.language_model import copying, extension, glass, heads
from embedviz.rope import rotary
from embedviz.lessons.widget_keys import PastLength as K

# CPU seconds one rerun may spend computing methods: the lesson's four at 4x take ~1 s on an idle core, five at 8x
# ~3 s; past the budget the rest wait for the reader's press (benchmarks/bench_past_length.py measures both).
RUN_CPU_BUDGET_S = 3.0
PRESS_CPU_BUDGET_S = 12.0
SOURCES = ("default", "own")  # SOURCE_NAMES below
DEFAULT_SOURCE = "default"
MAX_OWN_CHARS = 4_000  # the reader's own text (the limit of every free text field)
OWN_DEFAULT_CHARS = 3_600  # the text area starts with the default text's first paragraphs, this much at most
RATIOS = tuple(range(1, extension.MAX_RATIO + 1))  # lengths 1x .. 8x the trained 128
FACTORS = (1.0, 1.5, 2.0, 3.0, 4.0, 6.0, 8.0, 12.0, 16.0)
MAX_METHODS = 5  # at once: five methods at 8x fit the budget of one press
_STEP = tours.PAST  # lesson 003 at 4x, as its tour's step sets it
LESSON = {"length": _STEP[K.LENGTH], "factor": _STEP[K.FACTOR], "methods": list(_STEP[K.METHODS])}
DEFAULTS = {"source": DEFAULT_SOURCE, **LESSON, "att_method": "none", "layer": 1, "head": 0}
METHOD_NAMES = {"none": "past.m_none", "linear": "past.m_linear", "theta": "past.m_theta", "dynamic": "past.m_dynamic",
                "ntk_by_parts": "past.m_ntk_by_parts", "yarn": "past.m_yarn", "llama3": "past.m_llama3"}
SOURCE_NAMES = {"default": "past.src_default", "own": "past.src_own"}
KIND_NAMES = {"previous": "past.kind_previous", "sink": "past.kind_sink", "local": "past.kind_local",
              "far": "past.kind_far", "mixed": "past.kind_mixed"}
TABS = {"loss": "past.tab_loss", "attention": "past.tab_attention", "copy": "past.tab_copy"}
CURVE_BINS = 16  # points per curve: 32 positions each at 4x (a single position's loss is noise)
TRAINED = 128  # glassllm's trained length, as the page names it before the model is read (a refused text)


def factor_label(factor: float) -> str:
    """The factor as its slider shows it and its link holds it: 4.0 -> "4"."""
    return f"{factor:g}"


def lesson_url() -> str:
    """This page at lesson 003's settings (its tour step's), as a link from another page: the loss tab, the default
    text and the lesson's methods (the defaults, so not in the link), 4x the trained length. A bound widget keeps
    its option's label in the URL, so the factor is written as its slider labels it."""
    query = {K.TAB: t(_STEP[K.TAB]), K.LENGTH: _STEP[K.LENGTH], K.FACTOR: factor_label(_STEP[K.FACTOR])}
    return "past-length?" + urlencode(query)


def labels_of_this_language(key: str, names: dict[str, str], *, many: bool) -> None:
    """Before a widget bound to ``?key=`` is created: a link written in the other language names its choices by that
    language's labels (a bound widget keeps the label it shows), which this language's widget would not know. Those
    choices are given to the widget through session state (as a tour step gives its settings), so a link opens the
    same methods in either language; the widget then writes this language's labels back to the URL."""
    values = st.query_params.get_all(key)
    if not values or key in st.session_state:
        return
    here = {str(t(name)) for name in names.values()}
    if all(v in here for v in values):
        return  # this language's labels: the widget reads them itself
    by_label = {text: code for code, name in names.items() for text in catalog()[name].values()}
    codes = [by_label[v] for v in values if v in by_label]
    if codes:
        st.session_state[key] = codes if many else codes[-1]


class _NotCached(Exception):
    pass


@st.cache_data(max_entries=96, show_spinner=False)
def _stored(text: str, method: str, factor: float, length: int, _fresh: np.ndarray | None = None) -> np.ndarray:
    """One method's losses (W, length) float32, at most 40 KB: stored once computed, probed before computing."""
    if _fresh is None:
        raise _NotCached  # exceptions are never cached: a probe that found nothing leaves no entry
    return _fresh


def own_text_default() -> str:
    """The text area's first value: the default text's first paragraphs, under OWN_DEFAULT_CHARS."""
    text = glass.default_text()
    cut = text.rfind("\n\n", 0, OWN_DEFAULT_CHARS)
    return text[:cut if cut > 0 else OWN_DEFAULT_CHARS]


def text_of(source: str, own: str) -> str:
    return glass.default_text() if source == "default" else own


@dataclass(frozen=True)
class TextFacts:
    chars: int
    tokens: int
    trained: int  # the model's trained length, 128


@st.cache_data(max_entries=16, show_spinner=False)
def text_facts(text: str) -> TextFacts:
    """How long a text is, in characters and in the model's tokens (refused if it cannot be read)."""
    return TextFacts(len(text), len(glass.encode(text)), glass.load().trained_length)


@dataclass(frozen=True)
class LossRun:
    """What the loss tab shows: each computed method's losses, the plan of windows, and what is left."""

    losses: dict[str, np.ndarray]  # method -> (W, length)
    left: list[str]  # methods the CPU budget left for a press
    plan: extension.WindowPlan


def losses(text: str, methods: list[str], factor: float, length: int, *, press: bool = False) -> LossRun:
    """The methods' losses on the text: cached ones at once, new ones until this run's CPU budget is spent."""
    _, plan = extension.plan_for(text, length)  # refuses a text too short for one window, before any forward
    done = {}
    for method in methods:
        try:
            done[method] = _stored(text, method, factor, length)
        except _NotCached:
            pass
    runs, left = extension.run_methods(text, length, factor, methods, done=done,
                                       cpu_budget_s=PRESS_CPU_BUDGET_S if press else RUN_CPU_BUDGET_S)
    for run in runs:
        if run.method not in done:
            _stored(text, run.method, factor, length, _fresh=run.losses)
    return LossRun({run.method: run.losses for run in runs}, left, plan)


@dataclass(frozen=True)
class MethodRow:
    """One method's line in the table: the mean loss per bucket, and inside vs past the trained length."""

    method: str
    buckets: list[extension.Bucket]
    inside: float
    past: float  # NaN at the trained length
    separations: list[extension.Separation] | None  # against no scaling, per bucket (None for no scaling itself)


def rows(run: LossRun, trained: int) -> list[MethodRow]:
    base = run.losses.get("none")
    out = []
    for method, values in run.losses.items():
        inside, past = extension.loss_rise(values, trained)
        versus = None if method == "none" or base is None else extension.separable(values, base, run.plan.independent)
        out.append(MethodRow(method, extension.buckets(values), inside, past, versus))
    return out


def curves(run: LossRun) -> dict[str, extension.Curve]:
    return {method: extension.curve(values, bins=CURVE_BINS, independent=run.plan.independent)
            for method, values in run.losses.items()}


# attention


@dataclass(frozen=True)
class AttentionView:
    """The attention tab: one head's weights (block-averaged to the cell budget), every head's mean weight by
    distance (log-spaced distances), the RoPE page's decay curve, and what each head does here and at 128."""

    heatmap: np.ndarray  # (q, k) float32, block-averaged
    step: int  # positions per block (1: every cell)
    distances: np.ndarray  # (N,) log-spaced distances 1..T-1
    profiles: np.ndarray  # (layers, heads, N) mean weight at each distance
    decay: np.ndarray  # (N,) mean_i cos(d w_i) at this method's frequencies
    kinds: list[heads.HeadKind]  # at this length and method
    kinds_trained: list[heads.HeadKind]  # on a window of the trained length, plain RoPE: what training made
    length: int
    decay_near: float  # the decay curve (plain RoPE) at distance heads.NEAR: how slowly it falls


@st.cache_data(max_entries=24, show_spinner=False)
def attention(text: str, method: str, factor: float, length: int, layer: int, head: int) -> AttentionView:
    """Attention of the text's first window at ``length`` with ``method``; a few hundred KB whatever the length."""
    params = extension.rope_parameters(method, factor)
    weights = heads.attention_weights(text, length, params)  # (layers, H, T, T)
    trained = glass.load().trained_length
    at_trained = weights if (length == trained and params is None) else heads.attention_weights(text, trained, None)
    z, step, _ = block_mean(weights[layer, head], SIMILARITY_POSITIONS, SIMILARITY_POSITIONS)
    distances = log_spaced_indices(length)[1:]  # from 1: distance 0 is a query's weight on itself
    profiles = heads.distance_profile(weights)[:, :, distances]
    rope = glass.frequencies(length, params)  # the RoPE page's curve, at this method's frequencies
    decay = rotary.decay_of_frequencies(rope.inv_freq, distances)
    return AttentionView(z.astype(np.float32), step, distances, profiles.astype(np.float32), decay,
                         heads.head_kinds(weights), heads.head_kinds(at_trained), length,
                         float(heads.synthetic_decay([heads.NEAR])[0]))


def kind_counts(kinds: list[heads.HeadKind]) -> dict[str, int]:
    """How many heads of each kind, in heads.KINDS' order (kinds no head has left out)."""
    counts = {kind: sum(k.kind == kind for k in kinds) for kind in heads.KINDS}
    return {kind: n for kind, n in counts.items() if n}


@st.cache_data(max_entries=1, show_spinner=False)
def copy_check() -> copying.CopyCheck:
    return copying.copy_check()
