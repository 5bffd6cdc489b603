"""Attention without positions is permutation-equivariant (lesson 003); with positions added it is not."""
from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from embedviz.positions.attention import (
    MAX_TOKENS,
    learned_position_table,
    permutation_between,
    permutation_demo,
    position_table,
    random_permutation,
    random_projections,
    reverse_permutation,
    self_attention,
    softmax,
    split_tokens,
    text003_setup,
    token_vectors,
    word_order_demo,
)
from embedviz.positions.sinusoidal import sinusoidal_table
from tests.input_errors import raises_input

TEXT_PERM = [2, 0, 3, 1]


def naive_attention(x, Wq, Wk, Wv):
    """Plain python loops over tokens: softmax(q_i . k_j / sqrt(d)) weighted sum of v_j."""
    T, d = len(x), len(x[0])

    def matvec(row, W):
        return [sum(row[a] * W[a][b] for a in range(d)) for b in range(d)]

    q = [matvec(r, Wq) for r in x]
    k = [matvec(r, Wk) for r in x]
    v = [matvec(r, Wv) for r in x]
    out = []
    for i in range(T):
        scores = [sum(q[i][c] * k[j][c] for c in range(d)) / math.sqrt(d) for j in range(T)]
        m = max(scores)
        e = [math.exp(s - m) for s in scores]
        z = sum(e)
        out.append([sum(e[j] / z * v[j][c] for j in range(T)) for c in range(d)])
    return np.array(out)


def text003_literal():
    """Lesson 003's experiment, line for line."""
    rng = np.random.default_rng(0)
    d = 8
    Wq, Wk, Wv = (rng.normal(size=(d, d)) for _ in range(3))

    def attention(x):
        q, k, v = x @ Wq, x @ Wk, x @ Wv
        scores = q @ k.T / np.sqrt(d)
        scores = np.exp(scores - scores.max(axis=-1, keepdims=True))
        weights = scores / scores.sum(axis=-1, keepdims=True)
        return weights @ v

    x = rng.normal(size=(4, d))
    out1 = attention(x)
    out2 = attention(x[TEXT_PERM])
    return x, (Wq, Wk, Wv), out1, out2


# lesson 003's exact setup


def test_text003_setup_draws_matrices_then_x_from_one_rng():
    x_text, W_text, _, _ = text003_literal()
    x, W = text003_setup()
    assert x.shape == (4, 8)
    np.testing.assert_array_equal(x, x_text)
    for a, b in zip(W, W_text):
        np.testing.assert_array_equal(a, b)
    # a continuing generator is what makes this work: a fresh default_rng(0) gives the matrices but another x
    rng = np.random.default_rng(0)
    W_again = random_projections(8, rng=rng)
    np.testing.assert_array_equal(rng.normal(size=(4, 8)), x_text)
    np.testing.assert_array_equal(W_again[2], random_projections(8, seed=0)[2])


def test_text003_permutation_equivariance():
    # rng default_rng(0), d=8, Wq Wk Wv then x (4, 8), perm [2, 0, 3, 1]: the text prints 1.78e-15 (BLAS-dependent)
    x, W, out1, out2 = text003_literal()
    demo = permutation_demo(x, TEXT_PERM, projections=W)
    np.testing.assert_array_equal(demo.outputs, out1)
    np.testing.assert_array_equal(demo.shuffled_outputs, out2)
    assert demo.max_difference < 1e-12
    assert demo.max_difference == np.abs(out1 - out2[np.argsort(TEXT_PERM)]).max()
    np.testing.assert_array_equal(demo.perm, TEXT_PERM)
    assert demo.difference.shape == (4, 8) and demo.difference.max() == demo.max_difference


def test_text003_with_positions_the_difference_is_large():
    x, W, _, _ = text003_literal()
    for pos in (sinusoidal_table(4, 8), learned_position_table(4, 8)):
        assert permutation_demo(x, TEXT_PERM, positions=pos, projections=W).max_difference > 1e-2


def test_self_attention_matches_naive_loops():
    x, W = text003_setup(num_tokens=5, d_model=6, seed=3)
    np.testing.assert_allclose(self_attention(x, *W), naive_attention(x.tolist(), *(w.tolist() for w in W)), atol=1e-12)


def test_softmax_rows_sum_to_one_and_survive_large_scores():
    s = np.array([[1000.0, 1000.0, -1000.0], [0.0, 1.0, 2.0]])
    p = softmax(s)
    np.testing.assert_allclose(p.sum(-1), 1.0)
    np.testing.assert_allclose(p[0], [0.5, 0.5, 0.0])
    np.testing.assert_allclose(p[1], np.exp([0, 1, 2]) / np.exp([0, 1, 2]).sum())


@settings(max_examples=40, deadline=None)
@given(T=st.integers(2, 9), D=st.integers(1, 12), seed=st.integers(0, 2**16))
def test_equivariance_for_any_permutation(T, D, seed):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(T, D))
    perm = rng.permutation(T)
    demo = permutation_demo(x, perm, seed=seed)
    # outputs move with their tokens: attention(x[perm]) == attention(x)[perm]
    np.testing.assert_allclose(demo.shuffled_outputs, demo.outputs[perm], atol=1e-10)
    assert demo.max_difference < 1e-10
    # and the same numbers as the naive loops, with the same matrices
    W = random_projections(D, seed=seed)
    np.testing.assert_allclose(demo.outputs, naive_attention(x.tolist(), *(w.tolist() for w in W)), atol=1e-9)


# the page's sentence experiment


def test_split_tokens_words_chars_and_chinese():
    assert split_tokens("the cat sat on the mat") == ["the", "cat", "sat", "on", "the", "mat"]
    assert split_tokens("狗咬人") == ["狗", "咬", "人"]  # Chinese has no spaces: a word per character
    assert split_tokens("I saw 狗咬人 today") == ["I", "saw", "狗", "咬", "人", "today"]
    assert split_tokens("ab c", mode="chars") == ["a", "b", "c"]
    assert split_tokens("  ") == []


def test_same_token_same_vector_whatever_the_order():
    a = token_vectors(["the", "cat", "the"], 8)
    b = token_vectors(["cat", "the"], 8)
    np.testing.assert_array_equal(a[0], a[2])
    np.testing.assert_array_equal(a[0], b[1])
    np.testing.assert_array_equal(a[1], b[0])
    assert not np.allclose(a[0], a[1])
    assert not np.allclose(token_vectors(["the"], 8, seed=1), a[:1])
    assert token_vectors([], 4).shape == (0, 4)


def test_permutations():
    np.testing.assert_array_equal(reverse_permutation(3), [2, 1, 0])
    for T in (2, 3, 10):
        perm = random_permutation(T, seed=5)
        assert sorted(perm.tolist()) == list(range(T)) and not np.array_equal(perm, np.arange(T))
        np.testing.assert_array_equal(perm, random_permutation(T, seed=5))
    tokens = ["the", "cat", "sat", "on", "the", "mat"]
    shuffled = ["mat", "the", "on", "sat", "cat", "the"]
    perm = permutation_between(tokens, shuffled)
    assert [tokens[j] for j in perm] == shuffled
    np.testing.assert_array_equal(perm, [5, 0, 3, 2, 1, 4])  # repeated "the" keep their order


def test_dog_bites_man_looks_the_same_without_positions():
    plain = word_order_demo("狗咬人", shuffle="typed", shuffled_text="人咬狗")
    assert plain.tokens == ["狗", "咬", "人"] and plain.shuffled_tokens == ["人", "咬", "狗"]
    assert plain.demo.max_difference < 1e-12
    # 人咬狗 is 狗咬人 reversed
    np.testing.assert_array_equal(word_order_demo("狗咬人").demo.perm, [2, 1, 0])
    for kind in ("sinusoidal", "learned"):
        assert word_order_demo("狗咬人", positions=kind).demo.max_difference > 1e-2


@pytest.mark.parametrize("shuffle", ["reverse", "random"])
@pytest.mark.parametrize("split", ["words", "chars"])
def test_word_order_demo_matches_an_independent_run(shuffle, split):
    text = "the cat sat on the mat"
    r = word_order_demo(text, split=split, shuffle=shuffle, seed=2, d_model=6)
    tokens = split_tokens(text, mode=split)
    x = token_vectors(tokens, 6, seed=2)
    W = [w.tolist() for w in random_projections(6, seed=2)]
    np.testing.assert_allclose(r.demo.outputs, naive_attention(x.tolist(), *W), atol=1e-9)
    xs = x[r.demo.perm]
    np.testing.assert_allclose(r.demo.shuffled_outputs, naive_attention(xs.tolist(), *W), atol=1e-9)
    assert r.shuffled_tokens == [tokens[j] for j in r.demo.perm]
    assert r.demo.max_difference < 1e-12


def test_positions_stay_with_the_slot():
    # with positions, slot j holds token perm[j] plus pos[j]; checked against the naive loops
    r = word_order_demo("a b c d", positions="sinusoidal", d_model=4)
    x = token_vectors(["a", "b", "c", "d"], 4)
    pos = sinusoidal_table(4, 4).astype(np.float64)
    W = [w.tolist() for w in random_projections(4, seed=0)]
    np.testing.assert_allclose(r.demo.shuffled_outputs, naive_attention((x[::-1] + pos).tolist(), *W), atol=1e-9)
    assert r.demo.max_difference > 1e-2
    np.testing.assert_array_equal(position_table("learned", 4, 4), learned_position_table(4, 4))
    assert position_table("none", 4, 4) is None


# validation


def test_validation_messages():
    with pytest.raises(ValueError, match=r"perm \(\[0, 0, 1\]\) must be a permutation of 0\.\.2"):
        permutation_demo(np.zeros((3, 2)), [0, 0, 1])
    with pytest.raises(ValueError, match=r"x must have shape \(T, D\), got \(3,\)"):
        permutation_demo(np.zeros(3), [0, 1, 2])
    with pytest.raises(ValueError, match=r"positions must have shape \(3, 2\), got \(3, 3\)"):
        permutation_demo(np.zeros((3, 2)), [0, 1, 2], positions=np.zeros((3, 3)))
    with pytest.raises(ValueError, match=r"projections must be three \(2, 2\) matrices"):
        permutation_demo(np.zeros((3, 2)), [0, 1, 2], projections=[np.eye(3)] * 3)
    with raises_input("non_finite", name="x"):
        permutation_demo(np.full((2, 2), np.nan), [1, 0])
    with raises_input("shuffle_tokens", shuffled="人 咬 猫", original="狗 咬 人"):
        word_order_demo("狗咬人", shuffle="typed", shuffled_text="人咬猫")
    with raises_input("too_few_tokens", n=1):
        word_order_demo("hello")
    with raises_input("too_many_tokens", n=MAX_TOKENS + 1, limit=MAX_TOKENS):
        split_tokens("x " * (MAX_TOKENS + 1))
    with raises_input("one_of", name="mode", value="bytes", allowed="'words', 'chars'"):
        split_tokens("a b", mode="bytes")
    with raises_input("one_of", name="shuffle", value="sort"):
        word_order_demo("a b", shuffle="sort")
    with raises_input("one_of", name="positions", value="rope", allowed="'none', 'sinusoidal', 'learned'"):
        word_order_demo("a b", positions="rope")
    with raises_input("at_least", name="d_model", value=0, limit=1):
        word_order_demo("a b", d_model=0)


def test_logit_scale_is_what_scaling_q_and_k_does_to_their_dot_product():
    # YaRN multiplies cos and sin, so q and k each, by attention_factor: the logit q.k grows by its square
    from embedviz.positions.attention import logit_scale

    q, k = np.random.default_rng(0).normal(size=(2, 64))
    a = 0.1 * math.log(4) + 1  # Qwen3's YaRN factor 4
    assert logit_scale(a) == pytest.approx(((a * q) @ (a * k)) / (q @ k), rel=1e-12)
    assert f"{logit_scale(a):.4f}" == "1.2965"
    with raises_input("above", name="attention_factor", value=0, limit=0):
        logit_scale(0.0)


def naive_causal_attention(x, Wq, Wk, Wv):
    """Plain loops, each token i weighing only keys j <= i (a decoder's mask)."""
    T, d = len(x), len(x[0])
    q, k, v = (np.array([[sum(r[a] * W[a][b] for a in range(d)) for b in range(d)] for r in x]) for W in (Wq, Wk, Wv))
    out = []
    for i in range(T):
        scores = [sum(q[i][c] * k[j][c] for c in range(d)) / math.sqrt(d) for j in range(i + 1)]
        e = [math.exp(s - max(scores)) for s in scores]
        out.append([sum(e[j] / sum(e) * v[j][c] for j in range(i + 1)) for c in range(d)])
    return np.array(out)


def test_causal_attention_against_a_naive_loop():
    x, W = text003_setup(num_tokens=5, d_model=6, seed=4)
    np.testing.assert_allclose(self_attention(x, *W, causal=True), naive_causal_attention(x, *W), atol=1e-12)
    # the first token sees only itself: its output is its own value row
    np.testing.assert_allclose(self_attention(x, *W, causal=True)[0], x[0] @ W[2], atol=1e-12)


def test_causal_mask_breaks_permutation_equivariance_at_the_lessons_setting():
    # lesson 003's own x, Wq, Wk, Wv and perm: 1e-15 without the mask, 6.43 with it
    x, W = text003_setup()
    assert permutation_demo(x, TEXT_PERM, projections=W).max_difference < 1e-12
    masked = permutation_demo(x, TEXT_PERM, projections=W, causal=True)
    assert f"{masked.max_difference:.2f}" == "6.43"
    naive = naive_causal_attention(x[TEXT_PERM], *W)[np.argsort(TEXT_PERM)]
    assert masked.max_difference == pytest.approx(np.abs(naive_causal_attention(x, *W) - naive).max(), abs=1e-12)
