"""Screenshots of the app as its readers see it: pages at a projector's, a laptop's and a phone's size, both languages.

    .venv/bin/python -m tools.screenshots                      # Home, Sinusoidal and RoPE, 3 sizes x 2 languages
    .venv/bin/python -m tools.screenshots --pages home rope --sizes 1280x720 --langs zh --out /tmp/shots
    .venv/bin/python -m tools.screenshots --readme             # the README's picture, docs/home.png

It serves this checkout on a free loopback port (stopped by process id when done) and drives Debian's Chromium
through Playwright, as the browser tests do. The shots are for a person to look at: layout is tested by geometry
in tests/e2e, not by these pictures.
"""
from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from deploy.launcher import serving
from embedviz.app.i18n import LANG_KEY
from tests.e2e.conftest import CHROMIUM_ARGS, DEFAULT_URL, IDLE, chromium_path
from tests.e2e.tour_screen import PHONE_CONTEXT

ROOT = Path(__file__).resolve().parents[1]
README_SHOT = ROOT / "docs" / "home.png"
WAIT_MS = 4_000
SIZES = ("1280x720", "1440x900", "390x844")


def _size(text: str) -> dict[str, int]:
    width, height = (int(n) for n in text.lower().split("x"))
    return {"width": width, "height": height}


def take(pages: list[str], sizes: list[str], langs: list[str], out: Path, *, readme: bool = False) -> list[Path]:
    from playwright.sync_api import sync_playwright

    out.mkdir(parents=True, exist_ok=True)
    saved = []
    with tempfile.TemporaryDirectory() as tmp, serving(Path(tmp) / "streamlit.log") as url, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium_path(), headless=True, args=CHROMIUM_ARGS)
        for size in sizes:
            for lang in langs:
                # a phone-sized window is a phone (its user agent and touch): the app fits its charts to a phone
                device = {**PHONE_CONTEXT, "viewport": _size(size)} if _size(size)["width"] < 640 else {
                    "viewport": _size(size)}
                context = browser.new_context(**device, locale="zh-CN" if lang == "zh" else "en-US")
                page = context.new_page()
                for name in pages:
                    path = "" if name == DEFAULT_URL else name
                    page.goto(f"{url}/{path}?{LANG_KEY}={lang}", wait_until="domcontentloaded", timeout=120_000)
                    page.wait_for_selector(IDLE, timeout=120_000)
                    page.wait_for_timeout(WAIT_MS)  # plotly's last draw and the fonts
                    target = README_SHOT if readme else out / f"{name}-{lang}-{size}.png"
                    page.screenshot(path=str(target))
                    saved.append(target)
                context.close()
        browser.close()
    return saved


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pages", nargs="+", default=[DEFAULT_URL, "sinusoidal", "rope"], help="url paths")
    parser.add_argument("--sizes", nargs="+", default=list(SIZES), help="WIDTHxHEIGHT")
    parser.add_argument("--langs", nargs="+", default=["en", "zh"], choices=["en", "zh"])
    parser.add_argument("--out", type=Path, default=Path(tempfile.gettempdir()) / "embedviz-shots")
    parser.add_argument("--readme", action="store_true", help="write docs/home.png (Home, 1280x720, English)")
    args = parser.parse_args(argv)
    if args.readme:
        args.pages, args.sizes, args.langs = [DEFAULT_URL], ["1280x720"], ["en"]
    for path in take(args.pages, args.sizes, args.langs, args.out, readme=args.readme):
        print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
