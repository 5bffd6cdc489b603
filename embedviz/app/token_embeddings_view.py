"""Cached core calls of the Token embeddings page. Plain arguments in, arrays and small frozen records out."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import streamlit as st

from embedviz.input_layer import lookup
from embedviz.models import params
from embedviz.tokens import qwen as qwen_tokens, raw_ids
from embedviz.errors import InputError
from embedviz.tokens.tokenizer import VOCAB_SIZE, byte_pieces, encode, text_token_labels, token_label
from embedviz.lessons.widget_keys import Tokens

D_MODELS = (2, 4, 8, 16, 32, 64, 128, 256, 512, 768, 1_024, 2_048, 4_096)  # the d_model slider's stops
# the same in every language: a bound widget keeps its formatted option in the URL
INIT_LABELS = {"gpt2": "0.02 (GPT-2)", "inv_sqrt_d": "1/√d_model", "unit": "1 (nn.Embedding)"}


def _id_label(token_id: int, char: str, nbytes: int) -> str:
    """'H' for a printable byte; '<e4> 你' for a byte of a longer character (the first character it was seen in)."""
    label = token_label(token_id)
    return label if nbytes == 1 else f"{label} {char}"


@st.cache_data(max_entries=32, show_spinner=False)
def table(d_model: int, scheme: str, seed: int) -> np.ndarray:
    """The (256, D) byte-vocabulary table, initialised with ``scheme``."""
    return lookup.init_table(VOCAB_SIZE, d_model, scheme=scheme, seed=seed)


@dataclass(frozen=True)
class LookupView:
    ids: np.ndarray  # (T,) the byte ids of the text
    labels: list[str]  # one row label per id
    comparison: lookup.LookupComparison  # the three lookups (index, one-hot matmul, nn.Embedding) and their gaps
    distinct_labels: list[str]  # a label per distinct id, in order of first use
    distances: lookup.DistanceComparison  # one-hot against dense distances of the distinct ids
    std: float  # the table's standard deviation
    mean_row_norm: float  # its rows' mean length
    init_std: float  # the scheme's sigma at this d_model


@st.cache_data(max_entries=32, show_spinner=False)
def lookup_view(text: str, d_model: int, scheme: str, seed: int) -> LookupView:
    """ids, row labels, the three lookups and the one-hot / dense distances of the distinct ids of ``text``."""
    ids = encode(text)
    if not ids:
        raise InputError("empty_text")
    W = table(d_model, scheme, seed)
    comparison = lookup.compare_lookups(ids, W)
    distinct = lookup.unique_in_order(ids)
    first = {}
    for token_id, (ch, _, n) in zip(ids, byte_pieces(text)):
        first.setdefault(token_id, (ch, n))
    distances = lookup.distance_comparison(distinct, W)
    std, mean_row_norm = lookup.table_scale(W)
    return LookupView(
        ids=comparison.ids,
        labels=text_token_labels(text),
        comparison=comparison,
        distinct_labels=[_id_label(int(i), *first[int(i)]) for i in distinct],
        distances=distances,
        std=std,
        mean_row_norm=mean_row_norm,
        init_std=lookup.init_std(d_model, scheme),
    )


def qwen_missing() -> str | None:
    """None if Qwen3's tokenizer can run, else the pip line that installs what it needs."""
    try:
        qwen_tokens.ranks_path()
        import tiktoken  # noqa: F401
    except (FileNotFoundError, ImportError):
        return qwen_tokens.QWEN_INSTALL
    return None


@dataclass(frozen=True)
class QwenView:
    ids: np.ndarray  # (T,) Qwen3's token ids
    pieces: list[str]  # each token's text
    nbytes: list[int]  # its length in bytes
    chars: list[int]  # its whole characters (0 for a token holding only part of one)
    byte_ids: list[str]  # the byte tokenizer's ids of its bytes, space-separated
    rows: np.ndarray  # (T, D) the rows those ids pick from a random table (not Qwen's values)
    byte_count: int  # the text's bytes (its length in the byte tokenizer)
    vocab_size: int  # Qwen3's
    partial: bool  # whether a character is split across tokens


@st.cache_data(max_entries=32, show_spinner=False)
def qwen_view(text: str, d_model: int, scheme: str, seed: int) -> QwenView:
    """Qwen3's ids of ``text``, each token's piece, and the rows those ids pick from a random (151,936, D) table
    initialised with ``scheme`` (the values are not Qwen's)."""
    tokens = qwen_tokens.tokenize(text)
    rows = qwen_tokens.random_rows(tokens.ids, d_model, std=lookup.init_std(d_model, scheme), seed=seed)  # (T, D)
    return QwenView(ids=tokens.ids, pieces=tokens.pieces, nbytes=tokens.nbytes, chars=tokens.chars,
                    byte_ids=[" ".join(map(str, ids)) for ids in tokens.byte_ids],
                    rows=rows, byte_count=len(encode(text)), vocab_size=qwen_tokens.QWEN3_VOCAB_SIZE,
                    partial=any(n == 0 for n in tokens.chars))


@dataclass(frozen=True)
class GradientView:
    step: lookup.GradientStep  # the step's loss, gradient norm per row, rows used and moved
    hover: list[str]  # a label per vocabulary row


@st.cache_data(max_entries=32, show_spinner=False)
def gradient_view(text: str, d_model: int, scheme: str, seed: int, tied: bool) -> GradientView:
    """One backward step of next-token prediction on ``text``: the gradient of each row and hover labels."""
    ids = encode(text)
    step = lookup.gradient_step(ids, table(d_model, scheme, seed), tied=tied, seed=seed + 1)
    hover = [token_label(v) for v in range(VOCAB_SIZE)]
    return GradientView(step=step, hover=hover)


SECOND_TEXT = "xyz"  # the second step's batch on the gradient tab (any text whose rows differ from the reader's)


@st.cache_data(max_entries=32, show_spinner=False)
def second_step(text: str, d_model: int, scheme: str, seed: int) -> dict[str, tuple[int, int]]:
    """Rows moved by a second step on SECOND_TEXT after a step on ``text``, per optimiser (lr 0.01, AdamW decay 0.01)."""
    return lookup.second_step_summary(encode(text), encode(SECOND_TEXT), table(d_model, scheme, seed), seed=seed + 1)


@st.cache_data(max_entries=4, show_spinner=False)
def init_scales(seed: int) -> dict[str, np.ndarray]:
    """Mean row length of a fresh 256-row table for each scheme at every d_model stop."""
    return lookup.row_norm_stats(D_MODELS, seed=seed)


@dataclass(frozen=True)
class Memory:
    total: int  # bytes of the embedding tables
    total_with_head: int  # and of an untied output head beside them


@dataclass(frozen=True)
class ParameterView:
    counts: params.EmbeddingParams
    memory: dict[str, Memory]  # dtype ("fp32", "bf16") -> bytes


@st.cache_data(max_entries=64, show_spinner=False)
def parameter_view(vocab_size: int, d_model: int, max_context_length: int, positional: str,
                   tied: bool) -> ParameterView:
    """Counts of the token table, positional table and output head, and their memory in fp32 / bf16."""
    counts = params.embedding_parameter_count(
        vocab_size, d_model, max_context_length=max_context_length, positional=positional, tied=tied
    )
    memory = {
        dtype: Memory(total=params.memory_bytes(counts.total, dtype),
                      total_with_head=params.memory_bytes(counts.total_with_head, dtype))
        for dtype in ("fp32", "bf16")
    }
    return ParameterView(counts=counts, memory=memory)


# the parameter calculator's widgets: field -> widget key (= URL parameter)
CALC_KEYS = {"vocab_size": Tokens.VOCAB, "d_model": Tokens.WIDTH, "max_context_length": Tokens.MAX_CONTEXT_LENGTH,
             "positional": Tokens.POSITIONAL, "tied": Tokens.TIE}
CUSTOM, DEFAULT_PRESET = "custom", "ANDREA-120M"


def preset_settings(name: str) -> dict:
    """The calculator's widget values for a preset (a plain dict lookup, no caching needed)."""
    p = params.PRESETS[name]
    return {
        "vocab_size": p.vocab_size,
        "d_model": p.d_model,
        "max_context_length": p.max_context_length,
        "positional": p.positional,
        "tied": p.tied_embeddings,
    }


def init_calculator() -> None:
    """First visit: start the calculator at the preset named in the URL, else at lesson 002's ANDREA-120M.

    The widgets get their values through session state (not ``value=``), so a preset can overwrite them later.
    """
    start = st.session_state.get(Tokens.PRESET) or st.query_params.get(Tokens.PRESET)
    for field, value in preset_settings(start if start in params.PRESETS else DEFAULT_PRESET).items():
        st.session_state.setdefault(CALC_KEYS[field], value)
    st.session_state.setdefault(Tokens.PRESET, start if start in params.PRESETS or start == CUSTOM else DEFAULT_PRESET)


def apply_preset() -> None:
    """Callback of the preset box: copy the chosen preset's numbers into the calculator's widgets."""
    name = st.session_state[Tokens.PRESET]
    if name in params.PRESETS:
        for field, value in preset_settings(name).items():
            st.session_state[CALC_KEYS[field]] = value


def match_preset() -> None:
    """Callback of the calculator's widgets: the preset box names the preset these numbers are, or 'custom'."""
    values = {field: st.session_state.get(key) for field, key in CALC_KEYS.items()}
    current = st.session_state.get(Tokens.PRESET)
    if current in params.PRESETS and preset_settings(current) == values:
        return  # two presets can share the numbers (Qwen3 with and without YaRN differ only in L); keep the choice
    st.session_state[Tokens.PRESET] = next(
        (name for name in params.PRESETS if preset_settings(name) == values), CUSTOM
    )


@st.cache_data(max_entries=1, show_spinner=False)
def preset_shares() -> dict[str, float]:
    """Share of each preset's parameters that sits in its embedding tables (presets that know their total)."""
    out = {}
    for name in params.PRESETS:
        share = params.preset_share(name)
        if share is not None:
            out[name] = share
    return out


def human_bytes(n: int) -> str:
    """Bytes in binary units: 29,101,056 -> '27.8 MiB'."""
    value = float(n)
    for unit in ("B", "KiB", "MiB", "GiB", "TiB"):
        if value < 1024 or unit == "TiB":
            return f"{value:,.0f} {unit}" if unit == "B" else f"{value:,.1f} {unit}"
        value /= 1024
    raise AssertionError("unreachable")


# raw ids (lesson 001): why not feed the id itself


@st.cache_data(max_entries=64, show_spinner=False)
def byte_neighbours(char: str) -> list[tuple[int, str]]:
    return raw_ids.byte_id_neighbours(char)


@dataclass(frozen=True)
class IdNeighbours:
    id: int  # the word's token id
    other_id: int
    gap: int  # |id - other_id|
    tokens: list[str]  # the tokens of the rows next to the word's id
    rows: list[tuple[int, float]]  # (id, cos with the word's row) of each
    other_cos: float  # cos of the two words' rows
    rank: int  # where the other word ranks among the word's nearest rows by cosine
    vocab_size: int


@st.cache_data(max_entries=64, show_spinner=False)
def id_neighbour_rows(word: str, other: str) -> IdNeighbours:
    """The bundled model: the rows next to ``word``'s id, and where ``other`` ranks by cosine."""
    from embedviz.app.real_model_view import model  # the bundled table, loaded once per process
    from embedviz.models.word_vectors import pair_similarity

    m = model()
    a, b = m.token_id(word), m.token_id(other)
    rows = raw_ids.id_neighbours(m.token_embeddings, a)
    return IdNeighbours(
        id=a, other_id=b, gap=abs(a - b), tokens=m.tokens([i for i, _ in rows]), rows=rows,
        other_cos=pair_similarity(m.token_embeddings, a, b),
        rank=raw_ids.cosine_rank(m.token_embeddings, a, b), vocab_size=m.vocab_size,
    )
