"""embedviz.input_layer.composition: the lesson's shape contract checked against torch's own broadcasting and concatenation."""
from __future__ import annotations

import pytest
import torch

from embedviz.input_layer import composition
from embedviz.input_layer.embeddings import EmbeddingComposer, SinusoidalPositionalEmbedding, TokenEmbedding
from tests.input_errors import raises_input


@pytest.mark.parametrize(("B", "T", "D"), [(1, 1, 2), (2, 5, 8), (4, 16, 64), (3, 512, 6)])
def test_shape_trace_matches_torch_broadcasting(B, T, D):
    trace = composition.shape_trace(B, T, D)
    shapes = dict(trace.shapes)
    assert shapes["ids"] == (B, T)
    assert shapes["token_vectors"] == (B, T, D)
    assert shapes["positions"] == (T, D)
    assert shapes["broadcast"] == (1, T, D)
    assert shapes["sum"] == trace.sum_shape == tuple(torch.broadcast_shapes((B, T, D), (1, T, D)))
    assert trace.concat_shape == (B, T, 2 * D)
    wide = composition.shape_trace(B, T, D, d_position=3)
    assert wide.concat_shape == tuple(torch.cat([torch.zeros(B, T, D), torch.zeros(B, T, 3)], dim=-1).shape)


def test_every_sequence_in_the_batch_gets_the_same_position_vectors():
    # independent of shape_trace: the lesson's composer, a batch of identical ids, compared row by row
    torch.manual_seed(0)
    composer = EmbeddingComposer(TokenEmbedding(256, 8), SinusoidalPositionalEmbedding(32, 8))
    ids = torch.tensor([[1, 2, 3]] * 4)  # (4, 3): four copies of one sequence
    with torch.no_grad():
        out = composer(ids)
    for b in range(1, 4):
        assert torch.equal(out[b], out[0])


def test_sum_keeps_width_concat_widens_it():
    s = composition.width_and_params(8_449, 1_024, 768, 768, combine="sum")
    assert s == composition.CombineCost(token_table=6_488_832, position_table=786_432, width=768,
                                        attention_per_layer=4 * 768 * 768)  # lesson 002's ANDREA tables
    c = composition.width_and_params(8_449, 1_024, 768, 768, combine="concat")
    assert c.width == 1_536 and c.attention_per_layer == 4 * s.attention_per_layer
    small = composition.width_and_params(256, 512, 64, 16, combine="concat")
    assert small.width == 80 and small.position_table == 512 * 16
    q = torch.nn.Linear(80, 80, bias=False)  # torch's count of one width x width projection
    assert small.attention_per_layer == 4 * sum(p.numel() for p in q.parameters())


def test_both_lesson_modules_refuse_past_their_length():
    messages = composition.refusal_messages(16, 20)
    for name in ("LearnedPositionalEmbedding", "SinusoidalPositionalEmbedding"):
        assert (messages[name].code, messages[name].params) == ("too_long", {"context_length": 20, "limit": 16})
    assert composition.refusal_messages(16, 16) == {"LearnedPositionalEmbedding": None,
                                                    "SinusoidalPositionalEmbedding": None}
    with raises_input("too_long", context_length=5, limit=4):
        composition.shape_trace(1, 5, 8, max_context_length=4)


@pytest.mark.parametrize(
    ("call", "code", "params"),
    [
        (lambda: composition.width_and_params(10, 10, 8, 8, combine="stack"), "one_of",
         {"name": "combine", "value": "stack"}),
        (lambda: composition.shape_trace(0, 4, 8), "at_least", {"name": "batch", "value": 0, "limit": 1}),
        (lambda: composition.shape_trace(1000, 512, 64), "shape_cap", {"n": 1000 * 512 * 64, "limit": 2_097_152}),
        (lambda: composition.shape_trace(1, 4, 8, positional="rope"), "one_of", {"name": "positional", "value": "rope"}),
    ],
)
def test_errors_name_the_parameter(call, code, params):
    with raises_input(code, **params):
        call()


def test_unequal_widths_cannot_be_summed():
    # the page offers the sum only for equal widths: a caller's slip, in plain English
    with pytest.raises(ValueError, match=r"d_position \(4\) must equal d_token \(8\)"):
        composition.width_and_params(10, 10, 8, 4, combine="sum")
