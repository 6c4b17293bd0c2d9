"""The C library's float32 ``tanf`` and ``powf``, as XLA:CPU calls them, through NumPy.

XLA:CPU has no inline code for float32 ``tan`` and ``pow``: its compiled kernels call the C
library's ``tanf`` and ``powf`` (the machine code of ``jit(jnp.tan)``/``jit(jnp.power)`` holds the
calls; on this host they are glibc 2.36's, and JAX 0.10.2 agrees with them on 2·10⁵ random
inputs each). NumPy's float32 ``tan``/``power`` on contiguous arrays are its own SIMD loops, which
differ from the C library's in ~25 % / ~21 % of inputs; on arrays with a negative stride NumPy
2.4 takes its scalar loop, which calls the C library's function element by element. So here the
operands are laid out with a negative stride and NumPy's scalar loop computes the C library's
values (~15 ns an element). ``tests/test_xla_elementary.py`` compares the results with JAX's bits,
so a NumPy that stops taking this path fails there, not silently.

XLA:CPU runs with subnormals flushed to zero (inputs and results); so do these functions.
"""

from __future__ import annotations

from typing import Any

import numpy as np

F32 = np.ndarray[Any, np.dtype[np.float32]]
_TINY = np.float32(1.1754943508222875e-38)


def _reversed(x: Any) -> Any:
    """A negative-stride view holding ``x`` (1-D float32) in its order, subnormals as zeros."""
    buf = np.empty_like(x)
    view = buf[::-1]
    view[...] = x
    sub = np.abs(view) < _TINY
    if sub.any():
        view[sub] = np.copysign(np.float32(0), view[sub])
    return view


def _finish(out: Any, shape: tuple[int, ...]) -> F32:
    res: F32 = np.ascontiguousarray(out)
    sub = np.abs(res) < _TINY
    if sub.any():
        res[sub] = np.copysign(np.float32(0), res[sub])
    return res.reshape(shape)


def tan_f32(x: Any) -> F32:
    """``tanf`` of each element of a float32 array, as XLA:CPU computes it."""
    x = np.asarray(x, np.float32)
    xs = _reversed(x.reshape(-1))
    out = np.empty(xs.shape, np.float32)  # contiguous: with every operand reversed NumPy would
    # flip the loop to positive strides and take its SIMD loop again
    with np.errstate(all="ignore"):
        np.tan(xs, out=out)
    return _finish(out, x.shape)


def pow_f32(x: Any, y: Any) -> F32:
    """``powf`` of each pair of elements of two float32 arrays (broadcast), as XLA:CPU computes
    it."""
    x, y = np.broadcast_arrays(np.asarray(x, np.float32), np.asarray(y, np.float32))
    xs, ys = _reversed(x.reshape(-1)), _reversed(y.reshape(-1))
    out = np.empty(xs.shape, np.float32)
    with np.errstate(all="ignore"):
        np.power(xs, ys, out=out)
    return _finish(out, x.shape)
