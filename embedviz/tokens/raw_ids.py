"""Lesson 001: why a token id is a name, not a number the network could compute with.

'A' is 65 and 'B' is 66, but that gap of 1 says nothing about the letters; in a vocabulary where 'king' were 1000
and 'queen' 1001 they would be neighbours only because of how the vocabulary was sorted. Measured on the bundled
model: the rows next to a word's id are unrelated words, while a related word can sit far away in id order and
close in direction (cosine).
"""
from __future__ import annotations

import numpy as np

from embedviz._validate import positive_int
from embedviz.errors import InputError
from embedviz.similarity import cosine_similarity_matrix
from embedviz.tokens.tokenizer import VOCAB_SIZE, encode, token_label


def byte_id_neighbours(char: str, *, span: int = 2) -> list[tuple[int, str]]:
    """The byte-level ids around one character's id, with their characters: 'B' (66) -> [(64,'@'), (65,'A'), ...].

    ``char`` must be one byte (ASCII): a multi-byte character has several ids.
    """
    if not isinstance(char, str) or len(char) != 1:
        raise InputError("one_char", char=char)
    ids = encode(char)
    if len(ids) != 1:
        raise InputError("char_bytes", char=char, n=len(ids))
    span = positive_int("span", span, minimum=0, maximum=16)
    center = ids[0]
    return [(i, token_label(i)) for i in range(max(0, center - span), min(VOCAB_SIZE, center + span + 1))]


def id_neighbours(table, token_id: int, *, span: int = 3) -> list[tuple[int, float]]:
    """Rows token_id - span .. token_id + span of a (V, D) table with their cosine to row token_id."""
    table = np.asarray(table)
    if table.ndim != 2:
        raise ValueError(f"table must be a 2-D (V, D) array, got shape {table.shape}")
    V = table.shape[0]
    token_id = positive_int("token_id", token_id, minimum=0, maximum=V - 1)
    span = positive_int("span", span, minimum=0, maximum=50)
    ids = list(range(max(0, token_id - span), min(V, token_id + span + 1)))
    cos = cosine_similarity_matrix(table[ids], table[[token_id]])[:, 0]  # (len(ids),)
    return [(i, float(c)) for i, c in zip(ids, cos)]


def cosine_rank(table, token_id: int, other_id: int) -> int:
    """Where other_id comes among token_id's nearest rows by cosine: 1 = the nearest (token_id itself left out)."""
    table = np.asarray(table)
    V = table.shape[0]
    token_id = positive_int("token_id", token_id, minimum=0, maximum=V - 1)
    other_id = positive_int("other_id", other_id, minimum=0, maximum=V - 1)
    if other_id == token_id:
        raise InputError("other_id", value=other_id)
    cos = cosine_similarity_matrix(table, table[[token_id]])[:, 0]  # (V,)
    cos[token_id] = -np.inf
    return int((cos > cos[other_id]).sum()) + 1
