"""Argument checks shared by the samplers: shapes, dtypes and parameter broadcasting."""

from __future__ import annotations

import operator
from collections.abc import Sequence
from typing import Any

import numpy as np

import trellax.numpy as tnp
from trellax import lax
from trellax._src.config import settings as _config
from trellax._src.core.basearray import Array
from trellax._src.dtypes import dtypes

Shape = tuple[int, ...]


def canonical_shape(shape: Any) -> Shape:
    """A shape argument (int, sequence, concrete 1-element array) as a tuple of ints >= 0."""
    if type(shape) is tuple and all(type(s) is int and s >= 0 for s in shape):
        return shape  # the usual argument, as is
    return _checked_shape(_as_shape(shape))


def _checked_shape(shape: Shape) -> Shape:
    if any(s < 0 for s in shape):  # JAX's TypeError (its samplers broadcast to the shape)
        raise TypeError(f"invalid tensor dimension size in shape {shape}: sizes must be >= 0")
    return shape


def _as_shape(shape: Any) -> Shape:
    if isinstance(shape, (int, np.integer)) and not isinstance(shape, bool):
        return (int(shape),)
    if isinstance(shape, (Array, np.ndarray)):
        shape = np.asarray(shape).reshape(-1).tolist()
    items = tuple(shape)  # None → TypeError: 'NoneType' object is not iterable
    try:
        return tuple(operator.index(s) for s in items)
    except TypeError:
        raise TypeError(
            f"Shapes must be 1D sequences of concrete values of integer type, got {items}."
        ) from None


def float_dtype(name: str, dtype: Any, *, complex_ok: bool = False) -> np.dtype[Any]:
    """A float sampler's dtype: x64-canonicalized (with the warning) first, then validated."""
    if dtype is float or dtype is None:  # the default: no checks to make
        return dtypes.default_float_dtype()
    d = dtypes.check_user_dtype(dtype)
    k = dtypes.kind(d)
    if k == "f" or (complex_ok and k == "c"):
        return d
    what = "a float or complex dtype" if complex_ok else "a float dtype"
    raise ValueError(f"dtype argument to `{name}` must be {what}, got {d.name}")


def int_dtype(dtype: Any) -> np.dtype[Any]:
    return dtypes.check_user_dtype(int if dtype is None else dtype)


def default_int() -> np.dtype[Any]:
    return dtypes.default_int_dtype()


def as_param(x: Any, dtype: np.dtype[Any]) -> Array:
    """A parameter as a strong array of the sample dtype."""
    return lax.convert_element_type(tnp.asarray(x), dtype)


def check_shape(name: str, shape: Shape, *param_shapes: Sequence[int]) -> None:
    """Parameter shapes must broadcast to exactly ``shape`` (JAX's rule and texts)."""
    shapes = [tuple(s) for s in param_shapes]
    try:
        result = np.broadcast_shapes(shape, *shapes)
    except ValueError:
        raise ValueError(
            f"Incompatible shapes for broadcasting: shapes={[shape, *shapes]}"
        ) from None
    if tuple(result) != tuple(shape):
        raise ValueError(
            f"{name} parameter shapes must be broadcast-compatible with shape argument, and the "
            "result of broadcasting the shapes must equal the shape argument, but got result "
            f"{tuple(result)} for shape argument {tuple(shape)}."
        )


def resolve_shape(name: str, shape: Any, *params: Any) -> Shape:
    """``shape=None`` → the broadcast of the parameter shapes; otherwise checked against them."""
    shapes = [tuple(np.shape(p)) if not isinstance(p, Array) else p.shape for p in params]
    if shape is None:
        try:
            return tuple(np.broadcast_shapes(*shapes))
        except ValueError:
            raise ValueError(f"Incompatible shapes for broadcasting: shapes={shapes}") from None
    s = canonical_shape(shape)
    check_shape(name, s, *shapes)
    return s


def x64() -> bool:
    return _config.state().x64
