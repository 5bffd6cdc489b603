"""The core has one word for a context's length (how many positions a sequence or window holds): ``context_length``.

Five words once named it (``context_length``, ``length``, ``seq_len``, ``T``, ``context``), so a reader could not
tell from a signature whether two functions meant the same thing. This scan reads every public function and every
public method (``__init__`` and ``forward`` too, so a record's fields) of every core module, and refuses a parameter
spelt one of the old ways unless the allow-list below says why that one means something else. A limit on it is
``max_context_length`` (the input layer's word; ``max_positions`` was the parameter counter's).

Other codebases' words (``seq_len``, ``max_len``, ``max_positions``) also hid outside the signatures: in the app's
records, in the data a page sends the browser and in the browser's code. A second scan reads the source of all of
embedviz/ and the live figures' JS for them.
"""
from __future__ import annotations

import ast
import importlib
import inspect
import pkgutil
import re

import pytest

import embedviz
from tests.conftest import ROOT

OLD_WORDS = {"length", "seq_len", "T", "context", "max_len", "num_positions", "max_positions"}
ALLOWED = {  # (module, function, parameter): why this parameter is not a context's length
    ("embedviz.dot_product", "polar_vector", "length"): "a vector's length (its norm), not a number of positions",
    # scaling.py transcribes transformers' ROPE_INIT_FUNCTIONS, whose functions take (config, device, seq_len): the
    # same keyword lets one kwargs dict drive ours and transformers' in tests/test_rope_scaling.py, and its reader
    # compares the two line by line. Callers from the rest of the core hand their context_length to it.
    ("embedviz.rope.scaling", "compute", "seq_len"): "transformers' own keyword for its dynamic RoPE functions",
    ("embedviz.rope.scaling", "dynamic_base", "seq_len"): "transformers' own keyword, as compute takes it",
}
# Other codebases' words for a context's length, refused everywhere under embedviz/: in Python as parameters (private
# ones too), record fields and dict keys; in the live figures' JS as names and properties (snake_case is the data
# Python sends, camelCase the JS's own). They were Extension.seq_len, RopePreset.max_len, the live figure's
# "seq_len" and formulas.js's seqLen.
FOREIGN_WORDS = {"seq_len", "max_len", "max_positions"}
FOREIGN_ALLOWED = {  # (file, word): why that file keeps it
    ("embedviz/rope/scaling.py", "seq_len"): "the transcription of transformers' rope functions keeps their keyword",
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


def _camel(word: str) -> str:
    head, *rest = word.split("_")
    return head + "".join(part.title() for part in rest)


def foreign_names(path, text: str) -> set[str]:
    """The FOREIGN_WORDS a file names: a Python file's parameters, class-body fields and dict-literal keys; a JS
    file's identifiers and property names, snake_case (the data Python sends) or camelCase."""
    found = set()
    if path.suffix == ".js":
        words = set(re.findall(r"[A-Za-z_$][\w$]*", re.sub(r"//.*", "", text)))
        return {w for w in FOREIGN_WORDS if w in words or _camel(w) in words}
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.arguments):
            found |= {a.arg for a in (*node.posonlyargs, *node.args, *node.kwonlyargs, node.vararg, node.kwarg) if a}
        elif isinstance(node, ast.ClassDef):
            found |= {b.target.id for b in node.body if isinstance(b, ast.AnnAssign) and isinstance(b.target, ast.Name)}
        elif isinstance(node, ast.Dict):
            found |= {k.value for k in node.keys if isinstance(k, ast.Constant) and isinstance(k.value, str)}
    return found & FOREIGN_WORDS


def foreign_spellings() -> set[tuple[str, str]]:
    files = [*(ROOT / "embedviz").rglob("*.py"), *(ROOT / "embedviz" / "app" / "live").glob("*.js")]
    return {(str(f.relative_to(ROOT)), word) for f in files if not f.name.endswith(".min.js")
            for word in foreign_names(f, f.read_text(encoding="utf-8"))}


def test_no_record_key_or_browser_variable_of_the_app_takes_another_codebase_s_word():
    unexplained = sorted(foreign_spellings() - set(FOREIGN_ALLOWED))
    assert not unexplained, f"{unexplained}: call a context's length context_length (max_context_length for a limit)"
    assert set(FOREIGN_ALLOWED) <= foreign_spellings()  # an entry no longer needed is dropped, not left to hide one


def test_the_foreign_word_scan_sees_each_place_a_word_hid():
    from pathlib import Path

    python = ("@dataclass\nclass Extension:\n    seq_len: int | None\n"
              "def live_fixed(method, *, max_len=0):\n    return {'max_positions': 1}\n")
    assert foreign_names(Path("x.py"), python) == FOREIGN_WORDS
    assert foreign_names(Path("x.js"), "const f = (p, seqLen) => p.max_len; // seq_len") == {"seq_len", "max_len"}
