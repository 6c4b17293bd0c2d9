"""XLA:CPU's float32 ``log`` and ``log1p``, bit for bit, in NumPy.

XLA:CPU does not call libm for float32 ``log``: it inlines a Cephes-style polynomial, and its
``log1p`` is a rational approximation near 0 and that ``log`` of ``1 + x`` elsewhere. NumPy's
float32 ``log``/``log1p`` are libm's (or NumPy's own SIMD loop), so they differ from XLA's by an
ulp or two in ~8 % (``log``) and ~14 % (``log1p``) of inputs. Here are XLA's functions, with
every step the same float32 operation, so the bits agree: JAX 0.10.2's ``jit(jnp.log)`` and
``jit(jnp.log1p)`` on this machine (x86-64 with FMA) agree with :func:`log_f32` and
:func:`log1p_f32` on all 2**32 float32 inputs (``tools/check_xla_log.py``; NaNs compared by bits
too).

``log(x)``, for a positive normal ``x``:

* write ``x = 2**k * m`` with ``m`` in ``[√2/2, √2)`` (the split is at float32's ``√2/2``, from
  the bits), so ``f = m - 1`` is exact and ``|f| < 0.415``;
* ``y = x³ · (A(f) · f³ + B(f)) · f³ + C(f))`` where ``A``, ``B``, ``C`` are the three quadratic
  pieces of the degree-8 polynomial, each Horner step a fused multiply-add (one rounding);
  the last step adds ``-2.12194440e-4 · k`` (rounded to float32 first) inside the fused step;
* the result is ``((f - f²/2) + y) + 0.693359375 · k`` (that product is exact).

Observed on XLA:CPU, and kept here: inputs below the smallest normal float32 (subnormals, of
either sign, and ``±0``) count as zero (``log`` gives ``-inf``; ``log1p`` returns a zero of the
input's sign); a negative or NaN input gives the NaN whose bits are all ones (``0xffffffff``);
``log(+inf) = +inf``.

``log1p(x)``: where ``|x| < √2 - 1``, ``x + (-x²/2 + x³ · N(x) / D(x))`` with ``N``, ``D`` of
degree 6 evaluated by Horner's rule in fused multiply-adds, the rest in plain float32 steps
(``x³``, its product with ``N/D``, then the two sums); elsewhere ``log(x + 1)`` as above.

A fused multiply-add of float32 operands is computed in float64: the product is exact there, and
the sum is rounded to float64 and then to float32. That second rounding could differ from a
single one only if the float64 sum fell exactly halfway between two float32 values; the
exhaustive comparison finds no input where it matters. ``compiled_log`` is a different function
(a compiled ≤1-ulp log for fused kernels); this module does not change it.
"""

from __future__ import annotations

from typing import Any

import numpy as np

F32 = np.ndarray[Any, np.dtype[np.float32]]
F64 = np.ndarray[Any, np.dtype[np.float64]]
I32 = np.ndarray[Any, np.dtype[np.int32]]

_f32 = np.float32
#: The degree-8 polynomial of ``log``, highest degree first, as float32 values.
_P = [float(_f32(c)) for c in (7.0376836292e-2, -1.1514610310e-1, 1.1676998740e-1,
      -1.2420140846e-1, 1.4249322787e-1, -1.6668057665e-1, 2.0000714765e-1, -2.4999993993e-1,
      3.3333331174e-1)]  # fmt: skip
_LN2_LO = _f32(-2.12194440e-4)
_LN2_HI = _f32(0.693359375)
#: ``log1p``'s numerator and denominator, highest degree first, as float32 values.
_NUM = [float(_f32(c)) for c in (4.5270000862445199635215e-5, 4.9854102823193375972212e-1,
        6.5787325942061044846969e0, 2.9911919328553073277375e1, 6.0949667980987787057556e1,
        5.7112963590585538103336e1, 2.0039553499201281259648e1)]  # fmt: skip
_DEN = [float(_f32(c)) for c in (1.0, 1.5062909083469192043167e1, 8.3047565967967209469434e1,
        2.2176239823732856465394e2, 3.0909872225312059774938e2, 2.1642788614495947685003e2,
        6.0118660497603843919306e1)]  # fmt: skip
_SMALL = _f32(0.41421356237309504880)  # √2 - 1
_TINY = _f32(1.1754943508222875e-38)  # the smallest normal float32
_NAN = np.array(0xFFFFFFFF, np.uint32).view(np.float32)[()]  # XLA's NaN here: all bits set
_INF = _f32(np.inf)
_ONE = _f32(1)
_HALF = _f32(0.5)
_MINUS_HALF = _f32(-0.5)
#: ``√2/2`` as float32 (0x3f3504f3): the mantissa split, applied to the bits.
_SPLIT = np.uint32(0x3F3504F3)


def _fma_step(p: F32, t: F32 | F64, c: Any, acc: F64) -> None:
    """``p = p * t + c`` rounded once (to float32, by way of float64), in place."""
    np.multiply(p, t, out=acc, dtype=np.float64)
    acc += c
    np.copyto(p, acc, casting="unsafe")


def _horner(coeffs: list[float], t: F32, acc: F64) -> F32:
    """``P(t)`` by Horner's rule, every step one fused multiply-add (the first is exact)."""
    np.multiply(t, coeffs[0], out=acc, dtype=np.float64)
    acc += coeffs[1]
    p: F32 = acc.astype(np.float32)
    for c in coeffs[2:]:
        _fma_step(p, t, c, acc)
    return p


def _log_core(x: F32) -> F32:
    """XLA's log for positive normal float32 ``x`` (1-D); other inputs give garbage."""
    acc = np.empty(x.shape, np.float64)
    ix = x.view(np.uint32) - _SPLIT  # mantissa offset so m lands in [√2/2, √2)
    k = ix.view(np.int32) >> 23  # x = 2**k * m (the bias cancels with the offset's)
    ix &= np.uint32(0x007FFFFF)
    ix += _SPLIT
    f = ix.view(np.float32)
    f -= _ONE  # exact
    e = k.astype(np.float32)
    f2 = f * f
    f3 = f2 * f
    a = _horner(_P[0:3], f, acc)
    b = _horner(_P[3:6], f, acc)
    c = _horner(_P[6:9], f, acc)
    _fma_step(a, f3, b, acc)  # A f³ + B
    _fma_step(a, f3, c, acc)  # (A f³ + B) f³ + C
    lo = e * _LN2_LO  # rounded to float32, then added inside the fused step
    np.multiply(a, f3, out=acc, dtype=np.float64)
    acc += lo
    np.copyto(a, acc, casting="unsafe")
    f2 *= _HALF  # exact
    r = f - f2
    r += a
    e *= _LN2_HI  # exact: 9 significant bits times an exponent
    r += e
    return r


def log_f32(x: Any) -> F32:
    """XLA:CPU's float32 ``log`` of a float32 array (any shape), bit for bit."""
    x = np.asarray(x, np.float32)
    flat = x.reshape(-1)
    with np.errstate(all="ignore"):
        r = _log_core(np.maximum(flat, _TINY))  # NaN propagates: fixed below
        _specials_log(flat, r)
    out: F32 = r.reshape(x.shape)
    return out


def _specials_log(x: F32, r: F32) -> None:
    """Writes XLA's values at zero and subnormal inputs (``-inf``), ``+inf``, negative and NaN
    inputs (the all-ones NaN) into ``r``."""
    bad = ~(x >= _TINY)  # not a positive normal: zero, subnormal, negative, NaN
    if bad.any():
        idx = np.flatnonzero(bad)
        xb = x[idx]
        r[idx] = np.where(np.abs(xb) < _TINY, -_INF, _NAN)
    big = x == _INF
    if big.any():
        r[big] = _INF


def log1p_f32(x: Any) -> F32:
    """XLA:CPU's float32 ``log1p`` of a float32 array (any shape), bit for bit."""
    x = np.asarray(x, np.float32)
    flat = x.reshape(-1)
    out = np.empty_like(flat)
    with np.errstate(all="ignore"):
        log1p_into(flat, out)
    result: F32 = out.reshape(x.shape)
    return result


def log1p_into(x: F32, out: F32) -> None:
    """``out = log1p(x)`` (XLA's) for 1-D float32 ``x``; call with NumPy's floating-point errors
    silenced."""
    small = np.abs(x) < _SMALL
    if small.all():
        out[...] = _log1p_small(x)
    else:
        si = np.flatnonzero(small)
        li = np.flatnonzero(~small)
        out[si] = _log1p_small(x[si])
        xl = x[li]
        u = xl + _ONE
        r = _log_core(np.maximum(u, _TINY))
        _specials_log(u, r)
        out[li] = r
    tiny = np.abs(x) < _TINY  # subnormal inputs count as zero: log1p is that zero
    if tiny.any():
        out[tiny] = np.copysign(_f32(0), x[tiny])


def _log1p_small(x: F32) -> F32:
    """The rational branch, ``|x| < √2 - 1``."""
    acc = np.empty(x.shape, np.float64)
    num = _horner(_NUM, x, acc)
    den = _horner(_DEN, x, acc)
    num /= den
    x2 = x * x
    x3 = x2 * x
    x3 *= num  # rounded: XLA fuses nothing here (the -x²/2 it adds is exact)
    x2 *= _MINUS_HALF
    x3 += x2
    x3 += x
    return x3
