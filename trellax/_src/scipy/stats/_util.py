"""Shared helpers of the distributions: promotion and constants in the promoted dtype."""

from __future__ import annotations

from typing import Any

from trellax._src.core.basearray import Array
from trellax._src.dtypes import dtypes
from trellax._src.lax._base import scalar_to_array
from trellax._src.lax.structural import _convert
from trellax._src.numpy.util import (
    check_arraylike,
    promote_args_inexact,
    promote_args_inexact_keep_shapes,
)

ArrayLike = Any


def promote(name: str, *args: ArrayLike, keep_shapes: bool = False) -> list[Array]:
    """The arguments promoted together to an inexact dtype (complex refused); broadcast to
    equal ranks unless ``keep_shapes`` (for functions that are not elementwise)."""
    check_arraylike(name, *args)
    if keep_shapes:
        out = promote_args_inexact_keep_shapes(name, *args)
    else:
        out = promote_args_inexact(name, *args)
    if dtypes.kind(out[0].dtype) == "c":
        raise TypeError(f"{name} does not support complex-valued inputs")
    return out


def c(v: float, like: Array) -> Array:
    """``v`` in ``like``'s dtype and weak flag."""
    return scalar_to_array(v, like.dtype, like.weak_type)


def k(v: float, like: Array) -> Array:
    """JAX's ``lax._const(like, v)``: weak only for a weak 0-d ``like``. Where JAX's formula uses
    such a constant, a weak input with dimensions gives a strong result, so the distributions
    use this helper exactly where JAX does."""
    return scalar_to_array(v, like.dtype, like.weak_type and like.ndim == 0)


def strong_if_shaped(x: Array) -> Array:
    """The result of a formula whose JAX version uses ``lax._const`` constants: strong unless
    it is a weak 0-d value."""
    if x.weak_type and x.ndim:
        return _convert(x, x.dtype, False)
    return x
