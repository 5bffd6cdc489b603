"""Assert a core refusal by its code and parameters, not by its English wording (embedviz/errors.py)."""
from __future__ import annotations

from contextlib import contextmanager

import pytest

from embedviz.errors import InputError


@contextmanager
def raises_input(code: str, **params):
    """Like ``pytest.raises(ValueError)``, for an :class:`InputError` of ``code`` whose params include ``params``."""
    with pytest.raises(InputError) as info:
        yield info
    error = info.value
    assert error.code == code, f"code {error.code!r}, not {code!r}: {error}"
    assert {k: error.params.get(k) for k in params} == params, f"params {error.params}: {error}"
