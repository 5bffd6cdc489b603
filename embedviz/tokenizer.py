"""Byte-level tokenizer: text <-> ids 0..255 (the UTF-8 bytes), as in text 001.

A byte vocabulary needs no training and covers every language: 'Hello' -> [72, 101, 108, 108, 111], and a Chinese
character becomes three ids (its three UTF-8 bytes).
"""
from __future__ import annotations

VOCAB_SIZE = 256


def encode(text: str) -> list[int]:
    """Text -> byte ids, one per UTF-8 byte."""
    if not isinstance(text, str):
        raise ValueError(f"text must be a string, got {type(text).__name__}")
    return list(text.encode("utf-8"))


def decode(ids) -> str:
    """Byte ids -> text; bytes that do not form valid UTF-8 become U+FFFD."""
    ids = [int(i) for i in ids]
    bad = [i for i in ids if not 0 <= i < VOCAB_SIZE]
    if bad:
        raise ValueError(f"token id ({bad[0]}) must be in [0, {VOCAB_SIZE})")
    return bytes(ids).decode("utf-8", errors="replace")


def token_label(token_id: int) -> str:
    """A readable label for one byte id: the character for printable ASCII, else the byte in hex (<e7>)."""
    if 33 <= token_id < 127:
        return chr(token_id)
    if token_id == 32:
        return "␠"
    return f"<{token_id:02x}>"


def token_labels(ids) -> list[str]:
    """Labels for a sequence of byte ids, made unique by position so they can label heatmap rows."""
    return [f"{t}:{token_label(int(i))}" for t, i in enumerate(ids)]
