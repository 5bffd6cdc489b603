"""Lighthouse's accessibility score and layout shift (CLS) of Home, Sinusoidal and RoPE, optionally against another
checkout run in the same minutes (A/B, interleaved).

    cd benchmarks/lighthouse && npm ci          # Lighthouse 12.2.3, pinned by its package-lock.json
    .venv/bin/python -m benchmarks.bench_lighthouse --runs 2
    .venv/bin/python -m benchmarks.bench_lighthouse --runs 2 --against /work/main   # that checkout's .venv and app

Lighthouse drives Debian's Chromium (--chrome-path), desktop preset, against servers on loopback; each line prints
the load average, since the performance side of Lighthouse (CLS included) moves with a busy machine. Not part of
``make bench``: it needs node and a local Lighthouse install, which the benchmarks' Python requirements do not bring.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from deploy.launcher import free_port, stop_process, wait_healthy

ROOT = Path(__file__).resolve().parents[1]
LIGHTHOUSE = ROOT / "benchmarks" / "lighthouse" / "node_modules" / ".bin" / "lighthouse"
CHROMIUM = os.environ.get("EMBEDVIZ_CHROMIUM", "/usr/bin/chromium")
PAGES = {"Home": "", "Sinusoidal": "sinusoidal", "RoPE": "rope"}
FLAGS = "--headless=new --no-sandbox --disable-gpu --disable-background-networking"


def loadavg() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def serve(root: Path, log: Path) -> tuple[subprocess.Popen, str]:
    """`make run`'s server from ``root`` (its own .venv, so its own embedviz), on a free loopback port."""
    python = root / ".venv" / "bin" / "python"
    port = free_port()
    env = {**os.environ, "EMBEDVIZ_WARM": "1"}
    proc = subprocess.Popen([str(python), "-m", "streamlit", "run", "serve.py", "--server.headless", "true",
                             "--server.address", "127.0.0.1", "--server.port", str(port),
                             "--server.fileWatcherType", "none", "--browser.gatherUsageStats", "false"],
                            cwd=root, env=env, stdout=open(log, "ab"), stderr=subprocess.STDOUT,
                            stdin=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    wait_healthy(f"{url}/_stcore/health", timeout=180, proc=proc, log_path=log)
    return proc, url


def lighthouse(url: str, out: Path) -> dict:
    subprocess.run([str(LIGHTHOUSE), url, f"--chrome-path={CHROMIUM}", f"--chrome-flags={FLAGS}", "--preset=desktop",
                    "--only-categories=accessibility,performance", "--output=json", f"--output-path={out}", "--quiet"],
                   check=True, timeout=300)
    report = json.loads(out.read_text())
    failing = [ref["id"] for ref in report["categories"]["accessibility"]["auditRefs"]
               if report["audits"][ref["id"]]["score"] not in (None, 1)]
    return {"accessibility": round(100 * report["categories"]["accessibility"]["score"]),
            "performance": round(100 * report["categories"]["performance"]["score"]),
            "cls": report["audits"]["cumulative-layout-shift"]["numericValue"], "failing": failing}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--against", type=Path, help="another checkout with its own .venv (A/B, interleaved)")
    args = parser.parse_args()
    if not LIGHTHOUSE.exists():
        sys.exit(f"Lighthouse is not installed: cd {LIGHTHOUSE.parents[2]} && npm ci")
    roots = {"this": ROOT, **({"against": args.against.resolve()} if args.against else {})}
    servers = {}
    with tempfile.TemporaryDirectory() as tmp:
        try:
            for name, root in roots.items():
                servers[name] = serve(root, Path(tmp) / f"{name}.log")
            for name, (_, url) in servers.items():  # a first open per page: imports and caches, not measured
                for path in PAGES.values():
                    lighthouse(f"{url}/{path}", Path(tmp) / "warm.json")
            print("run  checkout  page        a11y  perf    CLS  load average     failing audits")
            for run in range(1, args.runs + 1):
                for page, path in PAGES.items():
                    for name, (_, url) in servers.items():
                        r = lighthouse(f"{url}/{path}", Path(tmp) / "report.json")
                        print(f"{run:>3}  {name:<8}  {page:<10}  {r['accessibility']:>4}  {r['performance']:>4}"
                              f"  {r['cls']:5.3f}  {loadavg():<15}  {' '.join(r['failing']) or '-'}", flush=True)
        finally:
            for proc, _ in servers.values():
                stop_process(proc)


if __name__ == "__main__":
    main()
