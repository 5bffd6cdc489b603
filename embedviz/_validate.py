"""Input checks shared by the core: every message names the parameter, the value and what is allowed.

One condition is one check here, worded one way wherever the core meets it. Where the reader needs to know which
setting the rule belongs to (a pasted config's rope_type, the lesson a width is for), ``about`` names it and the
message ends "... for <about>" ("factor (0.5) must be >= 1 for rope_type 'linear'"); the code and the other params
stay those of the plain check, so a test or a translation reads one code per condition.
"""
from __future__ import annotations

import math
import numbers
from collections.abc import Iterable
from typing import Any

import numpy as np

from embedviz.errors import InputError


def positive_int(name: str, value, *, minimum: int = 1, maximum: int | None = None, about: str | None = None) -> int:
    """Return ``value`` as an int in [minimum, maximum]; bools, floats and strings are refused.

    The one integer check of the core (pass ``minimum=0`` for counts and ids): every message reads
    "name (value) must be ...", e.g. "steps (0) must be >= 1", "d_model (2.5) must be an integer, got float".
    """
    # bool is a subclass of int in Python; True as a vocabulary size is a mistake, not the number 1
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral):
        raise InputError("integer", name=name, value=value, kind=type(value).__name__, **_about(about))
    value = int(value)
    if maximum is not None and value.bit_length() > 64 and value > maximum:  # no 400-digit number in a message
        raise InputError("huge_at_most", name=name, digits=_digits(value), limit=maximum, **_about(about))
    if value < minimum:
        raise InputError("at_least", name=name, value=value, limit=minimum, **_about(about))
    if maximum is not None and value > maximum:
        raise InputError("at_most", name=name, value=value, limit=maximum, **_about(about))
    return value


def finite_float(name: str, value, *, greater_than: float | None = None, at_least: float | None = None,
                 at_most: float | None = None, about: str | None = None) -> float:
    """Return ``value`` as a finite float, optionally strictly above ``greater_than`` (or at least ``at_least``)
    and at most ``at_most``; bools and strings are refused. Both ``greater_than`` and ``at_most`` make one
    interval, refused as such: "partial_rotary_factor (1.5) must be in (0, 1]"."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise InputError("number", name=name, value=value, **_about(about))
    try:
        value = float(value)
    except OverflowError:  # an integer past ~1.8e308 (a config.json may hold a 400-digit one)
        raise InputError("huge_finite", name=name, digits=_digits(value), **_about(about)) from None
    if not math.isfinite(value):
        raise InputError("finite", name=name, value=value, **_about(about))
    if greater_than is not None and at_most is not None and not greater_than < value <= at_most:
        raise InputError("interval", name=name, value=value, low=greater_than, high=at_most, **_about(about))
    if greater_than is not None and value <= greater_than:
        raise InputError("above", name=name, value=value, limit=greater_than, **_about(about))
    if at_least is not None and value < at_least:
        raise InputError("at_least", name=name, value=value, limit=at_least, **_about(about))
    if at_most is not None and value > at_most:
        raise InputError("at_most", name=name, value=value, limit=at_most, **_about(about))
    return value


def even_int(name: str, value, *, about: str, maximum: int | None = None) -> int:
    """Return ``value`` as an even int >= 2; ``about`` says what needs it even ("RoPE": one pair per 2 dims)."""
    value = positive_int(name, value, minimum=2, maximum=maximum)
    if value % 2:
        raise InputError("even", name=name, value=value, about=about)
    return value


def multiple_of(name: str, value, k: int, *, about: str) -> int:
    """Return ``value`` as an int >= k that ``k`` divides; ``about`` says what needs it."""
    value = positive_int(name, value, minimum=k)
    if value % k:
        raise InputError("multiple", name=name, value=value, k=k, about=about)
    return value


def boolean(name: str, value, *, about: str | None = None) -> bool:
    """Return ``value`` if it is True or False (numpy's too); 1, "yes" and None are refused."""
    if not isinstance(value, (bool, np.bool_)):
        raise InputError("boolean", name=name, value=value, **_about(about))
    return bool(value)


def string(name: str, value, *, limit: int | None = None, empty: bool = True, blank: bool = True) -> str:
    """Return ``value`` if it is a str of at most ``limit`` characters; ``empty=False`` refuses "", ``blank=False``
    also a text of spaces only (a word to look up has none)."""
    if not isinstance(value, str):
        raise InputError("string", name=name, kind=type(value).__name__)
    if (not empty and not value) or (not blank and not value.strip()):
        raise InputError("non_empty", name=name, value=value)
    if limit is not None and len(value) > limit:
        raise InputError("chars", name=name, n=len(value), limit=limit)
    return value


def present(mapping, keys: Iterable[str], *, name: str, hints: dict[str, str] | None = None,
            about: str | None = None) -> None:
    """Refuse ``mapping`` if any of ``keys`` is absent or None, naming them all (each with its hint, if any)."""
    hints = hints or {}
    missing = [key for key in keys if mapping.get(key) is None]
    if missing:
        listed = ", ".join(f"'{key}' ({hints[key]})" if key in hints else f"'{key}'" for key in missing)
        raise InputError("missing", name=name, keys=listed, **_about(about))


def choices(values: Iterable) -> str:
    """Allowed values as a message lists them, each as it is written in code: "'half', 'interleaved'"."""
    return ", ".join(repr(v) for v in values)


def one_of(name: str, value: Any, allowed: Iterable, *, about: str | None = None) -> Any:
    """Return ``value`` if it is one of ``allowed`` (a tuple, or a dict's keys), else refuse it naming them all."""
    allowed = tuple(allowed)
    try:
        known = value in allowed
    except TypeError:  # e.g. a list compared with strings' hashes: not one of them either
        known = False
    if not known:
        raise InputError("one_of", name=name, value=value, allowed=choices(allowed), **_about(about))
    return value


def link_number(name: str, raw, *, max_digits: int) -> int | None:
    """A whole number as a link or a store writes it (``?step=4``, a class's step in Redis): ASCII digits only. Python's
    ``str.isdigit()`` also holds for "²" and "①", which ``int()`` refuses, and for "٣", which it reads as 3: none is
    a step anyone typed. None when it has more than ``max_digits`` digits past leading zeros (more than any step or
    count the app has, and ``int()`` refuses 4,300+ in its own words), so the caller names its own limit; otherwise
    the int, or a ValueError (``whole_number``) naming what it got."""
    if not isinstance(raw, str) or not raw or not raw.isascii() or not raw.isdigit():
        raise InputError("whole_number", name=name, value=raw)
    significant = raw.lstrip("0") or "0"
    return None if len(significant) > max_digits else int(significant)


def finite_array(name: str, array, *, positive: bool = False) -> np.ndarray:
    """``array`` as a numpy array of finite numbers (all > 0 if ``positive``: frequencies, per-pair factors)."""
    array = np.asarray(array)
    if not np.issubdtype(array.dtype, np.number):
        raise InputError("numeric_array", name=name, dtype=array.dtype)
    if not np.all(np.isfinite(array)):
        raise InputError("non_finite", name=name)
    if positive and np.any(array <= 0):
        raise InputError("positive_entries", name=name, min=float(array.min()))
    return array


def _about(about: str | None) -> dict[str, str]:
    """The ``about`` param only when there is one, so a plain check's params stay exactly its template's."""
    return {"about": about} if about else {}


def _digits(value: int) -> int:
    """Decimal digits of a (huge) integer, +-1, without converting it to text (Python refuses past 4,300 digits)."""
    return max(1, math.floor(abs(int(value)).bit_length() * math.log10(2)) + 1)
