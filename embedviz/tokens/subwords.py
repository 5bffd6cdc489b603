"""Lesson 003: a large model's vocabulary holds subwords, not words. A rare word is split into pieces, each with its
own row of the embedding table; the word's meaning is assembled by the layers above.

The lesson's example is "unbelief" -> "un" + "belief" (a BPE vocabulary). The bundled all-MiniLM-L6-v2 uses a
WordPiece vocabulary of 30,522 entries and splits words its own way ("##" marks a piece that continues a word).
"""
from __future__ import annotations

from embedviz._validate import string


def word_pieces(tokenizer, word: str) -> list[tuple[str, int]]:
    """The pieces a `tokenizers.Tokenizer` cuts ``word`` into, with their ids (no special tokens)."""
    string("word", word, limit=100, blank=False)
    encoding = tokenizer.encode(word.strip(), add_special_tokens=False)
    return list(zip(encoding.tokens, (int(i) for i in encoding.ids)))
