"""Similarity between vectors: cosine matrices, neighbours along a table, distances, and a 2-D projection."""
from __future__ import annotations

import numpy as np

from embedviz._validate import finite_array

_EPS = 1e-12  # keeps a zero vector from dividing by zero; its similarity to anything is then 0


def _table(name: str, X) -> np.ndarray:
    X = finite_array(name, X).astype(np.float64)
    if X.ndim != 2:
        raise ValueError(f"{name} must be a 2-D (N, D) array, got shape {X.shape}")
    return X


def _unit_rows(name: str, X) -> np.ndarray:
    X = _table(name, X)
    return X / np.maximum(np.linalg.norm(X, axis=1, keepdims=True), _EPS)


def normalize_rows(X) -> np.ndarray:
    """Each row divided by its length, shape (N, D)."""
    return _unit_rows("X", X)


def cosine_similarity_matrix(X, Y=None) -> np.ndarray:
    """cos(x_i, y_j) for all rows, shape (N, M) (Y defaults to X): u.v / (|u| |v|), in [-1, 1]."""
    Xn = _unit_rows("X", X)
    Yn = Xn if Y is None else _unit_rows("Y", Y)
    if Xn.shape[1] != Yn.shape[1]:
        raise ValueError(f"X {Xn.shape} and Y {Yn.shape} must have the same width D")
    return np.clip(Xn @ Yn.T, -1.0, 1.0)


def cosine_similarity(u, v) -> float:
    """cos of the angle between two vectors."""
    return float(cosine_similarity_matrix(np.reshape(u, (1, -1)), np.reshape(v, (1, -1)))[0, 0])


def adjacent_similarity(table) -> np.ndarray:
    """cos(row t, row t+1) for t = 0..L-2, shape (L-1,): how smoothly a position table changes."""
    T = _unit_rows("table", table)
    if T.shape[0] < 2:
        raise ValueError(f"table needs at least 2 rows, got {T.shape[0]}")
    return np.clip(np.einsum("ld,ld->l", T[:-1], T[1:]), -1.0, 1.0)  # (L-1,); clip float noise past +-1


def paired_cosine(A, B) -> np.ndarray:
    """cos(a_i, b_i) row by row, shape (N,): e.g. rows p and p + 1 of positions sampled from a long table."""
    An, Bn = _unit_rows("A", A), _unit_rows("B", B)
    if An.shape != Bn.shape:
        raise ValueError(f"A {An.shape} and B {Bn.shape} must have the same shape (N, D)")
    return np.clip(np.einsum("nd,nd->n", An, Bn), -1.0, 1.0)


def distance_matrix(X) -> np.ndarray:
    """Euclidean distance between all rows, shape (N, N). One-hot rows are all sqrt(2) apart."""
    X = _table("X", X)
    sq = (X * X).sum(axis=1)
    d2 = sq[:, None] + sq[None, :] - 2.0 * X @ X.T  # |x|^2 + |y|^2 - 2 x.y, one matrix product for all pairs
    dist = np.sqrt(np.maximum(d2, 0.0))
    np.fill_diagonal(dist, 0.0)  # the expansion leaves ~1e-8 of rounding where it should be exactly 0
    return dist


def pca_2d(X, *, basis_from=None) -> np.ndarray:
    """Project rows onto the first two principal components, shape (N, 2).

    ``basis_from`` fits the axes on another set of rows (e.g. all training snapshots) so projections are comparable.
    Component signs are fixed (largest-magnitude loading positive) so the picture does not flip between reruns.
    """
    X = _table("X", X)
    fit = X if basis_from is None else _table("basis_from", basis_from)
    if fit.shape[0] < 2:
        raise ValueError(f"PCA needs at least 2 rows, got {fit.shape[0]}")
    mean = fit.mean(axis=0)
    _, _, vt = np.linalg.svd(fit - mean, full_matrices=False)
    axes = vt[:2]  # (2, D)
    signs = np.sign(axes[np.arange(axes.shape[0]), np.abs(axes).argmax(axis=1)])
    axes = axes * signs[:, None]
    proj = (X - mean) @ axes.T
    if proj.shape[1] < 2:  # D == 1: pad the missing axis
        proj = np.pad(proj, ((0, 0), (0, 2 - proj.shape[1])))
    return proj
