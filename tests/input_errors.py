"""Assert a core refusal by its code and parameters, not by its English wording (embedviz/errors.py)."""
from __future__ import annotations

import math
from contextlib import contextmanager

import pytest

from embedviz.errors import InputError


def _same(got, expected) -> bool:
    # a refused NaN is the point of some checks, and NaN equals nothing, itself included
    if isinstance(got, float) and isinstance(expected, float) and math.isnan(got) and math.isnan(expected):
        return True
    return got == expected


@contextmanager
def raises_input(code: str, **params):
    """Like ``pytest.raises(ValueError)``, for an :class:`InputError` of ``code`` whose params include ``params``."""
    with pytest.raises(InputError) as info:
        yield info
    error = info.value
    assert error.code == code, f"code {error.code!r}, not {code!r}: {error}"
    assert all(_same(error.params.get(k), v) for k, v in params.items()), f"params {error.params}, not {params}: {error}"
