"""Dtype facts the kernels share (ml_dtypes types, real floats, the dtype a narrow type is
computed in), and XLA's signed zeros in max and min: the one merge every kernel uses.

XLA orders -0.0 below +0.0 in max and min (``max(-0.0, 0.0)`` is +0.0 in either order, ``min``
gives -0.0), in elementwise, reduced, cumulative, windowed and scattered form; NumPy returns one
operand or the other depending on their order. Among the zeros that meet in one result, max is
-0.0 only when every one was -0.0 (no +0.0 was seen), min is -0.0 when any was. A kernel computes
NumPy's result, then which elements saw a deciding zero (:func:`deciding_zeros`, combined over
its operands, axes or scatter targets), and :func:`merge_zero_signs` signs the zero results.
"""

from __future__ import annotations

from typing import Any

import numpy as np


def is_custom(d: np.dtype[Any]) -> bool:
    """An ml_dtypes type (bfloat16, float8/6/4, int2/int4; NumPy numbers user types from 256;
    float8_e5m2 has kind "f", the others "V")."""
    return d.num >= 256


def is_real_float(d: np.dtype[Any]) -> bool:
    """A real floating type, NumPy's or ml_dtypes'."""
    return d.kind == "f" or (is_custom(d) and "float" in d.name)


def narrow_float_compute(d: np.dtype[Any]) -> np.dtype[Any]:
    """The dtype a reduction accumulates ``d`` in, or a kernel computes ``d`` in to round once:
    float32 for float16 and ml_dtypes' floats (bfloat16, float8/6/4); ``d`` itself otherwise."""
    return _F32 if d == _F16 or (is_custom(d) and "float" in d.name) else d


def compute_dtype(d: np.dtype[Any]) -> np.dtype[Any]:
    """The dtype NumPy computes ``d`` in where it has no loops of its own (dot products,
    convolutions, numpy.linalg): float32 for float16 and every ml_dtypes type (the narrow floats
    and int2/int4, exact in float32); ``d`` itself otherwise."""
    return _F32 if d == _F16 or is_custom(d) else d


_F16 = np.dtype(np.float16)
_F32 = np.dtype(np.float32)


def deciding_zeros(x: Any, *, for_max: bool) -> Any:
    """Where ``x`` holds the zero that decides a merged sign: +0.0 for max, -0.0 for min."""
    return (x == 0) & (np.signbit(x) != for_max)


def merge_zero_signs(r: Any, zero: Any, seen: Any, *, for_max: bool, dtype: Any) -> Any:
    """``r`` (of ``dtype``) with its zeros (``zero``, where ``r == 0``) signed as XLA signs them:
    ``seen`` marks the results a deciding zero (:func:`deciding_zeros`) took part in."""
    neg = ~seen if for_max else seen
    signed = np.where(neg, dtype.type(-0.0), dtype.type(0.0))
    return np.where(zero, signed, r).astype(dtype, copy=False)
