"""XLA:CPU's float32 ``exp``, bit for bit, in NumPy.

XLA:CPU inlines its own float32 ``exp`` (a Cephes-style polynomial) instead of calling libm, and
NumPy's float32 ``exp`` (its AVX-512 loop here) differs from it in ~40 % of inputs (from the
correctly rounded value XLA's differs in ~9 %). The steps below were read off the machine code
JAX 0.10.2 compiles for ``jit(jnp.exp)`` on this x86-64 host (``XLA_FLAGS=--xla_dump_to``), so
which multiply-adds are fused is known, not guessed; every step is the same float32 operation:

* clamp ``x`` to ``[-87.8, 88.8]`` (a NaN passes through);
* ``m = floor(x · log2(e) + 1/2)`` (the multiply-add fused), clamped to ``[-127, 127]``;
* ``r = x - m · c1 - m · c2`` with ``c1 = 0.693359375`` and ``c2 = -2.12194440e-4`` (each step a
  fused multiply-add);
* ``p`` = the degree-5 polynomial in ``r`` by Horner's rule in fused multiply-adds (its last
  coefficient is 1/2), then ``y = (p · r² + r) + 1`` (``r²`` rounded, the outer step fused);
* the result is ``y · 2**m``, ``2**m`` built from the bits ``(m + 127) << 23`` (so ``m = -127``
  gives zero).

XLA:CPU runs with subnormal results flushed to zero: with ``flush=True`` a result below the
smallest normal float32 is ``+0`` here too, and the function is XLA's bit for bit; the samplers
call it with ``flush=False`` and keep the subnormal the same steps give (trellax keeps IEEE
subnormals: docs/semantics.md). A NaN input gives that NaN with its quiet bit set. A fused multiply-add of
float32 operands is computed in float64 (the product is exact there) and rounded to float32; the
exhaustive comparison (``tools/check_xla_exp.py``: all 2**32 inputs) finds no input where that
double rounding differs from XLA's single one.
"""

from __future__ import annotations

from typing import Any

import numpy as np

F32 = np.ndarray[Any, np.dtype[np.float32]]
F64 = np.ndarray[Any, np.dtype[np.float64]]


def _f(bits: int) -> float:
    """The float32 value with these bits, as a Python float."""
    return float(np.array(bits, np.uint32).view(np.float32)[()])


LOG2E = _f(0x3FB8AA3B)
C1 = _f(0x3F318000)  # 0.693359375
C2 = _f(0xB95E8083)  # -2.12194440e-4
#: The polynomial's coefficients, highest degree first (the last, 1/2, is added separately).
POLY = [_f(b) for b in (0x39506967, 0x3AB743CE, 0x3C088908, 0x3D2AA9C1, 0x3E2AAAAA)] + [0.5]
LO = np.float32(-87.8)
HI = np.float32(88.8)
_TINY = np.float32(1.1754943508222875e-38)
_QUIET = np.uint32(0x00400000)
#: Elements per block (every step is one NumPy pass over buffers that stay in cache).
BLOCK = 1 << 14


def _fma(a: F32, b: Any, c: Any, acc: F64, out: F32) -> None:
    """``out = a * b + c`` rounded once to float32 (by way of float64: the product is exact)."""
    np.multiply(a, b, out=acc, dtype=np.float64)
    acc += c
    np.copyto(out, acc, casting="unsafe")


def _exp_block(x: F32, out: F32, acc: F64, rows: F32, flush: bool) -> None:
    m, r, p, t = (row[: x.size] for row in rows)
    a = acc[: x.size]
    np.maximum(x, LO, out=t)  # NaN stays NaN (np.maximum propagates it)
    np.minimum(t, HI, out=t)
    _fma(t, LOG2E, 0.5, a, m)
    np.floor(m, out=m)
    np.clip(m, np.float32(-127), np.float32(127), out=m)
    np.negative(m, out=p)  # -m, exact
    _fma(p, C1, t, a, r)
    _fma(p, C2, r, a, r)
    np.multiply(r, POLY[0], out=a, dtype=np.float64)
    a += POLY[1]
    np.copyto(p, a, casting="unsafe")
    for c in POLY[2:]:
        _fma(p, r, c, a, p)
    np.multiply(r, r, out=t)  # r², rounded
    _fma(p, t, r, a, p)
    p += np.float32(1)
    # 2**m from its bits; a NaN's m is garbage there, and the NaN is put back below
    k = np.nan_to_num(m, nan=0.0).astype(np.int32)
    k += 127
    k <<= 23
    np.multiply(p, k.view(np.float32), out=out)
    if flush:
        out[out < _TINY] = 0  # subnormal results are flushed to +0
    nan = np.isnan(x)
    if nan.any():
        out[nan] = (x[nan].view(np.uint32) | _QUIET).view(np.float32)


def exp_f32(x: Any, flush: bool = True) -> F32:
    """XLA:CPU's float32 ``exp`` of a float32 array (any shape), bit for bit (with ``flush``;
    without, subnormal results are kept)."""
    x = np.asarray(x, np.float32)
    flat = np.ascontiguousarray(x).reshape(-1)
    out = np.empty_like(flat)
    n = min(flat.size, BLOCK)
    acc = np.empty(n, np.float64)
    rows = np.empty((4, n), np.float32)
    with np.errstate(all="ignore"):
        for i0 in range(0, flat.size, BLOCK):
            _exp_block(flat[i0 : i0 + BLOCK], out[i0 : i0 + BLOCK], acc, rows, flush)
    result: F32 = out.reshape(x.shape)
    return result
