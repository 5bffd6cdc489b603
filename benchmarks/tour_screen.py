"""Where each tour step's figure starts on a 1280x720 projector, normal and presenter view (one server, one tab).

    .venv/bin/python -m benchmarks.tour_screen [--present | --both] [--lang zh] [--charts] [--pages-only]

Prints one row per step: the figure's (or waiting question's) top, Next's bottom, the panel's height and where the
step's figure ends (a question step's once answered), in px.
``--charts``: how many of the charts drawn read cleanly (no text on text, none cut by the chart's edge), per view,
and every clash; with the pages' defaults at 1280x720 and 390x844 too (``--pages-only``: just those).
"""
from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from deploy.launcher import serving
from tests.e2e.conftest import CHROMIUM_ARGS, chromium_path, new_context
from tests.e2e.tour_screen import PHONE, PHONE_CONTEXT, SCREEN, read_pages, walk


def report_charts(label: str, charts) -> None:
    """How many charts read cleanly, then each clash."""
    print(f"# charts clean, {label}: {sum(not c.problems for c in charts)} of {len(charts)}")
    for c in charts:
        for problem in c.problems:
            print(f"  {c.where}: {c.title[:50]!r}: {problem}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--present", action="store_true")
    parser.add_argument("--both", action="store_true", help="normal, then presenter view")
    parser.add_argument("--lang", default="en")
    parser.add_argument("--charts", action="store_true", help="count the charts that read cleanly, list clashes")
    parser.add_argument("--pages-only", action="store_true", help="only the pages' defaults (implies --charts)")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp, serving(Path(tmp) / "streamlit.log") as url, sync_playwright() as pw:
        chrome = pw.chromium.launch(executable_path=chromium_path(), headless=True, args=CHROMIUM_ARGS)
        context = new_context(chrome, url)
        page = context.new_page()
        for present in (() if args.pages_only else (False, True) if args.both else (args.present,)):
            boxes, seconds = walk(page, present=present, lang=args.lang)
            if args.charts:
                report_charts(f"tour {'presenter' if present else 'normal'}", [c for b in boxes for c in b.charts])
            print(f"# {'presenter' if present else 'normal'} view, {args.lang}, {SCREEN['width']}x{SCREEN['height']}:"
                  f" {len(boxes)} steps in {seconds:.1f} s")
            print("step     first_top  kind           next_bottom  panel_h  answered_top  answered_next  bottom")
            for b in boxes:
                print(f"{b.lesson}/{b.number:<4} {b.first_top!s:>9}  {b.kind or 'question':<14} {b.next_bottom!s:>11}"
                      f"  {b.panel_height!s:>7}  {b.answered_top!s:>12}  {b.answered_next!s:>13}"
                      f"  {b.whole_bottom!s:>6}")
            tops = [b.first_top for b in boxes if b.first_top is not None]
            answered = [b.answered_top for b in boxes if b.answered_top is not None]
            if answered:
                print(f"# answered questions: {len(answered)}, figure top < 720: {sum(t < 720 for t in answered)},"
                      f" max {max(answered)}")
            print(f"# first screen (top < 720): {sum(t < 720 for t in tops)}/{len(boxes)}; top < 432 (60%): "
                  f"{sum(t < 432 for t in tops)}; Next on screen: {sum((b.next_bottom or 9999) <= 720 for b in boxes)};"
                  f" max top {max(tops)}, median {sorted(tops)[len(tops) // 2]}")
            cut = {f"{b.lesson}/{b.number}": b.whole_bottom for b in boxes
                   if b.whole_bottom is None or b.whole_bottom > SCREEN["height"]}
            print(f"# figure ends on the screen (bottom <= {SCREEN['height']}): {len(boxes) - len(cut)}/{len(boxes)};"
                  f" past it: {cut}")
        if args.charts or args.pages_only:
            page.set_viewport_size(SCREEN)
            report_charts(f"pages {SCREEN['width']}x{SCREEN['height']}", read_pages(page, lang=args.lang))
            phone = chrome.new_context(**PHONE_CONTEXT, base_url=url.rstrip("/") + "/").new_page()
            report_charts(f"pages {PHONE['width']}x{PHONE['height']} (a phone)", read_pages(phone, lang=args.lang))
        chrome.close()


if __name__ == "__main__":
    main()
