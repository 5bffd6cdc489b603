"""What a training run of `embedviz.training.experiment` produced, and what the Trained embedding page reads from it.

`TrainingResult` holds the tables before and after training, the losses and the snapshots; the functions below
turn it into the page's numbers: group means of the cosine at every snapshot, every snapshot projected on the
trained table's two main directions, the text's own token pairs, and the lowest loss any model can reach.
All cosines and the PCA come from `embedviz.similarity`.
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from embedviz.downsample import CELL_BUDGET, block_mean
from embedviz.similarity import cosine_similarity, cosine_similarity_matrix, pca_2d


@dataclass(eq=False)
class TrainingResult:
    """What one training run produced.

    V: number of tokens whose vectors are shown, D: d_model.

    vocab: the V token strings in the row order of the weight tables (group experiment: group by group, in the
        order given; ``train_on_text``: sorted by code point / byte value).
    group_of: for each token, the index of its group in ``group_names``.
    group_names: a name per group (the group's characters, or a character class for ``train_on_text``).
    weights_before / weights_after: (V, D) float32 embedding rows at step 0 and after the last step.
    losses: (steps,) float32 mean cross-entropy of each step's batch (nats).
    snapshots: [(step, (V, D) float32)] every ``snapshot_every`` steps, including 0 and the last step (copies).
    num_classes: size of the softmax of the head (can be larger than V, see ``train_group_experiment``).
    """

    vocab: list[str]
    group_of: list[int]
    group_names: list[str]
    weights_before: np.ndarray
    weights_after: np.ndarray
    losses: np.ndarray
    snapshots: list[tuple[int, np.ndarray]]
    num_classes: int
    _index: dict[str, int] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        self._index = {token: i for i, token in enumerate(self.vocab)}

    def index(self, token: str) -> int:
        """Row of ``token`` in the weight tables; ValueError if it is not in the vocabulary."""
        if token not in self._index:
            shown = ", ".join(repr(t) for t in self.vocab[:12]) + (" ..." if len(self.vocab) > 12 else "")
            raise ValueError(f"token {token!r} is not in the vocabulary ({shown})")
        return self._index[token]

    def similarity(self, a: str, b: str, *, after: bool = True) -> float:
        """Cosine similarity of the vectors of tokens ``a`` and ``b`` (after or before training)."""
        weights = self.weights_after if after else self.weights_before
        # cosine = direction only: the length of a vector does not say what it means
        return cosine_similarity(weights[self.index(a)], weights[self.index(b)])

    def similarity_matrix(self, *, after: bool = True) -> np.ndarray:
        """(V, V) float32 cosine similarities of all token vectors."""
        return cosine_similarity_matrix(self.weights_after if after else self.weights_before).astype(np.float32)

    @property
    def unseen_classes(self) -> int:
        """Classes of the head's softmax that no token of the run is (lesson 001's 256-byte head over two groups of
        10 characters: 236); 0 when the head has the run's tokens only."""
        return self.num_classes - len(self.vocab)

    def group_similarity(self, *, after: bool = True) -> tuple[float, float]:
        """(mean same-group cosine over distinct pairs, mean cross-group cosine); NaN if there are no such pairs."""
        return group_similarity(self.weights_after if after else self.weights_before, self.group_of)


def group_similarity(weights: np.ndarray, group_of: Sequence[int]) -> tuple[float, float]:
    """(mean same-group cosine over distinct pairs, mean cross-group cosine) of the rows of ``weights`` (V, D).

    NaN where there are no such pairs (a single group has no cross-group pairs).
    """
    sim = cosine_similarity_matrix(weights).astype(np.float32)  # (V, V)
    group = np.asarray(group_of)
    same = (group[:, None] == group[None, :]) & ~np.eye(len(group), dtype=bool)
    cross = group[:, None] != group[None, :]
    mean_same = float(sim[same].mean()) if same.any() else math.nan
    mean_cross = float(sim[cross].mean()) if cross.any() else math.nan
    return mean_same, mean_cross


def snapshot_curves(result: TrainingResult) -> tuple[np.ndarray, np.ndarray]:
    """(steps (S,), curve (S, 2)): mean same-group and cross-group cosine at every snapshot."""
    steps = np.array([step for step, _ in result.snapshots])
    curve = np.array([group_similarity(weights, result.group_of) for _, weights in result.snapshots])
    return steps, curve


def cross_group_peak(result: TrainingResult) -> tuple[int, float] | None:
    """(step, value) of the highest mean cross-group cosine over the snapshots: how far the shared push away from
    the unseen classes pulls the groups together before they part (lesson 001's run: about +0.1 early on). None for a
    single group (no cross-group pairs)."""
    steps, curve = snapshot_curves(result)
    if np.isnan(curve[:, 1]).all():
        return None
    best = int(np.nanargmax(curve[:, 1]))
    return int(steps[best]), float(curve[best, 1])


def cross_group_zero(result: TrainingResult) -> int | None:
    """The first snapshot step after the cross-group peak at which the mean cross-group cosine is below 0: where
    the groups, pulled together early, have been pushed apart again (lesson 001's defaults, seed 0: step 170 of 500).
    None when the peak is not above 0 or the curve has not come down through 0 by the last snapshot."""
    peak = cross_group_peak(result)
    if peak is None or peak[1] <= 0:
        return None
    steps, curve = snapshot_curves(result)
    after = np.flatnonzero((steps > peak[0]) & (curve[:, 1] < 0))
    return int(steps[after[0]]) if after.size else None


def snapshot_projections(result: TrainingResult) -> list[np.ndarray]:
    """Every snapshot's rows as (V, 2) points on the same axes: the two main directions of the trained table,
    so the picture shows the vectors moving rather than the axes turning."""
    return [pca_2d(weights, basis_from=result.weights_after) for _, weights in result.snapshots]


def projection_limit(points: list[np.ndarray], *, margin: float = 1.1) -> float:
    """One axis half-range for every snapshot's (V, 2) picture: the largest |coordinate| with a margin, so the
    points move on fixed axes as the slider walks through the snapshots."""
    return float(max(np.abs(p).max() for p in points)) * margin


def text_pairs(result: TrainingResult) -> dict[tuple[str, str], tuple[float, float]]:
    """Lesson 001's pairs for a group experiment: {(a, b): (cos before, cos after)}.

    The first two tokens of group 0 (lesson 001's 'a', 'b'), and the first tokens of groups 0 and 1 ('a', 'A').
    """
    first = result.group_names[0]
    pairs = [(first[0], first[1])] + ([(first[0], result.group_names[1][0])] if len(result.group_names) > 1 else [])
    return {(a, b): (result.similarity(a, b, after=False), result.similarity(a, b)) for a, b in pairs}


def loss_floor(groups: Sequence[str]) -> float:
    """The lowest loss any model can reach on the group experiment: each next character is uniform over its group
    of n distinct characters, costing ln n nats, and a sequence picks its group uniformly, so the floor is the mean
    of ln n over the groups (ln 10 = 2.30 for lesson 001's two groups of ten)."""
    sizes = [len(dict.fromkeys(g)) for g in groups]
    return float(np.mean(np.log(sizes)))


def class_ordered_similarity(result: TrainingResult, budget: int = CELL_BUDGET) -> tuple[np.ndarray, list[str], int]:
    """The final (V, V) cosine matrix with a class's tokens side by side (sorted by class, then token), block-averaged
    to at most ``budget`` x ``budget`` cells as its heatmap draws it: (matrix float32, the shown rows' tokens, the
    block size). What a run of any vocabulary keeps for the "your own text" heatmap."""
    vocab, group_of = result.vocab, result.group_of
    order = sorted(range(len(vocab)), key=lambda i: (group_of[i], vocab[i]))
    sim, step, _ = block_mean(result.similarity_matrix(after=True)[np.ix_(order, order)], budget, budget)
    return sim.astype(np.float32), [vocab[i] for i in order][::step], step
