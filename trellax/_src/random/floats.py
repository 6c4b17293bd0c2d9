"""Bits to floats: JAX's uniform (mantissa trick plus XLA:CPU's fused multiply-add) and the
inverse error function behind ``normal``, as primitives with NumPy impls.

``random_uniform`` is bit-identical to JAX for every float dtype and any bounds: f32 emulates the
fused ``f * (max - min) + min`` by computing it in float64 and rounding once, f64 in extended
precision, and f16/bf16 round after the multiply and after the add as XLA does.
``random_erf_inv`` follows XLA's lowering (Giles' single-precision polynomial for f32, f16 and
bf16 computed in f32) and refines to full precision for f64.
"""

from __future__ import annotations

import array
import math
from typing import Any

import ml_dtypes
import numpy as np

from trellax._src.core import Primitive, ShapedArray
from trellax._src.random import threefry

NMANT = {"float64": 52, "float32": 23, "float16": 10, "bfloat16": 7}
_UINT = {64: np.uint64, 32: np.uint32, 16: np.uint16, 8: np.uint8}


def unit_floats(key: np.ndarray[Any, Any], shape: tuple[int, ...], dtype: np.dtype[Any]) -> Any:
    """Floats in ``[0, 1)`` on the grid ``2**-nmant``, from the key's bits (JAX's layout)."""
    nbits, nmant, uint, shift, one_bits, one = _LAYOUT[dtype]
    draw = 8 if nmant < 8 else nbits
    b = np.asarray(threefry.bits_data(key, draw, shape), uint)  # fresh (0-d results too)
    b >>= shift
    b |= one_bits
    f = b.view(dtype)
    f -= one
    return f


def _layout(d: np.dtype[Any]) -> tuple[int, int, Any, Any, Any, Any]:
    nbits, nmant = d.itemsize * 8, NMANT[d.name]
    uint = _UINT[nbits]
    draw = 8 if nmant < 8 else nbits
    return nbits, nmant, uint, uint(draw - nmant), np.array(1, d).view(uint)[()], d.type(1)


_LAYOUT = {
    np.dtype(n): _layout(np.dtype(n)) for n in ("float64", "float32", "float16", ml_dtypes.bfloat16)
}


def _uniform_impl(
    key: Any, minval: Any, maxval: Any, *, shape: tuple[int, ...], dtype: np.dtype[Any]
) -> Any:
    f = unit_floats(key, shape, dtype)
    lo = np.asarray(minval, dtype)
    hi = np.asarray(maxval, dtype)
    span_d = hi - lo
    if not span_d.ndim and math.frexp(float(span_d))[0] == 0.5:  # scalar bounds: the usual case
        if span_d != 1:
            f *= span_d
        if lo != 0:
            f += lo
        np.maximum(lo, f, out=f)
        return f
    if np.all(np.frexp(span_d)[0] == 0.5):
        # f * span is exact for a power-of-two span (the defaults [0, 1) and normal's (-1, 1)),
        # so the fused multiply-add is one rounding of the add, in the dtype itself.
        out = f
        if np.any(span_d != 1):
            out *= span_d
        if np.any(lo != 0):
            out += lo
    elif dtype == np.float32:
        span = span_d.astype(np.float64)
        out = (f.astype(np.float64) * span + lo.astype(np.float64)).astype(np.float32)
    elif dtype == np.float64:
        span = (hi - lo).astype(np.longdouble)
        out = (f.astype(np.longdouble) * span + lo.astype(np.longdouble)).astype(np.float64)
    else:
        out = (f * (hi - lo)).astype(dtype) + lo
        out = out.astype(dtype)
    out = np.asarray(out, dtype)  # a writable array (0-d results come back as scalars)
    return np.maximum(lo, out, out=out)


def _uniform_abstract(
    key: Any, minval: Any, maxval: Any, *, shape: tuple[int, ...], dtype: np.dtype[Any]
) -> ShapedArray:
    """The bounds are arrays of ``dtype`` whose shapes broadcast to ``shape``; a batch of keys
    (key data ``K + (2,)``, under ``vmap``) gives ``K + shape`` (the bounds broadcast to that)."""
    full = (*key.shape[:-1], *shape)
    for bound in (minval, maxval):
        if bound.dtype == dtype and not bound.shape:
            continue  # scalar bounds (the usual case) broadcast to anything
        if bound.dtype != dtype or len(bound.shape) > len(full):
            raise TypeError(f"random_uniform bounds must be {dtype} of rank <= {len(full)}")
        if np.broadcast_shapes(tuple(bound.shape), full) != full:
            raise TypeError(
                f"mul got incompatible shapes for broadcasting: {shape}, {tuple(bound.shape)}."
            )
    return ShapedArray._fast(full, dtype, False)


random_uniform_p = Primitive("random_uniform")
random_uniform_p.def_impl(_uniform_impl)
random_uniform_p.def_abstract_eval(_uniform_abstract)


# -- erfinv ----------------------------------------------------------------------------------------

_SMALL = [2.81022636e-08, 3.43273939e-07, -3.5233877e-06, -4.39150654e-06, 0.00021858087,
          -0.00125372503, -0.00417768164, 0.246640727, 1.50140941]  # fmt: skip
_LARGE = [-0.000200214257, 0.000100950558, 0.00134934322, -0.00367342844, 0.00573950773,
          -0.0076224613, 0.00943887047, 1.00167406, 2.83297682]  # fmt: skip


def _horner_f32(coeffs: list[float], w: Any) -> Any:
    """Horner's rule in float32 with each step a fused multiply-add (rounded once)."""
    w64 = w.astype(np.float64)
    p = np.full(w.shape, np.float32(coeffs[0]), np.float32)
    acc = np.empty(w.shape, np.float64)
    for c in coeffs[1:]:
        np.multiply(p, w64, out=acc)  # exact: a product of two floats in float64
        acc += np.float64(np.float32(c))
        np.copyto(p, acc, casting="unsafe")  # the one rounding of the fused step
    return p


def erfinv_f32(x: Any) -> Any:
    """XLA's float32 erfinv, in cache-sized chunks for large arrays."""
    x = np.asarray(x, np.float32)
    flat = x.reshape(-1)
    if flat.size <= _SMALL_SIZE:
        return _erfinv_f32_small(flat).reshape(x.shape)
    out = np.empty_like(flat)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        for start in range(0, flat.size, _CHUNK):
            out[start : start + _CHUNK] = _erfinv_f32_chunk(flat[start : start + _CHUNK])
    return out.reshape(x.shape)


_SMALL_SIZE = 32  # up to this many values, the polynomials run on Python floats
_F32_SMALL = [float(np.float32(v)) for v in _SMALL]
_F32_LARGE = [float(np.float32(v)) for v in _LARGE]


def _horner_small(coeffs: list[float], ts: list[float]) -> list[float]:
    """Horner's rule on Python floats, each step rounded once to float32 (``array('f')``)."""
    ps: Any = [coeffs[0]] * len(ts)
    for c in coeffs[1:]:
        ps = array.array("f", [p * t + c for p, t in zip(ps, ts)])
    return list(ps)


def _erfinv_f32_small(x: Any) -> Any:
    """The arithmetic of :func:`_erfinv_f32_chunk` on Python floats, bit for bit: a sum or
    product of two float32 values is exact in float64 (or rounded once, for the fused steps),
    ``array('f')`` rounds to float32, and sqrt rounded twice is still correctly rounded. No NumPy
    call per Horner step, so small draws are cheap."""
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        w = np.multiply(x, x)
        np.negative(w, out=w)
        np.log1p(w, out=w)
        np.negative(w, out=w)
    xs, ws = x.tolist(), w.tolist()
    central = [i for i, wv in enumerate(ws) if wv < 5]
    tail = [i for i, wv in enumerate(ws) if not wv < 5]  # |x| > 0.9966 and NaN
    out = [0.0] * len(xs)
    if central:
        ts = array.array("f", [ws[i] - 2.5 for i in central])
        for i, p in zip(central, _horner_small(_F32_SMALL, list(ts))):
            out[i] = p * xs[i]
    if tail:
        roots = array.array("f", [math.sqrt(ws[i]) for i in tail])
        ts = array.array("f", [r - 3.0 for r in roots])
        for i, p in zip(tail, _horner_small(_F32_LARGE, list(ts))):
            out[i] = xs[i] * math.inf if abs(xs[i]) == 1 else p * xs[i]
    return np.array(out, np.float32)


_CHUNK = 1 << 16


def _erfinv_f32_chunk(x: Any) -> Any:
    w = np.multiply(x, x)
    np.negative(w, out=w)
    np.log1p(w, out=w)
    np.negative(w, out=w)  # w = -log1p(-x*x)
    tail = np.nonzero(~(w < np.float32(5)))  # |x| > 0.9966 (and NaN): the second polynomial
    w_tail = w[tail]
    w -= np.float32(2.5)
    p = _horner_f32(_SMALL, w)
    if w_tail.size:
        p[tail] = _horner_f32(_LARGE, np.sqrt(w_tail) - np.float32(3))
    p *= x
    if w_tail.size:
        x_tail = x[tail]
        p[tail] = np.where(np.abs(x_tail) == 1, x_tail * np.float32(np.inf), p[tail])
    return p


_ERF = np.frompyfunc(math.erf, 1, 1)


def erfinv_f64(x: Any) -> Any:
    """Float64 erfinv: the f32 polynomial as a start, then Newton steps on math.erf."""
    x = np.asarray(x, np.float64)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        y = erfinv_f32(x.astype(np.float32)).astype(np.float64)
        finite = np.isfinite(y)
        y0 = np.where(finite, y, 0.0)
        for _ in range(3):
            err = np.asarray(_ERF(y0), np.float64) - x
            y0 = y0 - err / (2 / math.sqrt(math.pi) * np.exp(-y0 * y0))
        out = np.where(finite, y0, np.where(np.abs(x) == 1, x * np.inf, np.nan))
    return out


def _erf_inv_impl(x: Any) -> Any:
    d = x.dtype
    if d == np.float64:
        return erfinv_f64(x)
    out = erfinv_f32(x)
    return out if d == np.float32 else out.astype(d)


random_erf_inv_p = Primitive("random_erf_inv")
random_erf_inv_p.def_impl(_erf_inv_impl)
random_erf_inv_p.def_abstract_eval(
    lambda x: ShapedArray._fast(tuple(x.shape), x.dtype, x.weak_type)
)

BFLOAT16 = np.dtype(ml_dtypes.bfloat16)
