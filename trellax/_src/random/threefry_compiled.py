"""Threefry-2x32 of one key's counter runs as one compiled loop (the optional extra
``trellax[compiled]``), for large draws.

:meth:`threefry.OneKey.hash` runs the 20 rounds as ~110 NumPy calls over a chunk (each a pass
over its buffers). With Numba installed, :func:`hash_xor` instead runs one compiled loop that
keeps both words in registers through the 20 rounds and writes ``x0 ^ x1`` once. Integer
arithmetic is exact in any loop (each sum is cast back to uint32, so it wraps as NumPy's
does), so the words are bit for bit the NumPy path's (tested on runs that cross 2**32).

The kernel is compiled on a background thread at the first large draw; until it is ready (or
without Numba) draws use the NumPy rounds: no draw waits for the compiler. The settings are the
fused regions' (``TRELLAX_COMPILED=off``, ``TRELLAX_COMPILED_WAIT=1``: docs/performance.md).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from trellax._src.backend import compiled
from trellax._src.interpreters import fusion_runtime
from trellax._src.random import threefry

U32 = threefry.U32

#: Draws of at least this many values start (and then use) the compiled hash.
MIN_SIZE = 1 << 18


def _source() -> str:
    """The kernel: ``out[j] = x0 ^ x1`` of the 20 rounds on ``(k0, start + j)`` keyed with the
    injections ``inj`` (ten uint32: ``(a, b)`` added after each group of four rounds)."""
    lines = [
        "@_kernel",
        "def kernel(start, n, k0, inj, out):",
        "    for j in range(n):",
        "        x0 = np.uint32(k0)",
        "        x1 = np.uint32(start + j)",
    ]
    rotations = ((13, 15, 26, 6), (17, 29, 16, 24))
    for g in range(5):
        for r in rotations[g % 2]:
            lines.append("        x0 = np.uint32(x0 + x1)")
            lines.append(
                f"        x1 = np.uint32(np.uint32(x1 << np.uint32({r})) | (x1 >> np.uint32({32 - r})))"
            )
            lines.append("        x1 = np.uint32(x1 ^ x0)")
        lines.append(f"        x0 = np.uint32(x0 + inj[{2 * g}])")
        lines.append(f"        x1 = np.uint32(x1 + inj[{2 * g + 1}])")
    lines.append("        out[j] = x0 ^ x1")
    return "\n".join(lines) + "\n"


_state: dict[str, Any] = {}


def _kernel() -> compiled.Kernel | None:
    """The compiled kernel once it is ready; the first call starts compiling it."""
    ready = _state.get("ready")
    if ready is None:
        if not compiled.available():
            return None
        k = compiled.kernel(_source())
        dummies = (0, 0, np.uint32(0), np.zeros(10, np.uint32), np.zeros(1, np.uint32))
        _state["kernel"] = k
        wait = fusion_runtime.options().compiled_wait
        _state["ready"] = ready = compiled.prepare([(k, dummies)], wait=wait)
    return _state["kernel"] if ready.done else None


def injections(one: threefry.OneKey) -> U32:
    """``one``'s key schedule as the kernel's ``inj`` array."""
    return np.array([w for pair in one.injections for w in pair], np.uint32)


def hash_xor(one: threefry.OneKey, inj: U32 | None, start: int, x0: U32, x1: U32, tmp: U32) -> None:
    """``x0 = y0 ^ y1`` of ``threefry2x32`` on the counters ``(0, start + j)``, ``j <
    len(x0)`` (``x1``, ``tmp``: scratch of its size): compiled when ``inj`` (from
    :func:`injections`) is given and the kernel is ready, else NumPy's rounds."""
    k = _kernel() if inj is not None else None
    if k is not None and k.fn is not None:
        base = (start + int(one.k1)) & 0xFFFFFFFF
        k.fn(base, x0.size, one.k0, inj, x0)
        return
    one.hash(start, threefry.RAMP[: x0.size], x0, x1, tmp)
    x0 ^= x1


def use_compiled(n: int) -> bool:
    """Whether a draw of ``n`` values asks for the compiled hash (and starts compiling it)."""
    if n < MIN_SIZE or fusion_runtime.options().compiled == "off" or not compiled.available():
        return False
    _kernel()
    return True
