"""What one more thing on a page costs a slider step in the browser: the parts behind "Where the time goes" (README).

    PYTHONPATH=. OPENBLAS_NUM_THREADS=1 .venv/bin/python -m benchmarks.element_cost            # ~6 min
    ... benchmarks/element_cost.py --only paragraphs-36 fragment-36 --steps 6

Each probe is the floor (``benchmarks/baseline_page.py``: a title, one slider, one small heatmap) with one thing
added: 36 paragraphs, 12 metrics, a tab bar around the slider and chart, a fragment, ... The probes are written to
a temporary folder and measured by ``benchmarks/feel.py`` as ``--script`` rows next to the floor, in the same run
and browser, so each row's step ratio is what that one thing adds to a step. ``*framed_page*`` is the floor inside
the app's frame. A probe's row is named after it; the legend under the table says what each one adds.

Why not measure the pages themselves: a page's step is the sum of many small parts (the frame, every element a
rerun sends, the tab bar, the chart), and none stands out in a profile. The probes price the parts one at a time.
"""
from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

from benchmarks import feel  # noqa: E402

HEADER = '''import streamlit as st

from benchmarks.baseline_page import floor

PARA = "Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore. " * 2
TABS = ["Lookup", "Initialisation", "One-hot vs dense", "Which rows learn", "Parameter cost"]
st.title("Baseline")
'''

PAGE_LIKE = """st.markdown(PARA)
st.text_input('text', 'Hello', key='text')
c1, c2, c3 = st.columns([3, 5, 1])
c1.number_input('width', 1, 64, 8, key='width')
c2.segmented_control('init', ['a', 'b', 'c'], default='a', key='init')
c3.number_input('seed', 0, 99, 0, key='seed')
st.button('lesson')
st.caption(PARA)
with st.tabs(TABS, key='tab', bind='query-params')[0]:
    st.markdown(PARA)
    st.latex(r'X = W[\\mathrm{ids}] = \\mathrm{one\\_hot}(\\mathrm{ids})\\,W')
    floor()
    for col in st.columns(3):
        col.metric('metric', '1.0', help='help')
    st.info(PARA)
"""

# name -> (what it adds to the floor, the code after HEADER)
PROBES: dict[str, tuple[str, str]] = {
    "paragraphs-36": ("36 markdown paragraphs under the chart, each its own element, sent again on every step",
                      "floor()\nfor i in range(36):\n    st.markdown(f'{i} {PARA}')\n"),
    "one-markdown-36": ("the same 36 paragraphs in one st.markdown",
                        "floor()\nst.markdown('\\n\\n'.join(f'{i} {PARA}' for i in range(36)))\n"),
    "metrics-12": ("12 st.metric with a help tooltip",
                   "floor()\nfor i in range(12):\n    st.metric(f'metric {i}', f'{i}.5', help='help')\n"),
    "latex-12": ("12 st.latex formulas",
                 "floor()\nfor i in range(12):\n    st.latex(r'\\|e_i-e_j\\|=\\sqrt{2}\\approx1.414 + %d' % i)\n"),
    "number-inputs-8": ("8 st.number_input widgets",
                        "floor()\nfor i in range(8):\n    st.number_input(f'x{i}', 0, 100, i, key=f'x{i}')\n"),
    "tabs-bound": ("the slider and chart in the first of 5 tabs bound to the URL (as widgets.bound_tabs: lazy)",
                   "with st.tabs(TABS, key='tab', bind='query-params')[0]:\n    floor()\n"),
    "tabs-plain": ("the slider and chart in the first of 5 plain tabs",
                   "with st.tabs(TABS)[0]:\n    floor()\n"),
    "tabs-above": ("the same bound tab bar, with the slider and chart under it instead of inside the first tab",
                   "st.tabs(TABS, key='tab', bind='query-params')\nfloor()\n"),
    "tabs-above-fragment": ("the bound tab bar, with the slider and chart under it in an st.fragment",
                            "st.tabs(TABS, key='tab', bind='query-params')\nst.fragment(floor)()\n"),
    "segmented-5": ("a 5-option segmented control above the slider and chart (a tab bar's job, as one widget)",
                    "st.segmented_control('section', TABS, default=TABS[0], key='tab', bind='query-params')\n"
                    "floor()\n"),
    "fragment-36": ("36 paragraphs under the chart, with the slider and chart in an st.fragment: a step reruns "
                    "the fragment, the paragraphs are not sent again",
                    "st.fragment(floor)()\nfor i in range(36):\n    st.markdown(f'{i} {PARA}')\n"),
    "framed-fragment": ("the floor inside the app's frame, its slider and chart in an st.fragment: a step reruns the "
                        "fragment, not the frame (compare *framed_page*, where a step reruns both)",
                        "st.fragment(floor)()\n"),
    "framed-page-like": ("inside the app's frame, what a lesson page has around its chart: a paragraph, a text box, "
                         "three controls in columns, a button, a caption, then 5 bound tabs, the first holding a "
                         "paragraph, a formula, the slider and chart, 3 metrics with help and a notice",
                         PAGE_LIKE),
}
# probes served inside the app's frame (benchmarks/framed_page.py), as the default page
FRAMED = {"framed-fragment", "framed-page-like"}


def write_probes(folder: Path, names: list[str] | None = None) -> list[Path]:
    """One Streamlit script per probe in ``folder``, named after it; ``names``: only these (default: all)."""
    paths = []
    for name in names or PROBES:
        path = folder / f"{name}.py"
        path.write_text(HEADER + PROBES[name][1])
        if name in FRAMED:  # the probe becomes the frame's default page; the served script is the frame
            body, path = path.rename(folder / f"{name}-body.py"), path
            path.write_text(f"from benchmarks.framed_page import framed\n\nframed({str(body)!r})\n")
        paths.append(path)
    return paths


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", nargs="*", choices=list(PROBES), help="these probes (default: all)")
    parser.add_argument("--steps", type=int, default=8, help="key presses per probe (default 8)")
    parser.add_argument("--base-steps", type=int, default=3, help="floor steps before each probe (default 3)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="embedviz-probes-") as folder:
        scripts = [ROOT / "benchmarks" / "framed_page.py", *write_probes(Path(folder), args.only)]
        run_args = argparse.Namespace(pages=["none"], steps=args.steps, sliders=1, opens=1,  # no app page
                                      base_steps=args.base_steps, tabs=False, script=scripts)
        res = feel.run(run_args)
    print(feel.table(res))
    print("\nWhat each probe adds to the floor (one slider, one small heatmap):\n")
    print("- *framed_page*: the app's frame (navigation, language switch, tour controls)")
    for name in args.only or PROBES:
        print(f"- *{name}*: {PROBES[name][0]}")
    return 1 if feel.failed(res) else 0


if __name__ == "__main__":
    sys.exit(main())
