"""The core has one word for a context's length (how many positions a sequence or window holds): ``context_length``.

Five words once named it (``context_length``, ``length``, ``seq_len``, ``T``, ``context``), so a reader could not
tell from a signature whether two functions meant the same thing. This scan reads every public function and every
public method (``__init__`` and ``forward`` too) of every core module, and refuses a parameter spelt one of the old
ways unless the allow-list below says why that one means something else.
"""
from __future__ import annotations

import importlib
import inspect
import pkgutil

import pytest

import embedviz

OLD_WORDS = {"length", "seq_len", "T", "context", "max_len", "num_positions"}
ALLOWED = {  # (module, function, parameter): why this parameter is not a context's length
    ("embedviz.dot_product", "polar_vector", "length"): "a vector's length (its norm), not a number of positions",
    # scaling.py transcribes transformers' ROPE_INIT_FUNCTIONS, whose functions take (config, device, seq_len): the
    # same keyword lets one kwargs dict drive ours and transformers' in tests/test_rope_scaling.py, and its reader
    # compares the two line by line. Callers from the rest of the core hand their context_length to it.
    ("embedviz.rope.scaling", "compute", "seq_len"): "transformers' own keyword for its dynamic RoPE functions",
    ("embedviz.rope.scaling", "dynamic_base", "seq_len"): "transformers' own keyword, as compute takes it",
    # The tiny language model sees context_length tokens (1 for the bigram); seq_len is how many next-token
    # targets one row of a training batch holds (the T of its (B, T) batch), a batch's shape, not what the model sees.
    ("embedviz.training.experiment", "train_group_experiment", "seq_len"): "targets per training row (batch shape)",
    ("embedviz.training.experiment", "train_on_text", "seq_len"): "targets per training row (batch shape)",
}


def core_modules(package=embedviz):
    """Every module of the core, embedviz.app left out (not even imported: it would import streamlit)."""
    yield package
    for info in pkgutil.iter_modules(package.__path__, f"{package.__name__}."):
        if info.name == "embedviz.app":
            continue
        module = importlib.import_module(info.name)
        if info.ispkg:
            yield from core_modules(module)
        else:
            yield module


def public_callables(module):
    """(qualified name, function) of the module's own public functions and its public classes' public methods."""
    for name, obj in vars(module).items():
        if name.startswith("_") or getattr(obj, "__module__", None) != module.__name__:
            continue
        if inspect.isfunction(obj):
            yield name, obj
        elif inspect.isclass(obj):
            for method, fn in vars(obj).items():
                if inspect.isfunction(fn) and (not method.startswith("_") or method in ("__init__", "__call__")):
                    yield f"{name}.{method}", fn


def old_spellings() -> dict[tuple[str, str, str], None]:
    found = {}
    for module in core_modules():
        for qualname, fn in public_callables(module):
            for parameter in inspect.signature(fn).parameters:
                if parameter in OLD_WORDS:
                    found[(module.__name__, qualname, parameter)] = None
    return found


def test_a_context_s_length_is_called_context_length_in_every_public_core_signature():
    unexplained = sorted(set(old_spellings()) - set(ALLOWED))
    assert not unexplained, (
        f"{unexplained}: a context's length is `context_length` in the core; if this parameter means something "
        "else, add it to ALLOWED with the reason")


def test_every_allowed_spelling_is_still_there():
    """An entry whose function was renamed or removed would let the next parameter of that name pass unread."""
    assert set(ALLOWED) <= set(old_spellings())


@pytest.mark.parametrize(("module", "qualname"), [
    ("embedviz.input_layer.embeddings", "LearnedPositionalEmbedding.forward"),
    ("embedviz.input_layer.embeddings", "SinusoidalPositionalEmbedding.forward"),
    ("embedviz.positions.alibi", "alibi_bias"),
    ("embedviz.rope.reach", "Reach.limit"),
    ("embedviz.rope.theta_calculator", "theta_for_context"),
    ("embedviz.encodings", "past_the_end"),
    ("embedviz.rope.context_extension", "extension_view"),
    ("embedviz.training.experiment", "train_on_text"),
])
def test_the_scan_reads_the_signatures_it_guards(module, qualname):
    """The scan sees forward() of a torch module, a dataclass's method and a plain function alike: each place the
    old words lived is among what it reads, under the one word."""
    seen = dict(public_callables(importlib.import_module(module)))
    assert "context_length" in inspect.signature(seen[qualname]).parameters
