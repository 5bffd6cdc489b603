"""Input checks shared by the core: every message names the parameter, the value and what is allowed."""
from __future__ import annotations

import math
import numbers
from collections.abc import Iterable
from typing import Any

import numpy as np

from embedviz.errors import InputError


def positive_int(name: str, value, *, minimum: int = 1, maximum: int | None = None) -> int:
    """Return ``value`` as an int in [minimum, maximum]; bools, floats and strings are refused.

    The one integer check of the core (pass ``minimum=0`` for counts and ids): every message reads
    "name (value) must be ...", e.g. "steps (0) must be >= 1", "d_model (2.5) must be an integer, got float".
    """
    # bool is a subclass of int in Python; True as a vocabulary size is a mistake, not the number 1
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral):
        raise InputError("integer", name=name, value=value, kind=type(value).__name__)
    value = int(value)
    if maximum is not None and value.bit_length() > 64 and value > maximum:  # no 400-digit number in a message
        raise InputError("huge_at_most", name=name, digits=_digits(value), limit=maximum)
    if value < minimum:
        raise InputError("at_least", name=name, value=value, limit=minimum)
    if maximum is not None and value > maximum:
        raise InputError("at_most", name=name, value=value, limit=maximum)
    return value


def finite_float(name: str, value, *, greater_than: float | None = None) -> float:
    """Return ``value`` as a finite float, optionally strictly above ``greater_than``."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise InputError("number", name=name, value=value)
    try:
        value = float(value)
    except OverflowError:  # an integer past ~1.8e308 (a config.json may hold a 400-digit one)
        raise InputError("huge_finite", name=name, digits=_digits(value)) from None
    if not math.isfinite(value):
        raise InputError("finite", name=name, value=value)
    if greater_than is not None and value <= greater_than:
        raise InputError("above", name=name, value=value, limit=greater_than)
    return value


def even_int(name: str, value, *, what: str, maximum: int | None = None) -> int:
    value = positive_int(name, value, minimum=2, maximum=maximum)
    if value % 2:
        raise InputError("even", name=name, value=value, what=what)
    return value


def choices(values: Iterable) -> str:
    """Allowed values as a message lists them, each as it is written in code: "'half', 'interleaved'"."""
    return ", ".join(repr(v) for v in values)


def one_of(name: str, value: Any, allowed: Iterable) -> Any:
    """Return ``value`` if it is one of ``allowed`` (a tuple, or a dict's keys), else refuse it naming them all."""
    allowed = tuple(allowed)
    try:
        known = value in allowed
    except TypeError:  # e.g. a list compared with strings' hashes: not one of them either
        known = False
    if not known:
        raise InputError("one_of", name=name, value=value, allowed=choices(allowed))
    return value


def finite_array(name: str, array) -> np.ndarray:
    array = np.asarray(array)
    if not np.issubdtype(array.dtype, np.number):
        raise InputError("numeric_array", name=name, dtype=array.dtype)
    if not np.all(np.isfinite(array)):
        raise InputError("non_finite", name=name)
    return array


def _digits(value: int) -> int:
    """Decimal digits of a (huge) integer, +-1, without converting it to text (Python refuses past 4,300 digits)."""
    return max(1, math.floor(abs(int(value)).bit_length() * math.log10(2)) + 1)
