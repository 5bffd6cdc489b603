"""2-D (axial) RoPE of vision encoders: each image patch turned by its row and its column.

A vision transformer's patch at (row h, column w) gets half of its pairs turned by h and half by w, so
q·k between two patches depends on their row offset and column offset only. transformers 5.24's vision rotary
modules build the two frequency ladders two ways (:data:`LAYOUTS`):
- "qwen2_vl" (Qwen2-VL / Qwen2.5-VL's VisionRotaryEmbedding): one ladder θ^(−2i/(d/2)) over d/2, used for the
  rows and again for the columns;
- "pixtral" (Pixtral / Mistral 3's vision encoder): one ladder θ^(−2i/d) over the whole head, its even steps for
  the rows and its odd steps for the columns.
Text M-RoPE (:func:`embedviz.rope.layers.mrope_sections`) splits pairs into time / height / width bands the same way.
"""
from __future__ import annotations

import numpy as np

from embedviz._validate import even_int, finite_float, multiple_of, one_of, positive_int

LAYOUTS = ("qwen2_vl", "pixtral")
# the published vision encoders' head size and theta, per layout (Qwen2-VL: 1,280 / 16 heads; Pixtral: 1,024 / 16)
DEFAULTS = {"qwen2_vl": (80, 10_000.0), "pixtral": (64, 10_000.0)}
MAX_GRID = 64  # patches per side the page draws (Qwen2-VL's images reach ~100; the pattern repeats long before)


def axial_frequencies(head_dim: int, theta: float, layout: str) -> tuple[np.ndarray, np.ndarray]:
    """(row frequencies, column frequencies), each head_dim/4 long, as the layout's rotary module builds them."""
    one_of("layout", layout, LAYOUTS)
    head_dim = even_int("head_dim", head_dim, about="2-D RoPE")
    multiple_of("head_dim", head_dim, 4, about="2-D RoPE: half its pairs per axis")
    theta = finite_float("theta", theta, greater_than=1.0)
    if layout == "qwen2_vl":
        spatial = head_dim // 2
        ladder = theta ** (-np.arange(0, spatial, 2, dtype=np.float64) / spatial)
        return ladder, ladder.copy()
    ladder = theta ** (-np.arange(0, head_dim, 2, dtype=np.float64) / head_dim)
    return ladder[0::2], ladder[1::2]


def patch_angles(rows, cols, head_dim: int, theta: float, layout: str) -> np.ndarray:
    """Each patch's angle on each pair, shape (N, head_dim/2): the row's angles, then the column's."""
    rows, cols = np.asarray(rows, dtype=np.float64).reshape(-1), np.asarray(cols, dtype=np.float64).reshape(-1)
    freq_h, freq_w = axial_frequencies(head_dim, theta, layout)
    return np.concatenate([rows[:, None] * freq_h, cols[:, None] * freq_w], axis=1)


def patch_similarity(grid: int, row: int, col: int, *, head_dim: int, theta: float, layout: str) -> np.ndarray:
    """How alike patch (row, col)'s rotation is to every patch's on a grid x grid image, shape (grid, grid):
    the mean over pairs of cos(angle difference), i.e. q·k / |q||k| for a query and a key that are the same
    vector (equal in every pair) before rotation. 1 at the patch itself; it depends on the offset only.
    ``row`` and ``col`` count from 0, as position ids do, so the last patch is (grid - 1, grid - 1)."""
    grid = positive_int("grid", grid, maximum=MAX_GRID)
    row = positive_int("row", row, minimum=0, maximum=grid - 1)
    col = positive_int("col", col, minimum=0, maximum=grid - 1)
    rows, cols = np.divmod(np.arange(grid * grid), grid)
    angles = patch_angles(rows, cols, head_dim, theta, layout)
    here = angles[row * grid + col]
    return np.cos(angles - here).mean(axis=1).reshape(grid, grid)
