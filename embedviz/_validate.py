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
    if value < minimum:
        raise ValueError(f"{name} ({value}) must be >= {minimum}")
    if maximum is not None and value > maximum:
        raise ValueError(f"{name} ({value}) must be <= {maximum}")
    return value


def finite_float(name: str, value, *, greater_than: float | None = None) -> float:
    """Return ``value`` as a finite float, optionally strictly above ``greater_than``."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise ValueError(f"{name} ({value!r}) must be a number")
    value = float(value)
    if not math.isfinite(value):
        raise ValueError(f"{name} ({value}) must be finite")
    if greater_than is not None and value <= greater_than:
        raise ValueError(f"{name} ({value:g}) must be > {greater_than:g}")
    return value


def even_int(name: str, value, *, what: str) -> int:
    value = positive_int(name, value, minimum=2)
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
