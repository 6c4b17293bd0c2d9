"""Threefry-2x32 of one key's counter runs as one compiled loop (the optional extra
``trellax[compiled]``), for large draws: the ``xor32`` kernel of :mod:`compiled_kernels`, as
``normal``'s direct path uses it (hash into a chunk's buffer, then NumPy's float transforms).

Integer arithmetic is exact in any loop (each sum is cast back to uint32, so it wraps as NumPy's
does), so the words are bit for bit the NumPy path's (tested on runs that cross 2**32). The
kernels are compiled on a background thread at the first large draw; until they are ready (or
without Numba) draws use the NumPy rounds: no draw waits for the compiler. The settings are the
fused regions' (``TRELLAX_COMPILED=off``, ``TRELLAX_COMPILED_WAIT=1``: docs/performance.md).
"""

from __future__ import annotations

from trellax._src.backend import compiled
from trellax._src.random import compiled_kernels, threefry

U32 = threefry.U32

#: Draws of at least this many values start (and then use) the compiled hash.
MIN_SIZE = compiled_kernels.MIN_SIZE

_source = compiled_kernels.xor_source
_state = compiled_kernels.STATE


def _kernel() -> compiled.Kernel | None:
    """The compiled kernel once it is ready; the first call starts compiling it."""
    ready = _state.get("ready")
    if ready is None:
        ready = compiled_kernels.start()
        if ready is None:
            return None
    k: compiled.Kernel = _state["kernel"]
    return k if ready.done else None


def injections(one: threefry.OneKey) -> U32:
    """``one``'s key schedule as the kernel's ``inj`` array."""
    return compiled_kernels.schedule(int(one.k0), one.k1)


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
    if n < MIN_SIZE or not compiled_kernels.wanted(n):
        return False
    _kernel()
    return True
