"""A core package's public functions by name, each loaded from its module when it is first asked for.

``from embedviz.rope import inverse_frequencies, compute`` works as ``from embedviz.rope.rotary import ...`` does, and
``import embedviz.rope.rotary`` still imports that module only: a package that imported every module it names would
make each of its modules cost all of them (``rope.layers`` and ``training`` read torch, a second or more), and the
pages import single modules. A package lists its names in ``__all__``; tests/test_exports.py holds the lists to the
modules' public functions.
"""
from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Mapping, Sequence


def lazy(package: str, by_module: Mapping[str, Sequence[str]]) -> tuple[list[str], Callable, Callable]:
    """``__all__``, ``__getattr__`` and ``__dir__`` for ``package`` (its ``__name__``) whose modules (by name, within
    it) define the functions ``by_module`` names."""
    where = {name: module for module, names in by_module.items() for name in names}

    def __getattr__(name: str):
        if name not in where:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(f"{package}.{where[name]}"), name)
        setattr(sys.modules[package], name, value)  # found once: the next look-up is a plain attribute
        return value

    def __dir__() -> list[str]:
        return sorted({*vars(sys.modules[package]), *where})

    return list(where), __getattr__, __dir__
