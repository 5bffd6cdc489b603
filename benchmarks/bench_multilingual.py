"""multilingual-e5-small and Qwen3's tokenizer: a replica's memory with both bundled models loaded, and the times of
the e5 lookups (neighbours over all 250,037 rows, the analogy, the cold load) and of Qwen3's tokenizer.

Memory is measured in a fresh interpreter that imports what a replica imports (the app frame, streamlit, torch),
then loads MiniLM, then e5, then runs the Real model page on e5 (every tab) and Token embeddings' Qwen3 tab in
AppTest: RSS after each step and the peak (VmHWM). Targets: RSS within 1 GB with both models, neighbours < 100 ms.

Run: .venv/bin/python -m benchmarks.bench_multilingual
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

from benchmarks._apptest import median_time, print_header, print_row  # noqa: E402

MEMORY_SCRIPT = r"""
import json, sys
def kb(field):
    for line in open("/proc/self/status"):
        if line.startswith(field):
            return int(line.split()[1])
out = []
import embedviz.app.frame, streamlit, torch  # what every replica imports
out.append(("imports (frame, streamlit, torch)", kb("VmRSS")))
from embedviz.models.pretrained import E5_NAME, load_bundled_model
load_bundled_model()
out.append(("+ all-MiniLM-L6-v2", kb("VmRSS")))
load_bundled_model(E5_NAME)
out.append(("+ multilingual-e5-small (float32, 384 MB)", kb("VmRSS")))
from streamlit.testing.v1 import AppTest
from embedviz.app.i18n import catalog
from embedviz.app.real_model_view import TAB_LABEL_KEYS
for key in TAB_LABEL_KEYS[:-1]:  # every tab but the upload
    at = AppTest.from_file(sys.argv[1] + "/app_pages/real_model.py", default_timeout=120)
    at.query_params["real_model"] = "multilingual-e5-small"
    at.session_state["real_tab"] = catalog()[key]["en"]
    at.run()
    assert not at.exception, at.exception
at = AppTest.from_file(sys.argv[1] + "/app_pages/token_embeddings.py", default_timeout=120)
at.query_params["tok_text"] = "我爱学习 Hello"
at.session_state["tok_tab"] = catalog()["multi.tab_qwen"]["en"]
at.run()
assert not at.exception, at.exception
out.append(("+ Real model on e5 (every tab) and Qwen3's tab, in AppTest", kb("VmRSS")))
out.append(("peak (VmHWM) of the whole run", kb("VmHWM")))
print(json.dumps(out))
"""


def memory_rows() -> list[tuple[str, int]]:
    result = subprocess.run([sys.executable, "-c", MEMORY_SCRIPT, str(ROOT)], capture_output=True, text=True,
                            cwd=ROOT, timeout=600)
    if result.returncode != 0:
        raise RuntimeError(result.stderr[-2000:])
    return json.loads(result.stdout.strip().splitlines()[-1])


def main() -> None:
    from embedviz.tokens import qwen as qwen_tokens
    from embedviz.models.pretrained import E5_NAME, load_bundled_model
    from embedviz.models.word_vectors import analogy, nearest_neighbours

    print(f"### Memory of one replica (fresh interpreter; load average {os.getloadavg()[0]:.1f})\n")
    print_header("step", "RSS", align="lr")
    for label, kb in memory_rows():
        print_row(label, f"{kb / 1024:,.0f} MiB")

    load_bundled_model.cache_clear()
    start = time.perf_counter()
    e5 = load_bundled_model(E5_NAME)
    load = time.perf_counter() - start
    W, tid = e5.token_embeddings, e5.token_id
    qwen_tokens.encode("热身")  # builds the BPE table once (timed separately below)
    text = "我爱学习 Hello, world! 位置编码让模型知道顺序。"
    rows = [
        ("load_bundled_model(e5) (cold: parse + dequantise 250,037 x 384)", load),
        ("nearest_neighbours('猫', k=10) over 250,037 rows", median_time(lambda: nearest_neighbours(W, tid("猫")),
                                                                         repeats=7)),
        ("nearest_neighbours('cat', k=50) over 250,037 rows", median_time(lambda: nearest_neighbours(W, tid("cat"),
                                                                                                     k=50), repeats=7)),
        ("analogy(king, man, woman) over 250,037 rows",
         median_time(lambda: analogy(W, tid("king"), tid("man"), tid("woman")), repeats=7)),
        ("token_id('汽车') (SentencePiece Viterbi)", median_time(lambda: tid("汽车"), repeats=7)),
        (f"Qwen3 encode ({len(text)} characters)", median_time(lambda: qwen_tokens.encode(text), repeats=7)),
        ("Qwen3 tokenize + 8 random rows (d_model 1,024)",
         median_time(lambda: qwen_tokens.random_rows(qwen_tokens.tokenize(text).ids[:8], 1_024, std=0.02),
                     repeats=7)),
    ]
    print(f"\n### Core (median of 7; OPENBLAS_NUM_THREADS={os.environ.get('OPENBLAS_NUM_THREADS', 'unset')})\n")
    print_header("what", "time", align="lr")
    for name, seconds in rows:
        print_row(name, f"{seconds * 1000:,.1f} ms")


if __name__ == "__main__":
    main()
