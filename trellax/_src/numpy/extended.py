"""Arrays of an extended dtype (typed PRNG keys, ``key<fry>``) in ``trellax.numpy`` functions.

Key arrays live in a higher layer (``_src/random/keys.py``), so this module only keeps the
table of handlers that layer fills: ``concatenate``, ``stack``, ``full`` and ``where`` of key
arrays work on their key data and wrap the result, as JAX's do.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from trellax._src.dtypes import dtypes

#: ``{"concatenate": fn, ...}``, filled by the module that defines the extended arrays.
HANDLERS: dict[str, Callable[..., Any]] = {}


def is_extended(x: Any) -> bool:
    """Whether ``x`` is an array (or a dtype) of an extended dtype."""
    d = getattr(x, "dtype", x)
    if d is None or isinstance(d, np.dtype):  # every NumPy dtype (the common case, kept cheap)
        return False
    return dtypes._extended_type(d) is not None


def any_extended(xs: Any) -> bool:
    return any(is_extended(x) for x in xs)


def handler(name: str) -> Callable[..., Any]:
    fn = HANDLERS.get(name)
    if fn is None:
        raise TypeError(f"trellax.numpy.{name} does not support arrays of extended dtypes")
    return fn
