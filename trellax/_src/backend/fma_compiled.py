"""Exact fused multiply-adds and XLA's complex product as compiled loops (the optional extra
``trellax[compiled]``, with Numba).

:mod:`.fma` computes ``a * b + c`` rounded once with a dozen to forty NumPy passes (float32 in
float64 with a double-rounding correction, float64 by error-free transformations), and
:mod:`.complex_mul` builds XLA's complex product from two of them. With Numba both are one loop:
``_fma`` (``compiled_erf``'s intrinsic, LLVM's ``llvm.fma``: IEEE 754's ``fusedMultiplyAdd``,
one rounding; an FMA instruction where the CPU has one, the C library's ``fma``/``fmaf``
otherwise) per element, and per complex element ``re = fma(ar, br, -(ai * bi))``,
``im = fma(ai, br, ar * bi)`` with the inner products rounded first (Numba never contracts a
written ``x * y + z``: no ``fastmath``). Both paths are the correctly rounded IEEE result, so
the bits are the same: zeros and their signs, subnormal operands and results (Numba sets no
flush-to-zero mode), overflow, ``inf - inf``. Which NaN a NaN result carries (payload, sign) is
not specified by either path (NumPy's own loops pick another operand's NaN in their SIMD body
than in their tail); a NaN result is a NaN in both.

When: the NumPy path runs until it has cost an estimated :data:`START_AFTER` seconds in this
process (a call counts :data:`CALL_COST` plus :data:`ELEMENT_COST` per element), so a program
with a few products never imports Numba; then the kernels are compiled on the background
thread (``TRELLAX_COMPILED_WAIT=1``: at once), or loaded from Numba's disk cache, and every later
call uses them. :data:`enabled` is the switch (``TRELLAX_COMPILED=off`` clears it at import;
the fused regions' ``fusion_options(compiled=...)`` lives a layer above and does not reach it);
without Numba it stays unused. :func:`start` compiles now (tests, benchmarks).

Each kernel is compiled for read-only contiguous 1-D operands and then closed to compiling
(``disable_compile``): a writable operand converts to that signature, so no call compiles
another one. The operands must be aligned C-contiguous 1-D arrays of one dtype (float32 or
float64 for ``fma``, complex64 or complex128 for ``cmul``); the wrappers here make them so or
return None (the caller then takes the NumPy path).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from typing import Any

import numpy as np

from trellax._src.backend import compiled


def _switch() -> bool:
    mode = os.environ.get("TRELLAX_COMPILED", "auto").strip().lower()
    return mode not in ("off", "0", "false", "no")


#: Whether the kernels may be used once compiled (``TRELLAX_COMPILED=off``: not).
enabled: bool = _switch()

#: Estimated seconds of NumPy-path work after which the kernels are compiled.
START_AFTER = 0.25
#: The estimate: seconds per call and per element of the NumPy path (measured: a complex64
#: product of 8 elements 12 us, of 10^6 17 ms; complex128 33 us and 43 ms).
CALL_COST = 10e-6
ELEMENT_COST = 20e-9

#: ``out[i] = fma(a[i], b[i], c[i])`` (float32 or float64).
FMA_SOURCE = """
@_kernel
def kernel(a, b, c, out):
    for i in range(out.size):
        out[i] = _fma(a[i], b[i], c[i])
"""

#: XLA's complex product of complex64 or complex128 ``x`` and ``y`` (one loop over complex
#: elements: as fast as a loop over float views for large arrays, and the views cost ~1 us a
#: call).
CMUL_SOURCE = """
@_kernel
def kernel(x, y, out):
    for i in range(out.size):
        p = x[i]
        q = y[i]
        ar = p.real
        ai = p.imag
        br = q.real
        bi = q.imag
        out[i] = complex(_fma(ar, br, -(ai * bi)), _fma(ai, br, ar * bi))
"""

#: Each kernel's dtypes (a compiled signature each).
_DTYPES = {
    "fma": (np.dtype(np.float32), np.dtype(np.float64)),
    "cmul": (np.dtype(np.complex64), np.dtype(np.complex128)),
}


class Kernels:
    """The loaded kernels: ``fma(a, b, c, out)`` and ``cmul(x, y, out)``."""

    __slots__ = ("cmul", "fma")

    def __init__(self, fma: Callable[..., Any], cmul: Callable[..., Any]) -> None:
        self.fma = fma
        self.cmul = cmul


_LOCK = threading.Lock()
_state: dict[str, Any] = {"spent": 0.0, "ready": None, "kernels": None}


def get() -> Kernels | None:
    """The kernels when they are compiled and :data:`enabled`, else None."""
    k: Kernels | None = _state["kernels"]
    return k if k is not None and enabled else None


def note(n: int) -> None:
    """Counts a call of ``n`` elements on the NumPy path; starts compiling once they add up to
    :data:`START_AFTER` seconds (or collects the kernels once the background compile is done)."""
    ready = _state["ready"]
    if ready is not None:
        if ready.done and _state["kernels"] is None:
            _collect()
        return
    if not enabled:
        return
    _state["spent"] += CALL_COST + ELEMENT_COST * n
    if _state["spent"] >= START_AFTER:
        start(wait=os.environ.get("TRELLAX_COMPILED_WAIT", "0").strip() in ("1", "true"))


def start(wait: bool = True) -> bool:
    """Compiles the kernels (once; now when ``wait``, else on the background thread); whether
    they are ready. False without Numba."""
    with _LOCK:
        ready = _state["ready"]
        if ready is None:
            if not compiled.available():
                return False
            warm = []
            for name, source in (("fma", FMA_SOURCE), ("cmul", CMUL_SOURCE)):
                k = compiled.kernel(source)
                _state[name] = k
                for d in _DTYPES[name]:
                    ro = np.zeros(0, d)
                    ro.flags.writeable = False
                    args = (ro, ro, ro) if name == "fma" else (ro, ro)
                    warm.append((k, (*args, np.zeros(0, d))))
            _state["ready"] = ready = compiled.prepare(warm, wait=False)
    if wait:
        compiled.submit(lambda: None).result()  # after the compile queued before it
    if ready.done and _state["kernels"] is None:
        _collect()
    return _state["kernels"] is not None


def _collect() -> None:
    with _LOCK:
        if _state["kernels"] is None:
            fns = [_state[name].fn for name in ("fma", "cmul")]
            for fn in fns:
                fn.disable_compile()  # every call converts to the read-only signature
            _state["kernels"] = Kernels(*fns)


def fma(a: Any, b: Any, c: Any, dtype: np.dtype[Any]) -> Any:
    """``a * b + c`` rounded once, the operands broadcast together, when the kernels are ready
    and every operand has ``dtype`` (float32 or float64); else None."""
    k = get()
    if k is None:
        return None
    a, b, c = np.asarray(a), np.asarray(b), np.asarray(c)
    if a.dtype != dtype or b.dtype != dtype or c.dtype != dtype:
        return None
    shape = a.shape
    if b.shape != shape or c.shape != shape:
        shape = np.broadcast_shapes(shape, b.shape, c.shape)
        a, b, c = (np.broadcast_to(x, shape) for x in (a, b, c))
    out = np.empty(shape, dtype)
    try:
        k.fma(*(np.ascontiguousarray(x).reshape(-1) for x in (a, b, c)), out.reshape(-1))
    except TypeError:  # an operand of no compiled signature (unaligned memory)
        return None
    return out


def complex_mul(x: Any, y: Any) -> Any:
    """XLA's complex product of C-contiguous 1-D ``x`` and ``y`` of one size and one dtype
    (complex64 or complex128), when the kernels are ready; else None."""
    k = get()
    if k is None:
        return None
    out = np.empty(x.shape, x.dtype)
    try:
        k.cmul(x, y, out)
    except TypeError:  # an operand of no compiled signature (unaligned memory)
        return None
    return out
