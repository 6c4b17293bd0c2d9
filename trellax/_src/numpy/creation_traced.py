"""Creation functions as primitives: what ``zeros``, ``arange``, ``eye``, ``linspace``... record
under a trace, and the size check of their eager forms.

Abstract evaluation never computes data. Under ``jit``, ``eval_shape`` or ``make_jaxpr``, a
creation function records the few equations that build its result (``broadcast_in_dim`` of a
scalar, ``iota``, ``eq``/``ge`` of two iotas, ...) instead of computing a NumPy array and
embedding it as a constant, so ``eval_shape(lambda: zeros((10**12,)))`` takes microseconds and
no memory. The formulas are JAX's (``arange`` is ``start + step * iota`` in the result dtype,
``linspace`` interpolates between the end points), so a traced program matches JAX's jaxpr.

Eagerly, the functions keep computing with NumPy (one call instead of several primitives is
faster for small arrays), after :func:`check_size` refuses a result that cannot fit in memory.
"""

from __future__ import annotations

import math
import operator
import os
from typing import Any

import numpy as np

from trellax._src.backend import eager
from trellax._src.core import core
from trellax._src.core.basearray import Array
from trellax._src.dtypes import dtypes
from trellax._src.lax import elementwise as lax
from trellax._src.lax.fma import fma_p
from trellax._src.lax.libm_pow import libm_pow_p
from trellax._src.lax.select_n import select_n
from trellax._src.lax.structural import (
    _convert,
    broadcast_in_dim,
    broadcasted_iota,
    concatenate,
    slice_in_dim_static,
)
from trellax._src.numpy.reductions import const
from trellax._src.numpy.util import to_inexact_dtype

DType = np.dtype[Any]
Shape = tuple[int, ...]


def tracing() -> bool:
    """True inside ``jit``/``eval_shape``/``make_jaxpr`` (or any other trace)."""
    return core.current_trace() is not core.eval_trace


def _memory_bytes() -> int:
    try:
        return int(os.sysconf("SC_PAGE_SIZE")) * int(os.sysconf("SC_PHYS_PAGES"))
    except (ValueError, OSError, AttributeError):  # pragma: no cover - non-POSIX
        return 2**62


_MEMORY = _memory_bytes()


def _human(n: int) -> str:
    size = float(n)
    for unit in ("B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"):
        if size < 1024 or unit == "EiB":
            return f"{size:.3g} {unit}"
        size /= 1024
    raise AssertionError("unreachable")


def check_size(fun_name: str, shape: Shape, dtype: DType) -> None:
    """Refuses, before any work, an eager result larger than this machine's memory (NumPy
    would fail the same way for ``zeros``, but a broadcast fill value would become a view that
    every later operation walks element by element)."""
    nbytes = math.prod(shape) * max(1, dtypes.itemsize_bits(dtype) // 8)
    if nbytes > _MEMORY:
        raise MemoryError(
            f"{fun_name}: unable to allocate {_human(nbytes)} for an array with shape {shape} "
            f"and dtype {dtype.name} (this machine has {_human(_MEMORY)} of memory). Under "
            "jit, eval_shape or make_jaxpr the array is never materialized."
        )


def filled(shape: Shape, dtype: DType, value: Any, weak_type: bool = False) -> Array:
    """``value`` everywhere: one ``broadcast_in_dim`` of a scalar."""
    return broadcast_in_dim(const(value, dtype, weak_type), shape, ())


def arange(start: Any, step: Any, size: int, dtype: DType) -> Array:
    """``start + step * iota`` in ``dtype`` (the multiply and add are left out when trivial)."""
    out = broadcasted_iota(dtype, (size,), 0)
    if step != 1:
        out = lax.mul(const(step, dtype), out)
    if start != 0:
        out = lax.add(const(start, dtype), out)
    return out


def _offset(k: int | Array) -> Array:
    return k if isinstance(k, Array) else const(k, dtypes.int32)


def eye(n: int, m: int, k: int | Array, dtype: DType) -> Array:
    """Ones where ``row + k == col``."""
    i32 = dtypes.int32
    rows = lax.add(broadcasted_iota(i32, (n, m), 0), _offset(k))
    return _convert(lax.eq(rows, broadcasted_iota(i32, (n, m), 1)), dtype, False)


def tri(n: int, m: int, k: int | Array, dtype: DType) -> Array:
    """Ones where ``col <= row + k``."""
    i32 = dtypes.int32
    rows = lax.add(broadcasted_iota(i32, (n, m), 0), _offset(k))
    return _convert(lax.ge(rows, broadcasted_iota(i32, (n, m), 1)), dtype, False)


def _endpoint(x: Any, dtype: DType) -> Array:
    """A start/stop value (a Python scalar or a possibly traced array) as an array of ``dtype``."""
    if isinstance(x, Array):
        return _convert(x, dtype, False)
    if np.ndim(x) == 0:
        return const(np.asarray(x).item(), dtype)
    value = np.asarray(x).astype(dtype)
    out: Array = core.new_array(value, dtype, False)
    return out


def sample_axis(fun_name: str, axis: Any, num: int, bounds_ndim: int) -> int:
    """Where ``linspace``/``logspace`` put the sample axis among the ``bounds_ndim`` dimensions
    of the broadcast ends, as JAX places it: a negative ``axis`` counts from the end of the
    result; with fewer than 2 samples the axis is only inserted into the shape (a position past
    either end clamps to it, as Python's ``list.insert``); with 2 or more, JAX also indexes the
    result's shape with it, so a position past it is its ``IndexError``. Only an integer axis
    is taken (``TypeError`` otherwise)."""
    try:
        a = operator.index(axis)
    except TypeError:
        raise TypeError(f"{fun_name}: axis must be an integer, got {axis!r}") from None
    slot = bounds_ndim + a + 1 if a < 0 else a
    if num < 2:
        return min(slot, bounds_ndim) if slot >= 0 else max(0, bounds_ndim + slot)
    if slot == -(bounds_ndim + 1):  # counted from the end twice: the first position
        return 0
    if not 0 <= slot <= bounds_ndim:
        raise IndexError(
            f"{fun_name}: axis {a} is out of bounds for the {bounds_ndim + 1}-d result"
        )
    return slot


def _along(x: Array, shape: tuple[int, ...], axis: int) -> Array:
    """``x`` (of the bounds' shape) broadcast to ``shape``, the sample axis ``axis`` inserted."""
    bounds = tuple(shape[:axis] + shape[axis + 1 :])
    lead = len(bounds) - x.ndim
    dims = tuple(d if d < axis else d + 1 for d in range(lead, len(bounds)))
    return broadcast_in_dim(x, shape, dims)


def linspace(
    start: Any,
    stop: Any,
    num: int,
    endpoint: bool,
    dtype: DType,
    retstep: bool = False,
    axis: int = 0,
    program: str = "linspace",
) -> tuple[Array, Array | None]:
    """``num`` samples from ``start`` to ``stop`` along a new axis ``axis`` (and the step when
    asked), computed in the inexact type of ``dtype`` (integer results are floored, as eagerly).
    ``start`` and ``stop`` may be arrays (broadcast together) and complex."""
    kind = dtypes.kind(dtype)
    compute = dtype if kind in ("f", "c") else to_inexact_dtype(dtype)  # JAX: int32 -> float32
    lo, hi = _endpoint(start, compute), _endpoint(stop, compute)
    bounds = core.broadcast_shapes(tuple(lo.shape), tuple(hi.shape))
    ax = axis + len(bounds) + 1 if axis < 0 else axis
    if not 0 <= ax <= len(bounds):
        raise ValueError(f"axis {axis} is out of bounds for the {len(bounds) + 1}-d result")
    shape = (*bounds[:ax], num, *bounds[ax:])
    div = (num - 1) if endpoint else num
    if num == 0:
        out = filled(shape, compute, 0)
    elif num == 1 or div == 0:
        out = _along(lo, shape, ax)
    else:
        n = num - 1 if endpoint else num
        part = (*bounds[:ax], n, *bounds[ax:])
        if compute in _HALF:
            out = _half_samples(_along(lo, part, ax), _along(hi, part, ax), ax, div, compute)
        elif compute in _F32_F64:
            size = num * math.prod(bounds)
            out = _xla_samples(lo, hi, part, ax, div, size, compute, program, endpoint)
        elif program != "linspace" and kind == "c" and _finite_real(lo) and _finite_real(hi):
            out = _complex_logspace_samples(_along(lo, part, ax), _along(hi, part, ax), ax, div)
        else:
            frac = lax.div(broadcasted_iota(compute, part, ax), const(div, compute))
            one_minus = lax.sub(const(1, compute), frac)
            out = lax.add(
                lax.mul(_along(lo, part, ax), one_minus), lax.mul(_along(hi, part, ax), frac)
            )
        if endpoint:
            out = concatenate([out, _along(hi, (*bounds[:ax], 1, *bounds[ax:]), ax)], ax)
    if kind in ("i", "u"):
        out = lax.floor(out)
    if not retstep:
        return _convert(out, dtype, False), None
    # JAX's step: NaN (0-d) without a spacing, else (stop - start) / div in the ends' shape
    if num == 0 or (num == 1 and endpoint):
        step = const(float("nan"), compute)
    else:
        step = lax.sub(_to_shape(hi, bounds), _to_shape(lo, bounds))
        step = lax.div(step, const(div, compute)) if num > 1 else step
    return _convert(out, dtype, False), _convert(step, compute, False)  # JAX's step dtype


_HALF = (np.dtype(np.float16), np.dtype(dtypes.bfloat16))


def _half_samples(lo: Array, hi: Array, ax: int, div: int, compute: DType) -> Array:
    """float16/bfloat16 samples as XLA computes JAX's formula (``backend/linspace_xla.py``): the
    product by the constant ``c = 1/div``, each step rounded to ``compute``; bfloat16's steps in
    float32 with a float32 ``c``."""
    iota = broadcasted_iota(compute, tuple(lo.shape), ax)
    if compute == np.float16:
        c = const(np.float16(1) / np.float16(div), compute)
        frac = lax.mul(iota, c)
        return lax.add(lax.mul(lo, lax.sub(const(1, compute), frac)), lax.mul(iota, lax.mul(hi, c)))
    f32 = np.dtype(np.float32)

    def rounded(x: Array) -> Array:
        return _convert(_convert(x, compute, False), f32, False)

    c = const(np.float32(1) / np.float32(np.float32(div).astype(compute)), f32)
    frac = rounded(lax.mul(_convert(iota, f32, False), c))
    one_minus = rounded(lax.sub(const(1, f32), frac))
    left = rounded(lax.mul(_convert(lo, f32, False), one_minus))
    return _convert(lax.add(left, rounded(lax.mul(_convert(hi, f32, False), frac))), compute, False)


_F32_F64 = (np.dtype(np.float32), np.dtype(np.float64))


def _xla_samples(
    lo: Array,
    hi: Array,
    part: Shape,
    ax: int,
    div: int,
    size: int,
    compute: DType,
    program: str = "linspace",
    endpoint: bool = False,
) -> Array:
    """float32/float64 samples ``start * (1 - i * c) + i * (stop * c)`` (``c = 1 / div``) as
    XLA:CPU computes JAX's ``program`` (``backend/linspace_xla.py``): with an end traced, the
    fused multiply-adds of the compiled loop; with both ends constants, LLVM folds the unrolled
    samples with every operation rounded (an end of 0 or 1 folds more in a vector loop: not
    followed)."""
    xla = eager.linspace_xla
    isize = np.dtype(compute).itemsize
    c = const(np.dtype(compute).type(1) / np.dtype(compute).type(div), compute)
    iota = broadcasted_iota(compute, part, ax)
    if math.prod(part) > div:  # ends with more than one element
        form = xla.array_form(lo.ndim, hi.ndim, ax == len(part) - 1)
        t = lax.mul(iota, c)
        om = lax.sub(const(1, compute), t)
        start, stop = _along(lo, part, ax), _along(hi, part, ax)
        if form == "i_sc":
            return fma_p.bind(start, om, lax.mul(iota, _along(lax.mul(hi, c), part, ax)))
        if form == "stop_t":
            return fma_p.bind(stop, t, lax.mul(start, om))
        return fma_p.bind(start, om, lax.mul(stop, t))
    start, sc = _along(lo, part, ax), _along(lax.mul(hi, c), part, ax)
    one_minus = lax.sub(const(1, compute), lax.mul(iota, c))
    (f_lo, f_hi), first = xla.forms(isize, div, size, program, endpoint)
    in_loop = None  # where the fused forms apply, when not everywhere
    if f_hi > f_lo and (f_lo, f_hi) != (0, div):
        in_loop = lax.lt(iota, const(f_hi, compute))
        if f_lo:
            in_loop = lax.bitwise_and(in_loop, lax.ge(iota, const(f_lo, compute)))
    if f_hi > f_lo:
        fused = fma_p.bind(lax.neg(iota), _full(c, part), _full(1, part, compute))
    if core.is_concrete(lo) and core.is_concrete(hi) and not xla.splits(isize, size, program):
        plain = lax.add(lax.mul(start, one_minus), lax.mul(iota, sc))
        if f_hi == f_lo or xla.constants_fold(isize, div, program):
            return plain
        if _abs_value(hi) == 1:  # i * (stop * c) is +-(i * c): only start * om is left to
            # contract, and 1 - i * c stays rounded (other special ends: not followed)
            looped = fma_p.bind(start, one_minus, lax.mul(iota, sc))
            return looped if in_loop is None else select_n(in_loop, plain, looped)
        looped = fma_p.bind(iota, sc, lax.mul(start, fused))
        return looped if in_loop is None else select_n(in_loop, plain, looped)
    if f_hi > f_lo:
        one_minus = fused if in_loop is None else select_n(in_loop, one_minus, fused)
    if first is True:
        return fma_p.bind(start, one_minus, lax.mul(iota, sc))
    out = fma_p.bind(iota, sc, lax.mul(start, one_minus))
    if first is None and div > 1:  # the unrolled loop's i = 1: 1 * sc folded
        first_form = fma_p.bind(start, one_minus, sc)
        out = select_n(lax.eq(iota, const(1, compute)), out, first_form)
    return out


def _finite_real(x: Array) -> bool:
    """Whether ``x`` is concrete, finite and real-valued (complex with zero imaginary parts)."""
    v = core.to_concrete_value(x)
    return v is not None and bool(np.all(np.isfinite(v)) and np.all(np.imag(v) == 0))


def _complex_logspace_samples(lo: Array, hi: Array, ax: int, div: int) -> Array:
    """Complex exponents of ``logspace`` with constant real-valued ends, as XLA:CPU computes
    JAX's formula in ``logspace``'s loop (not unrolled: it calls the complex ``pow``): ``t = i *
    c`` in the real type, the real part ``fma(stop, t, start * (1 - t))`` (the complex products
    by ``t + 0j`` reduce to real ones once the zero imaginary parts are folded), the imaginary
    part +0."""
    rd = np.dtype(np.float32 if lo.dtype == np.complex64 else np.float64)
    shape = tuple(lo.shape)
    t = lax.mul(broadcasted_iota(rd, shape, ax), const(rd.type(1) / rd.type(div), rd))
    om = lax.sub(const(1, rd), t)
    re = fma_p.bind(lax.real(hi), t, lax.mul(lax.real(lo), om))
    return lax.complex(re, _full(0, shape, rd))


def _abs_value(x: Array) -> float | None:
    """``|x|`` when the concrete ``x`` has one magnitude everywhere, else None."""
    v = core.to_concrete_value(x)
    if v is None:
        return None
    a = np.unique(np.abs(np.asarray(v)))
    return float(a[0]) if a.size == 1 else None


def _full(x: Any, shape: Shape, dtype: DType | None = None) -> Array:
    """A scalar (an array or a Python number of ``dtype``) broadcast to ``shape``."""
    if not isinstance(x, Array):
        assert dtype is not None, "a Python number needs its dtype"
        x = const(x, dtype)
    return broadcast_in_dim(x, shape, ())


def _to_shape(x: Array, shape: tuple[int, ...]) -> Array:
    """``x`` broadcast (right-aligned, as NumPy does) to ``shape``."""
    if tuple(x.shape) == shape:
        return x
    return broadcast_in_dim(x, shape, tuple(range(len(shape) - x.ndim, len(shape))))


def logspace(
    start: Any, stop: Any, num: int, endpoint: bool, base: Any, dtype: DType, axis: int = 0
) -> Array:
    """``base ** linspace(start, stop)``; ``base`` may be an array, broadcast with the ends."""
    compute = dtype if dtypes.kind(dtype) in ("f", "c") else dtypes.default_float_dtype()
    lo, hi, b = (_endpoint(v, compute) for v in (start, stop, base))
    bounds = core.broadcast_shapes(tuple(lo.shape), tuple(hi.shape), tuple(b.shape))
    lo, hi, b = (_to_shape(v, bounds) for v in (lo, hi, b))
    # a constant base (a Python number under a user's jit) changes XLA's loop layout
    program = "logspace" if not core.is_concrete(b) else "logspace_jit"
    exponents, _ = linspace(lo, hi, num, endpoint, compute, axis=axis, program=program)
    ax = axis + exponents.ndim if axis < 0 else axis
    spread = _along(b, tuple(exponents.shape), ax)
    if compute in _F32_F64 and num >= 2:  # JAX's pow is the C library's (backend/linspace_xla.py)
        two = program == "logspace_jit" and _abs_value(b) == 2
        two = two and bool(np.all(np.asarray(core.to_concrete_value(b)) > 0))
        out = libm_pow_p.bind(spread, exponents, exp2=bool(two and compute == np.float64))
    else:
        out = lax.pow(spread, exponents)
    return _convert(out, dtype, False)


def geomspace(
    start: Any, stop: Any, num: int, endpoint: bool, dtype: DType, axis: int = 0
) -> Array:
    """``sign * 10 ** linspace(log10(start / sign), log10(stop / sign))`` with the end points
    set exactly (``sign`` is ``start``'s), for array, complex and traced ends."""
    compute = dtype if dtypes.kind(dtype) in ("f", "c") else dtypes.default_float_dtype()
    lo, hi = _endpoint(start, compute), _endpoint(stop, compute)
    sign = lax.sign(lo)
    ten = const(10.0, compute)
    log_lo = lax.div(lax.log(lax.div(lo, sign)), lax.log(ten))
    log_hi = lax.div(lax.log(lax.div(hi, sign)), lax.log(ten))
    out = logspace(log_lo, log_hi, num, endpoint, 10.0, compute, axis)
    ax = axis + out.ndim if axis < 0 else axis
    out = lax.mul(_along(sign, tuple(out.shape), ax), out)
    if num > 0:  # exact end points where the sequence is defined (JAX's formula gives NaN, or
        # a NaN start and zeros after it for a zero stop, when an end is 0 or the sign changes)
        first_shape = tuple(1 if i == ax else s for i, s in enumerate(out.shape))
        ok = lax.bitwise_and(_finite(log_lo), _finite(log_hi))
        first = slice_in_dim_static(out, 0, 1, ax)
        parts = [select_n(_along(ok, first_shape, ax), first, _along(lo, first_shape, ax))]
        if num > 1:
            parts.append(slice_in_dim_static(out, 1, num - 1 if endpoint else num, ax))
            if endpoint:
                last = slice_in_dim_static(out, num - 1, num, ax)
                parts.append(
                    select_n(_along(ok, first_shape, ax), last, _along(hi, first_shape, ax))
                )
        out = concatenate(parts, ax) if len(parts) > 1 else parts[0]
    return _convert(out, dtype, False)


def _finite(x: Array) -> Array:
    """Whether ``x`` (real or complex) is finite: ``x - x == 0`` is false for NaN and +-inf."""
    diff = lax.sub(x, x)
    return lax.eq(diff, const(0, diff.dtype))
