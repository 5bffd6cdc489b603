"""A table before training: Gaussian rows of a small standard deviation, the one place that draws them.

Lesson 000 (and GPT-2) initialise embedding tables with N(0, 0.02^2) entries; lesson 002 scales by 1/sqrt(d_model)
instead, and torch's own ``nn.Embedding`` uses 1. Every random table in embedviz comes from here, in one of two
forms: a whole torch table (for the nn.Modules) or chosen rows of a numpy table that never has to exist whole.
"""
from __future__ import annotations

import numpy as np

GPT2_STD = 0.02  # lesson 000 / GPT-2: a small Gaussian, so no row starts out closer to another than chance


def normal_table(num_rows: int, d_model: int, *, std: float = GPT2_STD, generator=None):
    """A (num_rows, D) torch tensor of N(0, std^2) entries, drawn from ``generator`` (torch's global one if None)."""
    import torch  # the numpy callers below never pay for importing torch

    return torch.randn(num_rows, d_model, generator=generator) * std


def normal_rows(rows, d_model: int, *, std: float = GPT2_STD, seed: int = 0, table: int = 0) -> np.ndarray:
    """Rows ``rows`` of a random (L, D) table of N(0, std^2) entries, shape (P, D), float64.

    Each row is drawn from its own seeded stream (seed, table, row), so row p is the same whichever other rows are
    asked for: a 131072 x 4096 table (2 GB) never has to exist to show the few hundred rows a figure needs. ``table`` tells apart two
    tables drawn from the same seed.
    """
    rows = np.asarray(rows, dtype=np.int64).reshape(-1)
    out = np.empty((rows.size, d_model))  # (P, D)
    for i, p in enumerate(rows):
        out[i] = np.random.default_rng([seed, table, int(p)]).normal(0.0, std, d_model)
    return out
