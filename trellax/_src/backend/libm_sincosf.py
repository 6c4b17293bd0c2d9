"""The C library's float32 ``sincosf`` (glibc 2.36 on x86-64, as XLA:CPU calls it), in NumPy.

XLA:CPU's complex power calls ``sincosf`` for the angle of its result (the machine code of
``jit(lax.pow)`` on complex64 holds the call). NumPy's float32 ``sin``/``cos`` are its own SIMD
loops on every layout and differ from the C library's in ~10 % of inputs; the float64 functions
rounded to float32 differ in ~1.5-2.5 % (the C library's float32 functions are not correctly
rounded: their worst error is 0.56 ulp). So the algorithm is redone here, step by step, in
float64 arithmetic on whole arrays:

* ``|y| < 2**-12``: ``sin`` is ``y`` and ``cos`` is 1;
* ``|y| < π/4``: even polynomials in ``x²`` (degree 8 for the cosine, ``x`` times degree 6 for
  the sine), every ``a + b·c`` step one fused multiply-add (the library's x86-64 build with FMA);
* ``|y| < 120``: the quadrant ``n = ⌊y · 2/π · 2**24⌋ + 2**23 >> 24`` by integer truncation and
  the reduced ``x = y - n·π/2`` in one fused multiply-add, then the polynomials, swapped and
  negated by quadrant;
* larger finite ``y``: the reduction by a 192-bit table of ``4/π`` in 32/64-bit integer
  arithmetic (``reduce_large`` of the published algorithm);
* ``inf``/NaN: NaN.

Each result is the float64 value rounded once to float32. ``tests/test_xla_complex_pow.py``
compares the function with the C library's ``sincosf`` called through ``ctypes`` on 10**5 inputs
of every range.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from trellax._src.backend.fma import fma_f64

F32 = np.ndarray[Any, np.dtype[np.float32]]
F64 = np.ndarray[Any, np.dtype[np.float64]]

_HPI_INV = float.fromhex("0x1.45F306DC9C883p+23")  # 2/π · 2**24
_HPI = float.fromhex("0x1.921FB54442D18p0")  # π/2
_PI64 = float.fromhex("0x1.921FB54442D18p-62")  # π · 2**-64
#: cosine coefficients c0..c4 and sine coefficients s1..s3 (the cosine's negated for quadrants
#: with bit 1 set)
_C = tuple(float.fromhex(h) for h in (
    "0x1p0", "-0x1.ffffffd0c621cp-2", "0x1.55553e1068f19p-5", "-0x1.6c087e89a359dp-10",
    "0x1.99343027bf8c3p-16"))  # fmt: skip
_S = tuple(float.fromhex(h) for h in (
    "-0x1.555545995a603p-3", "0x1.1107605230bc4p-7", "-0x1.994eb3774cf24p-13"))  # fmt: skip
#: 4/π to 192 bits, 8 new bits an entry
_INV_PIO4 = np.array([
    0xA2, 0xA2F9, 0xA2F983, 0xA2F9836E, 0xF9836E4E, 0x836E4E44, 0x6E4E4415, 0x4E441529,
    0x441529FC, 0x1529FC27, 0x29FC2757, 0xFC2757D1, 0x2757D1F5, 0x57D1F534, 0xD1F534DD,
    0xF534DDC0, 0x34DDC0DB, 0xDDC0DB62, 0xC0DB6295, 0xDB629599, 0x6295993C, 0x95993C43,
    0x993C4390, 0x3C439041], np.uint64)  # fmt: skip


def _top12(v: float) -> int:
    return int((np.float32(v).view(np.uint32) >> 20) & 0x7FF)


_TOP_TINY, _TOP_PIO4, _TOP_120 = _top12(2.0**-12), _top12(0.7853981633974483), _top12(120.0)
_TOP_INF = _top12(np.inf)


def _poly(x: F64, n: Any, negate_cos: Any) -> tuple[F64, F64]:
    """(sin, cos) of the reduced ``x`` in quadrant ``n`` (``negate_cos``: the second table), in
    float64 before the rounding to float32.

    The polynomials are evaluated with separate products and sums first; they then differ from
    the fused ones by a few float64 ulps of the result, which changes its rounding to float32
    only where the value lies within those ulps of a midpoint between two float32 values. Those
    elements (a few in a million) are evaluated again with exact fused multiply-adds."""
    sgn = np.where(negate_cos, -1.0, 1.0)
    sin_p, cos_p = _poly_steps(x, sgn, lambda u, v, w: u * v + w)
    near = _near_midpoint(sin_p) | _near_midpoint(cos_p)
    if near.any():
        sin_f, cos_f = _poly_steps(x[near], sgn[near] if sgn.ndim else sgn, fma_f64)
        sin_p[near], cos_p[near] = sin_f, cos_f
    odd = (n & 1) == 1
    return np.where(odd, cos_p, sin_p), np.where(odd, sin_p, cos_p)


def _poly_steps(x: F64, sgn: Any, fma: Any) -> tuple[F64, F64]:
    x2 = x * x
    x4 = x2 * x2
    x3 = x2 * x
    c2 = fma(x2, sgn * _C[4], sgn * _C[3])
    s1 = fma(x2, _S[2], _S[1])
    c1 = fma(x2, sgn * _C[1], sgn * _C[0])
    x5 = x3 * x2
    x6 = x4 * x2
    s = fma(x3, _S[0], x)
    c = fma(x4, sgn * _C[2], c1)
    return np.asarray(fma(x5, s1, s), np.float64), np.asarray(fma(x6, c2, c), np.float64)


#: float64 bits below float32's last place, and their value at a float32 rounding midpoint
_LOW = np.uint64((1 << 29) - 1)
_MID = np.int64(1 << 28)
#: how many float64 ulps from a midpoint count as near (the unfused steps err by a few)
_NEAR = 1 << 12


def _near_midpoint(v: F64) -> Any:
    low = (np.ascontiguousarray(v).view(np.uint64) & _LOW).astype(np.int64)
    return np.abs(low - _MID) <= _NEAR


def _reduce_large(xi: Any) -> tuple[F64, Any]:
    """The reduced argument and quadrant of finite float32 bit patterns ``xi`` with |y| >= 120."""
    xi = xi.astype(np.uint64)
    idx = ((xi >> np.uint64(26)) & np.uint64(15)).astype(np.intp)
    shift = (xi >> np.uint64(23)) & np.uint64(7)
    m = ((xi & np.uint64(0xFFFFFF)) | np.uint64(0x800000)) << shift
    res0 = (m * _INV_PIO4[idx]) & np.uint64(0xFFFFFFFF)
    res1 = m * _INV_PIO4[idx + 4]
    res2 = m * _INV_PIO4[idx + 8]
    res0 = (res2 >> np.uint64(32)) | (res0 << np.uint64(32))
    res0 = res0 + res1
    n = (res0 + np.uint64(1 << 61)) >> np.uint64(62)
    res0 = res0 - (n << np.uint64(62))
    return res0.view(np.int64).astype(np.float64) * _PI64, n.astype(np.int64)


def sincos_f32(y: Any) -> tuple[F32, F32]:
    """(``sinf(y)``, ``cosf(y)``) of a float32 array, as the C library's ``sincosf`` gives."""
    y = np.ascontiguousarray(y, np.float32)
    flat = y.reshape(-1)
    bits = flat.view(np.uint32)
    top = (bits >> 20) & 0x7FF
    sin = np.full(flat.shape, np.nan, np.float32)
    cos = np.full(flat.shape, np.nan, np.float32)
    tiny = top < _TOP_TINY
    sin[tiny], cos[tiny] = flat[tiny], 1.0
    with np.errstate(all="ignore"):
        small = ~tiny & (top < _TOP_PIO4)
        if small.any():
            s, c = _poly(flat[small].astype(np.float64), np.zeros(1, np.int64), np.False_)
            sin[small], cos[small] = s, c
        mid = (top >= _TOP_PIO4) & (top < _TOP_120)
        if mid.any():
            x = flat[mid].astype(np.float64)
            n = ((x * _HPI_INV).astype(np.int64) + 0x800000) >> 24
            r = fma_f64(-n.astype(np.float64), _HPI, x)
            sign = np.where(((n & 3) == 1) | ((n & 3) == 2), -1.0, 1.0)
            s, c = _poly(r * sign, n, (n & 2) == 2)
            sin[mid], cos[mid] = s, c
        large = (top >= _TOP_120) & (top < _TOP_INF)
        if large.any():
            r, n = _reduce_large(bits[large])
            q = n + (bits[large] >> 31).astype(np.int64)
            sign = np.where(((q & 3) == 1) | ((q & 3) == 2), -1.0, 1.0)
            s, c = _poly(r * sign, n, (q & 2) == 2)
            sin[large], cos[large] = s, c
    return sin.reshape(y.shape), cos.reshape(y.shape)
