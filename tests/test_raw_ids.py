"""embedviz.tokens.raw_ids, embedviz.tokens.subwords and embedviz.positions.budget against ord(), the bundled vocabulary, the
presets and lesson 003's numbers."""
from __future__ import annotations

import numpy as np
import pytest

from embedviz.positions import budget as position_budget
from embedviz.tokens import raw_ids, subwords
from tests.input_errors import raises_input


def test_byte_ids_are_the_character_codes():
    rows = raw_ids.byte_id_neighbours("B", span=1)
    assert [i for i, _ in rows] == [ord("A"), ord("B"), ord("C")] == [65, 66, 67]  # lesson 001: 'A' 65, 'B' 66
    assert raw_ids.byte_id_neighbours("\x00", span=2)[0][0] == 0  # clipped at the start of the vocabulary
    with raises_input("char_bytes", char="你", n=3):
        raw_ids.byte_id_neighbours("你")


def test_id_neighbours_and_rank_against_a_plain_loop():
    rng = np.random.default_rng(0)
    table = rng.normal(size=(50, 6))
    rows = raw_ids.id_neighbours(table, 10, span=2)
    assert [i for i, _ in rows] == [8, 9, 10, 11, 12]
    for i, c in rows:
        a, b = table[10], table[i]
        assert c == pytest.approx(a @ b / np.linalg.norm(a) / np.linalg.norm(b))
    cos = [table[10] @ table[j] / np.linalg.norm(table[10]) / np.linalg.norm(table[j]) for j in range(50)]
    order = [j for j in sorted(range(50), key=lambda j: -cos[j]) if j != 10]
    for j in (0, 11, 49):
        assert raw_ids.cosine_rank(table, 10, j) == order.index(j) + 1


def test_king_and_queen_are_far_apart_in_id_and_close_in_direction(minilm):
    king, queen = minilm.token_id("king"), minilm.token_id("queen")
    assert abs(king - queen) > 100
    rows = dict(raw_ids.id_neighbours(minilm.token_embeddings, king, span=3))
    neighbours_by_id = [c for i, c in rows.items() if i != king]
    assert max(neighbours_by_id) < 0.3  # the ids next to king are unrelated words
    assert raw_ids.cosine_rank(minilm.token_embeddings, king, queen) <= 10


def test_word_pieces_of_the_bundled_wordpiece_vocabulary(minilm):
    pieces = subwords.word_pieces(minilm.tokenizer, "unbelief")
    assert [p for p, _ in pieces] == ["un", "##bel", "##ie", "##f"]  # not the lesson's BPE split un + belief
    assert [i for _, i in pieces] == [minilm.tokenizer.token_to_id(p) for p, _ in pieces]
    assert [p for p, _ in subwords.word_pieces(minilm.tokenizer, "tokenization")] == ["token", "##ization"]
    with raises_input("non_empty", name="word", value=" "):
        subwords.word_pieces(minilm.tokenizer, " ")


def test_qwen3_position_budget_is_lesson_003s():
    b = position_budget.qwen3_position_budget()
    assert b.max_position_embeddings == 40_960  # lesson 003's printout
    assert b.native == 32_768  # "32K native"
    assert b.headroom == 40_960 - 32_768 == 8_192
    assert b.yarn_reach == 131_072 and b.rope_theta == 1_000_000
