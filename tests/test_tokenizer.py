"""Byte-level tokenizer: ids are the UTF-8 bytes (lesson 001), so every language round-trips with a 256-id vocabulary."""
from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from embedviz.tokens.tokenizer import (
    VOCAB_SIZE,
    byte_pieces,
    decode,
    encode,
    text_token_labels,
    token_label,
    token_labels,
)
from tests.input_errors import raises_input

# any text made of real characters (lone surrogates are not characters and have no UTF-8 form)
TEXT = st.text(alphabet=st.characters(exclude_categories=("Cs",)), max_size=40)


def test_hello_is_the_texts_ids():
    # lesson 001: token_ids: [72, 101, 108, 108, 111]  ('H','e','l','l','o')
    assert encode("Hello") == [72, 101, 108, 108, 111]
    assert VOCAB_SIZE == 256


def test_chinese_round_trips_as_three_bytes_per_character():
    text = "你好，世界"
    ids = encode(text)
    assert ids[:3] == [0xE4, 0xBD, 0xA0]  # 你 is U+4F60 -> UTF-8 E4 BD A0
    assert len(ids) == 3 * len(text)
    assert decode(ids) == text


@given(TEXT)
def test_any_text_round_trips(text):
    ids = encode(text)
    assert all(0 <= i < VOCAB_SIZE for i in ids)
    assert decode(ids) == text
    assert len(ids) == len(text.encode("utf-8"))


@given(TEXT)
def test_byte_pieces_cover_every_id_and_rebuild_the_text(text):
    pieces = byte_pieces(text)
    assert len(pieces) == len(encode(text))
    # the first byte of each character, in order, spells the text again
    assert "".join(ch for ch, k, _ in pieces if k == 1) == text
    assert all(1 <= k <= n <= 4 for _, k, n in pieces)


def test_invalid_utf8_becomes_replacement_character():
    assert decode([0xE4, 0xBD]) == "\ufffd"  # a Chinese character cut after 2 of its 3 bytes


def test_labels_are_readable_and_unique():
    assert token_label(72) == "H"
    assert token_label(32) == "<space>"
    # every label is printable ASCII or the text's own character: no symbol a font may lack (an empty box)
    assert all(token_label(i).isascii() and token_label(i).isprintable() and token_label(i).strip()
               for i in range(256))
    assert token_label(0xE4) == "<e4>"
    labels = token_labels(encode("Hello"))
    assert labels == ["0:H", "1:e", "2:l", "3:l", "4:o"]
    assert len(set(labels)) == len(labels)


def test_text_labels_name_the_character_of_each_byte():
    assert text_token_labels("a你") == ["0:a", "1:你 (1/3)", "2:你 (2/3)", "3:你 (3/3)"]
    assert text_token_labels("a b") == ["0:a", "1:<space>", "2:b"]


def test_validation_messages():
    with raises_input("string", name="text", kind="int"):
        encode(42)
    with raises_input("lone_surrogate", codepoint=0xD800, index=1) as info:
        encode("a\ud800")
    assert info.value.fields()["codepoint"] == "D800"  # written as U+D800 in either language
    with raises_input("token_id", value=256, limit=256):
        decode([72, 256])
    with raises_input("token_id", value=-1, limit=256):
        decode([-1])
    with raises_input("integer", name="token id", value=1.5, kind="float"):
        decode([1.5])
    with raises_input("integer", name="token id", value=True, kind="bool"):
        decode([True])
    with raises_input("string", name="text"):
        byte_pieces(None)
