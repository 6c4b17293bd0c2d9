"""A fused multiply-add ``a * b + c`` rounded once (round to nearest, ties to even), as XLA's CPU
compiler emits it where it contracts a product and a sum (``llvm.fma``), vectorized in NumPy.

* float32: the product of two float32 values is exact in float64, and the float64 sum is rounded
  once more; that double rounding can only go wrong when the float64 sum lands exactly on a
  midpoint between two float32 values while the exact sum does not, and the sum's rounding error
  (two-sum) then says on which side the exact value lies (:func:`fma_f32`).
* float64 (:func:`fma_f64`): error-free transformations. The product is split exactly into
  ``ph + pl`` (Veltkamp's splitting and Dekker's product), ``c + ph`` into ``th + tl`` (two-sum);
  the exact result is ``th + tl + pl``. The small part ``tl + pl`` is rounded *to odd* (truncated,
  then the last bit set when anything was cut off), which keeps enough information for the one
  final rounding ``th + RO(tl + pl)`` to be the correct rounding of the exact sum (Boldo and
  Melquiond's emulation of an FMA). Round to odd is done on the integer view of the bits.
  The operands are first scaled by powers of two (exact) so that no step over- or underflows;
  where the result is subnormal the last rounding is done by hand at the subnormal spacing, and
  where it overflows ``ldexp`` gives the infinity.
* float16 and bfloat16 go through float32 (XLA widens them the same way); any other dtype is
  ``a * b + c``.

Measured against the C library's ``fma`` and an exact rational reference in
``tests/test_fma.py``. With the ``compiled`` extra (Numba) each function is one compiled loop of
``llvm.fma`` once the NumPy path has run a while (:mod:`.fma_compiled`): the same bits, which
``tests/test_fma_compiled.py`` checks.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from trellax._src.backend import fma_compiled

F32 = np.ndarray[Any, np.dtype[np.float32]]
F64 = np.ndarray[Any, np.dtype[np.float64]]

_F32_DTYPE = np.dtype(np.float32)
_F64_DTYPE = np.dtype(np.float64)
_UP = np.float32(np.inf)
#: The midpoint between the largest float32 and 2**128: a sum there rounds to infinity.
_F32_OVERFLOW = 2.0**128 - 2.0**103
#: Veltkamp's splitting constant for 53-bit significands: 2**27 + 1.
_SPLIT = 134217729.0
#: The fast path needs every operand's magnitude in [2**-_SAFE, 2**_SAFE] and the result's above
#: 2**-_SAFE_OUT: then no product, error term or sum over- or underflows.
_SAFE_LO = 2.0**-450
_SAFE_HI = 2.0**450
_SAFE_OUT = 2.0**-900


def fma_f32(a: Any, b: Any, c: Any) -> F32:
    """``a * b + c`` of float32 values rounded once to float32 (round to nearest even).

    The float64 sum ``s`` rounded to float32 is the answer except where ``s`` sits exactly on a
    midpoint between two float32 values (its 29 low significand bits ``0x10000000``, the
    overflow threshold ``2**128 - 2**103`` included) or in the float32 subnormal range (other
    midpoints): only those elements (about 2**-29 of random data) take the corrected path.
    Large operands are taken in chunks that stay in cache. With the ``compiled`` extra, float32
    operands take one compiled loop (:mod:`.fma_compiled`: the same bits)."""
    fast: F32 | None = fma_compiled.fma(a, b, c, _F32_DTYPE)
    if fast is not None:
        return fast
    with np.errstate(invalid="ignore", over="ignore"):
        if np.ndim(a) == np.ndim(b) == np.ndim(c) == 0:
            fma_compiled.note(1)
            p = np.multiply(a, b, dtype=np.float64)
            cc = np.asarray(c, np.float64)
            return _fma_f32_fix(p, cc, np.asarray(p + cc))
        shape = np.broadcast_shapes(np.shape(a), np.shape(b), np.shape(c))
        size = math.prod(shape)
        fma_compiled.note(size)
        if size <= CHUNK:
            return fma_f32_chunk(a, b, c)
        a, b, c = (np.broadcast_to(x, shape).reshape(-1) for x in (a, b, c))
        out = np.empty(size, np.float32)
        for lo in range(0, size, CHUNK):
            hi = lo + CHUNK
            out[lo:hi] = fma_f32_chunk(a[lo:hi], b[lo:hi], c[lo:hi])
    result: F32 = out.reshape(shape)
    return result


def fma_f32_chunk(a: Any, b: Any, c: Any) -> F32:
    """:func:`fma_f32` of array operands that broadcast to at most :data:`CHUNK` elements,
    without its set-up: NumPy's floating-point error state is the caller's to silence."""
    fast: F32 | None = fma_compiled.fma(a, b, c, _F32_DTYPE)
    if fast is not None:
        return fast
    p = np.multiply(a, b, dtype=np.float64)
    s = np.add(p, c, dtype=np.float64)
    bits = s.view(np.uint64)
    cand = (bits & _LOW29) == _MID29
    mag = bits & _ABS  # the magnitude's bits; less one, zero wraps round to the largest
    mag -= _ONE
    cand |= mag < _F32_TINY_BITS  # nonzero and below the smallest normal float32 (NaN: above)
    r: F32 = s.astype(np.float32)
    if cand.any():
        ps = np.broadcast_to(p, s.shape)[cand]
        cs = np.broadcast_to(np.asarray(c, np.float64), s.shape)[cand]
        r[cand] = _fma_f32_fix(ps, cs, s[cand])
    return r


#: The low 29 bits of a float64 significand, and their value on a float32 midpoint.
_LOW29 = np.uint64(0x1FFFFFFF)
_MID29 = np.uint64(0x10000000)
#: The bits of a float64's magnitude; one, to subtract from them.
_ABS = np.uint64(0x7FFFFFFFFFFFFFFF)
_ONE = np.uint64(1)
#: The float64 bits of the smallest normal float32 (2**-126), less one: below it float32
#: midpoints have other float64 bit patterns.
_F32_TINY_BITS = np.uint64(0x3810000000000000 - 1)


def _fma_f32_fix(p: Any, cc: Any, s: Any) -> F32:
    """The float32 rounding of the exact ``p + cc`` (``p`` the exact float64 product, ``s`` its
    float64 sum) for any elements: the double rounding corrected by the sum's error."""
    with np.errstate(invalid="ignore", over="ignore"):
        bb = s - p
        err = (p - (s - bb)) + (cc - bb)
        r = s.astype(np.float32)
        diff = s - r
        away = np.nextafter(r, np.where(diff > 0, _UP, -_UP))
        tie = (diff != 0) & (diff + diff == away.astype(np.float64) - r) & (err != 0)
        tie &= np.isfinite(r)  # (an overflow to infinity has no midpoint to correct)
        # the sum on the midpoint between the largest float32 and 2**128 rounded up to infinity,
        # but the exact sum lies below it
        short = (np.abs(s) == _F32_OVERFLOW) & ((err > 0) != (s > 0)) & (err != 0)
    if tie.any():
        beyond = tie & ((err > 0) == (diff > 0))
        r = np.where(beyond, away, r)
    if short.any():
        r = np.where(short, np.copysign(np.float32(3.4028234663852886e38), s), r)
    out: F32 = np.asarray(r, np.float32)
    return out


def _two_sum(x: F64, y: F64) -> tuple[F64, F64]:
    """``s + e == x + y`` exactly, ``s`` the rounded sum (Knuth)."""
    s = x + y
    yy = s - x
    e = (x - (s - yy)) + (y - yy)
    return s, e


def _two_prod(x: F64, y: F64) -> tuple[F64, F64]:
    """``p + e == x * y`` exactly, ``p`` the rounded product (Veltkamp's split, Dekker's
    product); the operands' magnitudes must leave the split and the error term in range."""
    p = x * y
    t = _SPLIT * x
    xh = t - (t - x)
    xl = x - xh
    t = _SPLIT * y
    yh = t - (t - y)
    yl = y - yh
    e = ((xh * yh - p) + xh * yl + xl * yh) + xl * yl
    return p, e


def _round_odd_sum(x: F64, y: F64) -> F64:
    """``x + y`` rounded to odd: truncated towards zero, and the last significand bit set when
    the sum was inexact."""
    s, e = _two_sum(x, y)
    bits = s.view(np.int64)
    inexact = e != 0
    # the rounded sum lies beyond the exact one (in magnitude) where the error has the other sign:
    # step one unit back towards zero (the integer view of a float is monotonic in magnitude)
    back = inexact & ((e < 0) != (s < 0))
    odd = (bits - back.astype(np.int64)) | inexact.astype(np.int64)
    out: F64 = odd.view(np.float64)
    return out


def _core(a: F64, b: F64, c: F64) -> tuple[F64, F64, F64]:
    """``th``, ``v`` and the rounded result ``th + v`` with ``th + v`` the exact ``a * b + c``
    rounded to odd at more than 53 bits (operands in range, none zero)."""
    ph, pl = _two_prod(a, b)
    th, tl = _two_sum(c, ph)
    v = _round_odd_sum(tl, pl)
    return th, v, th + v


def _round_subnormal(th: F64, v: F64, scale: Any) -> F64:
    """``(th + v) * 2**scale`` rounded to a multiple of 2**-1074 (ties to even), where that is
    at most 2**-1022 in magnitude."""
    s, e = _two_sum(th, v)
    shift = scale + 1074
    sp = np.ldexp(s, shift)  # the value in units of the smallest subnormal: |sp| <= 2**52
    ep = np.ldexp(e, shift)
    r0 = np.rint(sp)
    frac = sp - r0  # exact; the true offset from r0 is frac + ep
    above = (frac - 0.5) + ep  # their signs are exact: a rounded sum is 0 only when the sum is
    below = (frac + 0.5) + ep
    odd = np.fmod(r0, 2.0) != 0
    up = (above > 0) | ((above == 0) & odd)
    down = (below < 0) | ((below == 0) & odd)
    r = r0 + up.astype(np.float64) - down.astype(np.float64)
    out: F64 = np.copysign(np.ldexp(r, -1074), s)
    return out


def _fma_general(a: F64, b: F64, c: F64) -> F64:
    """:func:`fma_f64` of finite, nonzero operands of any magnitude (1-D)."""
    ma, ea = np.frexp(a)
    mb, eb = np.frexp(b)
    _, ec = np.frexp(c)
    scale = ea.astype(np.int64) + eb  # |a * b| < 2**scale, ma * mb in [1/4, 1)
    gap = ec - scale
    out = np.empty_like(a)
    # c dominates: |a * b| is below a quarter of c's last unit, the sum rounds to c
    big = gap > 60
    out[big] = c[big]
    rest = ~big
    ma, mb, c, scale, gap = ma[rest], mb[rest], c[rest], scale[rest], gap[rest]
    # c far below the product's last bit acts only through its sign: a stand-in of that sign
    tiny = gap < -110
    cs = np.where(tiny, np.copysign(2.0**-120, c), np.ldexp(c, -np.where(tiny, 0, scale)))
    th, v, z = _core(ma, mb, cs)
    res = np.ldexp(z, scale)  # exact, or the infinity of an overflow
    sub = np.abs(z) <= np.ldexp(1.0, -1022 - np.minimum(scale, 2000))
    if sub.any():
        res[sub] = _round_subnormal(th[sub], v[sub], scale[sub])
    out[rest] = res
    return out


def fma_f64(a: Any, b: Any, c: Any) -> F64:
    """``a * b + c`` of float64 values rounded once (round to nearest even), the operands
    broadcast together; IEEE 754's ``fusedMultiplyAdd``: overflow, subnormal results, infinities,
    NaN and signed zeros included."""
    a = np.asarray(a, np.float64)
    b = np.asarray(b, np.float64)
    c = np.asarray(c, np.float64)
    fast: F64 | None = fma_compiled.fma(a, b, c, _F64_DTYPE)
    if fast is not None:
        return fast
    shape = np.broadcast_shapes(a.shape, b.shape, c.shape)
    a, b, c = (np.broadcast_to(x, shape).reshape(-1) for x in (a, b, c))
    fma_compiled.note(a.size)
    out = np.empty(a.shape, np.float64)
    with np.errstate(all="ignore"):
        # chunks that stay in cache: the dozens of elementwise steps then cost less
        for lo in range(0, a.size, CHUNK):
            hi = lo + CHUNK
            out[lo:hi] = fma_f64_chunk(a[lo:hi], b[lo:hi], c[lo:hi])
    return out.reshape(shape)


#: Elements per chunk of :func:`fma_f64` (a few arrays of them fit in the L2 cache).
CHUNK = 32768


def _in_range(x: F64) -> bool:
    ax = np.abs(x)
    return bool(ax.min() >= _SAFE_LO and ax.max() <= _SAFE_HI)  # False with a NaN


def fma_f64_chunk(a: F64, b: F64, c: F64) -> F64:
    """:func:`fma_f64` of 1-D operands of one size (at most :data:`CHUNK` elements), without its
    set-up: NumPy's floating-point error state is the caller's to silence."""
    fast: F64 | None = fma_compiled.fma(a, b, c, _F64_DTYPE)
    if fast is not None:
        return fast
    if a.size and _in_range(a) and _in_range(b) and _in_range(c):
        _, _, out = _core(a, b, c)
        safe = np.abs(out) >= _SAFE_OUT  # a cancellation deep towards underflow: redo
        if safe.all():
            return out
    else:
        aa, ab, ac = np.abs(a), np.abs(b), np.abs(c)
        safe = (aa >= _SAFE_LO) & (aa <= _SAFE_HI) & (ab >= _SAFE_LO) & (ab <= _SAFE_HI)
        safe &= (ac >= _SAFE_LO) & (ac <= _SAFE_HI)
        out = np.empty_like(a)
        idx = np.flatnonzero(safe)
        _, _, z = _core(a[idx], b[idx], c[idx])
        ok = np.abs(z) >= _SAFE_OUT
        out[idx[ok]] = z[ok]
        safe[idx[~ok]] = False
    slow = ~safe
    a, b, c = a[slow], b[slow], c[slow]
    # zeros, infinities and NaN: the product is exact (or its special value), so ``a * b + c``
    # rounds once, except that a finite product is never infinite (an infinite c wins); a zero c
    # leaves the product's own rounding (and its sign)
    finite_ab = np.isfinite(a) & np.isfinite(b)
    special = ~(finite_ab & np.isfinite(c)) | (a == 0) | (b == 0)
    plain = a * b
    res = np.where(special, np.where(finite_ab & np.isinf(c), c, plain + c), plain)
    general = ~special & (c != 0)
    if general.any():
        res[general] = _fma_general(a[general], b[general], c[general])
    out[slow] = res
    return out


def fma(a: Any, b: Any, c: Any) -> Any:
    """``a * b + c`` rounded once, as XLA:CPU's contracted multiply-add, in ``a``'s dtype:
    float32 and float64 exactly; float16 and bfloat16 by way of float32 (XLA widens them the same
    way); other dtypes as ``a * b + c``."""
    a, b, c = np.asarray(a), np.asarray(b), np.asarray(c)
    name = a.dtype.name
    if name == "float64":
        return fma_f64(a, b, c)
    if name not in ("float32", "float16", "bfloat16"):
        with np.errstate(all="ignore"):
            return np.asarray(a * b + c, a.dtype)
    with np.errstate(all="ignore"):
        out = fma_f32(a.astype(np.float32), b.astype(np.float32), c.astype(np.float32))
    return out if a.dtype == np.float32 else out.astype(a.dtype)


def _split(x: F64) -> tuple[F64, F64]:
    t = _SPLIT * x
    hi = t - (t - x)
    return hi, x - hi


def horner_f64(coeffs: tuple[float, ...], t: Any) -> F64:
    """``P(t)`` of float64 ``t`` by Horner's rule, every step ``p * t + c`` one exactly rounded
    fused multiply-add (as :func:`fma_f64` step by step, the same bits), highest degree first.

    Faster than calling :func:`fma_f64` per step: ``t`` is split once, the coefficients stay
    scalars, and the range checks are made once per step on a chunk; a chunk with a value out
    of the safe range takes :func:`fma_f64`."""
    t = np.asarray(t, np.float64)
    flat = t.reshape(-1)
    out = np.empty(flat.shape, np.float64)
    with np.errstate(all="ignore"):
        for lo in range(0, flat.size, CHUNK):
            out[lo : lo + CHUNK] = _horner_chunk(coeffs, flat[lo : lo + CHUNK])
    result: F64 = out.reshape(t.shape)
    return result


def _horner_chunk(coeffs: tuple[float, ...], t: F64) -> F64:
    p = np.full(t.shape, coeffs[0])
    if not t.size:
        return p
    fast_t = _in_range(t)
    th, tl = _split(t) if fast_t else (t, t)
    for c in coeffs[1:]:
        if fast_t and _SAFE_LO <= abs(c) <= _SAFE_HI and _in_range(p):
            ph = p * t
            hi, low = _split(p)
            pl = ((hi * th - ph) + hi * tl + low * th) + low * tl
            s = ph + c  # two-sum of c and ph
            bb = s - c
            sl = (c - (s - bb)) + (ph - bb)
            z = s + _round_odd_sum(sl, pl)
            if np.abs(z).min() >= _SAFE_OUT:
                p = z
                continue
        p = fma_f64_chunk(p, t, np.full(t.shape, c))
    return p
