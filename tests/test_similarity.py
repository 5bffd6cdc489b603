"""Similarity: cosine / distance matrices against naive loops, one-hot geometry, adjacent rows, PCA vs eigh."""
from __future__ import annotations

import math

import numpy as np
import pytest

from embedviz import similarity
from embedviz.positions.sinusoidal import sinusoidal_table
from tests.input_errors import raises_input


def naive_cos(u, v) -> float:
    dot = sum(a * b for a, b in zip(u, v))
    nu, nv = math.sqrt(sum(a * a for a in u)), math.sqrt(sum(b * b for b in v))
    return dot / (nu * nv)


def test_cosine_matrix_matches_naive_loop():
    rng = np.random.default_rng(0)
    X, Y = rng.normal(size=(6, 5)), rng.normal(size=(4, 5))
    S = similarity.cosine_similarity_matrix(X)
    assert S.shape == (6, 6)
    for i in range(6):
        for j in range(6):
            assert math.isclose(S[i, j], naive_cos(X[i], X[j]), abs_tol=1e-12)
    SY = similarity.cosine_similarity_matrix(X, Y)
    assert SY.shape == (6, 4)
    assert all(math.isclose(SY[i, j], naive_cos(X[i], Y[j]), abs_tol=1e-12) for i in range(6) for j in range(4))
    assert math.isclose(similarity.cosine_similarity(X[0], Y[1]), naive_cos(X[0], Y[1]), abs_tol=1e-12)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_cosine_to_rows_matches_naive_loop_and_scores_a_zero_row_0(dtype):
    rng = np.random.default_rng(3)
    table, query = rng.normal(size=(9, 7)).astype(dtype), rng.normal(size=7)
    table[4] = 0.0  # a zero row has no direction: it scores 0, not NaN
    got = similarity.cosine_to_rows(table, query)
    expected = [0.0 if i == 4 else naive_cos(row, query) for i, row in enumerate(table.astype(np.float64))]
    np.testing.assert_allclose(got, expected, atol=1e-6 if dtype == np.float32 else 1e-12)
    with raises_input("zero_vector"):
        similarity.cosine_to_rows(table, np.zeros(7))


def test_cosine_properties():
    X = np.random.default_rng(1).normal(size=(20, 8))
    S = similarity.cosine_similarity_matrix(X)
    assert np.allclose(np.diag(S), 1.0)
    assert np.allclose(S, S.T)
    assert S.min() >= -1.0 and S.max() <= 1.0
    # scale-invariant: cos ignores lengths
    assert np.allclose(similarity.cosine_similarity_matrix(X * np.arange(1, 21)[:, None]), S)
    # a zero row has similarity 0 to everything instead of NaN
    Z = np.vstack([X[:2], np.zeros(8)])
    assert np.all(similarity.cosine_similarity_matrix(Z)[2] == 0)


def test_one_hot_rows_are_all_sqrt_2_apart():
    E = np.eye(256)  # lesson 000's byte vocabulary as one-hot vectors
    D = similarity.distance_matrix(E)
    off = ~np.eye(256, dtype=bool)
    assert np.allclose(D[off], math.sqrt(2), rtol=0, atol=1e-12)
    assert np.all(np.diag(D) == 0)
    # and orthogonal: cosine 0 between every two different tokens
    assert np.allclose(similarity.cosine_similarity_matrix(E)[off], 0.0)


def test_distance_matrix_matches_naive_loop():
    X = np.random.default_rng(2).normal(size=(7, 3)) * 100
    D = similarity.distance_matrix(X)
    for i in range(7):
        for j in range(7):
            assert math.isclose(D[i, j], math.dist(X[i], X[j]), rel_tol=1e-9, abs_tol=1e-9)


def test_adjacent_similarity_and_paired_cosine():
    X = np.random.default_rng(3).normal(size=(10, 4))
    adj = similarity.adjacent_similarity(X)
    assert adj.shape == (9,)
    assert np.allclose(adj, [naive_cos(X[t], X[t + 1]) for t in range(9)])
    assert np.allclose(similarity.paired_cosine(X[:-1], X[1:]), adj)


def test_sinusoidal_adjacent_similarity_is_the_same_at_every_position():
    # every pair contributes cos(w_i) to PE(p).PE(p+1), whatever p: the curve is flat at mean_i cos(w_i)
    D = 64
    adj = similarity.adjacent_similarity(sinusoidal_table(500, D))
    w = [10_000 ** (-(2 * i) / D) for i in range(D // 2)]
    assert np.allclose(adj, sum(math.cos(x) for x in w) / (D // 2), atol=1e-5)


def naive_pca_axes(X):
    """Top-2 eigenvectors of the sample covariance, columns (D, 2)."""
    Xc = X - X.mean(axis=0)
    cov = Xc.T @ Xc / (len(X) - 1)
    vals, vecs = np.linalg.eigh(cov)
    return vecs[:, np.argsort(vals)[::-1][:2]]


def test_pca_2d_matches_covariance_eigendecomposition_up_to_sign():
    rng = np.random.default_rng(4)
    X = rng.normal(size=(50, 6)) * np.array([5.0, 3.0, 1.0, 0.5, 0.2, 0.1])  # distinct variances
    got, ref = similarity.pca_2d(X), (X - X.mean(axis=0)) @ naive_pca_axes(X)
    assert got.shape == (50, 2)
    for c in range(2):
        sign = np.sign(got[:, c] @ ref[:, c])
        assert np.allclose(got[:, c], sign * ref[:, c], atol=1e-9)


def test_pca_2d_basis_from():
    rng = np.random.default_rng(5)
    fit = rng.normal(size=(40, 5)) * np.array([4.0, 2.0, 1.0, 1.0, 1.0])
    X = rng.normal(size=(3, 5))
    got = similarity.pca_2d(X, basis_from=fit)
    ref = (X - fit.mean(axis=0)) @ naive_pca_axes(fit)  # axes and centre both come from `fit`
    assert np.allclose(np.abs(got), np.abs(ref), atol=1e-9)


def test_pca_2d_signs_do_not_depend_on_row_order():
    fit = np.random.default_rng(6).normal(size=(30, 4)) * np.array([3.0, 2.0, 1.0, 0.5])
    a, b = similarity.pca_2d(fit), similarity.pca_2d(fit[::-1])
    assert np.allclose(a[::-1], b, atol=1e-9)  # same axes, same signs: the picture does not flip


def test_pca_2d_one_column_is_padded():
    out = similarity.pca_2d(np.arange(5.0)[:, None])
    assert out.shape == (5, 2) and np.all(out[:, 1] == 0)


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: similarity.cosine_similarity_matrix(np.ones(3)), r"X must be a 2-D \(N, D\) array, got shape \(3,\)"),
        (lambda: similarity.cosine_similarity_matrix(np.ones((2, 3)), np.ones((2, 4))), r"must have the same width"),
        (lambda: similarity.adjacent_similarity(np.ones((1, 4))), r"table needs at least 2 rows, got 1"),
        (lambda: similarity.adjacent_similarity(np.ones(4)), r"table must be a 2-D \(N, D\) array"),
        (lambda: similarity.paired_cosine(np.ones((2, 3)), np.ones((3, 3))), r"A \(2, 3\) and B \(3, 3\) must have"),
        (lambda: similarity.distance_matrix(np.ones((2, 2, 2))), r"X must be a 2-D \(N, D\) array"),
        (lambda: similarity.pca_2d(np.ones((1, 3))), r"PCA needs at least 2 rows, got 1"),
        (lambda: similarity.pca_2d(np.ones((3, 3)), basis_from=np.ones(3)), r"basis_from must be a 2-D"),
    ],
)
def test_validation_messages(call, message):
    # arrays the app builds itself: a caller's slip, in plain English
    with pytest.raises(ValueError, match=message):
        call()


@pytest.mark.parametrize(
    ("call", "code", "params"),
    [
        (lambda: similarity.cosine_similarity_matrix([[1.0, np.nan]]), "non_finite", {"name": "X"}),
        (lambda: similarity.cosine_similarity_matrix([["a", "b"]]), "numeric_array", {"name": "X"}),
    ],
)
def test_input_errors(call, code, params):
    with raises_input(code, **params):
        call()


def test_cosine_to_rows_keeps_norms_only_for_tables_that_cannot_change():
    from embedviz.similarity import cosine_to_rows

    def naive(table, vector):
        out = []
        for row in table:
            dot = sum(float(a) * float(b) for a, b in zip(row, vector))
            out.append(dot / (np.linalg.norm(row) * np.linalg.norm(vector)))
        return np.array(out)

    rng = np.random.default_rng(0)
    table = rng.standard_normal((6, 4)).astype(np.float32)
    query = rng.standard_normal(4)
    frozen = table.copy()
    frozen.setflags(write=False)
    assert np.allclose(cosine_to_rows(frozen, query), naive(frozen, query), atol=1e-6)
    assert np.allclose(cosine_to_rows(frozen, query), naive(frozen, query), atol=1e-6)  # from the kept norms
    view = table.view()
    view.setflags(write=False)  # read-only, but what it views can still change
    cosine_to_rows(view, query)
    table[1] *= 5.0
    table[2] = rng.standard_normal(4)
    assert np.allclose(cosine_to_rows(view, query), naive(table, query), atol=1e-6)
    cosine_to_rows(table, query)
    table[3] = -table[3] * 2
    assert np.allclose(cosine_to_rows(table, query), naive(table, query), atol=1e-6)
