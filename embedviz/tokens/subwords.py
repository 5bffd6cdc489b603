"""Lesson 003: a large model's vocabulary holds subwords, not words. A rare word is split into pieces, each with its
own row of the embedding table; the word's meaning is assembled by the layers above.

The lesson's example is "unbelief" -> "un" + "belief" (a BPE vocabulary). The bundled all-MiniLM-L6-v2 uses a
WordPiece vocabulary of 30,522 entries and splits words its own way ("##" marks a piece that continues a word).
"""
from __future__ import annotations

from embedviz.errors import InputError


def word_pieces(tokenizer, word: str) -> list[tuple[str, int]]:
    """The pieces a `tokenizers.Tokenizer` cuts ``word`` into, with their ids (no special tokens)."""
    if not isinstance(word, str) or not word.strip():
        raise InputError("non_empty", name="word", value=word)
    if len(word) > 100:
        raise InputError("chars", name="word", n=len(word), limit=100)
    encoding = tokenizer.encode(word.strip(), add_special_tokens=False)
    return list(zip(encoding.tokens, (int(i) for i in encoding.ids)))
