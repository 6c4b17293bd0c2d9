"""Bits to floats: JAX's uniform (mantissa trick plus XLA:CPU's fused multiply-add) and the
inverse error function behind ``normal``, as primitives with NumPy impls.

``random_uniform`` is bit-identical to JAX for every float dtype and any bounds: f32 emulates the
fused ``f * (max - min) + min`` with the exactly rounded fused multiply-add of
:mod:`trellax._src.backend.fma`, and f16/bf16 round after the multiply and after the add as XLA
does.
``random_erf_inv`` follows XLA's lowering (:mod:`erfinv`: Giles' single-precision polynomial for
f32, f16 and bf16 computed in f32, his double-precision one for f64).
"""

from __future__ import annotations

import math
from typing import Any

import ml_dtypes
import numpy as np

from trellax._src.backend.fma import fma
from trellax._src.core.core import Primitive, ShapedArray
from trellax._src.lax.shapes import def_elementwise
from trellax._src.random import chunks, compiled_kernels, threefry
from trellax._src.random.erfinv import erfinv_f32, erfinv_f64
from trellax._src.random.primitives import bounded_rule

NMANT = {"float64": 52, "float32": 23, "float16": 10, "bfloat16": 7}
_UINT = {64: np.uint64, 32: np.uint32, 16: np.uint16, 8: np.uint8}


def unit_floats(key: np.ndarray[Any, Any], shape: tuple[int, ...], dtype: np.dtype[Any]) -> Any:
    """Floats in ``[0, 1)`` on the grid ``2**-nmant``, from the key's bits (JAX's layout)."""
    nbits, nmant = LAYOUT[dtype][:2]
    draw = 8 if nmant < 8 else nbits
    n = math.prod(shape)
    if key.shape == (2,) and threefry._SWAR_MAX < n <= 1 << 32 and dtype in _UNIT_KERNEL:
        return _unit_one_key(key, n, dtype).reshape(shape)
    return floats_from_bits(threefry.bits_data(key, draw, shape), dtype)


_UNIT_KERNEL = {np.dtype(np.float32): "unit32", np.dtype(np.float64): "unit64"}


def _unit_one_key(key: Any, n: int, dtype: np.dtype[Any]) -> Any:
    """:func:`unit_floats` of a large float32 or float64 draw under one key: one compiled loop
    per chunk from the counters to the floats (``(bits >> (nbits - nmant)) * 2**-nmant``, an
    exact conversion of an integer below ``2**(nmant + 1)``); with NumPy, for float32, the
    hash and :func:`floats_from_bits`'s passes per chunk while it is in cache."""
    out = np.empty(n, dtype)
    k = (int(key[0]), int(key[1]))
    fn = compiled_kernels.get(_UNIT_KERNEL[dtype], n)
    if fn is not None:
        compiled_kernels.run(fn, k, out)
        return out
    if dtype != _F32:
        return floats_from_bits(threefry.bits_data(key, 64, (n,)), dtype)
    one = threefry.OneKey(*k)
    shift, one_bits = np.uint32(9), np.uint32(0x3F800000)

    def work(i0: int, i1: int, bufs: tuple[Any, Any, Any]) -> None:
        m = i1 - i0
        x0, x1, tmp = (b[:m] for b in bufs)
        one.hash(i0, threefry.RAMP[:m], x0, x1, tmp)
        x0 ^= x1
        x0 >>= shift
        x0 |= one_bits  # [1, 2)
        np.subtract(x0.view(np.float32), np.float32(1), out=out[i0:i1])  # exact

    chunks.run_chunks(n, work, threefry.hash_scratch)
    return out


def floats_from_bits(bits: np.ndarray[Any, Any], dtype: np.dtype[Any]) -> Any:
    """:func:`unit_floats` from the raw bits (``draw_bits(dtype)`` wide; fresh, as they are
    overwritten): the top mantissa bits under the exponent of 1.0, minus 1."""
    _, _, uint, shift, one_bits, one = LAYOUT[dtype]
    b = np.asarray(bits, uint)  # fresh (0-d results too)
    b >>= shift
    b |= one_bits
    f = b.view(dtype)
    f -= one
    return f


def draw_bits(dtype: np.dtype[Any]) -> int:
    """How many random bits a float of ``dtype`` is drawn from (8 for bfloat16)."""
    nbits, nmant = LAYOUT[dtype][:2]
    return 8 if nmant < 8 else nbits


def _layout(d: np.dtype[Any]) -> tuple[int, int, Any, Any, Any, Any]:
    nbits, nmant = d.itemsize * 8, NMANT[d.name]
    uint = _UINT[nbits]
    draw = 8 if nmant < 8 else nbits
    return nbits, nmant, uint, uint(draw - nmant), np.array(1, d).view(uint)[()], d.type(1)


LAYOUT = {
    np.dtype(n): _layout(np.dtype(n)) for n in ("float64", "float32", "float16", ml_dtypes.bfloat16)
}


_F32 = np.dtype(np.float32)
#: Up to this many float32 values with the default bounds, uniform runs on Python ints.
SMALL = 32


def unit_f32_small(key: Any, n: int) -> Any:
    """``unit_floats`` of ``n`` float32 values under one key, on Python ints: ``(bits >> 9) *
    2**-23`` is exact."""
    y0, y1 = threefry.swar_one_key(int(key[0]), int(key[1]), n)
    return np.array([(b >> 9) * 2.0**-23 for b in threefry.lanes(y0 ^ y1, n)], np.float32)


def _default_bounds(minval: Any, maxval: Any) -> bool:
    """Whether the bounds are the scalars +0 and 1: then ``max(+0, f * 1 + 0)`` is ``f``."""
    if minval.shape or maxval.shape:
        return False
    lo = minval.item()  # Python floats: cheaper to compare than NumPy scalars
    return lo == 0 and maxval.item() == 1 and math.copysign(1.0, lo) > 0


def uniform_values(
    key: Any, minval: Any, maxval: Any, *, shape: tuple[int, ...], dtype: np.dtype[Any]
) -> Any:
    """``random_uniform``'s impl: NumPy key data and bounds (arrays of ``dtype``) in, floats in
    ``[minval, maxval)`` of shape ``K + shape`` out."""
    if (
        dtype == _F32
        and key.shape == (2,)
        and math.prod(shape) <= SMALL
        and _default_bounds(minval, maxval)
    ):
        return unit_f32_small(key, math.prod(shape)).reshape(shape)
    return scale_unit(unit_floats(key, shape, dtype), minval, maxval, dtype)


def scale_unit(f: Any, minval: Any, maxval: Any, dtype: np.dtype[Any]) -> Any:
    """Uniform floats in ``[minval, maxval)`` from unit floats ``f`` (overwritten): XLA's fused
    ``f * (maxval - minval) + minval``, then ``max(minval, .)``."""
    lo = np.asarray(minval, dtype)
    hi = np.asarray(maxval, dtype)
    span_d = hi - lo
    if not span_d.ndim and math.frexp(float(span_d))[0] == 0.5:  # scalar bounds: the usual case
        if span_d != 1:
            f *= span_d
        if lo != 0:
            f += lo
        if lo != 0 or np.signbit(lo):
            # f * span >= +0 is exact (a positive power-of-two span), so with the lower bound
            # +0 the max is the identity (f >= +0); otherwise it is applied
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
    elif dtype in (np.float32, np.float64):
        # one rounding, exactly (backend.fma; extended precision was a double rounding for f64)
        out = fma(f, span_d, lo)
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
    check_bounds(full, shape, dtype, minval, maxval)
    return ShapedArray._fast(full, dtype, False)


def check_bounds(
    full: tuple[int, ...], shape: tuple[int, ...], dtype: np.dtype[Any], *bounds: Any
) -> None:
    """JAX's errors unless each bound (an array of ``dtype``) broadcasts to ``full``: a rank
    above the result's is its ``ValueError``, another dtype or a mismatched size its
    ``TypeError``."""
    for bound in bounds:
        if bound.dtype == dtype and not bound.shape:
            continue  # scalar bounds (the usual case) broadcast to anything
        if bound.dtype != dtype:
            raise TypeError(f"random_uniform bounds must be {dtype}, got {bound.dtype}")
        if len(bound.shape) > len(full):
            raise ValueError(
                f"uniform: a bound of shape {tuple(bound.shape)} has more dimensions than the "
                f"result shape {full}"
            )
        ok = all(b in (1, f) for b, f in zip(bound.shape[::-1], full[::-1], strict=False))
        if not ok:
            raise TypeError(
                f"mul got incompatible shapes for broadcasting: {shape}, {tuple(bound.shape)}."
            )


random_uniform_p = Primitive("random_uniform")
random_uniform_p.def_impl(uniform_values)
random_uniform_p.def_abstract_eval(_uniform_abstract)


# -- erfinv ----------------------------------------------------------------------------------------


def erf_inv_values(x: Any) -> Any:
    """``random_erf_inv``'s impl: XLA's erfinv of a float array, in its dtype."""
    d = x.dtype
    if d == np.float64:
        return erfinv_f64(x)
    out = erfinv_f32(x)
    return out if d == np.float32 else out.astype(d)


random_erf_inv_p = Primitive("random_erf_inv")
random_erf_inv_p.def_impl(erf_inv_values)
random_erf_inv_p.def_abstract_eval(
    lambda x: ShapedArray._fast(tuple(x.shape), x.dtype, x.weak_type)
)

BFLOAT16 = np.dtype(ml_dtypes.bfloat16)


# -- batch rules --------------------------------------------------------------------------------

def_elementwise(random_erf_inv_p, fusable=False)
random_uniform_p.def_batch(bounded_rule(random_uniform_p))
