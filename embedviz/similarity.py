"""Similarity between vectors: cosine matrices, neighbours along a table, distances, and a 2-D projection.

The one home of cosine similarity and PCA in embedviz: training runs, the pretrained tables and the position
analysis all call these functions, so the clipping, the zero-vector rule and PCA's sign convention agree everywhere.
"""
from __future__ import annotations

from typing import Literal

import weakref

import numpy as np

from embedviz._validate import finite_array, one_of
from embedviz.errors import InputError

_EPS = 1e-12  # keeps a zero vector from dividing by zero; its similarity to anything is then 0


def _float_matrix(name: str, X) -> np.ndarray:
    """``X`` as a finite float64 (N, D) array, or a ValueError naming it."""
    X = finite_array(name, X).astype(np.float64, copy=False)  # callers never write into it
    if X.ndim != 2:
        raise ValueError(f"{name} must be a 2-D (N, D) array, got shape {X.shape}")
    return X


def normalize_rows(X, *, name: str = "X") -> np.ndarray:
    """Each row divided by its length, shape (N, D), float64; a zero row stays zero. Dot products of these rows are
    cosines: every cosine here is built on it, and a caller taking many dot products of one table checks and
    normalises it once."""
    X = _float_matrix(name, X)
    return X / np.maximum(np.linalg.norm(X, axis=1, keepdims=True), _EPS)


def cosine_similarity_matrix(X, Y=None) -> np.ndarray:
    """cos(x_i, y_j) for all rows, shape (N, M) (Y defaults to X): u.v / (|u| |v|), in [-1, 1]."""
    Xn = normalize_rows(X)
    Yn = Xn if Y is None else normalize_rows(Y, name="Y")
    if Xn.shape[1] != Yn.shape[1]:
        raise ValueError(f"X {Xn.shape} and Y {Yn.shape} must have the same width D")
    return np.clip(Xn @ Yn.T, -1.0, 1.0)


def cosine_similarity(u, v) -> float:
    """cos of the angle between two vectors."""
    return float(cosine_similarity_matrix(np.reshape(u, (1, -1)), np.reshape(v, (1, -1)))[0, 0])


_NORMS: dict[int, tuple[weakref.ref, np.ndarray]] = {}  # id of a read-only table -> (the table, its row norms)


def _row_norms(table: np.ndarray) -> np.ndarray:
    """(V,) row lengths, one pass with no (V, D) temporary of squares. A read-only table (the bundled models',
    shared by every session) cannot change, so its norms are kept while it lives: a query over e5's 250,037 rows
    then reads the table once, not twice."""
    base = table.base if isinstance(table.base, np.ndarray) else None
    if table.flags.writeable or (base is not None and base.flags.writeable):  # it, or what it views, may change
        return np.sqrt(np.einsum("vd,vd->v", table, table))
    held = _NORMS.get(id(table))
    if held is not None and held[0]() is table:
        return held[1]
    norms = np.sqrt(np.einsum("vd,vd->v", table, table))
    key = id(table)
    _NORMS[key] = (weakref.ref(table, lambda _, key=key: _NORMS.pop(key, None)), norms)
    return norms


def cosine_to_rows(table: np.ndarray, vector) -> np.ndarray:
    """(V, D), (D,) -> (V,) cosine of every row of ``table`` with ``vector``; a zero row scores 0.

    Made for whole vocabularies (30,522 x 384 and up): it works in the table's own dtype and never builds a
    normalised copy of it, so the caller checks ``table`` once (2-D, float32 or float64) and passes it as is.
    """
    vector = np.asarray(vector, dtype=np.float64)
    query_norm = float(np.linalg.norm(vector))
    if not np.isfinite(query_norm) or query_norm == 0.0:
        raise InputError("zero_vector")  # e.g. an all-zero row of a notebook user's own table
    row_norms = _row_norms(table)  # (V,)
    dots = table @ (vector / query_norm).astype(table.dtype)  # (V,)
    cosines = np.divide(dots, row_norms, out=np.zeros_like(dots, dtype=np.float64), where=row_norms > 0)
    return np.clip(cosines, -1.0, 1.0)


def adjacent_similarity(table) -> np.ndarray:
    """cos(row t, row t+1) for t = 0..L-2, shape (L-1,): how smoothly a position table changes."""
    T = normalize_rows(table, name="table")
    if T.shape[0] < 2:
        raise ValueError(f"table needs at least 2 rows, got {T.shape[0]}")
    return np.clip(np.einsum("ld,ld->l", T[:-1], T[1:]), -1.0, 1.0)  # (L-1,); clip float noise past +-1


def paired_cosine(A, B) -> np.ndarray:
    """cos(a_i, b_i) row by row, shape (N,): e.g. rows p and p + 1 of positions sampled from a long table."""
    An, Bn = normalize_rows(A, name="A"), normalize_rows(B, name="B")
    if An.shape != Bn.shape:
        raise ValueError(f"A {An.shape} and B {Bn.shape} must have the same shape (N, D)")
    return np.clip(np.einsum("nd,nd->n", An, Bn), -1.0, 1.0)


def distance_matrix(X) -> np.ndarray:
    """Euclidean distance between all rows, shape (N, N). One-hot rows are all sqrt(2) apart."""
    X = _float_matrix("X", X)
    sq = (X * X).sum(axis=1)
    d2 = sq[:, None] + sq[None, :] - 2.0 * X @ X.T  # |x|^2 + |y|^2 - 2 x.y, one matrix product for all pairs
    dist = np.sqrt(np.maximum(d2, 0.0))
    np.fill_diagonal(dist, 0.0)  # the expansion leaves ~1e-8 of rounding where it should be exactly 0
    return dist


PCA_ITERATIONS = 8  # randomized solver: rounds of subspace iteration (each sharpens the top two directions)
PCA_OVERSAMPLE = 8  # randomized solver: extra directions carried along, so the top two converge fast


def pca_2d(X, *, basis_from=None, solver: Literal["full", "randomized"] = "full") -> np.ndarray:
    """Project rows onto the first two principal components, shape (N, 2).

    ``basis_from`` fits the axes on another set of rows (e.g. the trained table, for every training snapshot) so
    projections are comparable. Component signs are fixed (largest-magnitude loading positive) so the picture does
    not flip between reruns. A table with one column is padded with a zero second axis.

    solver: "full" is an SVD of the centred rows. "randomized" gives the same axes by subspace iteration (Halko,
    Martinsson & Tropp 2011): start from 2 + PCA_OVERSAMPLE random directions (fixed seed) and alternately
    multiply by X^T and X, re-orthonormalising each time; every product is (N, k) or (k, D) with k = 10, so a
    (2048, 4096) table projects in milliseconds. When the second and third components carry almost the same
    variance, its second axis may differ from the full SVD's by a rotation inside that plane (the SVD's choice
    there is just as arbitrary).
    """
    X = _float_matrix("X", X)
    fit = X if basis_from is None else _float_matrix("basis_from", basis_from)
    if fit.shape[0] < 2:
        raise ValueError(f"PCA needs at least 2 rows, got {fit.shape[0]}")
    if X.shape[1] != fit.shape[1]:
        raise ValueError(f"X {X.shape} and basis_from {fit.shape} must have the same width D")
    mean = fit.mean(axis=0)  # principal components are directions of variance around the mean
    centred = fit - mean  # (N, D)
    one_of("solver", solver, ("full", "randomized"))
    if solver == "full":
        _, _, vt = np.linalg.svd(centred, full_matrices=False)
    else:  # "randomized", one_of checked above
        vt = _randomized_axes(centred)
    axes = vt[:2]  # (<=2, D)
    signs = np.sign(axes[np.arange(axes.shape[0]), np.abs(axes).argmax(axis=1)])
    proj = (X - mean) @ (axes * signs[:, None]).T  # (N, <=2)
    if proj.shape[1] < 2:  # D == 1: one direction only, pad the missing axis with zeros
        proj = np.pad(proj, ((0, 0), (0, 2 - proj.shape[1])))
    return proj


def _randomized_axes(centred: np.ndarray) -> np.ndarray:
    """(k, D) leading right singular vectors of ``centred`` (N, D), by randomized subspace iteration."""
    N, D = centred.shape
    k = min(2 + PCA_OVERSAMPLE, N, D)
    basis = np.random.default_rng(0).standard_normal((D, k))  # (D, k) random start, fixed seed: same picture
    basis, _ = np.linalg.qr(centred @ basis)  # (N, k)
    for _ in range(PCA_ITERATIONS):
        basis, _ = np.linalg.qr(centred.T @ basis)  # (D, k)
        basis, _ = np.linalg.qr(centred @ basis)  # (N, k)
    _, _, vt = np.linalg.svd(basis.T @ centred, full_matrices=False)  # (k, D): small, exact inside the subspace
    return vt
