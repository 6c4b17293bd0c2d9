"""Questions about arrays that need no computation: ``shape``, ``ndim``, ``size``, ``isscalar``,
``iscomplexobj``, ``isrealobj``, ``iterable``, ``issubdtype``; and whole-array comparisons ``array_equal`` and
``array_equiv`` (0-d bool arrays, as in JAX).
"""

from __future__ import annotations

import math
import warnings
from typing import Any

import numpy as np

from trellax._src.core.basearray import Array
from trellax._src.dtypes import dtypes
from trellax._src.numpy import reductions, ufuncs
from trellax._src.numpy.creation import asarray
from trellax._src.numpy.extended import handler, is_extended
from trellax._src.numpy.shapes import broadcast_shapes, broadcast_to
from trellax._src.numpy.util import promote_args

ArrayLike = Any


def issubdtype(arg1: Any, arg2: Any) -> bool:
    """Whether dtype ``arg1`` is ``arg2`` or below it in the type hierarchy (``jax.numpy``'s
    names for the parameters of :func:`trellax.dtypes.issubdtype`)."""
    return dtypes.issubdtype(arg1, arg2)


def _abstract_shape(a: Any) -> tuple[int, ...]:
    if isinstance(a, (Array, np.ndarray, np.generic)):
        return tuple(a.shape)
    if hasattr(type(a), "__jax_array__"):  # an object standing for an array
        return _abstract_shape(a.__jax_array__())
    return tuple(np.shape(a))


def _warn_sequence(name: str, a: Any) -> None:
    """JAX's deprecation of lists and tuples where an array or scalar is expected."""
    if isinstance(a, (list, tuple)):
        warnings.warn(
            f"{name} requires ndarray or scalar arguments, got {type(a)} at position 0. In a "
            "future trellax release this will be an error.",
            DeprecationWarning,
            stacklevel=3,
        )


def shape(a: ArrayLike) -> tuple[int, ...]:
    """The shape of ``a`` (arrays and scalars; a list or tuple still works, with JAX's
    ``DeprecationWarning``)."""
    _warn_sequence("shape", a)
    return _abstract_shape(a)


def ndim(a: ArrayLike) -> int:
    """The number of axes of ``a`` (a list or tuple warns, as in JAX)."""
    _warn_sequence("ndim", a)
    return len(_abstract_shape(a))


def size(a: ArrayLike, axis: int | tuple[int, ...] | None = None) -> int:
    """The number of elements of ``a``, or along ``axis`` (an int or a tuple of ints)."""
    _warn_sequence("size", a)
    s = _abstract_shape(a)
    if axis is None:
        return math.prod(s)
    axes = (axis,) if isinstance(axis, int) else tuple(axis)
    canonical = tuple(reductions.canonicalize_axis(i, len(s)) for i in axes)
    if len(set(canonical)) != len(canonical):  # JAX's error, naming the normalized axes
        raise ValueError(f"repeated axis: {canonical}")
    return math.prod(s[i] for i in canonical)


def isscalar(element: Any) -> bool:
    """True for Python and NumPy scalars and for 0-d arrays (JAX counts those as scalars)."""
    if isinstance(element, (Array, np.ndarray)):
        return element.ndim == 0
    if hasattr(type(element), "__jax_array__"):  # an object standing for an array
        return isscalar(element.__jax_array__())
    return isinstance(element, (bool, int, float, complex, np.generic))


def iscomplexobj(x: Any) -> bool:
    """Whether ``x`` has a complex dtype (no values are inspected)."""
    if x is None:
        return False
    d = x.dtype if hasattr(x, "dtype") else dtypes.dtype_and_weak_type(asarray(x))[0]
    return bool(np.issubdtype(d, np.complexfloating))


def isrealobj(x: Any) -> bool:
    """Whether ``x`` has a non-complex dtype."""
    return not iscomplexobj(x)


def iterable(y: Any) -> bool:
    """Whether ``iter(y)`` works (0-d arrays are not iterable)."""
    try:
        iter(y)
    except TypeError:
        return False
    return True


def array_equal(a1: ArrayLike, a2: ArrayLike, equal_nan: bool = False) -> Array:
    """Whether the arrays have the same shape and elements (NaN equals NaN with ``equal_nan``)."""
    if is_extended(a1) or is_extended(a2):
        return handler("array_equal")(a1, a2)  # type: ignore[no-any-return]
    try:
        x, y = asarray(a1), asarray(a2)
    except TypeError:
        return asarray(False)
    if x.shape != y.shape:
        return asarray(False)
    return _all_equal(x, y, equal_nan)


def array_equiv(a1: ArrayLike, a2: ArrayLike) -> Array:
    """Whether the arrays are equal after broadcasting (False when they do not broadcast)."""
    try:
        x, y = asarray(a1), asarray(a2)
    except TypeError:
        return asarray(False)
    try:
        s = broadcast_shapes(x.shape, y.shape)
    except ValueError:
        return asarray(False)
    return _all_equal(broadcast_to(x, s), broadcast_to(y, s), False)


def _all_equal(x: Array, y: Array, equal_nan: bool) -> Array:
    x, y = promote_args("array_equal", x, y)
    eq = ufuncs.equal(x, y)
    if equal_nan:
        eq = ufuncs.logical_or(eq, ufuncs.logical_and(ufuncs.isnan(x), ufuncs.isnan(y)))
    return reductions.all(eq)
