"""``nanargmax`` and ``nanargmin``: the arg-reductions that skip NaN (-1 for an all-NaN slice)."""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any

import numpy as np

from trellax._src.core.basearray import Array
from trellax._src.lax.structural import select_n
from trellax._src.numpy.reductions import (
    all,
    argmax,
    argmin,
    check_no_out,
    full_like_shape,
    is_inexact,
    isnan,
)
from trellax._src.numpy.util import ensure_array

ArrayLike = Any


def _nan_arg_reduction(
    name: str, reducer: Callable[..., Array], fill: float, a: ArrayLike, axis: Any, keepdims: bool
) -> Array:
    x = ensure_array(name, a)
    ax = None if axis is None else operator.index(axis)
    if not is_inexact(x):
        return reducer(x, axis=ax, keepdims=keepdims)
    nan = isnan(x)
    res = reducer(select_n(nan, x, full_like_shape(fill, x)), axis=ax, keepdims=keepdims)
    all_nan = all(nan, axis=ax, keepdims=keepdims)
    return select_n(all_nan, res, full_like_shape(-1, res))


def nanargmax(
    a: ArrayLike, axis: int | None = None, out: None = None, keepdims: bool | None = None
) -> Array:
    """:func:`argmax` ignoring NaN; -1 for an all-NaN slice (JAX's choice; NumPy raises)."""
    check_no_out("nanargmax", out)
    return _nan_arg_reduction("nanargmax", argmax, -np.inf, a, axis, bool(keepdims))


def nanargmin(
    a: ArrayLike, axis: int | None = None, out: None = None, keepdims: bool | None = None
) -> Array:
    """:func:`argmin` ignoring NaN; -1 for an all-NaN slice (JAX's choice; NumPy raises)."""
    check_no_out("nanargmin", out)
    return _nan_arg_reduction("nanargmin", argmin, np.inf, a, axis, bool(keepdims))
