"""The input layer of a transformer, as in lesson 000: token lookup + position lookup, summed.

    ids (B, T) -> token vectors (B, T, D) + position vectors (1, T, D) -> (B, T, D)

Summing (not concatenating) keeps D fixed through the network and lets each feature decide whether token meaning or
position dominates it.
"""
from __future__ import annotations

import torch
from torch import nn

from embedviz._validate import finite_float, positive_int
from embedviz.errors import InputError
from embedviz.random_init import GPT2_STD, normal_table
from embedviz.positions.sinusoidal import DEFAULT_BASE, sinusoidal_table



_INT_DTYPES = (torch.int64, torch.int32, torch.int16, torch.uint8, torch.int8)


def _as_ids(ids, vocab_size: int) -> torch.Tensor:
    """Token ids (a tensor, numpy array or nested list of ints) as an int64 tensor, every id in [0, vocab_size).

    torch's own message for a bad id is "index out of range in self"; this one names the id and the vocabulary.
    """
    if not isinstance(ids, torch.Tensor):
        try:
            ids = torch.as_tensor(ids)
        except (TypeError, ValueError, RuntimeError) as err:
            raise ValueError(f"token ids must be integers, got {ids!r}") from err
    if ids.dtype not in _INT_DTYPES:
        raise ValueError(f"token ids must be an integer tensor, got dtype {ids.dtype}")
    if ids.numel() > 0:
        lo, hi = int(ids.min()), int(ids.max())
        if lo < 0 or hi >= vocab_size:
            bad = lo if lo < 0 else hi
            raise InputError("token_id", value=bad, limit=vocab_size)
    return ids.long()


def _check_length(context_length: int, max_context_length: int) -> int:
    if isinstance(context_length, torch.Tensor) and context_length.numel() == 1:
        context_length = int(context_length)
    # a negative length would silently slice rows off the end of the table
    context_length = positive_int("context_length", context_length, minimum=0)
    if context_length > max_context_length:
        raise InputError("too_long", context_length=context_length, limit=max_context_length)
    return context_length


class TokenEmbedding(nn.Module):
    """A (vocab_size, d_model) lookup table: row i is token i's vector.

    Args:
        vocab_size: number of token ids V; ids must lie in [0, V).
        d_model: width D of each vector.
        init_std: standard deviation of the Gaussian initialisation (0.02, the GPT-2 / lesson 000 convention; lesson 002
            scales it by 1/sqrt(d_model) instead: pass ``d_model ** -0.5``; torch's own nn.Embedding uses 1).
        generator: a seeded ``torch.Generator`` for a reproducible table (default: torch's global random stream).

    Forward is pure indexing (``weight[ids]``, the same numbers as ``one_hot(ids) @ weight``), so backprop only
    touches the rows of the ids that were used.
    """

    def __init__(
        self, vocab_size: int, d_model: int, *, init_std: float = GPT2_STD, generator: torch.Generator | None = None
    ) -> None:
        super().__init__()
        self.vocab_size = positive_int("vocab_size", vocab_size)
        self.d_model = positive_int("d_model", d_model)
        init_std = finite_float("init_std", init_std, greater_than=0.0)
        # small Gaussian rows: no token starts out closer to another than chance
        self.weight = nn.Parameter(normal_table(self.vocab_size, self.d_model, std=init_std, generator=generator))

    def forward(self, ids) -> torch.Tensor:
        """ids (B, T) integers in [0, vocab_size) -> (B, T, D); any shape (...) -> (..., D)."""
        ids = _as_ids(ids, self.vocab_size)
        return nn.functional.embedding(ids, self.weight)  # a row gather: weight[ids]


class LearnedPositionalEmbedding(nn.Module):
    """A (max_context_length, d_model) table indexed by position 0..T-1: L*D parameters, no row past L."""

    def __init__(
        self,
        max_context_length: int,
        d_model: int,
        *,
        init_std: float = GPT2_STD,
        generator: torch.Generator | None = None,
    ) -> None:
        super().__init__()
        self.max_context_length = positive_int("max_context_length", max_context_length)
        self.d_model = positive_int("d_model", d_model)
        init_std = finite_float("init_std", init_std, greater_than=0.0)
        self.weight = nn.Parameter(
            normal_table(self.max_context_length, self.d_model, std=init_std, generator=generator)
        )

    def forward(self, context_length: int) -> torch.Tensor:
        """``context_length`` (T) -> (T, D) position vectors for positions 0..T-1."""
        return self.weight[:_check_length(context_length, self.max_context_length)]


class SinusoidalPositionalEmbedding(nn.Module):
    """The fixed sinusoidal table (no parameters), precomputed for max_context_length positions as a buffer.

    The formula extends to any position, but as in lesson 000 this module precomputes L rows and refuses
    T > L, so both position modules enforce the same maximum context length.
    """

    def __init__(self, max_context_length: int, d_model: int, *, base: float = DEFAULT_BASE) -> None:
        super().__init__()
        self.max_context_length = positive_int("max_context_length", max_context_length)
        self.d_model = positive_int("d_model", d_model)
        table = torch.from_numpy(sinusoidal_table(self.max_context_length, self.d_model, base).copy())
        self.register_buffer("table", table, persistent=False)  # (L, D), not a parameter

    def forward(self, context_length: int) -> torch.Tensor:
        """``context_length`` (T) -> (T, D)."""
        return self.table[:_check_length(context_length, self.max_context_length)]


class EmbeddingComposer(nn.Module):
    """token vectors + position vectors: (B, T) ids -> (B, T, D), positions broadcast over the batch."""

    def __init__(self, token_embedding: TokenEmbedding, positional_embedding: nn.Module | None) -> None:
        super().__init__()
        self.token_embedding = token_embedding
        self.positional_embedding = positional_embedding
        pos_d = getattr(positional_embedding, "d_model", token_embedding.d_model)
        if pos_d != token_embedding.d_model:
            raise ValueError(
                f"positional d_model ({pos_d}) must equal token d_model ({token_embedding.d_model}) to be summed"
            )

    def forward(self, ids) -> torch.Tensor:
        """ids (B, T) -> (B, T, D): token vectors plus the same position vectors for every sequence in the batch."""
        ids = _as_ids(ids, self.token_embedding.vocab_size)
        if ids.dim() != 2:
            raise ValueError(f"ids must have shape (B, T), got {tuple(ids.shape)}")
        B, T = ids.shape  # batch size, sequence length
        tok = self.token_embedding(ids)  # (B, T, D)
        if self.positional_embedding is None:
            return tok
        pos = self.positional_embedding(T).unsqueeze(0)  # (1, T, D), broadcast over B
        return tok + pos


def embed_text(text: str, *, d_model: int = 16, max_context_length: int = 256, seed: int = 0):
    """Lesson 000's pipeline on a string: byte ids -> token vectors + sinusoidal position vectors -> sum.

    Returns (ids, token_vectors, position_vectors, inputs) as numpy arrays of shapes (T,), (T, D), (T, D), (T, D),
    with a randomly initialised token table (seeded) scaled by 1/sqrt(D) so both parts are of a similar size.
    """
    from embedviz.tokens.tokenizer import VOCAB_SIZE, encode

    ids = encode(text)
    if not ids:
        raise InputError("empty_text")
    d_model = positive_int("d_model", d_model)
    seed = positive_int("seed", seed, minimum=0)
    # a private seeded generator leaves the caller's random stream as it was
    generator = torch.Generator().manual_seed(seed)
    tok = TokenEmbedding(VOCAB_SIZE, d_model, init_std=d_model**-0.5, generator=generator)
    composer = EmbeddingComposer(tok, SinusoidalPositionalEmbedding(max_context_length, d_model))
    batch = torch.tensor([ids])  # (1, T)
    with torch.no_grad():
        token_vectors = tok(batch)[0]  # (T, D)
        position_vectors = composer.positional_embedding(len(ids))  # (T, D)
        inputs = composer(batch)[0]  # (T, D)
    return (
        torch.tensor(ids).numpy(),
        token_vectors.numpy(),
        position_vectors.numpy(),
        inputs.numpy(),
    )
