"""Byte-level tokenizer: text <-> ids 0..255 (the UTF-8 bytes), as in lesson 001.

A byte vocabulary needs no training and covers every language: 'Hello' -> [72, 101, 108, 108, 111], and a Chinese
character becomes three ids (its three UTF-8 bytes).
"""
from __future__ import annotations

import numbers

import numpy as np

from embedviz._validate import string
from embedviz.errors import InputError

VOCAB_SIZE = 256


def encode(text: str) -> list[int]:
    """Text -> byte ids, one per UTF-8 byte."""
    string("text", text)
    try:
        return list(text.encode("utf-8"))
    except UnicodeEncodeError as err:  # a lone surrogate (U+D800..U+DFFF) is not a character and has no UTF-8 bytes
        bad = text[err.start]
        raise InputError("lone_surrogate", codepoint=ord(bad), index=err.start) from None


def decode(ids) -> str:
    """Byte ids -> text; bytes that do not form valid UTF-8 become U+FFFD."""
    ids = list(ids)
    for i in ids:
        # 1.5 or True are mistakes, not the ids 1 and 1
        if isinstance(i, (bool, np.bool_)) or not isinstance(i, numbers.Integral):
            raise InputError("integer", name="token id", value=i, kind=type(i).__name__)
    ids = [int(i) for i in ids]
    bad = [i for i in ids if not 0 <= i < VOCAB_SIZE]
    if bad:
        raise InputError("token_id", value=bad[0], limit=VOCAB_SIZE)
    return bytes(ids).decode("utf-8", errors="replace")


SPACE_LABEL = "<space>"


def token_label(token_id: int) -> str:
    """A readable label for one byte id: the character for printable ASCII, "<space>" for the space, else the byte
    in hex (<e7>). Printable ASCII only: a symbol for the space ("␠") is missing from common fonts, and a browser
    without it drew an empty box."""
    if 33 <= token_id < 127:
        return chr(token_id)
    if token_id == 32:
        return SPACE_LABEL
    return f"<{token_id:02x}>"


def token_labels(ids) -> list[str]:
    """Labels for a sequence of byte ids, made unique by position so they can label heatmap rows."""
    return [f"{t}:{token_label(int(i))}" for t, i in enumerate(ids)]


def byte_pieces(text: str) -> list[tuple[str, int, int]]:
    """For each byte id of ``encode(text)``: (the character it belongs to, its 1-based index in it, the byte count).

    'hé' -> [('h', 1, 1), ('é', 1, 2), ('é', 2, 2)]: one id per byte, so a Chinese character spans three ids.
    """
    string("text", text)
    encode(text)  # same checks as encode
    pieces: list[tuple[str, int, int]] = []
    for ch in text:
        n = len(ch.encode("utf-8"))
        pieces.extend((ch, k, n) for k in range(1, n + 1))
    return pieces


def text_token_labels(text: str) -> list[str]:
    """Row labels for the ids of ``text``: '0:H' for a one-byte character, '3:你 (1/3)' for each byte of a longer one.

    Unlike ``token_labels`` this knows the text, so a byte of a multi-byte character is labelled by its character.
    """
    labels = []
    for t, ((ch, k, n), token_id) in enumerate(zip(byte_pieces(text), encode(text))):
        labels.append(f"{t}:{token_label(token_id)}" if n == 1 else f"{t}:{ch} ({k}/{n})")
    return labels
