"""``reduce_precision``: rounds floats to a format with fewer exponent and mantissa bits (the
result keeps the operand's dtype). Impl: ``backend/bits.py`` (XLA's bit-exact rounding).

Its JVP rounds the tangent the same way, and it is its own transpose, as in JAX (so the gradient
through it is the rounded cotangent).
"""

from __future__ import annotations

import operator
from typing import Any

from trellax._src.backend import bits as bits_kernels
from trellax._src.core.basearray import Array
from trellax._src.core.core import AbstractValue, Primitive, ShapedArray
from trellax._src.core.typing import ArrayLike
from trellax._src.lax import ad_util
from trellax._src.lax._base import asarray, check_dtype, floating
from trellax._src.lax.shapes import def_elementwise

reduce_precision_p = Primitive("reduce_precision")
reduce_precision_p.def_impl(bits_kernels.reduce_precision)


@reduce_precision_p.def_abstract_eval
def _reduce_precision_abstract_eval(
    x: AbstractValue, *, exponent_bits: int, mantissa_bits: int
) -> ShapedArray:
    check_dtype("reduce_precision", x.dtype, floating, None)
    return ShapedArray._fast(tuple(x.shape), x.dtype, x.weak_type)


def _reduce_precision_transpose(ct: Any, x: Any, **params: Any) -> list[Any]:
    return [reduce_precision_p.bind(ad_util.instantiate(ct), **params)]


ad_util.deflinear(reduce_precision_p, _reduce_precision_transpose)
def_elementwise(reduce_precision_p, fusable=False)


def reduce_precision(operand: float | ArrayLike, exponent_bits: int, mantissa_bits: int) -> Array:
    """``operand`` rounded (to nearest even) to ``mantissa_bits`` and with its exponent limited to
    ``exponent_bits``: larger values become infinite, values below the smallest normal number
    of that format become zero; NaNs are kept. ``reduce_precision(x, 5, 10)`` gives float16's
    values, ``(8, 7)`` bfloat16's."""
    e = operator.index(exponent_bits)
    m = operator.index(mantissa_bits)
    if e < 1:
        raise ValueError(f"reduce_precision: exponent_bits must be positive; got {e}")
    if m < 0:
        raise ValueError(f"reduce_precision: mantissa_bits must be non-negative; got {m}")
    return reduce_precision_p.bind(asarray(operand), exponent_bits=e, mantissa_bits=m)
