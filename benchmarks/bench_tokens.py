"""Benchmark of the Token embeddings and Trained embedding pages.

Rerun times through AppTest (median of 3, after one warm-up run that fills the caches) at the defaults and at each
slider extreme, the largest chart JSON, and the core numbers the pages rest on: training 500 steps at the defaults
(best of 3) and one gradient step / three-way lookup at d_model 4096.

Run: .venv/bin/python -m benchmarks.bench_tokens
"""
from __future__ import annotations

import time
from pathlib import Path
from embedviz.lessons.widget_keys import Tokens, Training

ROOT = Path(__file__).resolve().parents[1]

from benchmarks._apptest import largest_chart_json, median_time  # noqa: E402

TOKEN_PAGE = str(ROOT / "app_pages" / "token_embeddings.py")
TRAINED_PAGE = str(ROOT / "app_pages" / "trained_embedding.py")
LONG_TEXT = "Hello, 世界! 你好，embedding 查表。" * 3  # ~64 characters, mixed bytes


def _rerun_times(path: str, *, session: dict | None = None, query: dict | None = None, repeats: int = 3):
    """Median seconds of ``at.run()`` once the caches are warm, and the largest chart JSON in bytes."""
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(path, default_timeout=600)
    for key, value in (query or {}).items():
        at.query_params[key] = value
    for key, value in (session or {}).items():
        at.session_state[key] = value
    at.run()  # warm-up: fills st.cache_data (and trains, on the trained page)
    if at.exception:
        raise RuntimeError(f"{path} {query} {session}: {at.exception}")
    return median_time(at.run, repeats=repeats), largest_chart_json(at)


def _best_of(fn, repeats: int = 3) -> float:
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    from embedviz.app.locales.token_embeddings import STRINGS as TOK
    from embedviz.app.locales.trained_embedding import STRINGS as TRAIN
    from embedviz.input_layer import lookup
    from embedviz.training import experiment
    from embedviz.tokens.tokenizer import encode

    tabs = {name: TOK[f"tok.tab_{name}"]["en"] for name in ("lookup", "onehot", "grad", "params")}
    cases = []
    for name, label in tabs.items():
        session = {Tokens.TAB: label}
        cases.append((f"tokens/{name} defaults", TOKEN_PAGE, session, {}))
        if name != "params":
            for d in ("2", "4096"):
                cases.append((f"tokens/{name} d_model={d}, 64 chars", TOKEN_PAGE, session,
                              {Tokens.D_MODEL: d, Tokens.TEXT: LONG_TEXT}))
    cases.append(("tokens/grad tied d_model=4096", TOKEN_PAGE, {Tokens.TAB: tabs["grad"], Tokens.TIED: True},
                  {Tokens.D_MODEL: "4096", Tokens.TEXT: LONG_TEXT}))
    cases.append(("tokens/params V=1,000,000 D=65,536", TOKEN_PAGE, {Tokens.TAB: tabs["params"]},
                  {Tokens.VOCAB: "1000000", Tokens.WIDTH: "65536", Tokens.PRESET: "custom"}))
    cases.append(("trained/groups defaults (cached)", TRAINED_PAGE, {}, {}))
    for key, value in ((Training.STEPS, "10"), (Training.D_MODEL, "256"), (Training.LR, "1.0"), (Training.LR,
                                                                                                 "0.0001")):
        cases.append((f"trained/groups {key}={value} (cached)", TRAINED_PAGE, {}, {key: value}))
    cases.append(("trained/own text defaults (cached)", TRAINED_PAGE, {Training.TAB: TRAIN["train.tab_text"]["en"]},
                  {}))

    print(f"{'view':46s} {'rerun (median of 3)':>20s} {'largest chart JSON':>20s}")
    largest_all = 0
    for name, path, session, query in cases:
        seconds, largest = _rerun_times(path, session=session, query=query)
        largest_all = max(largest_all, largest)
        print(f"{name:46s} {seconds * 1000:17.0f} ms {largest / 1024:17.1f} KB")
    print(f"{'largest chart JSON on both pages':46s} {'':>20s} {largest_all / 1024:17.1f} KB")

    print()
    print(f"{'core':46s} {'best of 3':>20s}")
    train = _best_of(lambda: experiment.train_group_experiment(steps=500))
    print(f"{'train_group_experiment 500 steps (defaults)':46s} {train:18.2f} s")
    W = lookup.init_table(256, 4_096)
    ids = encode(LONG_TEXT)
    print(f"{'gradient_step d_model=4096, tied':46s} {_best_of(lambda: lookup.gradient_step(ids, W, tied=True)) * 1000:17.0f} ms")
    print(f"{'compare_lookups d_model=4096':46s} {_best_of(lambda: lookup.compare_lookups(ids, W)) * 1000:17.0f} ms")


if __name__ == "__main__":
    main()
