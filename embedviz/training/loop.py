"""The model and the loop of the training experiment: a bag-of-embeddings language model and plain next-token
training with snapshots of the embedding table.

`embedviz.training.experiment` builds the data (the text's groups, or the user's text) and calls `fit`; this module knows
nothing about where the batches come from. All randomness comes from the caller's seeded ``torch.Generator``.
"""
from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterator
from typing import Literal

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

PROGRESS_CALLS = 50
SAMPLE_CHUNK_TOKENS = 262_144  # batches are drawn this many token ids at a time (2 MB of int64)

Optimizer = Literal["adam", "sgd"]
ProgressFn = Callable[[int, int], None]


class _EmptyEmbedding(nn.Embedding):
    """An nn.Embedding whose weight is left as allocated: TinyLM fills it from the run's generator, so the default
    initialisation would only consume torch's global RNG. (``nn.utils.skip_init`` does the same through the meta
    device, whose first use imports 2.5-3.7 s of torch machinery: a fresh server's first training call.)"""

    def reset_parameters(self) -> None:
        pass


class _EmptyLinear(nn.Linear):
    """An nn.Linear left as allocated, for the same reason as ``_EmptyEmbedding``."""

    def reset_parameters(self) -> None:
        pass


class TinyLM(nn.Module):
    """Embedding (num_rows, D) -> mean over the last ``context_length`` vectors -> untied linear head
    (D -> num_classes)."""

    def __init__(self, num_rows: int, num_classes: int, d_model: int, *, context_length: int,
                 generator: torch.Generator):
        super().__init__()
        self.context_length = context_length
        # built without drawing from torch's global RNG; we initialise from `generator` below
        self.embedding = _EmptyEmbedding(num_rows, d_model)
        self.head = _EmptyLinear(d_model, num_classes)
        with torch.no_grad():
            # N(0, 1) rows, as nn.Embedding and the text's torch.randn(vocab_size, d_model)
            self.embedding.weight.normal_(0.0, 1.0, generator=generator)
            # nn.Linear's own default: U(-1/sqrt(D), 1/sqrt(D)) for weight and bias
            bound = 1.0 / math.sqrt(d_model)
            self.head.weight.uniform_(-bound, bound, generator=generator)
            self.head.bias.uniform_(-bound, bound, generator=generator)

    def forward(self, tokens: torch.Tensor) -> torch.Tensor:
        """tokens (B, T + context_length - 1) -> logits (B, T, num_classes); logits[:, t] predicts
        tokens[:, t + context_length]."""
        x = self.embedding(tokens)  # (B, T + c - 1, D)
        if self.context_length > 1:
            # a bag of the previous `context_length` tokens: order inside the window is ignored (a tiny model)
            x = x.unfold(1, self.context_length, 1).mean(dim=-1)  # (B, T, D)
        return self.head(x)  # (B, T, num_classes)


def _batches(sample: Callable[[int], torch.Tensor], steps: int, tokens_per_batch: int) -> Iterator[torch.Tensor]:
    """Yield ``steps`` batches, drawing them ``chunk`` at a time: one sampling call per chunk, not per step."""
    chunk = max(1, min(steps, SAMPLE_CHUNK_TOKENS // tokens_per_batch))
    done = 0
    while done < steps:
        n = min(chunk, steps - done)
        yield from sample(n).unbind(0)  # n tensors of shape (B, W)
        done += n


def fit(
    model: TinyLM,
    sample: Callable[[int], torch.Tensor],
    *,
    tokens_per_batch: int,
    steps: int,
    lr: float,
    optimizer: Optimizer,
    snapshot_every: int,
    progress: ProgressFn | None,
    cpu_budget_s: float | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[tuple[int, np.ndarray]]]:
    """Train ``model`` on ``steps`` batches from ``sample(n) -> (n, B, W)``.

    ``cpu_budget_s``: stop after the first step at which this thread has used that much CPU time (a server bounds
    what one request can cost; CPU time of this thread, so other sessions' load does not shorten the run). The
    result then covers fewer steps: ``len(losses) < steps``, and the last snapshot is the step it stopped at.
    Returns (weights_before, weights_after, losses, snapshots).
    """
    started = time.thread_time()
    context_length = model.context_length
    params = list(model.parameters())
    opt: torch.optim.Optimizer = (
        # fused: one kernel per step instead of a dozen small ops per parameter (CPU Adam is per-tensor otherwise)
        torch.optim.Adam(params, lr=lr, fused=True) if optimizer == "adam" else torch.optim.SGD(params, lr=lr)
    )
    weight = model.embedding.weight

    def rows() -> np.ndarray:
        return weight.detach().numpy().astype(np.float32, copy=True)

    snapshots = [(0, rows())]
    weights_before = snapshots[0][1]
    # (steps,) filled in place: a list of one small tensor per step, allocated between each step's freed 2 MB
    # gradients, pinned glibc's heap so it grew ~0.8 MB per step (V 2,000, D 256: +600 MB over 745 steps)
    losses = torch.empty(steps)
    progress_every = max(1, steps // PROGRESS_CALLS)
    batches = _batches(sample, steps, tokens_per_batch)
    for step in range(1, steps + 1):
        tokens = next(batches)  # (B, T + context_length)
        logits = model(tokens[:, :-1])  # (B, T, C)
        targets = tokens[:, context_length:]  # (B, T): the token after each window
        # next-token prediction: cross-entropy of the true next token under softmax(logits)
        loss = F.cross_entropy(logits.reshape(-1, logits.shape[-1]), targets.reshape(-1))
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
        losses[step - 1] = loss.detach()
        if step % snapshot_every == 0 or step == steps:
            snapshots.append((step, rows()))
        if progress is not None and (step % progress_every == 0 or step == steps):
            progress(step, steps)
        if cpu_budget_s is not None and step < steps and time.thread_time() - started > cpu_budget_s:
            if snapshots[-1][0] != step:
                snapshots.append((step, rows()))
            break
    weights_after = snapshots[-1][1]
    return weights_before, weights_after, losses[:step].numpy().astype(np.float32), snapshots
