"""Large draws under one key as compiled loops (the optional extra ``trellax[compiled]``).

With NumPy alone, the threefry hash of a chunk is ~110 calls (a pass over the chunk each), and
the conversion of the hash words to what a sampler returns (floats, integers in a range, table
lookups) is a few more passes. With Numba, each such draw is *one* loop per chunk that keeps the
two words in registers through the 20 rounds and writes the sampler's value once:

========== ======================================================================================
kernel     ``out[j]`` for the counter ``(0, start + j)``
========== ======================================================================================
``xor32``  ``x0 ^ x1`` (``bits``, ``uint32``); ``xor16``/``xor8`` its low bits
``wide``   ``x0 << 32 | x1`` (``bits``, 64 bits)
``pair``   the key ``(x0, x1)`` (``split``)
``unit32`` ``((x0 ^ x1) >> 9) * 2**-23``: the float32 in ``[0, 1)`` of ``uniform``
``unit64`` ``((x0 << 32 | x1) >> 12) * 2**-52``: the float64 one
``table``  ``table[(x0 ^ x1) >> 9]``: a float32 normal from the table of all of them
``randint`` JAX's randint of two draws (two keys) combined with a modulus, 32-bit words
``log32``  ``out[j] = log(x[j])``, XLA's float32 log (no hash: :mod:`.xla_log_compiled`)
``log1p32`` ``out[j] = log1p(x[j])``, XLA's float32 log1p (erfinv's and the samplers')
========== ======================================================================================

Every one is integer arithmetic (each sum cast back to uint32 wraps as NumPy's does) or an
exact conversion (an integer below ``2**24`` (``2**53``) to float32 (float64), a product by a
power of two), so the results are the NumPy path's bit for bit (``tests/test_random_kernels.py``
compares them at sizes around every threshold, for every dtype). ``randint``'s remainders by
the span use Lemire's exact "fastmod" (a 64-bit reciprocal of the span, two multiplications)
instead of a division per remainder.

The kernels are compiled on a background thread at the first draw of :data:`MIN_SIZE` values or
more; until they are ready (or without Numba, or with ``TRELLAX_COMPILED=off``) draws take the
NumPy path, which gives the same bits. ``TRELLAX_COMPILED_WAIT=1`` makes that first draw wait.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from trellax._src.backend import compiled, xla_log_compiled
from trellax._src.interpreters import fusion_runtime
from trellax._src.random import chunks

#: Draws of at least this many values start compiling the kernels (later draws of any chunked
#: size use them once they are ready).
MIN_SIZE = 1 << 18

#: Elements per chunk of a compiled draw (one chunk is one kernel call; no scratch buffers).
CHUNK = 1 << 17

_M = 0xFFFFFFFF
_ROTATIONS = ((13, 15, 26, 6), (17, 29, 16, 24))


def _rounds(x0: str, x1: str, inj: str, indent: str) -> list[str]:
    """Source lines of the 20 rounds on the uint32 variables ``x0``, ``x1`` (already keyed),
    with the key schedule's ten words in the array ``inj``."""
    lines = []
    for g in range(5):
        for r in _ROTATIONS[g % 2]:
            lines.append(f"{x0} = np.uint32({x0} + {x1})")
            lines.append(
                f"{x1} = np.uint32(np.uint32({x1} << np.uint32({r})) | ({x1} >> np.uint32({32 - r})))"
            )
            lines.append(f"{x1} = np.uint32({x1} ^ {x0})")
        lines.append(f"{x0} = np.uint32({x0} + {inj}[{2 * g}])")
        lines.append(f"{x1} = np.uint32({x1} + {inj}[{2 * g + 1}])")
    return [indent + line for line in lines]


def xor_source() -> str:
    """The ``xor32`` kernel: ``out[j] = x0 ^ x1`` of the rounds on ``(k0, start + j)`` keyed
    with ``inj`` (ten uint32: ``(a, b)`` added after each group of four rounds)."""
    return _one_key("kernel", "", "out[j] = x0 ^ x1")


def _one_key(name: str, extra: str, store: str) -> str:
    lines = [
        "@_kernel",
        f"def {name}(start, n, k0, inj, {extra}out):",
        "    for j in range(n):",
        "        x0 = np.uint32(k0)",
        "        x1 = np.uint32(start + j)",
        *_rounds("x0", "x1", "inj", "        "),
        f"        {store}",
    ]
    return "\n".join(lines) + "\n"


_WIDE = "(np.uint64(x0) << np.uint64(32)) | np.uint64(x1)"

#: name -> (extra parameters before ``out``, the store of element ``j``)
_ONE_KEY: dict[str, tuple[str, str]] = {
    "xor16": ("", "out[j] = np.uint16(x0 ^ x1)"),
    "xor8": ("", "out[j] = np.uint8(x0 ^ x1)"),
    "wide": ("", f"out[j] = {_WIDE}"),
    "pair": ("", "out[j, 0] = x0\n        out[j, 1] = x1"),
    "unit32": ("", "out[j] = np.float32((x0 ^ x1) >> np.uint32(9)) * np.float32(2.0**-23)"),
    "unit64": ("", f"out[j] = np.float64(({_WIDE}) >> np.uint64(12)) * 2.0**-52"),
}


def table_source() -> str:
    """``table``: the hash of a block of 1,024 counters into a buffer in L1, then the block's
    lookups (one loop doing both ran ~15x slower: its gathers serialize with the rounds)."""
    lines = [
        "@_kernel",
        "def kernel(start, n, k0, inj, table, out):",
        "    idx = np.empty(1024, np.uint32)",
        "    for b in range(0, n, 1024):",
        "        m = min(1024, n - b)",
        "        for j in range(m):",
        "            x0 = np.uint32(k0)",
        "            x1 = np.uint32(start + b + j)",
        *_rounds("x0", "x1", "inj", "            "),
        "            idx[j] = (x0 ^ x1) >> np.uint32(9)",
        "        for j in range(m):",
        "            out[b + j] = table[idx[j]]",
    ]
    return "\n".join(lines) + "\n"


def _fastmod_source() -> str:
    """``_fastmod(a, m, d) == a % d`` for uint32 ``a`` and ``d >= 1`` given ``m = (2**64 - 1)
    // d + 1 (mod 2**64)`` (Lemire, Kaser, Kurz 2019: exact for every 32-bit ``a`` and ``d``):
    the top 64 bits of the 128-bit product ``(m * a mod 2**64) * d``, from 32-bit halves."""
    return (
        "@_inline\n"
        "def _fastmod(a, m, d):\n"
        "    low = np.uint64(m * np.uint64(a))\n"
        "    hi = np.uint64(low >> np.uint64(32)) * d\n"
        "    lo = np.uint64(low & np.uint64(0xFFFFFFFF)) * d\n"
        "    return np.uint32((hi + (lo >> np.uint64(32))) >> np.uint64(32))\n\n\n"
    )


def randint_source() -> str:
    """``randint``'s kernel: the words ``ha``, ``hb`` of the counter under keys A and B, then
    ``low + (ha % span * mult + hb % span) % span`` in uint32 arithmetic (``span == 0``: no
    remainders, as XLA's ``x % 0 == x``; then ``mult`` is 0)."""
    lines = [
        "@_kernel",
        "def kernel(start_a, start_b, n, ka, inja, kb, injb, span, recip, mult, low, out):",
        "    d = np.uint64(span)",
        "    for j in range(n):",
        "        a0 = np.uint32(ka)",
        "        a1 = np.uint32(start_a + j)",
        "        b0 = np.uint32(kb)",
        "        b1 = np.uint32(start_b + j)",
        *_rounds("a0", "a1", "inja", "        "),
        *_rounds("b0", "b1", "injb", "        "),
        "        ha = np.uint32(a0 ^ a1)",
        "        hb = np.uint32(b0 ^ b1)",
        "        if span != 0:",
        "            ha = _fastmod(ha, recip, d)",
        "            hb = _fastmod(hb, recip, d)",
        "        off = np.uint32(np.uint64(ha) * np.uint64(mult))",
        "        off = np.uint32(np.uint64(off) + np.uint64(hb))",
        "        if span != 0:",
        "            off = _fastmod(off, recip, d)",
        "        out[j] = np.uint32(np.uint64(low) + np.uint64(off))",
    ]
    return _fastmod_source() + "\n".join(lines) + "\n"


def _sources() -> dict[str, str]:
    out = {"xor32": xor_source(), "randint": randint_source(), "table": table_source()}
    out["log32"] = xla_log_compiled.kernel_source("log")
    out["log1p32"] = xla_log_compiled.kernel_source("log1p")
    for name, (extra, store) in _ONE_KEY.items():
        out[name] = _one_key("kernel", extra, store)
    return out


def _dummies(name: str) -> tuple[Any, ...]:
    """Arguments of each kernel's types that do no work (``n = 0``): its compile-time call."""
    u32 = np.zeros(10, np.uint32)
    if name in ("log32", "log1p32"):
        return (np.zeros(1, np.float32), np.zeros(1, np.float32))
    if name == "randint":
        z = np.uint32(0)
        return (0, 0, 0, z, u32, z, u32, z, np.uint64(0), z, z, np.zeros(1, np.uint32))
    out = {
        "xor32": np.zeros(1, np.uint32),
        "xor16": np.zeros(1, np.uint16),
        "xor8": np.zeros(1, np.uint8),
        "wide": np.zeros(1, np.uint64),
        "pair": np.zeros((1, 2), np.uint32),
        "unit32": np.zeros(1, np.float32),
        "unit64": np.zeros(1, np.float64),
        "table": np.zeros(1, np.float32),
    }[name]
    table = np.zeros(1, np.float32)
    table.flags.writeable = False  # as normal's table is: the same compiled signature
    extra = (table,) if name == "table" else ()
    return (0, 0, np.uint32(0), u32, *extra, out)


#: ``"ready"``: a :class:`compiled.Ready` once compiling has started; ``"kernel"``: the
#: ``xor32`` kernel (``threefry_compiled``'s); ``"family"``: every kernel by name.
STATE: dict[str, Any] = {}


def start(*, wait: bool | None = None) -> compiled.Ready | None:
    """Starts compiling every kernel (once; None without Numba), on the background thread
    unless ``wait`` (default: ``TRELLAX_COMPILED_WAIT``)."""
    ready = STATE.get("ready")
    if ready is None:
        if not compiled.available():
            return None
        family = {name: compiled.kernel(src) for name, src in _sources().items()}
        STATE["kernel"] = family["xor32"]
        STATE["family"] = family
        if wait is None:
            wait = fusion_runtime.options().compiled_wait
        warm = [(k, _dummies(name)) for name, k in family.items()]
        STATE["ready"] = ready = compiled.prepare(warm, wait=wait)
    assert isinstance(ready, compiled.Ready)
    return ready


def wanted(n: int) -> bool:
    """Whether a draw of ``n`` values may use the kernels (and, from :data:`MIN_SIZE` values
    on, starts compiling them): Numba installed and compiled kernels not switched off."""
    if fusion_runtime.options().compiled == "off" or not compiled.available():
        return False
    if n >= MIN_SIZE:
        start()
    return True


def get(name: str, n: int) -> Callable[..., Any] | None:
    """The compiled kernel ``name`` for a draw of ``n`` values, or None (not ready, not wanted:
    the caller takes the NumPy path)."""
    if not wanted(n):
        return None
    ready = STATE.get("ready")
    if ready is None or not ready.done:
        return None
    k = STATE.get("family", {}).get(name)
    fn: Callable[..., Any] | None = None if k is None else k.fn
    return fn


def schedule(k0: int, k1: int) -> np.ndarray[Any, np.dtype[np.uint32]]:
    """The key ``(k0, k1)``'s schedule as the kernels' ``inj`` array: after group ``g`` of four
    rounds, ``x0 += k[(g + 1) % 3]`` and ``x1 += k[(g + 2) % 3] + g + 1`` (``k2`` the parity)."""
    ks = (k0, k1, k0 ^ k1 ^ 0x1BD11BDA)
    return np.array(
        [w for g in range(5) for w in (ks[(g + 1) % 3], (ks[(g + 2) % 3] + g + 1) & _M)],
        np.uint32,
    )


def run(fn: Callable[..., Any], key: tuple[int, int], out: Any, *extra: Any) -> None:
    """``fn`` (a one-key kernel from :func:`get`) over the counters ``0 .. len(out) - 1`` under
    ``key``, chunk by chunk on the thread pool, into ``out`` (C-contiguous)."""
    k0, k1 = key
    inj = schedule(k0, k1)
    u0 = np.uint32(k0)

    def work(i0: int, i1: int, _: object) -> None:
        fn((i0 + k1) & _M, i1 - i0, u0, inj, *extra, out[i0:i1])

    chunks.run_chunks(len(out), work, _none, chunk=CHUNK)


def run_randint(
    fn: Callable[..., Any],
    keys: tuple[tuple[int, int], tuple[int, int]],
    span: int,
    mult: int,
    low: int,
    out: np.ndarray[Any, np.dtype[np.uint32]],
) -> None:
    """The ``randint`` kernel over ``out`` (uint32 words: ``low + offset`` wrapped)."""
    (a0, a1), (b0, b1) = keys
    inja, injb = schedule(a0, a1), schedule(b0, b1)
    ua, ub = np.uint32(a0), np.uint32(b0)
    recip = np.uint64((((1 << 64) - 1) // span + 1) & ((1 << 64) - 1)) if span else np.uint64(0)
    s, m, lo = np.uint32(span), np.uint32(mult), np.uint32(low & _M)

    def work(i0: int, i1: int, _: object) -> None:
        start_a, start_b = (i0 + a1) & _M, (i0 + b1) & _M
        fn(start_a, start_b, i1 - i0, ua, inja, ub, injb, s, recip, m, lo, out[i0:i1])

    chunks.run_chunks(len(out), work, _none, chunk=CHUNK)


def _none() -> None:
    return None


def elementwise(name: str, x: Any, out: Any) -> bool:
    """``out = f(x)`` by the compiled elementwise kernel ``name`` (``log32``, ``log1p32``; 1-D
    C-contiguous float32 ``x`` and ``out``), chunk by chunk on the thread pool; False (nothing
    done) while the kernel is not ready, for the caller's NumPy path (the same bits)."""
    fn = get(name, x.size)
    if fn is None:
        return False
    if x.size <= CHUNK:
        fn(x, out)
        return True

    def work(i0: int, i1: int, _: object) -> None:
        fn(x[i0:i1], out[i0:i1])

    chunks.run_chunks(x.size, work, _none, chunk=CHUNK)
    return True
