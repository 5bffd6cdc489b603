"""Work a run would repeat with the same answer, done once per run: ``this_run``, the run's memo (the reader's
language: a run looks a text up a few hundred times, and each read of session state costs microseconds a class's
burst pays a hundredfold). Measured with and without on a following class (benchmarks/README.md), it is the one
speed patch that moved the p95; those that did not were removed. It changes nothing a reader sees: ``install``
leaves it out on a Streamlit other than the one it was written for, and ``SPEED_OFF_ENV`` leaves out what it names.
"""
from __future__ import annotations

import os

from streamlit.runtime.scriptrunner import get_script_run_ctx

memo_on = True  # this_run's memo (install() turns it off on another Streamlit, or when SPEED_OFF_ENV names it)


def this_run() -> dict:
    """A dict that lives as long as the running script run (each run, a fragment's too, gets a new one): for what a
    run reads many times and cannot change within it, such as the reader's language. Outside a run, or with this
    memo left out, a throwaway."""
    ctx = get_script_run_ctx(suppress_warning=True)
    if ctx is None or not memo_on:
        return {}
    run, held = ctx.parallel_coordinator, getattr(ctx, "_embedviz_run", None)  # (the coordinator: new every run)
    if held is None or held[0] is not run:
        held = ctx._embedviz_run = (run, {})
    return held[1]


# The speed patches by name, each with what it wraps: each can be left out (SPEED_OFF_ENV) so one checkout is
# measured with and without it. ``this_run`` wraps nothing: left out, every call is a throwaway, as outside a run.
PATCHES: dict[str, tuple] = {"this_run": ()}
SPEED_OFF_ENV = "EMBEDVIZ_SPEED_OFF"  # comma-separated names of PATCHES to leave out, read by install()


def speed_off(environ=None) -> frozenset[str]:
    """The speed patches ``SPEED_OFF_ENV`` names; a name that is none of them is refused (a typo would measure
    the code with every patch on and call it "without")."""
    named = {n.strip() for n in (os.environ if environ is None else environ).get(SPEED_OFF_ENV, "").split(",")}
    named.discard("")
    unknown = named - set(PATCHES)
    if unknown:
        raise ValueError(f"{SPEED_OFF_ENV} names no speed patch {sorted(unknown)}; they are {sorted(PATCHES)}")
    return frozenset(named)
