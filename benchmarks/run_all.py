"""`make bench` (`python -m benchmarks.run_all` from the repository root): every benchmark in one run. Each
benchmarks/bench_*.py has a main() that prints its own table."""
from __future__ import annotations

import importlib
import os
import platform
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def machine() -> str:
    cpu = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{platform.system()} {platform.machine()}, {os.cpu_count()} cores, {cpu}, Python {platform.python_version()}"


def main() -> None:
    os.chdir(HERE.parent)
    print(f"# embedviz benchmarks\n\nMachine: {machine()}\n")
    for path in sorted(HERE.glob("bench_*.py")):
        module = importlib.import_module(f"benchmarks.{path.stem}")
        print(f"\n## {path.stem}\n")
        start = time.perf_counter()
        module.main()
        print(f"\n({path.stem} took {time.perf_counter() - start:.1f} s)")


if __name__ == "__main__":
    main()
