"""Float division as XLA's CPU compiler computes it: by a broadcast divisor, a reciprocal product.

XLA's algebraic simplifier rewrites ``a / b`` as ``a * (1 / b)`` when ``b`` is a constant or a
broadcast (a scalar or a row spread over a matrix), for float16, float32 and float64: one rounding
more than IEEE division, so the two differ in the last bit for 35-55 % of quotients. The
reciprocal is computed at the divisor's own shape, rounded to its dtype, and in float32 and
float64 a subnormal reciprocal is flushed to a zero of its sign (XLA:CPU runs with
flush-to-zero): ``1 / 3e38`` is 0, so ``1 / 3e38`` as a divisor gives 0 and ``inf / 3e38`` NaN.
bfloat16 is widened to float32 first: its quotient is the float32 product of the widened
dividend and the float32 reciprocal (flushed), rounded once to bfloat16, which differs from the
IEEE quotient only near a bfloat16 rounding boundary or where the reciprocal is flushed. Complex
divisions keep XLA's complex division (docs/semantics.md, "Division by a constant").

Every JAX function runs as one compiled program, so an eager ``x / 7.0`` (the 7.0 a parameter
broadcast in that program) is rewritten too: the eager rule is "the divisor has fewer elements
than the quotient". ``jit`` programs get the fuller rule (constants, single use of a scalar
divisor) from ``interpreters/xla_rewrites.py``, which leaves every division it keeps with a
divisor of the quotient's size, so this eager rule never fires on them twice.
"""

from __future__ import annotations

import math
from typing import Any

import ml_dtypes
import numpy as np

BFLOAT16 = np.dtype(ml_dtypes.bfloat16)
#: The dtypes whose divisions by a constant or broadcast divisor XLA turns into products in
#: the dtype itself (bfloat16's is a float32 product, rounded once to bfloat16).
RECIPROCAL_DTYPES: frozenset[np.dtype[Any]] = frozenset(
    np.dtype(name) for name in ("float16", "float32", "float64")
)
#: Smallest normal of the dtypes whose subnormal reciprocals XLA:CPU flushes (not float16's).
_TINY: dict[np.dtype[Any], Any] = {
    np.dtype(np.float32): np.float32(np.finfo(np.float32).tiny),
    np.dtype(np.float64): np.float64(np.finfo(np.float64).tiny),
}


def xla_reciprocal(y: np.ndarray) -> Any:
    """``1 / y`` rounded to ``y``'s dtype, a subnormal result flushed to a zero of its sign in
    float32 and float64 (a divisor beyond ``1 / tiny``: 8.5e37 in float32, 4.5e307 in float64)."""
    if not y.ndim:
        key = (y.dtype, y.tobytes())  # the bits: 0.0 and -0.0 are two divisors
        r = _SCALARS.get(key)
        if r is None:
            r = np.asarray(_reciprocal(y))
            r.flags.writeable = False
            if len(_SCALARS) >= 256:
                _SCALARS.clear()
            _SCALARS[key] = r
        return r
    return _reciprocal(y)


#: Reciprocals of 0-d divisors (``x / 7.0`` divides by the same few values again and again;
#: a lookup costs a tenth of the three ufunc calls)
_SCALARS: dict[tuple[np.dtype[Any], bytes], np.ndarray] = {}


def _reciprocal(y: np.ndarray) -> Any:
    r = np.true_divide(y.dtype.type(1), y)
    tiny = _TINY.get(y.dtype)
    if tiny is not None:
        small = np.abs(r) < tiny  # NaN compares False; zeros are already zeros
        if small.any():
            r = np.where(small, r * y.dtype.type(0), r)  # keeps the sign
    return r


def is_broadcast_divisor(x_shape: tuple[int, ...], y_shape: tuple[int, ...]) -> bool:
    """Whether a divisor of ``y_shape`` is spread over a quotient of ``x_shape`` and
    ``y_shape`` broadcast together (XLA sees a broadcast; fewer elements than the quotient). A
    divisor that only gains dimensions of size 1 is a reshape for XLA, not a broadcast."""
    if x_shape == y_shape:
        return False
    n = math.prod(y_shape)
    if n < math.prod(x_shape):
        return True  # (the quotient has at least the dividend's elements)
    return math.prod(np.broadcast_shapes(x_shape, y_shape)) != n


def true_divide(x: np.ndarray, y: np.ndarray) -> Any:
    """``x / y`` for float operands of one dtype, as JAX's single-operation program computes
    it: a product with the divisor's reciprocal when the divisor is broadcast, the IEEE
    quotient otherwise."""
    if y.shape == x.shape:
        return np.true_divide(x, y)
    if is_broadcast_divisor(x.shape, y.shape):
        if x.dtype in RECIPROCAL_DTYPES:
            return np.multiply(x, xla_reciprocal(y))
        if x.dtype == BFLOAT16:
            f32 = np.dtype(np.float32)
            return np.multiply(x.astype(f32), xla_reciprocal(y.astype(f32))).astype(x.dtype)
    return np.true_divide(x, y)


def tiny(dtype: np.dtype[Any]) -> Any:
    """The smallest normal number below which XLA:CPU flushes ``dtype``'s reciprocals to zero
    (None for float16, whose subnormals it keeps)."""
    return _TINY.get(np.dtype(dtype))
