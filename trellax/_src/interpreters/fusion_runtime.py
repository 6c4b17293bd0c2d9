"""What a fused region of a compiled ``jit`` program calls while it runs.

The generated code of a region (:mod:`trellax._src.interpreters.fusion`) is a *chunk function*
``chunk(i0, i1, scratch, values) -> partials``: it evaluates the region's equations on rows
``i0:i1`` of its operands into per-worker scratch buffers and returns the partial results of the
region's cross-chunk reductions. :func:`run_region` runs it over all chunks, on a small thread
pool when the region is large (NumPy's loops release the GIL), and keeps one partial per chunk so
that the combined reduction does not depend on the thread count. :func:`combine` then reduces the
partials in chunk order.

Settings (read when a program is compiled, except ``threads``, read at every call) come from
the environment (``TRELLAX_FUSION=0`` turns fusion off, ``TRELLAX_FUSION_CHUNK`` sets the chunk
size in elements, ``TRELLAX_FUSION_THREADS`` the thread count) and can be changed in code with
:func:`fusion_options` (a context manager, used by the tests).
"""

from __future__ import annotations

import contextlib
import contextvars
import itertools
import os
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from trellax._src.backend import threads
from trellax._src.backend.numpy import _acc_dtype

#: Elements per chunk. Measured on the 25M-element chain and the (4096, 4096) softmax: 32K-256K
#: elements run within a few percent of each other; 64K float32 elements (256 KiB per scratch
#: buffer) keep a region's few live buffers inside a typical L2 cache.
DEFAULT_CHUNK = 65536
#: The smallest region run by compiled kernels: below it the first call's compilation (or, in a
#: new process, loading the kernel from the disk cache) is not worth it (docs/performance.md).
COMPILED_MIN = 1 << 20
#: Elements per chunk of a compiled region: its kernel runs ~4x faster than a NumPy call per
#: element, so the Python per chunk weighs more (measured: docs/performance.md).
COMPILED_CHUNK = 1 << 18
_COMPILED_MODES = ("auto", "exact", "off")


@dataclass(frozen=True)
class FusionOptions:
    """How ``compile_jaxpr`` fuses: on or off, the chunk size (elements), and the smallest
    region (elements) worth a chunk loop; ``threads`` (0: ``os.cpu_count()``) and
    ``min_threaded`` (the fewest elements worth the thread pool) are read at every call."""

    enabled: bool = True
    chunk: int = DEFAULT_CHUNK
    min_elements: int = 2 * DEFAULT_CHUNK
    threads: int = 0
    min_threaded: int = 8 * DEFAULT_CHUNK
    #: ``trellax.config.fused_excess_precision``, as it was when the program was compiled.
    excess_precision: bool = False
    #: Compiled groups (``interpreters/fusion_compiled.py``, needs the ``compiled`` extra):
    #: ``"auto"`` (when Numba imports), ``"exact"`` (the same, but float32 exp/tanh/logistic stay
    #: NumPy calls: bit-identical to the NumPy path) or ``"off"``; the smallest region
    #: (elements) compiled.
    compiled: str = "auto"
    compiled_min: int = COMPILED_MIN
    #: Elements per chunk of a compiled region (at least ``chunk``).
    compiled_chunk: int = COMPILED_CHUNK
    #: Compile a region's kernels before its first call returns (True), or in the background
    #: while the region's NumPy version runs (False, the default: no call waits for Numba).
    compiled_wait: bool = False
    #: Compile a small loop as one function (``interpreters/loop_compiled.py``) once it has run
    #: this many steps (a ``while_loop`` call counts 100); None (the default): once its Python
    #: loop has cost the estimated compile time (``LoopKernel.due``, docs/performance.md).
    compiled_loop_min: int | None = None
    #: Row kernels (``interpreters/fusion_rows.py``): reductions over the last axis and their
    #: elementwise consumers in one compiled pass per row; off: per-row reductions stay NumPy.
    compiled_rows: bool = True


def _env_int(name: str, default: int) -> int:
    value = os.environ.get(name)
    if value is None or not value.strip():
        return default
    try:
        n = int(value)
    except ValueError:
        raise ValueError(f"{name} must be an integer, got {value!r}") from None
    if n < 0:
        raise ValueError(f"{name} must be >= 0, got {n}")
    return n


def _from_env() -> FusionOptions:
    enabled = os.environ.get("TRELLAX_FUSION", "1").strip().lower() not in ("0", "false", "off")
    chunk = _env_int("TRELLAX_FUSION_CHUNK", DEFAULT_CHUNK) or DEFAULT_CHUNK
    compiled = os.environ.get("TRELLAX_COMPILED", "auto").strip().lower() or "auto"
    if compiled in ("0", "false", "no"):
        compiled = "off"
    elif compiled in ("1", "true", "yes", "on"):
        compiled = "auto"
    if compiled not in _COMPILED_MODES:
        raise ValueError(f"TRELLAX_COMPILED must be one of {_COMPILED_MODES}, got {compiled!r}")
    loop_min = os.environ.get("TRELLAX_COMPILED_LOOP_MIN", "").strip()
    return FusionOptions(
        compiled=compiled,
        compiled_min=_env_int("TRELLAX_COMPILED_MIN", COMPILED_MIN),
        compiled_chunk=_env_int("TRELLAX_COMPILED_CHUNK", COMPILED_CHUNK),
        compiled_loop_min=_env_int("TRELLAX_COMPILED_LOOP_MIN", -1) if loop_min else None,
        compiled_wait=os.environ.get("TRELLAX_COMPILED_WAIT", "0").strip() in ("1", "true"),
        compiled_rows=os.environ.get("TRELLAX_COMPILED_ROWS", "1").strip() not in ("0", "false"),
        enabled=enabled,
        chunk=chunk,
        min_elements=2 * chunk,
        threads=_env_int("TRELLAX_FUSION_THREADS", 0),
        min_threaded=8 * chunk,
    )


_OPTIONS: contextvars.ContextVar[FusionOptions] = contextvars.ContextVar(
    "trellax_fusion_options",
    default=_from_env(),  # noqa: B039 (a frozen dataclass)
)


def options() -> FusionOptions:
    """The fusion settings in force."""
    return _OPTIONS.get()


@contextlib.contextmanager
def fusion_options(**changes: Any) -> Iterator[FusionOptions]:
    """``with fusion_options(chunk=7, min_elements=0):`` compiles and runs with other settings.

    Programs already compiled keep their chunk size; ``jit`` caches compiled programs, so tests
    that change the chunk size compile with ``trellax.jit(f).lower(...).compile()`` or
    :func:`~trellax._src.interpreters.tracing.compile_jaxpr`.
    """
    for key, value in changes.items():
        if key in ("enabled", "compiled_wait", "compiled_rows"):
            if not isinstance(value, bool):
                raise TypeError(f"fusion option {key} must be a bool, got {value!r}")
        elif key == "compiled":
            if value not in _COMPILED_MODES:
                raise ValueError(f"fusion option compiled must be one of {_COMPILED_MODES}")
        elif key in (
            "chunk",
            "min_elements",
            "threads",
            "min_threaded",
            "compiled_min",
            "compiled_chunk",
            "compiled_loop_min",
        ):
            if key == "compiled_loop_min" and value is None:
                continue
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise ValueError(f"fusion option {key} must be an int >= 0, got {value!r}")
            if key == "chunk" and value == 0:
                raise ValueError("fusion option chunk must be at least 1")
        else:
            raise TypeError(f"unknown fusion option {key!r}")
    token = _OPTIONS.set(replace(_OPTIONS.get(), **changes))
    try:
        yield _OPTIONS.get()
    finally:
        _OPTIONS.reset(token)


# -- the thread pool (shared with the convolution and matrix-product kernels) ----------------------


def thread_count() -> int:
    """Workers a large region runs on (the calling thread included): the ``threads`` option, or
    the count every trellax kernel uses (:func:`trellax._src.backend.threads.default_workers`)."""
    n = options().threads
    return n if n > 0 else threads.default_workers()


Chunk = Callable[[int, int, Any, Any], Any]
#: Explicit chunk boundaries ``(i0, i1)``, in order (see :func:`pairwise_plan`).
Bounds = tuple[tuple[int, int], ...]


def run_region(
    chunk: Chunk,
    n_rows: int,
    rows: int,
    scratch: Callable[[], Any],
    values: tuple[Any, ...],
    row_elements: int,
    bounds: Bounds | None = None,
) -> list[Any]:
    """Runs ``chunk`` over rows ``[0, n_rows)`` in steps of ``rows`` (or over ``bounds``, chunks
    of at most ``rows`` rows); returns each chunk's partials, in chunk order (so the combined
    result is the same with or without threads)."""
    if bounds is None:
        bounds = tuple((i0, min(i0 + rows, n_rows)) for i0 in range(0, n_rows, rows))
    n_chunks = len(bounds)
    parts: list[Any] = [None] * n_chunks
    opts = options()
    workers = min(thread_count(), n_chunks)
    if workers < 2 or n_rows * row_elements < opts.min_threaded:
        buffers = scratch()
        for k, (i0, i1) in enumerate(bounds):
            parts[k] = chunk(i0, i1, buffers, values)
        return parts
    counter = itertools.count()

    def work() -> None:
        buffers = scratch()
        while True:
            k = next(counter)  # atomic under the GIL
            if k >= n_chunks:
                return
            i0, i1 = bounds[k]
            parts[k] = chunk(i0, i1, buffers, values)

    # Each worker runs in a copy of the caller's context: NumPy's floating-point error state
    # (silenced by the compiled program) is a context variable.
    threads.run_dynamic(work, workers)
    return parts


def run_either(
    ready: Any,
    compiled_chunk: Chunk,
    compiled_scratch: Callable[[], Any],
    chunk: Chunk,
    n_rows: int,
    rows: int,
    scratch: Callable[[], Any],
    values: tuple[Any, ...],
    row_elements: int,
    bounds: Bounds | None = None,
) -> list[Any]:
    """:func:`run_region` of a region's compiled version once ``ready.done`` (its kernels are
    compiled), else of its NumPy version. Both chunk alike and give the same bits; if the
    compiled version raises (a Numba failure: an argument type it could not compile), the
    region falls back to the NumPy version for good (``ready.error`` keeps the exception) and
    the call is run again that way (outputs are written afresh, inputs are never written)."""
    if ready.done:
        try:
            return run_region(
                compiled_chunk, n_rows, rows, compiled_scratch, values, row_elements, bounds
            )
        except Exception as e:
            ready.done, ready.error = False, e
    return run_region(chunk, n_rows, rows, scratch, values, row_elements, bounds)


# -- cross-chunk reductions -----------------------------------------------------------------------


def partial_sum(x: np.ndarray[Any, Any], axes: tuple[int, ...]) -> Any:
    """One chunk's sum over ``axes``, kept in the accumulation dtype."""
    return np.add.reduce(x, axis=axes, dtype=_acc_dtype(x.dtype))


def partial_prod(x: np.ndarray[Any, Any], axes: tuple[int, ...]) -> Any:
    return np.multiply.reduce(x, axis=axes, dtype=_acc_dtype(x.dtype))


def combine(impl: Callable[..., Any], kind: str, parts: Sequence[Any], dtype: np.dtype[Any]) -> Any:
    """The reduction of the per-chunk ``parts``: sums and products in the accumulation dtype,
    rounded once to ``dtype`` (as the unfused impl does); max/min/and/or/xor by the impl itself
    (exact: they do not round)."""
    stacked = np.stack([np.asarray(p) for p in parts])
    if kind == "sum":
        out = np.add.reduce(stacked, axis=0, dtype=stacked.dtype)
    elif kind == "prod":
        out = np.multiply.reduce(stacked, axis=0, dtype=stacked.dtype)
    else:
        out = impl(stacked, axes=(0,))
    return np.asarray(out).astype(dtype, copy=False)


#: NumPy's pairwise sum (``add.reduce`` of float32/float64/complex64/complex128 over a
#: contiguous run) sums runs of at most this many scalars (a complex number is two) directly,
#: with eight interleaved accumulators; a longer run of ``m`` scalars is split after
#: ``m // 2 - (m // 2) % 8`` scalars and the two halves' sums are added.
PAIRWISE_BLOCK = 128

#: A node of the pairwise tree: a chunk's index, or the pair of nodes whose sums are added.
Tree = int | tuple["Tree", "Tree"]


def pairwise_plan(n: int, rows: int, scalars: int) -> tuple[Bounds, Tree] | None:
    """Chunks of ``n`` elements (each ``scalars`` scalars: 2 for complex) that are nodes of
    NumPy's pairwise-sum tree over the whole run, each of at most ``rows`` elements, and the tree
    above them. Summing each chunk with ``add.reduce`` and adding the chunk sums along the tree
    (:func:`combine_pairwise`) gives ``add.reduce`` of the whole run bit for bit. None when a
    leaf block of that tree is longer than ``rows`` (tiny chunks)."""
    bounds: list[tuple[int, int]] = []
    limit = rows * scalars

    def split(start: int, m: int) -> Tree | None:  # m scalars from element `start`
        if m <= limit:
            bounds.append((start, start + m // scalars))
            return len(bounds) - 1
        if m <= PAIRWISE_BLOCK:
            return None  # a leaf block longer than a chunk
        half = m // 2
        half -= half % 8
        left = split(start, half)
        right = split(start + half // scalars, m - half) if left is not None else None
        return None if left is None or right is None else (left, right)

    tree = split(0, n * scalars)
    if tree is None:
        return None
    return tuple(bounds), tree


def combine_pairwise(tree: Tree, parts: Sequence[Any], dtype: np.dtype[Any]) -> Any:
    """The whole run's sum from the chunk sums ``parts`` of :func:`pairwise_plan`: added along
    the tree, then to the identity 0 as NumPy's reduction does (a sum of -0.0 is +0.0)."""

    def total(node: Tree) -> Any:
        if isinstance(node, int):
            return np.asarray(parts[node], dtype)
        return np.add(total(node[0]), total(node[1]), dtype=dtype)

    return np.add(np.zeros((), dtype), total(tree), dtype=dtype)


def integer_pow_plan(y: int) -> list[tuple[str, str, str]]:
    """``integer_pow`` with exponent ``y`` as multiplications into buffers: ``(dst, a, b)`` means
    ``np.multiply(a, b, out=dst)`` over the storages ``"x"`` (the operand), ``"out"`` and
    ``"tmp"`` (a second buffer, only when both the accumulator and the base must be kept). The
    products are the backend impl's, in its order (square-and-multiply from the low bit), so the
    result is bit-identical; the last step leaves the result in ``"out"`` (``("out", acc, "")``
    is a copy, ``("out", acc, "1/")`` a reciprocal). ``y == 0`` gives ``[("out", "1", "")]``."""
    if y == 0:
        return [("out", "1", "")]
    ops: list[tuple[str, str, str]] = []
    acc: str | None = None
    base, n = "x", abs(y)

    def other(*busy: str | None) -> str:
        return "out" if "out" not in busy else "tmp"

    while n:
        if n & 1:
            if acc is None:
                acc = base
            else:
                if acc != "x":
                    dst = acc
                elif base != "x" and n >> 1 == 0:  # the base is not needed again
                    dst = base
                else:
                    dst = other(base)
                ops.append((dst, acc, base))
                acc = dst
        n >>= 1
        if n:
            dst = base if base != "x" and base != acc else other(acc)
            ops.append((dst, base, base))
            base = dst
    assert acc is not None
    if y < 0:
        ops.append(("out", acc, "1/"))
    elif acc != "out":
        ops.append(("out", acc, ""))
    return ops


# -- bfloat16 held in float32 ---------------------------------------------------------------------

_QNAN32 = np.float32(np.nan)
_U16 = np.uint32(16)
_ONE = np.uint32(1)
_HALF = np.uint32(0x7FFF)
_HIGH = np.uint32(0xFFFF0000)


def round_bf16(
    t: np.ndarray[Any, Any], u: np.ndarray[Any, Any], nan: np.ndarray[Any, Any], check: bool
) -> None:
    """Rounds float32 ``t`` in place to the nearest bfloat16 (ties to even), NaN to the quiet
    NaN of its sign: bit for bit ml_dtypes' float32 -> bfloat16 cast, on float32 bits (``u``, a
    uint32 buffer, and ``nan``, a bool buffer, are scratch of ``t``'s shape).

    Without ``check`` NaNs are assumed to be quiet NaNs already (0x7FC00000 with either sign):
    float32 operations on such inputs produce only those (a propagated NaN, or x86's default
    NaN), and the rounding below keeps them; the chunk function checks its inputs for NaNs."""
    bits = t.view(np.uint32)
    if check:
        np.isnan(t, out=nan)
        if nan.any():
            np.copysign(_QNAN32, t, out=t, where=nan)
    np.right_shift(bits, _U16, out=u)  # u = lowest kept bit + 0x7FFF: ties go to even
    np.bitwise_and(u, _ONE, out=u)
    np.add(u, _HALF, out=u)
    np.add(bits, u, out=bits)
    np.bitwise_and(bits, _HIGH, out=bits)


def round_bf16_new(x: Any) -> Any:
    """:func:`round_bf16` of a new float32 array (small results: per-row sums)."""
    t = np.array(x, dtype=np.float32)
    round_bf16(t, np.empty(t.shape, np.uint32), np.empty(t.shape, np.bool_), True)
    return t


def has_nan(x: np.ndarray[Any, Any]) -> bool:
    """Whether float32 ``x`` holds a NaN (one SIMD max, which propagates NaN)."""
    return x.size > 0 and bool(np.isnan(np.max(x)))


def narrow_bf16(wide: np.ndarray[Any, Any], out: np.ndarray[Any, Any]) -> None:
    """Stores float32 values that are bfloat16 values (low 16 bits zero) into bfloat16 ``out``:
    their top 16 bits, so NaN payloads survive as they do in ml_dtypes' sign operations."""
    np.right_shift(wide.view(np.uint32), _U16, out=out.view(np.uint16), casting="unsafe")


def widen_bf16(x: np.ndarray[Any, Any], out: np.ndarray[Any, Any]) -> None:
    """bfloat16 ``x`` into float32 ``out``: its bits in the top half, as ml_dtypes' cast (NaN
    payloads included)."""
    np.left_shift(x.view(np.uint16), _U16, out=out.view(np.uint32), casting="unsafe")
