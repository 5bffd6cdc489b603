"""Five positional schemes side by side, each reduced to the vector it gives a position: a registry by name.

Like Hugging Face's ``ROPE_INIT_FUNCTIONS``, every scheme is one function with one signature,
``(positions (P,), d_model) -> (P, D)``, and :data:`POSITION_VECTOR_FUNCTIONS` picks one by name; a new scheme is
one function plus one registry line (plus its row in :data:`MEETS`).

    sinusoidal  PE(p), the fixed table (lesson 000)
    learned     row p of a random, untrained (L, D) table (N(0, 0.02^2), lesson 000)
    rope        R(p) applied to the all-ones vector: its cosine similarities are RoPE's relative scores (lesson 003's
                aligned q, k)
    alibi, none no position vector at all, so the same vector everywhere (ALiBi acts on the scores instead)

Only the asked-for positions are computed, so d_model 4096 and a 131072-token context stay cheap.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from embedviz import similarity
from embedviz.positions import alibi
from embedviz.rope import rotary
from embedviz._validate import one_of, positive_int
from embedviz.random_init import normal_rows
from embedviz.positions.sinusoidal import sinusoidal_rows

PROPERTIES = ("unique", "bounded", "relative", "extrapolates", "deterministic")


# the schemes: (P,) positions -> (P, D)


def _sinusoidal(positions: np.ndarray, d_model: int) -> np.ndarray:
    return sinusoidal_rows(positions, d_model)


def _learned(positions: np.ndarray, d_model: int) -> np.ndarray:
    return normal_rows(positions, d_model)  # a fixed random table, seed 0: the same rows at every call


def _rope(positions: np.ndarray, d_model: int) -> np.ndarray:
    return rotary.rotate(np.ones((positions.size, d_model)), positions)


def _no_vector(positions: np.ndarray, d_model: int) -> np.ndarray:
    return np.ones((positions.size, d_model))  # the same vector at every position: nothing tells them apart


POSITION_VECTOR_FUNCTIONS: dict[str, Callable[[np.ndarray, int], np.ndarray]] = {
    "sinusoidal": _sinusoidal,
    "learned": _learned,
    "rope": _rope,
    "alibi": _no_vector,
    "none": _no_vector,
}
SCHEMES = tuple(POSITION_VECTOR_FUNCTIONS)

# Which scheme meets which of PROPERTIES (lesson 003's checklist), in three states: "yes", "defined" and "no".
# "extrapolates" asks one thing of every row: does a model trained on L positions work past L, using the longer
# context? "defined" is a scheme that runs past L but does not: sinusoidal and RoPE models degrade (the reason context
# extension exists; lesson 003 itself says otherwise), and ALiBi's loss stays flat while, by Press et al.'s own
# analysis (2021, appendix B), it may not use the tokens beyond L. The reasons are in the locale ("cmp.why_<s>_<p>").
MEETS: dict[str, tuple[str, ...]] = {
    "sinusoidal": ("yes", "yes", "yes", "defined", "yes"),
    "learned": ("yes", "yes", "no", "no", "yes"),
    "rope": ("yes", "yes", "yes", "defined", "yes"),
    "alibi": ("no", "no", "yes", "defined", "yes"),
    "none": ("no", "yes", "no", "defined", "yes"),  # extrapolates: judged on the model, as every row is
}


def position_vectors(scheme: str, positions, d_model: int) -> np.ndarray:
    """What ``scheme`` contributes at ``positions`` (P,), shape (P, D)."""
    one_of("scheme", scheme, SCHEMES)
    d_model = positive_int("d_model", d_model)
    return POSITION_VECTOR_FUNCTIONS[scheme](np.asarray(positions, dtype=np.int64).reshape(-1), d_model)


def adjacent_cosines(scheme: str, positions, d_model: int) -> np.ndarray:
    """cos(V(p), V(p + 1)) for each p in ``positions``, shape (P,): how alike neighbouring positions look."""
    p = np.asarray(positions, dtype=np.int64).reshape(-1)
    return similarity.paired_cosine(position_vectors(scheme, p, d_model), position_vectors(scheme, p + 1, d_model))


def similarity_matrix(scheme: str, positions, d_model: int) -> np.ndarray:
    """cos(V(p), V(q)) for every pair of ``positions``, shape (P, P)."""
    return similarity.cosine_similarity_matrix(position_vectors(scheme, positions, d_model))


# past the last trained position


@dataclass(frozen=True)
class PastTheEnd:
    """What each scheme does for a sequence of L + k tokens, i.e. up to position last = L + k - 1 (past row L - 1).

    sin_values: PE(last)[:4]; *_far compares positions last - 1 and last, *_near positions 0 and 1 (rope: score of
    the all-ones q, k over d_model; alibi: head 1's bias), so far == near says "only the gap matters".
    """

    last: int
    learned_error: ValueError | None  # the learned module's own refusal: it has no row for position L
    sin_values: np.ndarray
    sin_adjacent_far: float
    sin_adjacent_start: float
    rope_far: float
    rope_near: float
    alibi_far: float
    alibi_near: float


def past_the_end(d_model: int, context_length: int, k: int, num_heads: int) -> PastTheEnd:
    """Each scheme at a sequence of ``context_length + k`` tokens (see :class:`PastTheEnd`)."""
    from embedviz.input_layer.embeddings import LearnedPositionalEmbedding  # torch: imported only when this is first needed

    d_model, context_length = positive_int("d_model", d_model), positive_int("context_length", context_length)
    k, num_heads = positive_int("k", k), positive_int("num_heads", num_heads)
    last = context_length + k - 1
    # The module's own check; the message depends on max_context_length only, so a 1-wide table is enough to ask.
    try:
        LearnedPositionalEmbedding(context_length, 1)(context_length + k)
        learned_error = None
    except ValueError as error:
        learned_error = error
    pe = sinusoidal_rows([0, 1, last - 1, last], d_model)  # (4, D)
    ones = np.ones(d_model)
    return PastTheEnd(
        last=last,
        learned_error=learned_error,
        sin_values=pe[3, :4],
        sin_adjacent_far=float(similarity.cosine_similarity(pe[2], pe[3])),
        sin_adjacent_start=float(similarity.cosine_similarity(pe[0], pe[1])),
        rope_far=float(rotary.scores_vs_offset(ones, ones, [1], start=last - 1)[0] / d_model),
        rope_near=float(rotary.scores_vs_offset(ones, ones, [1], start=0)[0] / d_model),
        alibi_far=float(alibi.bias_at(num_heads, [last], [last - 1], heads=[0])[0, 0, 0]),
        alibi_near=float(alibi.bias_at(num_heads, [1], [0], heads=[0])[0, 0, 0]),
    )
