"""``jax._src.lax.lax``: JAX's docs import ``lax`` from here; it is ``trellax.lax``, plus the
internal helpers JAX's own lax tests call (``_convert_element_type``, ``asarray``, ``stage``,
``_const``, ``_delta``), answered with trellax's public operations."""

from __future__ import annotations

import builtins
import functools
import itertools
from collections.abc import Sequence
from typing import Any

import numpy as np

from trellax import lax as _lax
from trellax import numpy as _jnp
from trellax._src.compat.jax_src.literals import TypedNdArray
from trellax.lax import *  # noqa: F403
from trellax.lax import __getattr__ as __getattr__


def _convert_element_type(
    operand: Any,
    new_dtype: Any = None,
    weak_type: bool = False,
    sharding: Any = None,
    warn_on_complex_to_real_cast: bool = True,
) -> Any:
    """``convert_element_type`` whose target dtype defaults to the operand's (canonical) one,
    so that it only sets the weak flag."""
    del sharding, warn_on_complex_to_real_cast
    if new_dtype is None:
        new_dtype = _jnp.asarray(operand).dtype
    return _lax.convert_element_type(operand, new_dtype, weak_type=weak_type)


def asarray(x: Any) -> Any:
    """An array from an array-like without binding an operation: Python scalars weak, NumPy
    values strong, typed host arrays with their own weak flag."""
    if isinstance(x, _jnp.ndarray):
        return x
    if isinstance(x, TypedNdArray):
        return _convert_element_type(np.asarray(x), x.dtype, weak_type=x.weak_type)
    if isinstance(x, (bool, np.ndarray, np.generic)):
        return _convert_element_type(x, weak_type=False)
    if isinstance(x, (int, float, builtins.complex)):
        return _jnp.asarray(x)
    raise TypeError(f"asarray: expected ArrayLike, got {x} of type {type(x)}.")


# replaces trellax.lax.stage here: a typed host array (``literals.TypedNdArray``, a JAX internal)
# keeps its weak flag
def stage(x: Any) -> Any:  # type: ignore[no-redef]
    """The identity that lifts a value into the current trace (its weak flag kept)."""
    return asarray(x)


def _const(example: Any, val: Any) -> Any:
    """``val`` with the dtype of ``example`` (a Python scalar of the same type for a Python
    scalar example)."""
    if type(example) in (int, float, builtins.complex):
        return type(example)(val)
    return TypedNdArray(np.array(val, _jnp.asarray(example).dtype))


def _delta(dtype: Any, shape: Sequence[int], axes: Sequence[int]) -> Any:
    """The Kronecker delta over ``axes`` (1 where their indices are all equal), broadcast to
    ``shape``."""
    axes = [int(a) for a in axes]
    base = tuple(shape[a] for a in axes)
    iotas = [_lax.broadcasted_iota(np.uint32, base, i) for i in range(len(base))]
    eyes = [_lax.eq(a, b) for a, b in itertools.pairwise(iotas)]
    both = functools.reduce(_lax.bitwise_and, eyes)
    return _lax.broadcast_in_dim(_lax.convert_element_type(both, dtype), tuple(shape), axes)
