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

Once the kernel is compiled, each dtype's kernel is also built as a shared library
(:mod:`.loop_native`'s :class:`~.loop_native.Library`) on the compile thread; a later process on
the same host that finds it loads it with :mod:`ctypes` at the first large product and calls it
(same loop, same bits), without importing or starting Numba.
"""

from __future__ import annotations

import array
from collections.abc import Callable
from typing import Any

import numpy as np

from trellax._src.backend import compiled
from trellax._src.interpreters import fusion_runtime, loop_native

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

#: Each dtype's kernel as a shared library (made at its first large product).
LIBRARIES: dict[np.dtype[Any], loop_native.Library] = {}


def library_source(d: np.dtype[Any]) -> str:
    """The module of the C-callable kernel for dtype ``d``: ``entry`` takes
    ``[x address, b, m, y address, n, out address]`` (C-contiguous arrays)."""
    t = f"np.{d.name}"
    entry = f"""
@_cfunc("void(CPointer(int64))", error_model="numpy", boundscheck=False)
def entry(A):
    x = _carray(_vp(A[0]), (A[1], A[2]), {t})
    y = _carray(_vp(A[3]), (A[1], A[4]), {t})
    batched_outer(x, y, _carray(_vp(A[5]), (A[1], A[2], A[4]), {t}))


SCRATCH = 64
"""
    return compiled.HEADER + SOURCE + loop_native.ENTRY_PRELUDE + entry


def library(d: np.dtype[Any]) -> loop_native.Library | None:
    """The loaded shared library for dtype ``d`` (loading it when on disk), or None."""
    lib = LIBRARIES.get(d)
    if lib is None:
        text = library_source(d) if loop_native.enabled else None
        lib = LIBRARIES[d] = loop_native.Library(text, "_trellax_outer_")
        lib.load()
    return lib if lib.fn is not None else None


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
    x2 = np.ascontiguousarray(x.reshape(b, m))
    y2 = np.ascontiguousarray(y.reshape(b, n))
    lib = library(d) if fusion_runtime.options().compiled != "off" else None
    if lib is not None:
        out = np.empty((b, m, n), d)
        words = [loop_native._address(x2), b, m, loop_native._address(y2), n]
        words.append(loop_native._address(out))
        packed = array.array("q", words)  # kept alive across the call
        lib.fn(packed.buffer_info()[0])
        return out
    fn = kernel()
    if fn is None:
        # not compiled yet: NumPy's products, in the kernel's memory order, so that a reduction
        # of the result adds in the same order before and after the kernel is ready
        return np.ascontiguousarray(numpy_version(x, y, b, m, n))
    out = np.empty((b, m, n), d)
    fn(x2, y2, out)
    built = LIBRARIES.get(d)
    if built is not None and built.path is not None and not built.failed:
        loop_native.build_later(built)  # the next process loads it without Numba
    return out
