"""Large draws in cache-sized chunks, on the fused regions' thread pool.

A large draw (a hash of every counter, then the float transforms) is split into chunks of
:data:`CHUNK` elements, each computed start to end while its buffers (a few arrays of the chunk's
size per worker) stay in the L2 cache. Chunks are independent (element ``i`` depends only on the
key and ``i``), so they run on the thread pool of ``jit``'s fused regions
(:func:`trellax._src.interpreters.fusion_runtime.run_region`: NumPy's loops release the GIL) and
the result does not depend on the thread count. ``TRELLAX_FUSION_THREADS`` (or
``fusion_options(threads=...)``) sets the thread count for both.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from trellax._src.interpreters import fusion_runtime

#: Elements per chunk. A chunk of ``normal`` is ~150 NumPy calls (~110 for the hash); measured
#: on 10**6 normals, 32K-128K elements run within 10% of each other (the fixed cost of a call
#: matters below that, and the buffers, ~40 bytes per element, outgrow the L2 cache above).
CHUNK = 1 << 16

#: A chunk's work: ``work(start, stop, scratch)`` computes elements ``start:stop``.
Work = Callable[[int, int, Any], None]


def run_chunks(n: int, work: Work, scratch: Callable[[], Any], *, chunk: int = CHUNK) -> None:
    """Runs ``work`` over ``[0, n)`` in chunks; each worker thread gets its own ``scratch()``.

    Threads are used from two chunks on: a chunk of random draws is a few hundred NumPy calls,
    far more than the cost of handing it to another thread. (``run_region`` compares elements
    times ``row_elements`` with its threshold, set for fused elementwise regions whose chunks
    are a handful of calls: the weight below makes two chunks of draws reach it.)
    """
    if n <= chunk:
        work(0, n, scratch())
        return
    weight = -(-fusion_runtime.options().min_threaded // (2 * chunk))
    fusion_runtime.run_region(
        lambda i0, i1, bufs, values: work(i0, i1, bufs), n, chunk, scratch, (), weight
    )
