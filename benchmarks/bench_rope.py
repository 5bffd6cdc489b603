"""RoPE core speed, and rerun times of the "RoPE" and "Compare encodings" pages at defaults and every extreme.

Run: .venv/bin/python -m benchmarks.bench_rope
"""
from __future__ import annotations

import os
from pathlib import Path

import numpy as np
from embedviz.lessons.widget_keys import Compare, Rope

ROOT = Path(__file__).resolve().parents[1]

from benchmarks._apptest import median_times, print_cold_warm_reruns, print_header, print_row  # noqa: E402
from embedviz import similarity  # noqa: E402
from embedviz.rope import rotary  # noqa: E402
from embedviz.app.i18n import catalog  # noqa: E402

TAB = {code: catalog()[f"rope.tab_{code}"]["en"] for code in ("pair", "decay", "random", "wave", "pairing")}
PAIR_TAB = TAB["pair"]  # the 2-D pair demo's inputs exist only when its lazy tab is open
MAXIMA = {Rope.HEAD_DIM: 256, "rope_theta": 1e7, Rope.LENGTH: 131_072}
CMP_TAB = {code: catalog()[f"cmp.tab_{code}"]["en"] for code in ("adjacent", "matrix", "past", "alibi", "props")}
CMP_MAXIMA = {Compare.D_MODEL: 4_096, Compare.LENGTH: 131_072, Compare.HEADS: 128, Compare.K: 1_000_000}

B_HEADS, T_ROTATE, D_HEAD = 32, 4_096, 128  # one Llama-2-7B layer's queries for a 4K context
CORE = {"repeats": 5, "warm_up": True}  # core calls: median of 5 after one untimed call


def torch_rotate_half(x, positions, theta: float = 10_000.0):
    """Hugging Face Llama's apply_rotary_pos_emb in float32 torch, the usual production path (a baseline)."""
    import torch

    d = x.shape[-1]
    inv_freq = 1.0 / (theta ** (torch.arange(0, d, 2, dtype=torch.float32) / d))
    freqs = positions[:, None].float() * inv_freq  # (T, d/2)
    emb = torch.cat([freqs, freqs], dim=-1)  # (T, d)
    rotated = torch.cat([-x[..., d // 2 :], x[..., : d // 2]], dim=-1)
    return x * emb.cos() + rotated * emb.sin()


def core_numbers() -> None:
    import torch

    x = np.random.default_rng(0).normal(size=(B_HEADS, T_ROTATE, D_HEAD))
    pos = np.arange(T_ROTATE)
    print(f"### rope.rotate on (H={B_HEADS}, T={T_ROTATE:,}, head_dim={D_HEAD}), float64 (median of 5)\n")
    print_header("version", "wall (ms)", "CPU (ms)", align="lrr")
    for pairing in ("half", "interleaved"):
        wall, cpu = median_times(rotary.rotate, x, pos, pairing=pairing, **CORE)
        print_row(f"embedviz rope.rotate, {pairing}", f"{wall * 1e3:.1f}", f"{cpu * 1e3:.1f}")
    xt, pt = torch.from_numpy(x.astype(np.float32)), torch.arange(T_ROTATE)
    wall, cpu = median_times(torch_rotate_half, xt, pt, **CORE)
    print_row("torch float32 rotate_half (HF Llama), baseline", f"{wall * 1e3:.1f}", f"{cpu * 1e3:.1f}")
    got = rotary.rotate(x, pos)
    err = np.abs(got - torch_rotate_half(xt, pt).numpy()).max()
    print(f"\nmax |embedviz - torch float32| = {err:.1e} (float32 rounding of angles up to {T_ROTATE - 1:,} rad)")

    distances = np.arange(131_072)
    wall, cpu = median_times(rotary.decay_curve, 128, 10_000.0, distances, **CORE)
    print(f"\ndecay_curve(128, 10000) at all 131,072 distances: {wall * 1e3:.1f} ms wall, {cpu * 1e3:.1f} ms CPU")
    X = np.random.default_rng(1).normal(size=(96, 4_096))
    wall, cpu = median_times(similarity.cosine_similarity_matrix, X, **CORE)
    print(f"cosine_similarity_matrix of 96 x 4,096 (one compare panel at d_model 4096): {wall * 1e3:.1f} ms wall, "
          f"{cpu * 1e3:.1f} ms CPU (OPENBLAS_NUM_THREADS={os.environ.get('OPENBLAS_NUM_THREADS', 'unset')})")


# page reruns

CASES = {
    "app_pages/rope.py": [
        ("defaults", {}),
        ("rope_hd=2", {Rope.HEAD_DIM: 2}),
        ("rope_hd=256", {Rope.HEAD_DIM: 256}),
        ("rope_theta=100", {"rope_theta": 100.0}),
        ("rope_theta=10,000,000", {"rope_theta": 1e7}),
        ("rope_len=16", {Rope.LENGTH: 16}),
        ("rope_len=131,072", {Rope.LENGTH: 131_072}),
        ("rope_win=131,072", {Rope.WINDOW: 131_072}),
        ("rope_i=63 (pair tab)", {Rope.TAB: PAIR_TAB, Rope.PAIR: 63}),
        ("rope_m, n, s = 1,000,000 (pair tab)",
         {Rope.TAB: PAIR_TAB, Rope.M: 1_000_000, Rope.N: 1_000_000, Rope.SHIFT: 1_000_000}),
        ("rope_pairing=interleaved", {Rope.PAIRING: "interleaved"}),
        ("preset Qwen3-0.6B", {Rope.PRESET: "Qwen3-0.6B"}),
        ("all maxima", {**MAXIMA, Rope.WINDOW: 131_072}),
        *[(f"all maxima, tab '{code}'", {Rope.TAB: TAB[code], **MAXIMA})
          for code in ("decay", "random", "wave", "pairing")],
    ],
    "app_pages/compare.py": [
        ("defaults", {}),
        ("cmp_d=2", {Compare.D_MODEL: 2}),
        ("cmp_d=4096", {Compare.D_MODEL: 4_096}),
        ("cmp_len=16", {Compare.LENGTH: 16}),
        ("cmp_len=131,072", {Compare.LENGTH: 131_072}),
        ("cmp_heads=1", {Compare.HEADS: 1}),
        ("cmp_heads=128", {Compare.HEADS: 128}),
        ("cmp_k=1,000,000", {Compare.K: 1_000_000}),
        ("all maxima", CMP_MAXIMA),  # the first tab (parameters) has no chart: each chart tab at the maxima
        *[(f"all maxima, tab '{code}'", {Compare.TAB: CMP_TAB[code], **CMP_MAXIMA}) for code in CMP_TAB],
    ],
}


def main() -> None:
    core_numbers()
    print_cold_warm_reruns(ROOT, CASES)


if __name__ == "__main__":
    main()
