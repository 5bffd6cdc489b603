"""Input checks shared by the core: every message names the parameter, the value and what is allowed."""
from __future__ import annotations

import math
import numbers

import numpy as np


def positive_int(name: str, value, *, minimum: int = 1, maximum: int | None = None) -> int:
    """Return ``value`` as an int in [minimum, maximum]; bools, floats and strings are refused.

    The one integer check of the core (pass ``minimum=0`` for counts and ids): every message reads
    "name (value) must be ...", e.g. "steps (0) must be >= 1", "d_model (2.5) must be an integer, got float".
    """
    # bool is a subclass of int in Python; True as a vocabulary size is a mistake, not the number 1
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral):
        raise ValueError(f"{name} ({value!r}) must be an integer, got {type(value).__name__}")
    value = int(value)
    if maximum is not None and value.bit_length() > 64 and value > maximum:  # no 400-digit number in a message
        raise ValueError(f"{name} (an integer of about {_digits(value):,} digits) must be <= {maximum:,}")
    if value < minimum:
        raise ValueError(f"{name} ({value}) must be >= {minimum}")
    if maximum is not None and value > maximum:
        raise ValueError(f"{name} ({value}) must be <= {maximum}")
    return value


def finite_float(name: str, value, *, greater_than: float | None = None) -> float:
    """Return ``value`` as a finite float, optionally strictly above ``greater_than``."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise ValueError(f"{name} ({value!r}) must be a number")
    try:
        value = float(value)
    except OverflowError:  # an integer past ~1.8e308 (a config.json may hold a 400-digit one)
        raise ValueError(f"{name} (an integer of about {_digits(value):,} digits) must be a finite number") from None
    if not math.isfinite(value):
        raise ValueError(f"{name} ({value}) must be finite")
    if greater_than is not None and value <= greater_than:
        raise ValueError(f"{name} ({value:g}) must be > {greater_than:g}")
    return value


def even_int(name: str, value, *, what: str, maximum: int | None = None) -> int:
    value = positive_int(name, value, minimum=2, maximum=maximum)
    if value % 2:
        raise ValueError(f"{name} ({value}) must be even for {what}")
    return value


def finite_array(name: str, array) -> np.ndarray:
    array = np.asarray(array)
    if not np.issubdtype(array.dtype, np.number):
        raise ValueError(f"{name} must hold numbers, got dtype {array.dtype}")
    if not np.all(np.isfinite(array)):
        raise ValueError(f"{name} contains non-finite values (NaN or inf)")
    return array


def _digits(value: int) -> int:
    """Decimal digits of a (huge) integer, +-1, without converting it to text (Python refuses past 4,300 digits)."""
    return max(1, math.floor(abs(int(value)).bit_length() * math.log10(2)) + 1)
