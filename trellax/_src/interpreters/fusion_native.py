"""Fused regions' compiled kernels kept as shared libraries (issue 23, branch ``fusion-lib``).

A large fused region of a ``jit`` program runs compiled kernels (:mod:`.fusion_compiled`,
:mod:`.fusion_rows`) once Numba has loaded them; in a new process that takes ~1 s on the
background thread, during which the region runs its NumPy version (slowed by the load it
overlaps). With :class:`loop_native.Library` (the machinery of the loop libraries), each of a
region's kernels is also built as a C-callable function in a shared library kept in the host's
cache; a later process that finds every kernel of a region there loads them with :mod:`ctypes`
(no Numba, no LLVM) and runs the compiled version from the region's first call.

Each call site of a kernel in a region's chunk function is a :class:`Site`: ``site.fn(r, ...)``
is the library's caller once the library is loaded, else the Numba kernel. The chunk function,
its chunk bounds, its threads (:func:`.fusion_runtime.run_region`) and the per-chunk partials of
its reductions are unchanged: the library replaces the kernel call of one chunk, on the thread
that runs the chunk (``ctypes`` releases the GIL during the call).

The library is the Numba kernel's source compiled again (an ``entry`` ``cfunc`` around the
kernel inlined): the same arithmetic, so the same bits (``tests/test_fusion_native.py``). Its
buffers (a sum's stack, a row buffer) are slices of a per-thread scratch block; every array it
receives is C-contiguous (a strided input is copied first, which changes no value; a strided
output raises, and the region falls back to its NumPy version for good).

When a library is built: when a region's Numba kernels have loaded in a process, the process
adds one to a count kept beside the library's name in the cache (``<name>.seen``, one byte a
process); from the :data:`BUILD_AFTER`-th process on, the missing libraries of the region are
built on the compile thread. Only regions of at least :data:`BUILD_MIN` elements are counted
(the default ``compiled_min``: not the small regions tests compile by lowering it). So a
program run once on a host never pays for a build, and one run repeatedly has its libraries
from its third process on. Without ``cc``, off Linux, or
without Numba (no kernel at all), nothing changes: the NumPy version, then Numba's kernels.
``TRELLAX_NATIVE_FUSION=0`` (or :data:`enabled` False) switches the libraries off.
"""

from __future__ import annotations

import array
import ctypes
import os
import re
import threading
from typing import Any

import numpy as np

from trellax._src.backend import compiled
from trellax._src.interpreters import fusion_runtime as rt
from trellax._src.interpreters import loop_native

#: Switched off to test or measure without the libraries (``TRELLAX_NATIVE_FUSION=0`` too).
enabled = os.environ.get("TRELLAX_NATIVE_FUSION", "1").strip() not in ("0", "false")
#: The count of processes (this one included) that have loaded a kernel's Numba version from
#: which a process builds its library (``TRELLAX_NATIVE_FUSION_AFTER``; 0 or 1: at once).
BUILD_AFTER = rt._env_int("TRELLAX_NATIVE_FUSION_AFTER", 2)

#: The smallest region (elements) whose kernels are counted and built: the default
#: ``compiled_min`` (``TRELLAX_NATIVE_FUSION_MIN``).
BUILD_MIN = rt._env_int("TRELLAX_NATIVE_FUSION_MIN", rt.COMPILED_MIN)

_HEAD = "@_kernel\ndef kernel(r, "
_PARAMS = re.compile(r"@_kernel\ndef kernel\(r, ([^)]*)\):")


def _numba_dtype(name: str) -> str:
    return "np.bool_" if name == "bool" else f"np.{name}"


def source(text: str, kinds: list[tuple[int, str]], returns: str | None) -> str | None:
    """The module of the C-callable version of the fused kernel module ``text`` (``kernel(r,
    *arrays)``, arrays of ``kinds``: ndim and dtype name; returning a scalar of dtype
    ``returns``, or nothing): ``entry`` takes one int64 array ``[r, scratch address, then the
    address and shape of each array (0-d: shape 1), then the result's address]``. None when the
    kernel does what this translation does not know."""
    m = _PARAMS.search(text)
    if text.count(_HEAD) != 1 or m is None:
        return None
    params = [p.strip() for p in m.group(1).split(",")]
    if len(params) != len(kinds):
        return None
    text = text.replace(_HEAD, "@_inline\ndef kernel(S, r, ")
    before, kernel = text.split("def kernel(S, r, ", 1)
    for p, (ndim, _) in zip(params, kinds):
        if ndim == 0:  # read as a 1-element array
            kernel = re.sub(rf"\b{p}\[\(\)\]", f"{p}[0]", kernel)
    offset = 0

    def scratch(m: re.Match[str]) -> str:
        nonlocal offset
        indent, name, count, dtype = m.groups()
        at, offset = offset, offset + 64 * ((int(count) * 8 + 63) // 64)
        return f"{indent}{name} = _carray(_vp(S + {at}), ({count},), {dtype})"

    kernel = loop_native._ALLOC.sub(scratch, kernel)
    if "np.empty(" in kernel or "np.zeros(" in kernel:
        return None
    lines = [
        '@_cfunc("void(CPointer(int64))", error_model="numpy", boundscheck=False)',
        "def entry(A):",
    ]
    names, j = ["A[1]", "A[0]"], 2
    for k, (ndim, dtype) in enumerate(kinds):
        shape = ", ".join(f"A[{j + 1 + d}]" for d in range(max(ndim, 1)))
        lines.append(f"    p{k} = _carray(_vp(A[{j}]), ({shape},), {_numba_dtype(dtype)})")
        j += 1 + max(ndim, 1)
        names.append(f"p{k}")
    call = f"kernel({', '.join(names)})"
    if returns is None:
        lines.append(f"    {call}")
    else:
        lines.append(f"    _carray(_vp(A[{j}]), (1,), {_numba_dtype(returns)})[0] = {call}")
    entry = "\n".join(lines) + "\n" + f"SCRATCH = {max(offset, 64)}\n"
    return before + "def kernel(S, r, " + kernel + loop_native.ENTRY_PRELUDE + entry


class NativeKernel(loop_native.Library):
    """One fused kernel, for one set of argument kinds, as a shared library; called as the
    Numba kernel is: ``lib(r, *arrays)``."""

    def __init__(
        self, text: str, kinds: list[tuple[int, str]], returns: str | None, n_out: int
    ) -> None:
        super().__init__(source(text, kinds, returns), prefix="_trellax_fusion_")
        self.kinds = kinds
        self.first_out = len(kinds) - n_out
        self.dtypes = [np.dtype(d) for _, d in kinds]
        self.returns = np.dtype(returns) if returns is not None else None
        self.counted = False
        self._local = threading.local()

    def _block(self) -> tuple[int, np.ndarray[Any, Any] | None]:
        """This thread's scratch block's address and result cell."""
        local = self._local
        address = getattr(local, "address", None)
        if address is None:
            # whole cache lines of its own (two threads' blocks never share a line: measured
            # 1.7 ms more CPU time a call of the 25M chain when they did), the result's cell last
            block = local.block = np.empty(self.scratch + 256, np.uint8)
            start = loop_native._address(block) + 64
            address = local.address = start + (-start) % 64
            local.result = None
            if self.returns is not None:
                at = address - start + 64 + self.scratch
                local.result = block[at : at + self.returns.itemsize].view(self.returns)
        return address, local.result

    def __call__(self, r: int, *arrays: np.ndarray[Any, Any]) -> Any:
        local = self._local
        block = getattr(local, "address", None)
        if block is None:
            block = self._block()[0]
        words = [r, block]
        append = words.append
        keep: list[np.ndarray[Any, Any]] = []
        for k, (a, (ndim, _), d) in enumerate(zip(arrays, self.kinds, self.dtypes)):
            if a.dtype != d or a.ndim != ndim:
                raise TypeError(f"kernel library for {d} ndim {ndim}: got {a.dtype} {a.shape}")
            if not a.flags.c_contiguous:
                if k >= self.first_out:  # the library writes only C-contiguous outputs
                    raise TypeError("kernel library: a strided output")
                a = np.ascontiguousarray(a)  # an input: the same values
                keep.append(a)
            append(_data(a))
            if ndim == 1:
                append(a.shape[0])
            elif ndim:
                words.extend(a.shape)
            else:
                append(1)
        result = local.result
        if result is not None:
            append(block + self.scratch)
        packed = array.array("q", words)  # kept alive until the call returns
        self.fn(packed.buffer_info()[0])
        del keep
        return None if result is None else result[0]


def _struct_data(a: np.ndarray[Any, Any]) -> int:
    """The data pointer of ``a`` read from its object (NumPy's ``PyArrayObject_fields``: the
    pointer right after the object's head): ~0.4 µs, against ~2 µs for ``a.ctypes.data``."""
    return _pointer_at(id(a) + _DATA_OFFSET).value or 0


def _checked_data() -> Any:
    """:func:`_struct_data` when it reads the right pointer here, else ``a.ctypes.data``."""
    probe = np.arange(7.0)
    views = [probe, probe[3:], probe[::2], np.zeros((3, 4), np.float32)[1:]]
    views[1].flags.writeable = False
    try:
        ok = all(_struct_data(v) == v.ctypes.data for v in views)
    except Exception:  # pragma: no cover - an unusual build of NumPy
        ok = False
    return _struct_data if ok else (lambda a: int(a.ctypes.data))


_pointer_at = ctypes.c_void_p.from_address
_DATA_OFFSET = 2 * ctypes.sizeof(ctypes.c_void_p)  # PyObject_HEAD: refcount, type
_data = _checked_data()


_LOCK = threading.Lock()
_LIBRARIES: dict[tuple[str, tuple[tuple[int, str], ...], str | None, int], NativeKernel] = {}


def library(
    text: str, kinds: list[tuple[int, str]], returns: str | None, n_out: int
) -> NativeKernel:
    """The one :class:`NativeKernel` of this process for kernel module ``text``, ``kinds``
    (the last ``n_out`` arrays are written), the result's dtype."""
    key = (text, tuple(kinds), returns, n_out)
    with _LOCK:
        lib = _LIBRARIES.get(key)
        if lib is None:
            lib = _LIBRARIES[key] = NativeKernel(text, kinds, returns, n_out)
    return lib


class Site:
    """One kernel call in a region's chunk function: ``site.fn`` is the library (once loaded
    by :func:`prepare`), else the Numba kernel's function."""

    __slots__ = ("dummies", "kernel", "lib", "native")

    def __init__(
        self,
        kernel: compiled.Kernel,
        dummies: tuple[Any, ...],
        n_out: int,
        returns: np.dtype[Any] | None = None,
    ) -> None:
        self.kernel = kernel
        self.dummies = dummies  # arguments of its types that do no work (r = 0)
        self.native: NativeKernel | None = None
        kinds = [(a.ndim, a.dtype.name) for a in dummies[1:]]
        self.lib = library(kernel.text, kinds, None if returns is None else returns.name, n_out)

    @property
    def fn(self) -> Any:
        native = self.native
        return native if native is not None else self.kernel.fn

    def __repr__(self) -> str:
        state = "library" if self.native is not None else repr(self.kernel)
        return f"<fused kernel site: {state}>"


def _load_all(sites: list[Site]) -> bool:
    """Loads every site's library when all are on disk (True: the region may run them)."""
    if not enabled or not sites:
        return False
    if not all(s.lib.path is not None and not s.lib.failed and s.lib.on_disk() for s in sites):
        return False
    if not all(s.lib.load() for s in sites):
        return False
    for s in sites:
        s.native = s.lib
    return True


def prepare(sites: list[Site], wait: bool, elements: int = 0) -> compiled.Ready:
    """The region's readiness: done at once when the host has every kernel's library (loaded
    here, ~0.3 ms each), else once Numba has loaded the kernels (now with ``wait``, else on the
    compile thread), after which the libraries are counted and, when due, built: only for a
    region of at least :data:`BUILD_MIN` ``elements`` (one compiled under the default rule,
    not one a test compiles by lowering ``compiled_min``)."""
    ready = compiled.Ready()
    if _load_all(sites):
        ready.done = True
        return ready

    def run() -> None:
        try:
            for s in sites:
                s.kernel.load()(*s.dummies)
        except Exception as e:  # pragma: no cover - a Numba failure: keep the NumPy version
            ready.error = e
            return
        ready.done = True
        if elements >= BUILD_MIN:
            _count_and_build(sites, inline=not wait)

    if wait:
        run()
        if ready.error is not None:
            raise ready.error
        return ready
    compiled.submit(run)
    return ready


def _count(lib: NativeKernel) -> int:
    """Adds this process to the count of processes that have used ``lib``'s kernel; returns the
    count (0 when the cache cannot be written)."""
    if lib.path is None:
        return 0
    try:
        fd = os.open(lib.path + ".seen", os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
        try:
            os.write(fd, b".")
            return os.fstat(fd).st_size
        finally:
            os.close(fd)
    except OSError:
        return 0


def _count_and_build(sites: list[Site], inline: bool) -> None:
    if not enabled:
        return
    due: list[NativeKernel] = []
    with _LOCK:
        for s in sites:
            lib = s.lib
            if lib.counted or lib.path is None:
                continue
            lib.counted = True
            if lib.on_disk() or os.path.exists(lib.path + ".failed"):
                continue  # built, or a build failed on this host: not tried again
            if _count(lib) >= BUILD_AFTER and not lib.building:
                lib.building = True
                due.append(lib)
    if not due:
        return

    def build() -> None:
        for lib in due:
            _build_once(lib)

    if inline:  # already on the compile thread
        build()
        return
    try:
        for lib in due:
            lib.future = compiled.submit(lambda lib=lib: _build_once(lib))  # type: ignore[misc]
    except RuntimeError:  # the interpreter is exiting: no new work on the compile thread
        build()


def _build_once(lib: NativeKernel) -> None:
    """Builds ``lib``; a failure (a Numba error, no linker) is marked in the cache
    (``<name>.failed``, holding the error) so that later processes do not pay for it again."""
    lib.build()
    if lib.error is not None and lib.path is not None and not lib.on_disk():
        try:
            with open(lib.path + ".failed", "w") as f:
                f.write(f"{type(lib.error).__name__}: {lib.error}\n")
        except OSError:
            pass


def build_pending() -> list[NativeKernel]:
    """Builds, now, the library of every fused kernel this process has met that the host does
    not have yet (tests, and ``tools/measure_fusion_native.py build``); returns them."""
    with _LOCK:
        todo = [lib for lib in _LIBRARIES.values() if lib.path is not None and not lib.on_disk()]
    for lib in todo:
        lib.build()
    return todo
