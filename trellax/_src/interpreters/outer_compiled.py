"""Per-example outer products as one compiled loop (the ``compiled`` extra; issue 23).

``vmap`` of an outer product (``jit(vmap(grad))`` of a dense layer's weights) multiplies, for
each example ``i``, every ``x[i, j]`` by every ``y[i, k]``. NumPy computes it as one broadcast
multiply (``specialize._batched_outer``), whose inner loop is slow on a broadcast operand:
~0.2 ns an element here whether the result goes to memory or stays in cache, against ~0.07 ns
an element for writing the result at all (measured in docs/performance.md, "Loops and
per-example gradients, sixth look"). This kernel writes ``out[i, j, k] = x[i, j] * y[i, k]``
in the result's own order: one IEEE multiply of the same two operands per element, so the same
bits as NumPy's multiply (no fused operations, no flush of subnormals), and a C-ordered result
without the operand transposes the NumPy version needs.

The kernel is compiled once per process (Numba's disk cache keeps its machine code), on the
background thread unless ``TRELLAX_COMPILED_WAIT``; until it is ready the NumPy version runs and
its result is copied into the kernel's C order (the bits of every later reduction do not
depend on when the kernel became ready); products below :data:`MIN_ELEMENTS` and other dtypes
keep the NumPy version as it is (decided by the types, so also never changing).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from trellax._src.backend import compiled
from trellax._src.interpreters import fusion_runtime

#: Products smaller than this many elements keep NumPy's multiply (its call is then cheap, and
#: the first call's compilation would not pay).
MIN_ELEMENTS = 65536

#: The dtypes the kernel is compiled for (both warmed up before it is used).
DTYPES = (np.dtype(np.float32), np.dtype(np.float64))

SOURCE = """
@_kernel
def batched_outer(x, y, out):
    b, m = x.shape
    n = y.shape[1]
    for i in range(b):
        for j in range(m):
            xv = x[i, j]
            for k in range(n):
                out[i, j, k] = xv * y[i, k]
"""

#: ``"ready"``: the :class:`compiled.Ready` once compiling has started; ``"kernel"``: the kernel.
STATE: dict[str, Any] = {}


def wanted() -> bool:
    """Whether programs generated now may use the kernel (Numba installed, compiled kernels not
    switched off)."""
    return fusion_runtime.options().compiled != "off" and compiled.available()


def _start() -> compiled.Ready:
    ready = STATE.get("ready")
    if ready is None:
        k = compiled.kernel(SOURCE, "batched_outer")
        STATE["kernel"] = k
        warm = [
            (k, (np.zeros((0, 0), d), np.zeros((0, 0), d), np.zeros((0, 0, 0), d))) for d in DTYPES
        ]
        STATE["ready"] = ready = compiled.prepare(warm, wait=fusion_runtime.options().compiled_wait)
    assert isinstance(ready, compiled.Ready)
    return ready


def kernel() -> Callable[..., Any] | None:
    """The compiled kernel if it is ready (starting its compilation otherwise), or None."""
    ready = _start()
    if not ready.done:
        return None
    fn: Callable[..., Any] | None = STATE["kernel"].fn
    return fn


def batched_outer(x: Any, y: Any, b: int, m: int, n: int, numpy_version: Callable[..., Any]) -> Any:
    """``out[i, j, k] = x[i, j] * y[i, k]`` as a new C-ordered ``(b, m, n)`` array: the compiled
    kernel when it is ready and the product large enough, else ``numpy_version`` (the same
    products, bit for bit)."""
    d = x.dtype
    if d != y.dtype or d not in DTYPES or b * m * n < MIN_ELEMENTS:
        return numpy_version(x, y, b, m, n)
    fn = kernel()
    if fn is None:
        # not compiled yet: NumPy's products, in the kernel's memory order, so that a reduction
        # of the result adds in the same order before and after the kernel is ready
        return np.ascontiguousarray(numpy_version(x, y, b, m, n))
    out = np.empty((b, m, n), d)
    fn(np.ascontiguousarray(x.reshape(b, m)), np.ascontiguousarray(y.reshape(b, n)), out)
    return out
