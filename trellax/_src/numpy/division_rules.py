"""Divisions inside ``jnp`` functions that JAX compiles as one program, where XLA's rule for a
constant or broadcast divisor (docs/semantics.md, "Division by a constant") depends on more
than the single operation: the eager rule of ``backend/division.py`` sees shapes only.

- A divisor computed from constants only (``log(2)`` in ``log2``) is a constant of JAX's
  program, so XLA multiplies by its reciprocal even where the shapes are equal (a 0-d input).
- A scalar divisor that the function reads several times (``floor_divide``'s, and
  ``remainder``'s and ``fmod``'s in their derivatives) is divided by.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from trellax._src.backend.eager import ConcreteArray, xla_reciprocal
from trellax._src.core.basearray import Array
from trellax._src.dtypes import dtypes
from trellax._src.lax import elementwise as lax
from trellax._src.lax._base import scalar_to_array
from trellax._src.lax.structural import broadcast_to

#: 1 / ln 10 correctly rounded to a double (``1 / math.log(10)`` is one ulp below it)
LOG10_E = math.log10(math.e)


def by_constant(x: Array, c: Array) -> Array:
    """``x / c`` for a ``c`` computed from constants only: the product with its reciprocal,
    eagerly too; under ``jit`` the division is traced and ``interpreters/xla_rewrites.py``
    finds the constant itself."""
    if type(c) is not ConcreteArray:
        return lax.div(x, c)
    with np.errstate(divide="ignore"):
        r = xla_reciprocal(np.asarray(c))
    return lax.mul(x, scalar_to_array(r, c.dtype, False))


def log_ratio(v: Array, base: int) -> Array:
    """``log(v) / log(base)``: ``log(base)`` is a constant of JAX's program (``log2``)."""
    return by_constant(lax.log(v), lax.log(scalar_to_array(base, v.dtype, False)))


def log10(v: Array) -> Array:
    """``log(v)`` times ``1 / ln 10`` rounded to the dtype, as JAX 0.10.2 computes ``log10``
    (not divided by the rounded ``log(10)``: 984 of 2,000 float32 values differ between the
    two)."""
    return lax.mul(lax.log(v), scalar_to_array(LOG10_E, v.dtype, False))


def read_again(a: Array, b: Array) -> Array:
    """A float scalar divisor ``b`` of ``remainder``/``fmod``, spread over ``a``'s shape: JAX
    compiles each function as one program in which ``b`` is read again (by the derivative's
    ``x / b``, and in ``remainder`` by the sign fix), so XLA divides by it instead of
    multiplying by its reciprocal (``lax.rem``'s rule alone would, eagerly)."""
    if dtypes.kind(a.dtype) != "f":
        return b
    return shared_divisor(b, a.shape)


def shared_divisor(b: Array, shape: Any) -> Array:
    """A scalar divisor ``b`` read elsewhere too, spread over ``shape`` explicitly, so that
    trellax divides by it (eagerly and under ``jit``) as XLA does."""
    return broadcast_to(b, shape) if not b.shape and shape else b
