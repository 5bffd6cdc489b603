"""One ``ast.parse`` at a time in a process.

CPython 3.11 converts a parsed tree to Python objects with its recursion depth kept in interpreter-wide state, not
per thread; two threads converting at once (a thread switch inside one, then the other) leave it wrong, and the parse
fails with "SystemError: AST constructor recursion depth mismatch". A served process meets it: a session's first run
of a page compiles the page (Streamlit parses it to add its "magic") while the warm-up thread reads a bundled
model's ``.npz``, whose headers numpy reads with ``ast.literal_eval``; seen once as a failed page behind nginx.
Parses are rare once a server is warm (a page is compiled once, a model read once), so a lock around every parse
costs nothing a reader sees. ``literal_eval`` and Streamlit's magic both call the module's ``parse``, so wrapping
that one attribute covers them.
"""
from __future__ import annotations

import ast
import functools
import threading

_LOCK = threading.RLock()  # re-entrant: a parse's garbage collection may run code that parses


def serialize_ast_parse() -> None:
    """Make ``ast.parse`` take one process-wide lock (idempotent)."""
    if getattr(ast.parse, "_embedviz_serialized", False):
        return
    parse = ast.parse

    @functools.wraps(parse)
    def serialized(*args, **kwargs):
        with _LOCK:
            return parse(*args, **kwargs)

    serialized._embedviz_serialized = True
    ast.parse = serialized
