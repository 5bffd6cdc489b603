"""What a classroom network carries: the bytes and requests of one cold open of Home, and a class of 30 opening Home
at once over a 100 Mbit link they share, measured in Chromium (CDP's Network domain).

    sudo .venv/bin/python -m benchmarks.first_open                       # this checkout
    sudo .venv/bin/python -m benchmarks.first_open --root /other/checkout  # the code before, for an A/B

The class runs inside a network namespace of its own (``unshare --net``, root needed), whose loopback is shaped to
``--mbit`` by tc's token bucket filter with a 1,500-byte MTU: the server and the 30 browser contexts share that one
link, as a classroom shares its uplink. Without root it says so and measures the single open only.

Per student: the time from navigation to the first figure drawn (plotly's SVG in the page) and to the last byte that
arrived before it. On this 2-core machine 30 renderers and the server share two cores, so the drawing times are
the machine's, not a classroom's (one machine per student); the byte times are the link's.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-quic", "--no-first-run"]
FIGURE = ".js-plotly-plot .main-svg"


def load() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


async def open_home(browser, url: str, t0: float | None = None) -> dict:
    """One cold open (a context of its own: empty cache): requests, bytes on the wire, time to the first figure."""
    context = await browser.new_context(viewport={"width": 1280, "height": 720})
    page = await context.new_page()
    cdp = await context.new_cdp_session(page)
    await cdp.send("Network.enable")
    seen: dict[str, dict] = {}
    frames = {"bytes": 0}
    cdp.on("Network.responseReceived", lambda e: seen.setdefault(e["requestId"], {}).update(
        url=e["response"]["url"], status=e["response"]["status"],
        encoding={k.lower(): v for k, v in e["response"]["headers"].items()}.get("content-encoding", "")))
    cdp.on("Network.loadingFinished", lambda e: seen.setdefault(e["requestId"], {}).update(
        bytes=e["encodedDataLength"], done=time.monotonic()))
    cdp.on("Network.webSocketFrameReceived", lambda e: frames.__setitem__(
        "bytes", frames["bytes"] + len(e["response"]["payloadData"]) * 3 // 4))
    start = time.monotonic() if t0 is None else t0
    await page.goto(url + "/", timeout=300_000)
    await page.wait_for_selector(FIGURE, timeout=300_000)
    figure = time.monotonic()
    await page.wait_for_selector("[data-testid='stApp'][data-test-script-state='notRunning']", timeout=300_000)
    await page.wait_for_timeout(1_000)
    await context.close()
    http = [r for r in seen.values() if "url" in r and not r["url"].startswith("data:")]
    before = [r["done"] for r in http if r.get("done", figure + 1) <= figure]
    return {
        "requests": len(http),
        "http_bytes": sum(r.get("bytes", 0) for r in http),
        "ws_bytes": frames["bytes"],
        "gzipped": sum(1 for r in http if r.get("encoding") == "gzip"),
        "errors": [(r["url"], r["status"]) for r in http if r["status"] >= 400],
        "first_figure": figure - start,
        "bytes_before_figure_done": (max(before) - start) if before else None,
    }


async def measure(url: str, students: int) -> dict:
    from playwright.async_api import async_playwright

    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
        one = await open_home(browser, url)
        out = {"single": one, "load_single": load()}
        if students:
            t0 = time.monotonic()
            runs = await asyncio.gather(*(open_home(browser, url, t0) for _ in range(students)))
            out["class"] = {
                "first_figure": sorted(round(r["first_figure"], 1) for r in runs),
                "bytes_done": sorted(round(r["bytes_before_figure_done"] or 0, 1) for r in runs),
                "http_bytes": sum(r["http_bytes"] for r in runs),
                "errors": sum(len(r["errors"]) for r in runs),
            }
            out["load_class"] = load()
        await browser.close()
    return out


def shape_loopback(mbit: float) -> None:
    """In this process's own network namespace: loopback up, 1,500-byte MTU, ``mbit`` shared by all its traffic."""
    subprocess.run(["ip", "link", "set", "lo", "up", "mtu", "1500"], check=True)
    subprocess.run(["tc", "qdisc", "add", "dev", "lo", "root", "tbf", "rate", f"{mbit}mbit", "burst", "64kb",
                    "latency", "200ms"], check=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", type=Path, default=ROOT, help="the checkout to serve (default: this one)")
    parser.add_argument("--students", type=int, default=30)
    parser.add_argument("--mbit", type=float, default=100.0)
    parser.add_argument("--in-namespace", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if not args.in_namespace and args.students:
        if os.geteuid() == 0 and shutil.which("unshare") and shutil.which("tc"):
            return subprocess.call(["unshare", "--net", sys.executable, "-m", "benchmarks.first_open", "--in-namespace",
                                    *sys.argv[1:]], cwd=ROOT)
        print("not root (or no unshare/tc): the single open only, unshaped", file=sys.stderr)
        args.students = 0
    if args.in_namespace:
        shape_loopback(args.mbit)
    from deploy.launcher import serving

    log = Path("/tmp") / f"embedviz-first-open-{os.getpid()}.log"
    with serving(log, root=args.root.resolve(), timeout=300) as url:
        result = measure_sync(url, args.students)
    result.update(root=str(args.root), mbit=args.mbit if args.in_namespace else None)
    print(json.dumps(result, indent=1))
    from embedviz.app.request_limit import COLD_OPEN_REQUESTS

    if result["single"]["requests"] > COLD_OPEN_REQUESTS:
        print(f"a cold open made {result['single']['requests']} requests, more than COLD_OPEN_REQUESTS "
              f"({COLD_OPEN_REQUESTS}) that the request limits are sized by", file=sys.stderr)
        return 1
    return 0


def measure_sync(url: str, students: int) -> dict:
    return asyncio.run(measure(url, students))


if __name__ == "__main__":
    sys.exit(main())
