"""An embedding is a row lookup (lessons 000-002), checked three ways, and what follows from it.

    W[ids]  ==  one_hot(ids) @ W  ==  nn.Embedding(ids)          W: (V, D), ids: (T,) -> (T, D)

Multiplying by a one-hot row picks one row of W, so the matrix product only ever copies rows: the lookup is the cheap
way to do it. Three consequences, each computed here for the Token embeddings page:

- one-hot vectors are all sqrt(2) apart (lesson 001), while dense rows can be near or far;
- backprop only reaches the rows that were looked up (lesson 000), unless the same table is also the output head
  (weight tying), whose softmax touches every row;
- the initial scale is a choice: std 0.02 (GPT-2, lesson 000) or 1/sqrt(d_model) (lesson 002), or torch's default 1.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal, get_args

import numpy as np
import torch
from torch import nn

from embedviz._validate import boolean, finite_array, one_of, positive_int
from embedviz.input_layer.embeddings import TokenEmbedding
from embedviz.errors import InputError
from embedviz.random_init import GPT2_STD, normal_table
from embedviz.similarity import distance_matrix

InitScheme = Literal["gpt2", "inv_sqrt_d", "unit"]
INIT_SCHEMES: tuple[str, ...] = get_args(InitScheme)

# helper functions


def init_std(d_model: int, scheme: InitScheme = "gpt2") -> float:
    """The standard deviation of each entry under ``scheme``.

    "gpt2": 0.02 whatever D (lessons 000, GPT-2), so a row's length grows like 0.02 * sqrt(D);
    "inv_sqrt_d": 1/sqrt(D) (lesson 002), so every row has length about 1 whatever D;
    "unit": 1, torch's ``nn.Embedding`` default (lesson 001's ``torch.randn``), rows of length about sqrt(D).
    """
    d_model = positive_int("d_model", d_model)
    one_of("scheme", scheme, INIT_SCHEMES)
    if scheme == "gpt2":
        return GPT2_STD
    if scheme == "inv_sqrt_d":
        return 1.0 / math.sqrt(d_model)
    return 1.0  # "unit"


def init_table(vocab_size: int, d_model: int, *, scheme: InitScheme = "gpt2", seed: int = 0) -> np.ndarray:
    """A freshly initialised (V, D) float32 embedding table: N(0, init_std^2) entries, reproducible from ``seed``."""
    vocab_size = positive_int("vocab_size", vocab_size)
    std = init_std(d_model, scheme)
    seed = positive_int("seed", seed, minimum=0)
    generator = torch.Generator().manual_seed(seed)
    return TokenEmbedding(vocab_size, d_model, init_std=std, generator=generator).weight.detach().numpy()


def _ids(ids, vocab_size: int) -> np.ndarray:
    """ids as a 1-D int64 array, each in [0, vocab_size); the message names the bad id and the vocabulary."""
    arr = np.asarray(ids)
    if arr.size == 0:
        raise InputError("empty_ids")
    if arr.dtype == np.bool_ or not np.issubdtype(arr.dtype, np.integer):
        raise ValueError(f"ids must be integers, got dtype {arr.dtype}")
    arr = arr.astype(np.int64).reshape(-1)
    bad = arr[(arr < 0) | (arr >= vocab_size)]
    if bad.size:
        raise InputError("token_id", value=int(bad[0]), limit=vocab_size)
    return arr


def _weight(weight) -> np.ndarray:
    weight = finite_array("weight", weight)
    if weight.ndim != 2 or 0 in weight.shape:
        raise ValueError(f"weight must be a non-empty 2-D (vocab_size, d_model) table, got shape {weight.shape}")
    return weight.astype(np.float32)


def _embedding_of(weight: np.ndarray, *, freeze: bool) -> nn.Embedding:
    """An ``nn.Embedding`` holding a copy of the checked (V, D) float32 ``weight``: the rows are given, not drawn."""
    return nn.Embedding.from_pretrained(torch.from_numpy(weight.copy()), freeze=freeze)


def unique_in_order(ids) -> np.ndarray:
    """The distinct ids in order of first appearance: 'Hello' [72, 101, 108, 108, 111] -> [72, 101, 108, 111]."""
    arr = np.asarray(ids).reshape(-1)
    _, first = np.unique(arr, return_index=True)
    return arr[np.sort(first)]


# the lookup, three ways


def one_hot(ids, vocab_size: int) -> np.ndarray:
    """(T,) ids -> (T, V) float32 rows with a single 1 at column ids[t] (lesson 001's one-hot vectors)."""
    vocab_size = positive_int("vocab_size", vocab_size)
    ids = _ids(ids, vocab_size)
    out = np.zeros((ids.size, vocab_size), dtype=np.float32)
    out[np.arange(ids.size), ids] = 1.0
    return out


@dataclass(frozen=True)
class LookupComparison:
    """The same (T, D) block computed three ways, and how far apart the results are (all exactly 0 in practice).

    ids:              (T,) the token ids looked up.
    by_index:         (T, D) ``W[ids]``, numpy fancy indexing: the lookup itself.
    by_one_hot:       (T, D) ``one_hot(ids) @ W``: a matrix product that can only copy rows.
    by_nn_embedding:  (T, D) ``torch.nn.Embedding`` holding the same weight.
    max_diff_one_hot, max_diff_nn_embedding: max |difference| from ``by_index``.
    """

    ids: np.ndarray
    by_index: np.ndarray
    by_one_hot: np.ndarray
    by_nn_embedding: np.ndarray
    max_diff_one_hot: float
    max_diff_nn_embedding: float


def compare_lookups(ids, weight) -> LookupComparison:
    """Look ``ids`` up in ``weight`` (V, D) by indexing, by a one-hot matrix product and by ``nn.Embedding``."""
    weight = _weight(weight)
    vocab_size = weight.shape[0]
    ids = _ids(ids, vocab_size)
    by_index = weight[ids]  # (T, D): row gather
    # each one-hot row has one 1 and V-1 zeros, so each output entry is 1*w + exact zeros: the same float
    by_one_hot = one_hot(ids, vocab_size) @ weight  # (T, V) @ (V, D) -> (T, D)
    emb = _embedding_of(weight, freeze=True)
    with torch.no_grad():
        by_nn = emb(torch.from_numpy(ids)).numpy()  # (T, D)
    return LookupComparison(
        ids=ids,
        by_index=by_index,
        by_one_hot=by_one_hot,
        by_nn_embedding=by_nn,
        max_diff_one_hot=float(np.max(np.abs(by_one_hot - by_index))),
        max_diff_nn_embedding=float(np.max(np.abs(by_nn - by_index))),
    )


# one-hot vs dense distances


@dataclass(frozen=True)
class DistanceComparison:
    """All-pairs Euclidean distances between the vectors of some ids, one-hot and dense.

    ids:      (N,) the ids compared (pass distinct ids: two copies of one id are 0 apart in both).
    one_hot:  (N, N) distances between one-hot vectors: sqrt(2) off the diagonal, always.
    dense:    (N, N) distances between rows of the embedding table: they differ from pair to pair.
    """

    ids: np.ndarray
    one_hot: np.ndarray
    dense: np.ndarray

    @staticmethod
    def _off_diagonal_range(d: np.ndarray) -> tuple[float, float] | None:
        off = d[~np.eye(d.shape[0], dtype=bool)]
        return (float(off.min()), float(off.max())) if off.size else None

    @property
    def one_hot_range(self) -> tuple[float, float] | None:
        """(min, max) distance between two different vectors: (sqrt 2, sqrt 2); None for a single id."""
        return self._off_diagonal_range(self.one_hot)

    @property
    def dense_range(self) -> tuple[float, float] | None:
        """(min, max) distance between two different dense rows; None for a single id."""
        return self._off_diagonal_range(self.dense)


def distance_comparison(ids, weight) -> DistanceComparison:
    """Distances between one-hot(ids) and between weight[ids]; ``weight`` is the (V, D) table."""
    weight = _weight(weight)
    ids = _ids(ids, weight.shape[0])
    # |e_i - e_j|^2 = 1 + 1 - 2 * 0 = 2 for i != j: every pair of distinct tokens is equally far apart
    one_hot_d = distance_matrix(one_hot(ids, weight.shape[0]))
    dense_d = distance_matrix(weight[ids].astype(np.float64))
    return DistanceComparison(ids=ids, one_hot=one_hot_d, dense=dense_d)


# gradient sparsity


@dataclass(frozen=True)
class GradientStep:
    """One backward pass of next-token prediction through a one-layer model, logits = W[inputs] @ head.T.

    input_ids:      (T-1,) ids looked up in the embedding table (every token but the last).
    target_ids:     (T-1,) the next tokens to predict (every token but the first).
    row_grad_norm:  (V,) |dL/dW[v]|, the length of each row's gradient.
    rows_with_gradient: sorted ids v whose gradient row is not exactly zero.
    rows_changed:   sorted ids whose row moved after one SGD step (the same set: plain SGD only moves rows with
                    gradient; weight decay would move every row).
    loss:           cross-entropy of the step (about ln V at initialisation).
    tied:           whether the output head is the embedding table itself.
    """

    input_ids: np.ndarray
    target_ids: np.ndarray
    row_grad_norm: np.ndarray
    rows_with_gradient: np.ndarray
    rows_changed: np.ndarray
    loss: float
    tied: bool


def gradient_step(
    ids, weight, *, tied: bool = False, head=None, seed: int = 1, learning_rate: float = 0.1
) -> GradientStep:
    """Backpropagate the next-token loss of ``ids`` into the (V, D) table ``weight`` and see which rows get gradient.

    Untied, the output head is a separate (V, D) matrix (``head``, or a fresh one drawn like ``weight`` from
    ``seed``): the table's gradient comes only through the lookup, so only rows of the input ids are non-zero.
    Tied, the head *is* the table: the softmax gives every vocabulary entry a probability, so every row gets a
    gradient from the output side as well.
    """
    weight = _weight(weight)
    tied = boolean("tied", tied)
    vocab_size, d_model = weight.shape
    ids = _ids(ids, vocab_size)
    if ids.size < 2:
        raise InputError("next_token", n=ids.size)
    inputs, targets = ids[:-1], ids[1:]  # predict token t+1 from token t
    table = _embedding_of(weight, freeze=False)  # its own copy: the caller's table stays as it was
    if tied:
        out_head = table.weight  # logits = h @ W.T: the same matrix at both ends
    else:
        if head is None:
            std = float(weight.std()) or GPT2_STD
            generator = torch.Generator().manual_seed(positive_int("seed", seed, minimum=0))
            head_t = normal_table(vocab_size, d_model, std=std, generator=generator)
        else:
            head_t = torch.from_numpy(_weight(head).copy())
            if tuple(head_t.shape) != (vocab_size, d_model):
                raise ValueError(f"head shape {tuple(head_t.shape)} must equal weight shape {(vocab_size, d_model)}")
        out_head = nn.Parameter(head_t)
    h = table(torch.from_numpy(inputs))  # (T-1, D)
    logits = h @ out_head.T  # (T-1, V)
    loss = nn.functional.cross_entropy(logits, torch.from_numpy(targets))
    loss.backward()
    grad = table.weight.grad.detach().numpy().astype(np.float64)  # (V, D)
    row_norm = np.linalg.norm(grad, axis=1)  # (V,)
    before = table.weight.detach().clone()
    params = [table.weight] if tied else [table.weight, out_head]
    torch.optim.SGD(params, lr=learning_rate).step()
    moved = (table.weight.detach() != before).any(dim=1).numpy()  # (V,)
    return GradientStep(
        input_ids=inputs,
        target_ids=targets,
        row_grad_norm=row_norm,
        rows_with_gradient=np.flatnonzero(row_norm > 0),
        rows_changed=np.flatnonzero(moved),
        loss=float(loss.detach()),
        tied=tied,
    )


Optimizer = Literal["sgd", "adam", "adamw"]
OPTIMIZERS: tuple[str, ...] = get_args(Optimizer)


def second_step_rows(first_ids, second_ids, weight, *, optimizer: Optimizer = "adam", learning_rate: float = 0.01,
                     weight_decay: float = 0.01, seed: int = 1) -> np.ndarray:
    """Sorted ids of the rows that move on a *second* optimiser step, trained on ``second_ids`` after a first step
    on ``first_ids`` (untied head drawn from ``seed``, as in ``gradient_step``).

    The second step's gradient is zero outside the rows ``second_ids`` looks up, yet what moves depends on the
    optimiser: plain SGD moves only those rows; Adam keeps a running mean of past gradients (momentum), so the
    rows of the first batch keep moving; AdamW's decoupled weight decay shrinks every row at every step.
    """
    weight = _weight(weight)
    one_of("optimizer", optimizer, OPTIMIZERS)
    vocab_size, d_model = weight.shape
    batches = [_ids(ids, vocab_size) for ids in (first_ids, second_ids)]
    if min(b.size for b in batches) < 2:
        raise ValueError("each batch needs at least 2 tokens (an input and the next token)")
    table = _embedding_of(weight, freeze=False)
    generator = torch.Generator().manual_seed(positive_int("seed", seed, minimum=0))
    head = nn.Parameter(normal_table(vocab_size, d_model, std=float(weight.std()) or GPT2_STD, generator=generator))
    params = [table.weight, head]
    opt = {"sgd": lambda: torch.optim.SGD(params, lr=learning_rate),
           "adam": lambda: torch.optim.Adam(params, lr=learning_rate),
           "adamw": lambda: torch.optim.AdamW(params, lr=learning_rate, weight_decay=weight_decay)}[optimizer]()
    for ids in batches:
        before = table.weight.detach().clone()  # (V, D) as the step starts: what the last step changed is compared
        opt.zero_grad()
        logits = table(torch.from_numpy(ids[:-1])) @ head.T  # (T-1, V)
        nn.functional.cross_entropy(logits, torch.from_numpy(ids[1:])).backward()
        opt.step()
    return np.flatnonzero((table.weight.detach() != before).any(dim=1).numpy())


def second_step_summary(first_ids, second_ids, weight, **options) -> dict[str, tuple[int, int]]:
    """For each optimiser: (rows that move on the second step, how many of them the second batch never looked up)."""
    looked_up = set(np.asarray(second_ids).reshape(-1)[:-1].tolist())  # inputs of step 2: the rows with gradient
    out = {}
    for optimizer in OPTIMIZERS:
        rows = second_step_rows(first_ids, second_ids, weight, optimizer=optimizer, **options)
        out[optimizer] = (len(rows), sum(1 for r in rows.tolist() if r not in looked_up))
    return out


# initial scale


def table_scale(weight) -> tuple[float, float]:
    """(standard deviation of all entries, mean row length) of a (V, D) table: how big its vectors start out."""
    weight = _weight(weight)
    return float(weight.std()), float(np.linalg.norm(weight, axis=1).mean())


def row_norm_stats(d_models, *, vocab_size: int = 256, seed: int = 0) -> dict[str, np.ndarray]:
    """Mean row length of a freshly initialised table for each scheme and each D in ``d_models``, shape (len,).

    The expected length is std * sqrt(D) (a sum of D squares of N(0, std^2) entries), so 0.02 rows grow with D,
    1/sqrt(D) rows stay near 1 and unit rows grow like sqrt(D).
    """
    d_models = [positive_int("d_model", d) for d in d_models]
    out = {}
    for scheme in INIT_SCHEMES:
        out[scheme] = np.array(
            [table_scale(init_table(vocab_size, d, scheme=scheme, seed=seed))[1] for d in d_models]
        )
    return out
