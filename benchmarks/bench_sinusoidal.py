"""Sinusoidal table speed and accuracy, and rerun times of the "Why position" and "Sinusoidal" pages.

Run: .venv/bin/python -m benchmarks.bench_sinusoidal
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
from embedviz.lessons.widget_keys import Sinusoidal, WhyPosition

ROOT = Path(__file__).resolve().parents[1]

from benchmarks._apptest import median_time, print_cold_warm_reruns, print_header, print_row  # noqa: E402
from embedviz.app.i18n import catalog  # noqa: E402
from embedviz.positions.sinusoidal import frequencies, sinusoidal_table  # noqa: E402

L_SPEED, D_SPEED = 32_768, 1024
L_ACCURACY, D_ACCURACY = 131_072, 1024
CHUNK = 4096  # rows of the float64 reference at a time: 4096 x 1024 x 8 B = 32 MB


# the two baselines


def plain_numpy(max_pos: int, d_model: int) -> np.ndarray:
    """Lesson 003's heatmap code: float64 angles, np.sin / np.cos into np.zeros((L, D))."""
    positions = np.arange(max_pos)[:, None]
    omega = 1 / 10000 ** (2 * np.arange(d_model // 2) / d_model)
    angles = positions * omega
    pe = np.zeros((max_pos, d_model))
    pe[:, 0::2] = np.sin(angles)
    pe[:, 1::2] = np.cos(angles)
    return pe


def torch_float32(max_pos: int, d_model: int):
    """The usual PyTorch module buffer: a float32 outer product, then sin / cos."""
    import torch

    position = torch.arange(max_pos, dtype=torch.float32)[:, None]
    inv_freq = 1.0 / (10000 ** (torch.arange(0, d_model, 2, dtype=torch.float32) / d_model))
    angles = position * inv_freq  # (L, D/2)
    pe = torch.empty(max_pos, d_model)
    pe[:, 0::2] = torch.sin(angles)
    pe[:, 1::2] = torch.cos(angles)
    return pe


def max_error(table_fn, num_positions: int, d_model: int) -> float:
    """max |table - float64 formula| over every position, the reference built CHUNK rows at a time."""
    table = table_fn(num_positions, d_model)
    table = table.numpy() if hasattr(table, "numpy") else table
    omega = frequencies(d_model)
    worst = 0.0
    for start in range(0, num_positions, CHUNK):
        angles = np.arange(start, min(start + CHUNK, num_positions), dtype=np.float64)[:, None] * omega  # (C, D/2)
        block = table[start : start + CHUNK].astype(np.float64)
        worst = max(worst, np.abs(block[:, 0::2] - np.sin(angles)).max(), np.abs(block[:, 1::2] - np.cos(angles)).max())
    return float(worst)


def core_numbers() -> None:
    import torch

    print(f"### sinusoidal_table, L={L_SPEED:,}, D={D_SPEED} (median of 5; torch threads {torch.get_num_threads()})\n")
    # median of 5 after one untimed call (imports, page faults of the first allocation)
    ours, plain, tor = (median_time(fn, L_SPEED, D_SPEED, repeats=5, warm_up=True)
                        for fn in (sinusoidal_table, plain_numpy, torch_float32))
    print_header("version", "time (ms)", "ours is faster by", align="lrr")
    print_row("embedviz sinusoidal_table (float32)", f"{ours * 1e3:.1f}", "1.0x")
    print_row("plain numpy float64 (lesson 003)", f"{plain * 1e3:.1f}", f"{plain / ours:.1f}x (target >= 5x)")
    print_row("torch float32 outer product", f"{tor * 1e3:.1f}", f"{tor / ours:.1f}x (target >= 1x)")

    print(f"\n### max abs error vs float64 at every position 0..{L_ACCURACY - 1:,}, D={D_ACCURACY} (target <= 1e-5)\n")
    print_header("version", "max abs error", align="lr")
    print_row("embedviz sinusoidal_table", f"{max_error(sinusoidal_table, L_ACCURACY, D_ACCURACY):.2e}")
    print_row("torch float32 outer product", f"{max_error(torch_float32, L_ACCURACY, D_ACCURACY):.2e}")


# page reruns

# each section is a lazy tab (?sin_tab= holds its English label): a case names the tab whose widgets it sets
TAB = {code: catalog()[f"sin.tab_{code}"]["en"] for code in ("lesson", "similarity", "rotation")}

CASES = {
    "app_pages/why_position.py": [
        ("defaults", {}),
        ("why_seed=99", {WhyPosition.SEED: 99}),
        ("why_d=2", {WhyPosition.D_MODEL: 2}),
        ("why_d=64", {WhyPosition.D_MODEL: 64}),
        ("why_pos=sinusoidal", {WhyPosition.POSITIONS: "sinusoidal"}),
        # 64 one-letter words (127 characters: the text box holds 200)
        ("64 tokens, d=64, learned", {WhyPosition.TEXT: " ".join(chr(97 + i % 26) for i in range(64)),
                                      WhyPosition.D_MODEL: 64,
                                      WhyPosition.POSITIONS: "learned"}),
    ],
    "app_pages/sinusoidal.py": [
        ("defaults", {}),
        ("sin_d=2", {Sinusoidal.D_MODEL: 2}),
        ("sin_d=4096", {Sinusoidal.D_MODEL: 4096}),
        ("sin_L=1", {Sinusoidal.LENGTH: 1}),
        ("sin_L=131,072", {Sinusoidal.LENGTH: 131_072}),
        ("sin_base=100", {Sinusoidal.BASE: 100.0}),
        ("sin_base=10,000,000", {Sinusoidal.BASE: 1e7}),
        ("all maxima", {Sinusoidal.D_MODEL: 4096, Sinusoidal.LENGTH: 131_072, Sinusoidal.BASE: 1e7}),
        *[(f"all maxima, tab '{code}'", {Sinusoidal.TAB: TAB[code], Sinusoidal.D_MODEL: 4096,
                                         Sinusoidal.LENGTH: 131_072, Sinusoidal.BASE: 1e7})
          for code in ("lesson", "similarity")],
        ("all maxima, tab 'rotation', p = 1,000,000",
         {Sinusoidal.TAB: TAB["rotation"], Sinusoidal.D_MODEL: 4096, Sinusoidal.LENGTH: 131_072,
          Sinusoidal.BASE: 1e7, Sinusoidal.P: 1_000_000}),
    ],
}


def main() -> None:
    core_numbers()
    print_cold_warm_reruns(ROOT, CASES)


if __name__ == "__main__":
    main()
