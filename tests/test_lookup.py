"""Row lookup three ways, one-hot vs dense distances, and which rows a backward step reaches (lessons 000-002)."""
from __future__ import annotations

import math

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from embedviz.input_layer.lookup import (
    GPT2_STD,
    INIT_SCHEMES,
    compare_lookups,
    distance_comparison,
    gradient_step,
    init_std,
    init_table,
    one_hot,
    row_norm_stats,
    table_scale,
    unique_in_order,
)
from embedviz.tokens.tokenizer import encode
from tests.input_errors import raises_input

HELLO = encode("Hello")


# the lookup


def test_three_lookups_give_the_same_numbers():
    W = init_table(256, 8, seed=1)
    c = compare_lookups(HELLO, W)
    naive = np.stack([W[i] for i in HELLO])
    reference = torch.nn.Embedding.from_pretrained(torch.from_numpy(W))(torch.tensor(HELLO)).detach().numpy()
    for block in (c.by_index, c.by_one_hot, c.by_nn_embedding):
        assert block.shape == (5, 8)
        np.testing.assert_array_equal(block, naive)
        np.testing.assert_array_equal(block, reference)
    assert c.max_diff_one_hot == 0.0 and c.max_diff_nn_embedding == 0.0
    assert c.ids.tolist() == HELLO


@settings(max_examples=30, deadline=None)
@given(
    st.lists(st.integers(0, 30), min_size=1, max_size=20),
    st.integers(1, 12),
    st.sampled_from(INIT_SCHEMES),
)
def test_one_hot_matmul_copies_rows_exactly(ids, d_model, scheme):
    W = init_table(31, d_model, scheme=scheme)
    c = compare_lookups(ids, W)
    assert c.max_diff_one_hot == 0.0  # a product with exact 0/1 entries only copies floats
    assert c.max_diff_nn_embedding == 0.0


def test_one_hot_matches_torch():
    ids = [3, 0, 3, 255]
    expected = torch.nn.functional.one_hot(torch.tensor(ids), 256).numpy()
    np.testing.assert_array_equal(one_hot(ids, 256), expected)
    assert one_hot(ids, 256).dtype == np.float32


# distances


def test_one_hot_vectors_are_all_sqrt2_apart():
    W = init_table(256, 16, seed=0)
    ids = unique_in_order(encode("Hello, 世界"))
    d = distance_comparison(ids, W)
    n = len(ids)
    off = ~np.eye(n, dtype=bool)
    np.testing.assert_allclose(d.one_hot[off], math.sqrt(2), rtol=0, atol=1e-12)  # lesson 001: ‖e_i − e_j‖ = √2
    np.testing.assert_array_equal(np.diag(d.one_hot), 0.0)
    naive = np.array([[np.linalg.norm(W[i].astype(np.float64) - W[j]) for j in ids] for i in ids])
    np.testing.assert_allclose(d.dense, naive, atol=1e-7)
    assert d.dense[off].std() > 0  # dense distances differ from pair to pair
    assert d.one_hot_range == pytest.approx((math.sqrt(2), math.sqrt(2)), abs=1e-12)
    assert d.dense_range == (d.dense[off].min(), d.dense[off].max())
    assert distance_comparison([72], W).one_hot_range is None  # one token: no pair to measure


def test_unique_in_order_keeps_first_appearance():
    assert unique_in_order(HELLO).tolist() == [72, 101, 108, 111]
    assert unique_in_order([5, 1, 5, 0, 1]).tolist() == [5, 1, 0]


# gradient sparsity


def _softmax(z: np.ndarray) -> np.ndarray:
    z = z - z.max(axis=1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=1, keepdims=True)


def _reference_grad(W: np.ndarray, H: np.ndarray, ids: list[int], tied: bool) -> np.ndarray:
    """dL/dW by hand: L = mean_t CE(softmax(W[x_t] @ H.T), y_t), x = ids[:-1], y = ids[1:]."""
    W, H = W.astype(np.float64), H.astype(np.float64)
    x, y = np.array(ids[:-1]), np.array(ids[1:])
    h = W[x]  # (N, D)
    p = _softmax(h @ H.T)  # (N, V)
    dlogits = p.copy()
    dlogits[np.arange(len(y)), y] -= 1.0
    dlogits /= len(y)
    dh = dlogits @ H  # (N, D)
    grad = np.zeros_like(W)
    for t, v in enumerate(x):  # the lookup scatters each position's gradient into its row
        grad[v] += dh[t]
    if tied:
        grad += dlogits.T @ h  # the head side: every row v gets sum_t dlogits[t, v] h_t
    return grad


def test_untied_gradient_reaches_exactly_the_looked_up_rows():
    W = init_table(256, 8, seed=2)
    H = init_table(256, 8, seed=3)
    step = gradient_step(HELLO, W, head=H)
    assert step.input_ids.tolist() == [72, 101, 108, 108] and step.target_ids.tolist() == [101, 108, 108, 111]
    assert step.rows_with_gradient.tolist() == [72, 101, 108]
    assert step.rows_changed.tolist() == [72, 101, 108]
    expected = np.linalg.norm(_reference_grad(W, H, HELLO, tied=False), axis=1)
    np.testing.assert_allclose(step.row_grad_norm, expected, rtol=1e-4, atol=1e-12)
    assert abs(step.loss - math.log(256)) < 0.01  # tiny logits: the model starts out guessing uniformly


def test_tied_gradient_reaches_every_row():
    W = init_table(256, 8, seed=2)
    step = gradient_step(HELLO, W, tied=True)
    assert step.tied
    assert step.rows_with_gradient.tolist() == list(range(256))
    assert step.rows_changed.tolist() == list(range(256))
    expected = np.linalg.norm(_reference_grad(W, W, HELLO, tied=True), axis=1)
    np.testing.assert_allclose(step.row_grad_norm, expected, rtol=1e-4)
    # rows of the text ('H', 'e', 'l' looked up, 'e', 'l', 'o' as targets) get far more than the rest, which only
    # feel the softmax's small push away from every wrong answer
    seen = [72, 101, 108, 111]
    assert step.row_grad_norm[seen].min() > 10 * np.delete(step.row_grad_norm, seen).max()


def test_chinese_text_touches_its_byte_rows():
    ids = encode("你好")  # e4 bd a0 e5 a5 bd
    step = gradient_step(ids, init_table(256, 8))
    assert step.rows_with_gradient.tolist() == sorted(set(ids[:-1]))


def test_gradient_messages():
    W = init_table(256, 4)
    with raises_input("next_token", n=1):
        gradient_step([72], W)
    with raises_input("boolean", name="tied", value="yes"):
        gradient_step(HELLO, W, tied="yes")
    with pytest.raises(ValueError, match=r"head shape \(256, 3\) must equal weight shape \(256, 4\)"):
        gradient_step(HELLO, W, head=np.zeros((256, 3)))


# initial scale


def test_init_schemes():
    assert init_std(768, "gpt2") == GPT2_STD == 0.02
    assert init_std(768, "inv_sqrt_d") == pytest.approx(1 / math.sqrt(768))
    assert init_std(768, "unit") == 1.0
    W = init_table(1_024, 256, scheme="inv_sqrt_d", seed=4)
    assert W.shape == (1_024, 256) and W.dtype == np.float32
    assert abs(W.std() - 1 / 16) < 0.01 / 16
    np.testing.assert_array_equal(init_table(10, 4, seed=5), init_table(10, 4, seed=5))
    assert not np.array_equal(init_table(10, 4, seed=5), init_table(10, 4, seed=6))


def test_row_lengths_follow_std_times_sqrt_d():
    stats = row_norm_stats([16, 256])
    np.testing.assert_allclose(stats["gpt2"], 0.02 * np.sqrt([16, 256]), rtol=0.05)
    np.testing.assert_allclose(stats["inv_sqrt_d"], 1.0, rtol=0.05)
    np.testing.assert_allclose(stats["unit"], np.sqrt([16, 256]), rtol=0.05)


def test_table_scale_of_a_hand_made_table():
    # entries 3, 4, 0, 0: mean 1.75, population variance (1.5625 + 5.0625 + 3.0625 + 3.0625) / 4 = 3.1875
    std, mean_row_norm = table_scale([[3.0, 4.0], [0.0, 0.0]])
    assert std == pytest.approx(math.sqrt(3.1875)) and mean_row_norm == pytest.approx(2.5)  # rows of length 5 and 0


def test_lookup_messages():
    W = init_table(256, 4)
    with raises_input("token_id", value=256, limit=256):
        compare_lookups([1, 256], W)
    with raises_input("empty_ids"):
        compare_lookups([], W)
    with pytest.raises(ValueError, match=r"ids must be integers, got dtype float64"):
        compare_lookups([1.0], W)
    with pytest.raises(ValueError, match=r"weight must be a non-empty 2-D"):
        compare_lookups([1], np.zeros(4))
    with raises_input("non_finite", name="weight"):
        distance_comparison([1], np.full((4, 2), np.nan))
    with raises_input("one_of", name="scheme", value="xavier", allowed="'gpt2', 'inv_sqrt_d', 'unit'"):
        init_std(8, "xavier")
    with raises_input("at_least", name="seed", value=-1, limit=0):
        init_table(4, 4, seed=-1)


# the untied gradient notice's claim: with Adam's momentum or weight decay, rows outside the batch still move after step 1


def test_second_step_moves_rows_outside_its_batch_only_with_momentum_or_decay():
    from embedviz.input_layer import lookup

    W = lookup.init_table(256, 8, seed=0)
    first, second = [72, 101, 108, 108, 111], [120, 121, 122]  # 'Hello', then 'xyz': no row in common
    inputs1, inputs2 = {72, 101, 108}, {120, 121}  # the looked-up rows (every token but the last), by hand
    rows = {o: set(lookup.second_step_rows(first, second, W, optimizer=o).tolist()) for o in lookup.OPTIMIZERS}
    assert rows["sgd"] == inputs2  # plain SGD: a zero gradient row does not move
    assert rows["adam"] == inputs1 | inputs2  # momentum: step 1's rows keep moving in step 2
    assert rows["adamw"] == set(range(256))  # decoupled decay shrinks every row
    summary = lookup.second_step_summary(first, second, W)
    assert summary == {"sgd": (2, 0), "adam": (5, 3), "adamw": (256, 254)}
    with raises_input("one_of", name="optimizer", value="rmsprop"):
        lookup.second_step_rows(first, second, W, optimizer="rmsprop")

