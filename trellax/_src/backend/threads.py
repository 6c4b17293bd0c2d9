"""The threads trellax's kernels run on: one worker pool, shared by fused regions, convolutions and
large matrix products, with BLAS held to one thread while trellax schedules the work itself.

Why: OpenBLAS splits each product statically over its own threads, which wait for each other.
On a machine where another process keeps a core busy, one of them is descheduled and the others
wait for it, so a program of many mid-sized products (a CNN step) ran 5x slower with two BLAS
threads than with one. Worse, two schedulers at once (the fusion pool's workers each calling a
two-thread BLAS) put four threads on two cores. trellax therefore schedules work itself, in
chunks handed out one at a time to whichever worker is free (a descheduled worker delays one
chunk, not the whole call), and keeps BLAS at one thread while its own kernels call it
(``blas_single_thread``). Outside trellax's kernels the BLAS setting is untouched.

Holding BLAS to one thread needs ``threadpoolctl`` (the optional extra ``trellax[threads]``):
without it BLAS keeps its own threads and the kernels run their chunks on the calling thread only
(no pool), so the two schedulers still never stack.

The worker count is ``TRELLAX_THREADS`` (or the fusion setting ``TRELLAX_FUSION_THREADS``) or the
number of CPUs this process may run on.
"""

from __future__ import annotations

import contextvars
import itertools
import math
import os
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager
from typing import Any, TypeVar

import numpy as np

from trellax._src.backend import blas_rows

try:  # optional (trellax[threads]): controls BLAS's thread count
    import threadpoolctl as _threadpoolctl
except ImportError:  # pragma: no cover - depends on the installation
    _threadpoolctl = None

T = TypeVar("T")
S = TypeVar("S")


def _env_threads() -> int:
    for name in ("TRELLAX_THREADS", "TRELLAX_FUSION_THREADS"):
        value = os.environ.get(name, "").strip()
        if value:
            try:
                n = int(value)
            except ValueError:
                raise ValueError(f"{name} must be an integer, got {value!r}") from None
            if n < 0:
                raise ValueError(f"{name} must be >= 0, got {n}")
            if n:
                return n
    return 0


def available_cpus() -> int:
    """The CPUs this process may run on (its affinity mask where the OS has one)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not on Linux
        return max(1, os.cpu_count() or 1)


_ENV_THREADS = _env_threads()


def default_workers() -> int:
    """Workers a large kernel or region runs on (the calling thread included)."""
    return _ENV_THREADS or available_cpus()


# -- BLAS held to one thread ---------------------------------------------------------------------

_BLAS_LOCK = threading.Lock()
_blas_users = 0
_blas_saved: list[tuple[Any, int]] = []
_blas_libs: list[Any] | None = None


def _blas_controllers() -> list[Any]:
    """threadpoolctl's controllers of the loaded BLAS libraries (found once: ~1.5 ms)."""
    global _blas_libs
    if _blas_libs is None:
        if _threadpoolctl is None:
            _blas_libs = []
        else:
            ctl = _threadpoolctl.ThreadpoolController()
            _blas_libs = list(ctl.select(user_api="blas").lib_controllers)
    return _blas_libs


def can_control_blas() -> bool:
    """Whether trellax can hold BLAS to one thread (threadpoolctl is installed and found it)."""
    return bool(_blas_controllers())


def _set_threads(lib: Any, n: int) -> None:
    # threadpoolctl lets only one Python thread set OpenBLAS's count (the first that did); the
    # counter below already serializes trellax's own settings, so take the control each time
    clear = getattr(type(lib), "clear_controlling_thread", None)
    if clear is not None:
        clear(force=True)
    lib.set_num_threads(n)


@contextmanager
def blas_single_thread() -> Iterator[bool]:
    """BLAS runs on one thread inside the block (counted: nested and concurrent blocks restore
    the caller's setting when the last one leaves). Yields whether BLAS is controlled."""
    global _blas_users
    libs = _blas_libs if _blas_libs is not None else _blas_controllers()
    if not libs:
        yield False
        return
    with _BLAS_LOCK:
        if _blas_users == 0:
            _blas_saved.clear()
            for lib in libs:
                n = lib.get_num_threads()
                if n is not None and n != 1:
                    _blas_saved.append((lib, n))
                    _set_threads(lib, 1)
        _blas_users += 1
    try:
        yield True
    finally:
        with _BLAS_LOCK:
            _blas_users -= 1
            if _blas_users == 0:
                for lib, n in _blas_saved:
                    _set_threads(lib, n)
                _blas_saved.clear()


def holding_blas(fn: Callable[..., T]) -> Callable[..., T]:
    """``fn`` run inside :func:`blas_single_thread` (a compiled program with matrix products)."""

    def run(*args: Any) -> T:
        with blas_single_thread():
            return fn(*args)

    run.__doc__ = fn.__doc__
    run.__wrapped__ = fn  # type: ignore[attr-defined]
    return run


#: Primitives whose kernels call BLAS or LAPACK: a ``jit`` program holding one of them runs
#: with BLAS held to one thread throughout (one switch per call instead of one per product).
BLAS_PRIMITIVES = frozenset(
    {
        "dot_general",
        "conv_general_dilated",
        "conv_lhs_transpose",
        "conv_rhs_transpose",
        "cholesky",
        "triangular_solve",
        "lu",
        "qr",
        "svd",
        "eigh",
        "eig",
    }
)

#: Products of fewer multiply-adds than this run on one BLAS thread anyway (OpenBLAS's own
#: threshold is 65536 x 4), so their kernels do not switch BLAS's thread count.
BLAS_SMALL = 1 << 18
#: Products of at least this many multiply-adds (~0.7 ms of one core) are split into blocks of
#: rows on the pool (chosen by measurement: docs/performance.md, "Products on the pool").
MATMUL_SPLIT = 1 << 25
#: Multiply-adds and rows per block at least, and blocks per product at most.
MATMUL_BLOCK = 1 << 23
MATMUL_ROWS = 64
MATMUL_PARTS = 4
#: The types BLAS computes (others go to NumPy's own loop, which is not split).
_BLAS_TYPES = frozenset(map(np.dtype, ["float32", "float64", "complex64", "complex128"]))


def matmul(a: Any, b: Any) -> Any:
    """``np.matmul(a, b)`` with BLAS held to one thread unless the product is small; a large
    product of two matrices of one float or complex type runs on the worker pool in blocks of
    rows, handed out one at a time. The blocks depend only on the shapes, and a product is split
    only where BLAS gives every element the bits of the unsplit product (``blas_rows``).
    Operands are first given a layout BLAS takes (:func:`blas_layout`)."""
    if a.dtype.kind in "fc" and not (a.flags.forc and b.flags.forc):
        a, b = blas_layout(a), blas_layout(b)
    if a.ndim < 2 or b.ndim < 2 or a.dtype.kind not in "fc":
        return np.matmul(a, b)
    m, k = a.shape[-2:]
    n = b.shape[-1]
    work = m * k * n
    if work < BLAS_SMALL:
        return np.matmul(a, b)
    if a.ndim != 2 or b.ndim != 2 or a.dtype != b.dtype:  # stacks: one BLAS call per matrix
        with blas_single_thread():
            return np.matmul(a, b)
    with blas_single_thread() as controlled:
        edges = _row_edges(a, b, work) if controlled else None
        if edges is None:
            return np.matmul(a, b)
        out = np.empty((m, n), a.dtype)

        def block(i: int, _: None) -> None:
            np.matmul(a[edges[i] : edges[i + 1]], b, out=out[edges[i] : edges[i + 1]])

        run_chunks(block, len(edges) - 1, lambda: None)
        return out


#: Two independent products of at least this many multiply-adds each (and below
#: ``MATMUL_SPLIT``, which splits a product itself) run at once, one on a pool thread, when a CPU
#: is free (:func:`matmul_pair`; docs/performance.md, "Two products at once").
PAIR_MIN = 1 << 22


def pairs(work_a: int, work_b: int) -> bool:
    """Whether a generated program runs two independent products of these sizes (multiply-adds)
    by :func:`matmul_pair`."""
    return min(work_a, work_b) >= PAIR_MIN and max(work_a, work_b) < MATMUL_SPLIT


def matmul_pair(a1: Any, b1: Any, a2: Any, b2: Any) -> tuple[Any, Any]:
    """``(matmul(a1, b1), matmul(a2, b2))`` for two products neither of which reads the other:
    the first on a pool thread while the caller computes the second, when BLAS is held to one
    thread, there are two workers and a CPU is free (:func:`spare_cpu`); else one after the
    other. Each product is the same one-thread BLAS call either way, so the bits do not depend on
    the threads. If no pool thread has started the first product when the second is done, the
    caller takes it back (a descheduled pool thread is not waited for)."""
    if default_workers() < 2 or not spare_cpu():
        return matmul(a1, b1), matmul(a2, b2)
    with blas_single_thread() as controlled:
        if not controlled:
            return matmul(a1, b1), matmul(a2, b2)
        first = pool(1).submit(contextvars.copy_context().run, matmul, a1, b1)
        try:
            second = matmul(a2, b2)
        finally:
            taken_back = first.cancel()
        return (matmul(a1, b1) if taken_back else first.result()), second


def blas_layout(x: Any) -> Any:
    """``x``, copied to C order unless it is C- or Fortran-contiguous. NumPy's matmul sends a
    float product whose operand BLAS cannot take (a stride-0 broadcast, a strided slice) to its
    own loop, which sums in another order than BLAS's kernels on some CPUs (OpenBLAS's gemv on
    AMD EPYC), so without this the bits of a product would depend on how its operands happen to
    be laid out (a broadcast constant here, a copy of it in a generated program there)."""
    return x if x.flags.forc else np.ascontiguousarray(x)


def matmul_any_layout(a: Any, b: Any) -> Any:
    """``np.matmul`` of two small operands after :func:`blas_layout` (generated programs call it
    when an operand is neither C- nor Fortran-contiguous)."""
    return np.matmul(blas_layout(a), blas_layout(b))


def _row_edges(a: Any, b: Any, work: int) -> list[int] | None:
    """The row blocks ``a @ b`` is split into, or None to make one BLAS call."""
    if work < MATMUL_SPLIT or a.dtype not in _BLAS_TYPES or default_workers() < 2:
        return None
    if not spare_cpu():
        return None
    if not (blas_rows.plain_layout(a) and blas_rows.plain_layout(b)):
        return None
    if np.may_share_memory(a, b):  # NumPy computes ``x @ x.T`` by SYRK, blocks would not
        return None
    g = blas_rows.granule(a.dtype)
    if g is None:
        return None
    parts = min(MATMUL_PARTS, work // MATMUL_BLOCK, a.shape[0] // MATMUL_ROWS)
    edges = blas_rows.row_edges(a.shape[0], g, parts)
    if len(edges) < 3 or not blas_rows.blocks_agree(a, b, edges, g):
        return None
    return edges


# -- is a CPU free? -------------------------------------------------------------------------------

#: Seconds between two looks at the machine's run queue.
SPARE_EVERY = 0.02
_spare = [-math.inf, 1.0]  # time of the last look (never yet), and whether a CPU was free then
_loadavg_fd: list[int] = []


def spare_cpu() -> bool:
    """Whether the machine had a CPU free at the last look (at most ``SPARE_EVERY`` s ago): the
    tasks running or ready to run, the fourth field of Linux's ``/proc/loadavg`` (this thread
    among them), at most the online CPUs. Elsewhere always True.

    Why: a product of a millisecond or less gains from a second worker only if one can start at
    once. When every core is taken (other processes), each split product puts the caller to
    sleep until the worker's block is done, and waking it up waits for a time slice: measured at
    load 10 on 2 cores, a training step took 1.4x as long split as unsplit."""
    now = time.monotonic()
    if now - _spare[0] < SPARE_EVERY:
        return bool(_spare[1])
    _spare[0] = now
    if not _loadavg_fd:
        try:
            _loadavg_fd.append(os.open("/proc/loadavg", os.O_RDONLY))
        except OSError:
            _loadavg_fd.append(-1)
    fd = _loadavg_fd[0]
    free = True
    if fd >= 0:
        try:
            running = int(os.pread(fd, 128, 0).split()[3].split(b"/")[0])
            free = running <= (os.cpu_count() or 1)
        except (OSError, ValueError, IndexError):
            free = True
    _spare[1] = float(free)
    return free


# -- the pool ------------------------------------------------------------------------------------

_POOL: ThreadPoolExecutor | None = None
_POOL_LOCK = threading.Lock()


def pool(workers: int) -> ThreadPoolExecutor:
    """The shared pool, with at least ``workers`` threads (grown on demand, never shrunk)."""
    global _POOL
    with _POOL_LOCK:
        if _POOL is None or _POOL._max_workers < workers:
            _POOL = ThreadPoolExecutor(workers, thread_name_prefix="trellax")
        return _POOL


def run_dynamic(work: Callable[[], None], workers: int) -> None:
    """Runs ``work`` on the calling thread and on ``workers - 1`` pool threads at once, each in a
    copy of the caller's context (NumPy's floating-point error state is a context variable);
    ``work`` takes its items from a shared counter, so a slow or descheduled worker costs at most
    one item. Returns when every copy has returned; re-raises the first error."""
    if workers < 2:
        work()
        return
    futures: list[Future[None]] = [
        pool(workers - 1).submit(contextvars.copy_context().run, work) for _ in range(workers - 1)
    ]
    try:
        work()
    finally:
        for f in futures:
            # a copy no worker has started yet is dropped (the work is done): waiting for a
            # descheduled pool thread to start it would stall the caller on a busy machine
            if not f.cancel():
                f.result()


def run_chunks(
    fn: Callable[[int, S], T],
    n: int,
    scratch: Callable[[], S],
    *,
    parallel: bool = True,
) -> list[T]:
    """``[fn(k, scratch) for k in range(n)]``, in that order, ``scratch`` made once per worker.

    With ``parallel`` (and more than one chunk, one worker, and BLAS under control) the chunks
    run on the pool with BLAS held to one thread; otherwise on the calling thread in order."""
    out: list[Any] = [None] * n
    workers = min(default_workers(), n) if parallel else 1
    with blas_single_thread() as controlled:
        if workers < 2 or not controlled:
            buffers = scratch()
            for k in range(n):
                out[k] = fn(k, buffers)
            return out
        counter = itertools.count()

        def work() -> None:
            buffers = scratch()
            while True:
                k = next(counter)  # atomic under the GIL
                if k >= n:
                    return
                out[k] = fn(k, buffers)

        run_dynamic(work, workers)
    return out


def split(total: int, parts: int) -> Sequence[tuple[int, int]]:
    """``[0, total)`` cut into ``parts`` (at most ``total``) ranges of near-equal length."""
    parts = max(1, min(parts, total))
    edges = [total * i // parts for i in range(parts + 1)]
    return [(edges[i], edges[i + 1]) for i in range(parts)]
