"""Word vectors as rows of a (V, D) table: nearest neighbours, analogies, pair similarity and a 2-D map.

Any token table works: the bundled MiniLM's, a local model's, an upload. A token embedding is just a row, so
"king - man + woman" is plain row arithmetic; every cosine and the PCA come from `embedviz.similarity`.
"""
from __future__ import annotations

import numbers
from typing import Iterable

import numpy as np

from embedviz._validate import positive_int
from embedviz.similarity import cosine_similarity, cosine_similarity_matrix, cosine_to_rows, pca_2d


def nearest_neighbours(
    table: np.ndarray,
    vector_or_id: np.ndarray | int,
    *,
    k: int = 10,
    exclude: Iterable[int] = (),
) -> list[tuple[int, float]]:
    """The k rows of `table` (V, D) with the highest cosine similarity to a query, best first.

    The query is a vector (D,) or a row id; a row id is itself left out (its cosine with itself is 1).
    Rows in `exclude` are left out too. Ties are broken by the smaller id. Zero rows score 0.
    """
    table = _as_float_table("table", table)
    V, D = table.shape
    k = positive_int("k", k)
    excluded = {_row_id("exclude id", i, V) for i in exclude}
    if _is_integer(vector_or_id):
        query_id = _row_id("vector_or_id", vector_or_id, V)
        excluded.add(query_id)
        vector = table[query_id]
    else:
        vector = np.asarray(vector_or_id, dtype=np.float64)
        if vector.shape != (D,):
            raise ValueError(f"vector_or_id has shape {vector.shape}; it must be a row id or a vector of shape ({D},)")
    scores = cosine_to_rows(table, vector)  # (V,)
    candidates = V - len(excluded)
    if candidates <= 0:
        return []
    if excluded:
        scores[list(excluded)] = -np.inf
    k = min(k, candidates)
    # argpartition finds the k best in O(V); only those k are then sorted (a full argsort of V is O(V log V)).
    top = np.argpartition(-scores, k - 1)[:k]
    top = top[np.lexsort((top, -scores[top]))]  # by score descending, then by id
    return [(int(i), float(scores[i])) for i in top]


def analogy(table: np.ndarray, a: int, b: int, c: int, *, k: int = 10) -> list[tuple[int, float]]:
    """Rows nearest to table[a] - table[b] + table[c], leaving out a, b and c themselves.

    "king - man + woman": a = king, b = man, c = woman. The three inputs are excluded because the result vector
    usually stays closest to a (Mikolov et al. 2013 did the same).
    """
    table = _as_float_table("table", table)
    V = table.shape[0]
    a, b, c = (_row_id(label, value, V) for label, value in (("a", a), ("b", b), ("c", c)))
    vector = table[a].astype(np.float64) - table[b] + table[c]  # (D,) the offset b -> c applied to a
    return nearest_neighbours(table, vector, k=k, exclude=(a, b, c))


def pair_similarity(table: np.ndarray, id_a: int, id_b: int) -> float:
    """Cosine similarity of two rows: 1 same direction, 0 unrelated (orthogonal), -1 opposite."""
    table = _as_float_table("table", table)
    V = table.shape[0]
    return cosine_similarity(table[_row_id("id_a", id_a, V)], table[_row_id("id_b", id_b, V)])


def similarity_matrix(table: np.ndarray, ids: Iterable[int]) -> np.ndarray:
    """(N, N) cosine similarities between the chosen rows, for a heatmap of a few words."""
    rows = _rows(table, ids)  # (N, D)
    return cosine_similarity_matrix(rows).astype(np.float32)


def project_2d(table: np.ndarray, ids: Iterable[int]) -> np.ndarray:
    """(N, 2) PCA coordinates of the chosen rows: the two directions along which these words differ most."""
    rows = _rows(table, ids)  # (N, D)
    if rows.shape[0] < 2:
        raise ValueError(f"ids ({rows.shape[0]} given) must name at least 2 rows to project")
    return pca_2d(rows).astype(np.float32)


# --------------------------------------------------------------------------------------------------- helpers


def _rows(table: np.ndarray, ids: Iterable[int]) -> np.ndarray:
    table = _as_float_table("table", table)
    ids = [_row_id("ids", i, table.shape[0]) for i in ids]
    if not ids:
        raise ValueError("ids (empty) must name at least one row")
    return table[ids]


def _is_integer(value) -> bool:
    return isinstance(value, numbers.Integral) and not isinstance(value, (bool, np.bool_))


def _row_id(name: str, value, vocab_size: int) -> int:
    return positive_int(name, value, minimum=0, maximum=vocab_size - 1)  # a row id: 0..V-1


def _as_float_table(name: str, table) -> np.ndarray:
    table = np.asarray(table)
    if table.ndim != 2 or table.shape[0] < 1 or table.shape[1] < 1:
        raise ValueError(f"{name} has shape {table.shape}; it must be a non-empty 2-D (V, D) table")
    if table.dtype not in (np.float32, np.float64):  # ints, and float16 whose sums of squares overflow at 65,504
        table = table.astype(np.float32)
    return table
