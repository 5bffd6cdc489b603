"""The input layer of lesson 000: token lookup + position lookup, summed, checked against torch and naive loops."""
from __future__ import annotations

import math

import numpy as np
import pytest
import torch
from torch import nn

from embedviz.input_layer.embeddings import (
    EmbeddingComposer,
    LearnedPositionalEmbedding,
    SinusoidalPositionalEmbedding,
    TokenEmbedding,
    embed_text,
)
from embedviz.tokens.tokenizer import encode
from tests.input_errors import raises_input


def _gen(seed: int = 0) -> torch.Generator:
    return torch.Generator().manual_seed(seed)


def _num_params(module: nn.Module) -> int:
    return sum(p.numel() for p in module.parameters())


# token embedding


def test_forward_is_torch_embedding_and_one_hot_matmul():
    emb = TokenEmbedding(50, 6, generator=_gen())
    ids = torch.tensor([[1, 7, 7, 49], [0, 3, 2, 1]])  # (B, T) = (2, 4)
    out = emb(ids)
    assert out.shape == (2, 4, 6)  # (B, T) -> (B, T, D)
    reference = nn.functional.embedding(ids, emb.weight)
    assert torch.equal(out, reference)
    one_hot = nn.functional.one_hot(ids, num_classes=50).float()  # (B, T, V)
    assert torch.allclose(out, one_hot @ emb.weight, atol=0.0, rtol=0.0)


def test_forward_accepts_lists_and_numpy_and_keeps_any_leading_shape():
    emb = TokenEmbedding(256, 4, generator=_gen())
    hello = encode("Hello")
    assert emb(hello).shape == (5, 4)
    assert torch.equal(emb(np.array([hello])), emb(torch.tensor([hello])))
    # rows 3 and 4 of 'Hello' are both 'l' (108): the same row twice
    assert torch.equal(emb(hello)[2], emb(hello)[3])


@pytest.mark.parametrize("bad", [256, 300, -1])
def test_out_of_range_id_names_the_id_and_vocab_size(bad):
    emb = TokenEmbedding(256, 4)
    with raises_input("token_id", value=bad, limit=256):
        emb(torch.tensor([[72, bad]]))


def test_non_integer_ids_are_refused():
    emb = TokenEmbedding(10, 4)
    with pytest.raises(ValueError, match=r"token ids must be an integer tensor, got dtype torch.float32"):
        emb(torch.tensor([1.0, 2.0]))
    with pytest.raises(ValueError, match=r"token ids must be an integer tensor, got dtype torch.bool"):
        emb(torch.tensor([True]))
    with pytest.raises(ValueError, match=r"token ids must be integers"):
        emb([["a"]])


def test_init_std_is_about_0_02():
    emb = TokenEmbedding(4_096, 64, generator=_gen(1))  # 262,144 draws: the sample std is within ~0.02%
    w = emb.weight.detach().double()
    assert abs(float(w.std()) - 0.02) < 0.02 * 0.01
    assert abs(float(w.mean())) < 0.02 * 0.01


def test_init_std_can_be_one_over_sqrt_d_model():
    d = 256
    emb = TokenEmbedding(1_024, d, init_std=d**-0.5, generator=_gen(2))
    w = emb.weight.detach().double()
    assert abs(float(w.std()) - 1 / math.sqrt(d)) < 0.01 / math.sqrt(d)
    # rows then have length about 1 (sum of D squares of N(0, 1/D))
    assert abs(float(w.norm(dim=1).mean()) - 1.0) < 0.02


def test_generator_makes_the_table_reproducible():
    a = TokenEmbedding(20, 3, generator=_gen(7)).weight
    b = TokenEmbedding(20, 3, generator=_gen(7)).weight
    c = TokenEmbedding(20, 3, generator=_gen(8)).weight
    assert torch.equal(a, b) and not torch.equal(a, c)


def test_constructor_messages():
    with raises_input("at_least", name="vocab_size", value=0, limit=1):
        TokenEmbedding(0, 4)
    with raises_input("integer", name="d_model", value=2.5):
        TokenEmbedding(10, 2.5)
    with raises_input("above", name="init_std", value=0, limit=0):
        TokenEmbedding(10, 4, init_std=0.0)


# gradients: only the rows used, unless tied


def test_gradient_reaches_only_the_rows_used_when_untied():
    torch.manual_seed(0)
    emb = TokenEmbedding(256, 8)
    head = nn.Linear(8, 256, bias=False)  # a separate output matrix
    ids = torch.tensor([encode("Hello")])  # (1, 5)
    logits = head(emb(ids[:, :-1]))  # predict the next byte
    nn.functional.cross_entropy(logits.reshape(-1, 256), ids[:, 1:].reshape(-1)).backward()
    touched = set(torch.nonzero(emb.weight.grad.abs().sum(dim=1)).flatten().tolist())
    assert touched == {72, 101, 108}  # 'H', 'e', 'l': the looked-up rows; 'o' is only a target


def test_gradient_reaches_every_row_when_tied_to_the_output_head():
    torch.manual_seed(0)
    emb = TokenEmbedding(256, 8)
    ids = torch.tensor([encode("Hello")])
    logits = emb(ids[:, :-1]) @ emb.weight.T  # the output head is the same (V, D) matrix
    nn.functional.cross_entropy(logits.reshape(-1, 256), ids[:, 1:].reshape(-1)).backward()
    assert bool((emb.weight.grad.abs().sum(dim=1) > 0).all())


# positional embeddings


def _naive_sinusoidal(L: int, D: int, base: float = 10_000.0) -> np.ndarray:
    """Lesson 000's formula, one entry at a time."""
    out = np.zeros((L, D))
    for p in range(L):
        for i in range(D):
            angle = p / (base ** (2 * (i // 2) / D))
            out[p, i] = math.sin(angle) if i % 2 == 0 else math.cos(angle)
    return out


def test_sinusoidal_has_no_parameters_and_follows_the_formula():
    pe = SinusoidalPositionalEmbedding(64, 16)
    assert _num_params(pe) == 0
    assert "table" in dict(pe.named_buffers())
    np.testing.assert_allclose(pe(64).numpy(), _naive_sinusoidal(64, 16), atol=1e-6)
    # lesson 002 / SEED_FACTS: D=8, p=1 -> [0.84, 0.54, 0.1, 1.0, 0.01, 1.0, 0.0, 1.0]
    np.testing.assert_allclose(
        SinusoidalPositionalEmbedding(2, 8)(2)[1].numpy(), [0.84, 0.54, 0.1, 1.0, 0.01, 1.0, 0.0, 1.0], atol=0.005
    )


def test_learned_has_L_times_D_parameters():
    pe = LearnedPositionalEmbedding(1_024, 768)
    assert _num_params(pe) == 1_024 * 768 == 786_432  # lesson 002's ANDREA-120M position table
    assert pe(10).shape == (10, 768)
    assert torch.equal(pe(10), pe.weight[:10])


@pytest.mark.parametrize("cls", [LearnedPositionalEmbedding, SinusoidalPositionalEmbedding])
def test_longer_than_max_context_length_raises_naming_both(cls):
    pe = cls(16, 8)
    assert pe(16).shape == (16, 8)
    with raises_input("too_long", context_length=17, limit=16):
        pe(17)
    with raises_input("at_least", name="context_length", value=-1, limit=0):
        pe(-1)  # would otherwise slice 15 rows off the end of the table
    with raises_input("integer", name="context_length", value=2.0):
        pe(2.0)


# composer


@pytest.mark.parametrize("positional", ["learned", "sinusoidal", None])
def test_composer_broadcasts_positions_over_the_batch(positional):
    V, D, L = 40, 6, 12
    tok = TokenEmbedding(V, D, generator=_gen(3))
    pos = {
        "learned": LearnedPositionalEmbedding(L, D, generator=_gen(4)),
        "sinusoidal": SinusoidalPositionalEmbedding(L, D),
        None: None,
    }[positional]
    ids = torch.randint(0, V, (3, 9), generator=_gen(5))  # (B, T) = (3, 9)
    out = EmbeddingComposer(tok, pos)(ids)
    assert out.shape == (3, 9, D)
    expected = torch.zeros(3, 9, D)
    for b in range(3):
        for t in range(9):
            expected[b, t] = tok.weight[ids[b, t]] + (0 if pos is None else pos(9)[t])
    assert torch.equal(out, expected)


def test_composer_messages():
    tok = TokenEmbedding(10, 4)
    with pytest.raises(ValueError, match=r"positional d_model \(6\) must equal token d_model \(4\)"):
        EmbeddingComposer(tok, LearnedPositionalEmbedding(8, 6))
    comp = EmbeddingComposer(tok, SinusoidalPositionalEmbedding(8, 4))
    with pytest.raises(ValueError, match=r"ids must have shape \(B, T\), got \(3,\)"):
        comp(torch.tensor([1, 2, 3]))
    with raises_input("too_long", context_length=9, limit=8):
        comp(torch.zeros(1, 9, dtype=torch.long))
    with raises_input("token_id", value=10, limit=10):
        comp(torch.tensor([[10]]))


def test_embed_text_is_tokens_plus_sinusoidal_positions():
    ids, tok, pos, inputs = embed_text("Hello", d_model=8, seed=3)
    assert ids.tolist() == [72, 101, 108, 108, 111]
    assert tok.shape == pos.shape == inputs.shape == (5, 8)
    np.testing.assert_allclose(pos, _naive_sinusoidal(5, 8), atol=1e-6)
    np.testing.assert_array_equal(inputs, tok + pos)
    np.testing.assert_array_equal(tok[2], tok[3])  # the two 'l's share a row
    again = embed_text("Hello", d_model=8, seed=3)[1]
    np.testing.assert_array_equal(tok, again)
    with raises_input("empty_text"):
        embed_text("")
