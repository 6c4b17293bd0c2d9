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
* ``y = ((A(f) · f³ + B(f)) · f³ + C(f)) · f³ + lo`` where ``A``, ``B``, ``C`` are the three
  quadratic pieces of the degree-8 polynomial, every Horner step and each of the three outer
  steps a fused multiply-add (one rounding), and ``lo = -2.12194440e-4 · k`` rounded to float32
  before the last fused step (which of XLA's multiply-adds are fused was measured, not assumed:
  of the candidate fusings, only this one matches JAX on 2·10⁷ random bit patterns);
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
exhaustive comparison finds no input where it matters. Three evaluations give the same bits:
the NumPy steps here (blocks of :data:`BLOCK` values in :class:`Scratch` buffers), Numba loops
(:mod:`.xla_log_compiled`, once the random kernels are compiled) and Python floats for a few
values (:func:`log1p_values`). ``compiled_log`` is a different function (a compiled ≤1-ulp log
for fused kernels, with its own contract); this module does not change it.
"""

from __future__ import annotations

import array
import math
import struct
from typing import Any

import numpy as np

F32 = np.ndarray[Any, np.dtype[np.float32]]
F64 = np.ndarray[Any, np.dtype[np.float64]]
I32 = np.ndarray[Any, np.dtype[np.int32]]

_f32 = np.float32
#: The degree-8 polynomial of ``log``, highest degree first, as float32 values.
P32 = [float(_f32(c)) for c in (7.0376836292e-2, -1.1514610310e-1, 1.1676998740e-1,
      -1.2420140846e-1, 1.4249322787e-1, -1.6668057665e-1, 2.0000714765e-1, -2.4999993993e-1,
      3.3333331174e-1)]  # fmt: skip
LN2_LO = _f32(-2.12194440e-4)
LN2_HI = _f32(0.693359375)
#: ``log1p``'s numerator and denominator, highest degree first, as float32 values.
NUM32 = [float(_f32(c)) for c in (4.5270000862445199635215e-5, 4.9854102823193375972212e-1,
        6.5787325942061044846969e0, 2.9911919328553073277375e1, 6.0949667980987787057556e1,
        5.7112963590585538103336e1, 2.0039553499201281259648e1)]  # fmt: skip
DEN32 = [float(_f32(c)) for c in (1.0, 1.5062909083469192043167e1, 8.3047565967967209469434e1,
        2.2176239823732856465394e2, 3.0909872225312059774938e2, 2.1642788614495947685003e2,
        6.0118660497603843919306e1)]  # fmt: skip
SMALL = _f32(0.41421356237309504880)  # √2 - 1
_TINY = _f32(1.1754943508222875e-38)  # the smallest normal float32
_NAN = np.array(0xFFFFFFFF, np.uint32).view(np.float32)[()]  # XLA's NaN here: all bits set
_INF = _f32(np.inf)
_ONE = _f32(1)
_HALF = _f32(0.5)
_MINUS_HALF = _f32(-0.5)
#: ``√2/2`` as float32 (0x3f3504f3): the mantissa split, applied to the bits.
_SPLIT = np.uint32(0x3F3504F3)


#: Elements per block: every step of a block is one NumPy pass over buffers that stay in cache.
BLOCK = 1 << 14


class Scratch:
    """Buffers for one block: float64 ``acc`` for the fused steps, float32 and integer rows."""

    __slots__ = ("acc", "f32", "i32", "idx")

    def __init__(self, n: int = BLOCK) -> None:
        self.acc: F64 = np.empty(n, np.float64)
        self.f32: F32 = np.empty((6, n), np.float32)
        self.i32: I32 = np.empty(n, np.int32)
        self.idx = np.empty(n, np.intp)


def _fma_into(a: F32, b: F32, c: Any, acc: F64, out: F32) -> None:
    """``out = a * b + c`` rounded once (to float32, by way of float64: the product is exact)."""
    np.multiply(a, b, out=acc, dtype=np.float64)
    np.add(acc, c, out=out, casting="unsafe")


def _horner_into(coeffs: list[float], t: F32, acc: F64, out: F32) -> None:
    """``P(t)`` by Horner's rule, every step one fused multiply-add."""
    np.multiply(t, coeffs[0], out=acc, dtype=np.float64)  # exact
    np.add(acc, coeffs[1], out=out, casting="unsafe")
    for c in coeffs[2:]:
        _fma_into(out, t, c, acc, out)


def _log_block(x: F32, out: F32, s: Scratch) -> None:
    """XLA's log of positive normal float32 ``x`` (1-D, at most a block) into ``out`` (which
    may be ``x``); other inputs give garbage, for :func:`_fix_specials` to overwrite."""
    m = x.size
    acc = s.acc[:m]
    f, f2, f3, a, b, c = (row[:m] for row in s.f32)
    k = s.i32[:m]
    ix = f.view(np.uint32)
    np.subtract(x.view(np.uint32), _SPLIT, out=ix)  # mantissa offset: m lands in [√2/2, √2)
    np.right_shift(ix.view(np.int32), 23, out=k)  # x = 2**k * m (the offset cancels the bias)
    ix &= np.uint32(0x007FFFFF)
    ix += _SPLIT
    f -= _ONE  # exact
    np.multiply(f, f, out=f2)
    np.multiply(f2, f, out=f3)
    _horner_into(P32[0:3], f, acc, a)
    _horner_into(P32[3:6], f, acc, b)
    _horner_into(P32[6:9], f, acc, c)
    _fma_into(a, f3, b, acc, a)  # A f³ + B
    _fma_into(a, f3, c, acc, a)  # (A f³ + B) f³ + C
    np.multiply(k, LN2_LO, out=b)  # k (exact in float32) times ln2's low part, rounded
    _fma_into(a, f3, b, acc, a)  # ... f³ + that, fused
    f2 *= _HALF  # exact
    np.subtract(f, f2, out=f2)
    f2 += a
    np.multiply(k, LN2_HI, out=a)  # exact: 9 significant bits times an exponent
    np.add(f2, a, out=out)


def _fix_specials(x: F32, out: F32) -> None:
    """XLA's log where ``x`` is not a positive normal float32: ``-inf`` at zeros and subnormals
    (of either sign), the all-ones NaN at negative numbers and NaNs, ``+inf`` at ``+inf``."""
    bad = ~(x >= _TINY)
    if bad.any():
        idx = np.flatnonzero(bad)
        out[idx] = np.where(np.abs(x[idx]) < _TINY, -_INF, _NAN)
    big = x == _INF
    if big.any():
        out[big] = _INF


def _log_into(x: F32, out: F32, s: Scratch) -> None:
    """``out = log(x)`` (XLA's) for 1-D float32 ``x``, block by block."""
    for i0 in range(0, x.size, BLOCK):
        xb, ob = x[i0 : i0 + BLOCK], out[i0 : i0 + BLOCK]
        _log_block(np.maximum(xb, _TINY), ob, s)  # NaN stays NaN (overwritten below)
        _fix_specials(xb, ob)


def log_f32(x: Any) -> F32:
    """XLA:CPU's float32 ``log`` of a float32 array (any shape), bit for bit."""
    x = np.asarray(x, np.float32)
    flat = np.ascontiguousarray(x).reshape(-1)
    out = np.empty_like(flat)
    with np.errstate(all="ignore"):
        _log_into(flat, out, Scratch(min(flat.size, BLOCK)))
    result: F32 = out.reshape(x.shape)
    return result


def log1p_f32(x: Any) -> F32:
    """XLA:CPU's float32 ``log1p`` of a float32 array (any shape), bit for bit."""
    x = np.asarray(x, np.float32)
    flat = np.ascontiguousarray(x).reshape(-1)
    if flat.size <= FEW:
        few: F32 = np.array(log1p_values(flat.tolist()), np.float32).reshape(x.shape)
        return few
    out = np.empty_like(flat)
    with np.errstate(all="ignore"):
        log1p_into(flat, out, Scratch(min(flat.size, BLOCK)))
    result: F32 = out.reshape(x.shape)
    return result


def log1p_into(x: F32, out: F32, s: Scratch) -> None:
    """``out = log1p(x)`` (XLA's) for 1-D float32 ``x`` into ``out`` (which may be ``x``),
    block by block in ``s``'s buffers; call with NumPy's floating-point errors silenced."""
    for i0 in range(0, x.size, BLOCK):
        _log1p_block(x[i0 : i0 + BLOCK], out[i0 : i0 + BLOCK], s)


def _log1p_block(x: F32, out: F32, s: Scratch) -> None:
    m = x.size
    a = s.f32[0][:m]
    np.abs(x, out=a)
    large = ~(a < SMALL)  # |x| >= √2 - 1, or NaN: log(x + 1)
    tiny = np.flatnonzero(a < _TINY)  # zeros and subnormals count as zero: log1p is that zero
    zeros = np.copysign(_f32(0), x[tiny]) if tiny.size else None
    n_large = int(np.count_nonzero(large))
    if n_large == 0:
        _log1p_small(x, out, s)
    elif n_large == m:
        u = np.add(x, _ONE)
        _log_block(np.maximum(u, _TINY), out, s)
        _fix_specials(u, out)
    else:
        li = np.flatnonzero(large)
        si = np.flatnonzero(~large)
        xs, u = x[si], x[li]
        u += _ONE
        r = np.maximum(u, _TINY)
        _log_block(r, r, s)
        _fix_specials(u, r)
        ys = np.empty_like(xs)
        _log1p_small(xs, ys, s)
        out[li] = r
        out[si] = ys
    if zeros is not None:
        out[tiny] = zeros


def _log1p_small(x: F32, out: F32, s: Scratch) -> None:
    """The rational branch, ``|x| < √2 - 1``: ``x + (x³ N(x)/D(x) - x²/2)``."""
    m = x.size
    acc = s.acc[:m]
    num, den, x2 = (row[:m] for row in s.f32[1:4])
    _horner_into(NUM32, x, acc, num)
    _horner_into(DEN32, x, acc, den)
    num /= den
    np.multiply(x, x, out=x2)
    np.multiply(x2, x, out=den)  # x³
    den *= num  # rounded: XLA fuses nothing here (the -x²/2 it adds is exact)
    x2 *= _MINUS_HALF
    den += x2
    np.add(den, x, out=out)


# -- a few values on Python floats -----------------------------------------------------------
#
# For a handful of values the ~60 NumPy calls above cost more than the arithmetic. The same steps
# on Python floats: a float32 operation is the float64 one rounded by a store into an
# ``array('f')`` element (float64 holds every float32 product exactly and rounds +, -, *, / of
# float32 operands so that the second rounding is harmless), a fused step is the float64
# multiply-add so rounded, as in the NumPy code.

#: Up to this many values :func:`log1p_f32` takes the Python-float path.
FEW = 32
_NAN_BITS = struct.pack("<I", 0xFFFFFFFF)
_F = struct.Struct("<f")
_I = struct.Struct("<I")


def _log_core_value(u: float, r: array.array[float]) -> float:
    """XLA's log of the float32 value ``u`` (a Python float), specials included."""
    if not u >= _TINY_F:
        return -math.inf if abs(u) < _TINY_F else _F.unpack(_NAN_BITS)[0]
    if u == math.inf:
        return u
    ix = _I.unpack(_F.pack(u))[0] - 0x3F3504F3
    e = float(ix >> 23)
    f = _F.unpack(_I.pack((ix & 0x007FFFFF) + 0x3F3504F3))[0] - 1.0  # exact
    r[0] = f * f
    f2 = r[0]
    r[0] = f2 * f
    f3 = r[0]
    parts = []
    for c0, c1, c2 in (P32[0:3], P32[3:6], P32[6:9]):
        r[0] = f * c0 + c1
        r[0] = r[0] * f + c2
        parts.append(r[0])
    a, b, c = parts
    r[0] = a * f3 + b
    r[0] = r[0] * f3 + c
    a = r[0]
    r[0] = e * _LN2_LO_F
    r[0] = a * f3 + r[0]
    a = r[0]
    r[0] = f - 0.5 * f2  # 0.5 * f2 is exact
    r[0] = r[0] + a
    r[0] = r[0] + e * _LN2_HI_F  # the product is exact
    return r[0]


def log1p_values(xs: list[float]) -> list[float]:
    """XLA's float32 log1p of float32 values given as Python floats, as Python floats (each a
    float32 value): the steps of :func:`log1p_into`, value by value."""
    r = array.array("f", [0.0])
    out = []
    for x in xs:
        ax = abs(x)
        if ax < _TINY_F:
            out.append(math.copysign(0.0, x))
        elif ax < _SMALL_F:
            r[0] = x * NUM32[0] + NUM32[1]
            for c in NUM32[2:]:
                r[0] = r[0] * x + c
            num = r[0]
            r[0] = x * DEN32[0] + DEN32[1]
            for c in DEN32[2:]:
                r[0] = r[0] * x + c
            r[0] = num / r[0]
            q = r[0]
            r[0] = x * x
            x2 = r[0]
            r[0] = x2 * x
            r[0] = r[0] * q
            r[0] = r[0] - 0.5 * x2  # exact product
            r[0] = x + r[0]
            out.append(r[0])
        else:
            r[0] = x + 1.0
            out.append(_log_core_value(r[0], r))
    return out


_TINY_F = float(_TINY)
_SMALL_F = float(SMALL)
_LN2_LO_F = float(LN2_LO)
_LN2_HI_F = float(LN2_HI)
