"""glibc's heap kept from handing freed memory back to the OS between calls (``M_TOP_PAD``).

A compiled training step allocates and frees the same few megabytes of temporaries at every
call. With glibc's defaults the heap's free top is returned to the OS at the end of a call (it
exceeds ``M_TRIM_THRESHOLD``), and the next call faults every page back in: 2,155 page faults a
call for the small CNN step of ``benchmarks/bench_kernels.py``, 161 for the 64-256-256-10 MLP. On
the 2-core KVM machine these numbers come from a fault costs ~3-5 us (most of it zeroing the page
and the hypervisor's share), so the CNN step spent about a third of its CPU time in the kernel:
23.9 ms of thread CPU time a call against 14.1 ms with the pad below (docs/performance.md,
"Training steps"). XLA and PyTorch keep such buffers in allocators of their own.

So, when the first program is compiled, trellax asks glibc (``mallopt``) to keep up to 64 MiB of
free memory at the top of each heap instead of trimming it (``M_TOP_PAD``, which also makes the
heap grow in steps that large) and to serve allocations below 32 MiB from the heap
(``M_MMAP_THRESHOLD``; glibc raises its threshold to at most that by itself, but setting the pad
switches that adjustment off, and a 2 MiB result was then mapped and faulted in anew at every
call). A freed temporary is then reused by the next call without faults. The cost is memory: up
to 64 MiB a heap (the main one and one per thread that allocates) stays mapped after use.
Nothing else changes (no result depends on where memory comes from).

Left alone when: ``TRELLAX_HEAP_PAD=0`` (or another size in bytes to use instead), the process
already tunes these settings (``MALLOC_TOP_PAD_``, ``MALLOC_TRIM_THRESHOLD_``,
``MALLOC_MMAP_THRESHOLD_``, or ``GLIBC_TUNABLES`` naming one of them), or the C library is not
glibc.
"""

from __future__ import annotations

import ctypes
import os

#: Bytes kept at the top of each heap (64 MiB: the small CNN step frees ~20 MiB a call; with 16
#: MiB it still faulted ~3,900 pages a call).
DEFAULT_PAD = 64 << 20
#: Allocations below this size come from the heap (the most glibc's dynamic threshold reaches).
MMAP_THRESHOLD = 32 << 20
_M_TOP_PAD = -2  # glibc's malloc.h
_M_MMAP_THRESHOLD = -3

_state: dict[str, bool] = {}


def _requested_pad() -> int:
    value = os.environ.get("TRELLAX_HEAP_PAD", "").strip()
    if not value:
        return DEFAULT_PAD
    try:
        pad = int(value)
    except ValueError:
        raise ValueError(f"TRELLAX_HEAP_PAD must be a number of bytes, got {value!r}") from None
    if pad < 0:
        raise ValueError(f"TRELLAX_HEAP_PAD must be >= 0, got {pad}")
    return pad


_SETTINGS = ("top_pad", "trim_threshold", "mmap_threshold")


def _user_tunes_malloc() -> bool:
    tunables = os.environ.get("GLIBC_TUNABLES", "")
    if any(f"glibc.malloc.{name}" in tunables for name in _SETTINGS):
        return True
    return any(f"MALLOC_{name.upper()}_" in os.environ for name in _SETTINGS)


def keep_heap_pad() -> bool:
    """Sets glibc's ``M_MMAP_THRESHOLD`` and ``M_TOP_PAD`` once per process (see the module
    docstring); returns whether they are set. Later calls only read a flag."""
    done = _state.get("done")
    if done is not None:
        return done
    pad = _requested_pad()
    ok = False
    if pad and not _user_tunes_malloc():
        ok = _mallopt(pad)
    _state["done"] = ok
    return ok


def _mallopt(pad: int) -> bool:
    try:
        libc = ctypes.CDLL(None)
        libc.gnu_get_libc_version  # noqa: B018 (only glibc has it, and this mallopt)
        mallopt = libc.mallopt
    except (OSError, AttributeError):
        return False
    mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
    mallopt.restype = ctypes.c_int
    if not mallopt(_M_MMAP_THRESHOLD, MMAP_THRESHOLD):
        return False
    return bool(mallopt(_M_TOP_PAD, min(pad, 2**31 - 1)))
