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
import os
from typing import Any

import numpy as np

from trellax._src import core, dtypes
from trellax._src.basearray import Array
from trellax._src.lax import elementwise as lax
from trellax._src.lax.structural import _convert, broadcast_in_dim, broadcasted_iota, concatenate
from trellax._src.numpy.reductions import const

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


def eye(n: int, m: int, k: int, dtype: DType) -> Array:
    """Ones where ``row + k == col``."""
    i32 = dtypes.int32
    rows = lax.add(broadcasted_iota(i32, (n, m), 0), const(k, i32))
    return _convert(lax.eq(rows, broadcasted_iota(i32, (n, m), 1)), dtype, False)


def tri(n: int, m: int, k: int, dtype: DType) -> Array:
    """Ones where ``col <= row + k``."""
    i32 = dtypes.int32
    rows = lax.add(broadcasted_iota(i32, (n, m), 0), const(k, i32))
    return _convert(lax.ge(rows, broadcasted_iota(i32, (n, m), 1)), dtype, False)


def _scalar(x: Any, dtype: DType) -> Array:
    """A Python scalar or a 0-d (possibly traced) array as a 0-d array of ``dtype``."""
    if isinstance(x, Array):
        if x.ndim != 0:
            raise ValueError(f"expected a scalar start/stop value, got shape {tuple(x.shape)}")
        return _convert(x, dtype, False)
    return const(x, dtype)


def linspace(
    start: Any, stop: Any, num: int, endpoint: bool, dtype: DType, retstep: bool = False
) -> tuple[Array, Array | None]:
    """``num`` samples from ``start`` to ``stop`` (and the step when asked), computed in the
    inexact type of ``dtype`` (integer results are floored, as eagerly)."""
    kind = dtypes.kind(dtype)
    compute = dtype if kind in ("f", "c") else dtypes.default_float_dtype()
    lo, hi = _scalar(start, compute), _scalar(stop, compute)
    div = (num - 1) if endpoint else num
    if num == 0:
        out = filled((0,), compute, 0)
    elif num == 1 or div == 0:
        out = broadcast_in_dim(lo, (num,), ())
    else:
        n = num - 1 if endpoint else num
        frac = lax.div(broadcasted_iota(compute, (n,), 0), const(div, compute))
        out = lax.add(lax.mul(lo, lax.sub(const(1, compute), frac)), lax.mul(hi, frac))
        if endpoint:
            out = concatenate([out, broadcast_in_dim(hi, (1,), ())], 0)
    if kind in ("i", "u"):
        out = lax.floor(out)
    if not retstep:
        return _convert(out, dtype, False), None
    step = lax.div(lax.sub(hi, lo), const(max(div, 1), compute))
    return _convert(out, dtype, False), _convert(step, dtype, False)


def logspace(start: Any, stop: Any, num: int, endpoint: bool, base: Any, dtype: DType) -> Array:
    """``base ** linspace(start, stop)``."""
    compute = dtype if dtypes.kind(dtype) in ("f", "c") else dtypes.default_float_dtype()
    exponents, _ = linspace(start, stop, num, endpoint, compute)
    out = lax.pow(broadcast_in_dim(const(base, compute), (num,), ()), exponents)
    return _convert(out, dtype, False)


def geomspace(start: Any, stop: Any, num: int, endpoint: bool, dtype: DType) -> Array:
    """``sign * 10 ** linspace(log10 |start|, log10 |stop|)``, with exact end points."""
    if start == 0 or stop == 0:
        raise ValueError("Geometric sequence cannot include zero")
    sign = -1.0 if (start < 0 and stop < 0) else 1.0
    lo, hi = math.log10(abs(start)), math.log10(abs(stop))
    compute = dtype if dtypes.kind(dtype) in ("f", "c") else dtypes.default_float_dtype()
    out = logspace(lo, hi, num, endpoint, 10.0, compute)
    if sign != 1.0:
        out = lax.mul(const(sign, compute), out)
    return _convert(out, dtype, False)
