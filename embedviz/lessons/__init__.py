"""The lessons as data: the guided tours (one row per step, and the answers to their questions) and every page's
widget keys, which are the pages' URL parameters. Pure data over the core, no streamlit."""

from embedviz._exports import lazy

# its public functions by module (embedviz/_exports.py: each loaded when first asked for). widget_keys names no
# function: its classes are imported from it (``from embedviz.lessons.widget_keys import Rope as K``).
__all__, __getattr__, __dir__ = lazy(__name__, {
    "tours": ("step", "answer"),
})
