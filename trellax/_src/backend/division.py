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

from trellax._src.backend import complex_mul
from trellax._src.backend.fma import fma

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


def xla_complex_reciprocal(y: np.ndarray, fused: bool = False) -> Any:
    """``1 / y`` for complex ``y`` as XLA computes it: Smith's quotient, the larger part of the
    divisor first. With ``t`` the smaller part over the larger and ``d = large + small * t``,
    ``1 / y`` is ``(t - 1j) / d`` where the imaginary part is the larger, ``(1 - t j) / d``
    elsewhere. XLA's constant folder (a constant's reciprocal under ``jit``) rounds ``d``'s
    product (``fused=False``: every one of the 2,000 closed-over divisors of
    ``tests/golden/div_compound.json``); compiled code, ``fused=True``, makes ``d`` one fused
    multiply-add (JAX 0.10.2's eager ``1 / c``, measured on 20,000 complex64 divisors). Zeros,
    infinities and NaN keep NumPy's quotient."""
    y = np.asarray(y)
    part = y.real.dtype
    re, im = y.real, y.imag
    with np.errstate(all="ignore"):
        by_imag = np.abs(re) < np.abs(im)
        large = np.where(by_imag, im, re)
        small = np.where(by_imag, re, im)
        t = small / large
        d = fma(small, t, large) if fused else large + small * t
        one = part.type(1)
        out = np.empty(y.shape, y.dtype)
        out.real = np.where(by_imag, t / d, one / d)
        out.imag = np.where(by_imag, -one / d, -t / d)
        plain = ~(np.isfinite(y) & (y != 0))
        if plain.any():
            out = np.where(plain, np.true_divide(y.dtype.type(1), y), out)
    return out


def xla_complex_product(x: np.ndarray, r: np.ndarray) -> Any:
    """``x * r`` for complex operands as XLA:CPU's compiled product rounds it when ``r`` is a
    constant (the reciprocal of a constant divisor, a literal factor under ``jit``): the
    complex product of ``backend/complex_mul.py`` with the operands in XLA's order, except for
    a 0-d ``r`` (a scalar constant, which the compiler sees) with ``r.im < 0``, which keeps ``x``
    first. Measured on JAX 0.10.2: 24 scalar constants on 4,000 complex64 values each, and the
    golden's 2,000 closed-over divisors (NumPy's product differs in the last bit for 3 % of real
    parts and 30 % of imaginary ones)."""
    x, r = np.asarray(x), np.asarray(r)
    if r.ndim == 0 and r.imag < 0:
        return complex_mul.xla_complex_mul(x, r)
    return complex_mul.mul(x, r)


def xla_complex_divide(x: np.ndarray, y: np.ndarray) -> Any:
    """``x / y`` for complex operands of one dtype as XLA:CPU's compiled division computes it
    where both are finite and ``y`` is not zero: Smith's quotient with fused multiply-adds. With
    ``t`` the smaller part of ``y`` over the larger and ``d = fma(small, t, large)``, the quotient
    is ``(fma(x.re, t, x.im) + fma(x.im, t, -x.re) j) / d`` where ``y``'s imaginary part is the
    larger, ``(fma(x.im, t, x.re) + fma(-x.re, t, x.im) j) / d`` elsewhere. Measured against
    JAX 0.10.2 on 50,000 complex64 pairs with parts over e^±8: every quotient (NumPy's: 48 %).
    Elsewhere NumPy's quotient, which the caller fixes up to C99 Annex G's values."""
    x, y = np.broadcast_arrays(np.asarray(x), np.asarray(y))
    with np.errstate(all="ignore"):
        re, im = y.real, y.imag
        by_imag = np.abs(re) < np.abs(im)
        large = np.where(by_imag, im, re)
        small = np.where(by_imag, re, im)
        t = small / large
        d = fma(small, t, large)
        a, b = x.real, x.imag
        num_re = fma(np.where(by_imag, a, b), t, np.where(by_imag, b, a))
        num_im = fma(np.where(by_imag, b, -a), t, np.where(by_imag, -a, b))
        out = np.empty(x.shape, np.result_type(x, y))
        out.real = num_re / d
        out.imag = num_im / d
        plain = ~(np.isfinite(x) & np.isfinite(y) & (y != 0))
        if plain.any():
            out = np.where(plain, np.true_divide(x, y), out)
    return out
