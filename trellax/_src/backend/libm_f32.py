"""The C library's float32 ``tanf``, ``powf`` and ``atan2f``, as XLA:CPU calls them, through NumPy.

XLA:CPU has no inline code for float32 ``tan`` and ``pow``: its compiled kernels call the C
library's ``tanf`` and ``powf`` (the machine code of ``jit(jnp.tan)``/``jit(jnp.power)`` holds the
calls; on this host they are glibc 2.36's, and JAX 0.10.2 agrees with them on 2·10⁵ random
inputs each). NumPy's float32 ``tan``/``power`` on contiguous arrays are its own SIMD loops, which
differ from the C library's in ~25 % / ~18 % of inputs; on arrays with a negative stride NumPy
2.4 takes its scalar loop, which calls the C library's function element by element. So here the
operands are laid out with a negative stride and NumPy's scalar loop computes the C library's
values (~15 ns an element). ``tests/test_xla_elementary.py`` compares the results with JAX's bits,
so a NumPy that stops taking this path fails there, not silently.

XLA:CPU runs with subnormals flushed to zero. ``powf``'s subnormal results become zeros (here too
with ``flush=True``; the samplers keep them, as trellax keeps IEEE subnormals: docs/semantics.md); ``tanf`` returns a tiny input unchanged (as NumPy's scalar loop does). One difference is
left: ``powf`` rescales a subnormal base by a multiplication that the flush turns to zero, after
which it computes with the base 2**-150 whatever the subnormal was (``pow(1e-45, 0.5)`` is 2**-75
in JAX, 2**-74.5 here). No sampler raises a subnormal to a power (their bases are at least
~6e-8, or gamma draws, whose subnormals are flushed to zero before).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import functools
from typing import Any

import numpy as np

F32 = np.ndarray[Any, np.dtype[np.float32]]
_TINY = np.float32(1.1754943508222875e-38)


def _reversed(x: Any, flush: bool) -> Any:
    """A negative-stride view holding ``x`` (1-D float32) in its order (subnormals as zeros if
    ``flush``)."""
    buf = np.empty_like(x)
    view = buf[::-1]
    view[...] = x
    if flush:
        _flush(view)
    return view


def _flush(a: Any) -> None:
    sub = np.abs(a) < _TINY
    if sub.any():
        a[sub] = np.copysign(np.float32(0), a[sub])


@functools.cache
def _libm() -> Any:
    lib = ctypes.CDLL(ctypes.util.find_library("m") or "libm.so.6")
    lib.tanf.restype = ctypes.c_float
    lib.tanf.argtypes = [ctypes.c_float]
    lib.powf.restype = ctypes.c_float
    lib.powf.argtypes = [ctypes.c_float, ctypes.c_float]
    lib.atan2f.restype = ctypes.c_float
    lib.atan2f.argtypes = [ctypes.c_float, ctypes.c_float]
    return lib


@functools.cache
def _scalar_loop_is_libm() -> bool:
    """Whether NumPy's negative-stride loops give the C library's ``tanf``/``powf`` here."""
    rng = np.random.default_rng(0)
    x = rng.uniform(-1.6, 1.6, 256).astype(np.float32)
    y = rng.uniform(-3, 3, 256).astype(np.float32)
    b = np.abs(x) + np.float32(0.5)
    lib = _libm()
    want_t = np.array([lib.tanf(float(v)) for v in x], np.float32)
    want_p = np.array([lib.powf(float(u), float(v)) for u, v in zip(b, y)], np.float32)
    want_a = np.array([lib.atan2f(float(u), float(v)) for u, v in zip(x, y)], np.float32)
    return bool(
        np.array_equal(_numpy_tan(x), want_t)
        and np.array_equal(_numpy_binary(np.power, b, y), want_p)
        and np.array_equal(_numpy_binary(np.arctan2, x, y), want_a)
    )


def _numpy_tan(x: Any) -> Any:
    xs = _reversed(x, False)
    out = np.empty(xs.shape, np.float32)  # contiguous: with every operand reversed NumPy would
    # flip the loop to positive strides and take its SIMD loop again
    with np.errstate(all="ignore"):
        np.tan(xs, out=out)
    return out


def _numpy_binary(ufunc: Any, x: Any, y: Any) -> Any:
    xs, ys = _reversed(x, False), _reversed(y, False)
    out = np.empty(xs.shape, np.float32)
    with np.errstate(all="ignore"):
        ufunc(xs, ys, out=out)
    return out


def tan_f32(x: Any) -> F32:
    """``tanf`` of each element of a float32 array, as XLA:CPU computes it."""
    x = np.asarray(x, np.float32)
    flat = x.reshape(-1)  # tanf returns a tiny input itself: nothing flushed
    if _scalar_loop_is_libm():
        out = _numpy_tan(flat)
    else:
        out = np.array([_libm().tanf(float(v)) for v in flat], np.float32)
    result: F32 = out.reshape(x.shape)
    return result


def pow_f32(x: Any, y: Any, flush: bool = True) -> F32:
    """``powf`` of each pair of elements of two float32 arrays (broadcast), as XLA:CPU computes
    it (with ``flush``; without, subnormal results are kept)."""
    out = _binary(np.power, "powf", x, y)
    if flush:
        _flush(out)
    return out


def atan2_f32(y: Any, x: Any) -> F32:
    """``atan2f`` of each pair of elements of two float32 arrays (broadcast), as XLA:CPU calls it
    (no flush: its callers flush what they need)."""
    return _binary(np.arctan2, "atan2f", y, x)


def _binary(ufunc: np.ufunc, name: str, a: Any, b: Any) -> F32:
    """The C library's float32 function ``name`` (NumPy's ``ufunc`` when its scalar loop is the
    C library's) of each pair of elements of ``a`` and ``b`` (broadcast, float32)."""
    a, b = np.broadcast_arrays(np.asarray(a, np.float32), np.asarray(b, np.float32))
    fa, fb = a.reshape(-1), b.reshape(-1)
    if _scalar_loop_is_libm():
        out = _numpy_binary(ufunc, fa, fb)
    else:
        f = getattr(_libm(), name)
        out = np.array([f(float(u), float(v)) for u, v in zip(fa, fb)], np.float32)
    result: F32 = out.reshape(a.shape)
    return result
