"""Compiled elementwise kernels (the optional extra ``trellax[compiled]``, with Numba).

A fused region of a ``jit`` program (``interpreters/fusion*.py``) runs its elementwise equations
as NumPy calls on cache-sized chunks, one pass over the chunk per equation. With Numba
installed, runs of those equations are instead written as *one* loop in Python source (by
``interpreters/fusion_compiled.py``) and compiled here: one pass over the chunk whatever the
number of equations, with the GIL released so the chunks of a region run in parallel on
trellax's worker pool.

This module owns what touches Numba: importing it on first use (it is optional, and importing
it costs ~0.3 s, so a program that never meets a large region never pays it), compiling kernel
source, and caching the compiled kernels, in memory by source text and on disk through Numba's
own cache (each kernel's source is written once to a file named by its hash, under
``TRELLAX_CACHE_DIR`` or ``~/.cache/trellax``, so a new process loads machine code instead of
compiling again). :data:`HEADER` is the prelude of every kernel module: the helper functions
whose semantics a compiled loop does not give for free (NaN propagation and XLA's signed zeros
of ``max``/``min``).
"""

from __future__ import annotations

import glob
import hashlib
import importlib.metadata
import importlib.util
import os
import sys
import tempfile
import threading
import types
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

from trellax._src.backend import compiled_erf, compiled_log, compiled_math

_numba: types.ModuleType | None = None
_tried = False
_LOCK = threading.Lock()
_LOAD_LOCK = threading.Lock()


def _import_numba() -> types.ModuleType | None:
    """The ``numba`` module, or None when it is not installed (or fails to import)."""
    global _numba, _tried
    if not _tried:
        _tried = True
        try:
            # Imported here, not at the top: numba is an optional extra and costs ~0.3 s to
            # import; only a program with a large fused region needs it.
            import numba
        except Exception:  # pragma: no cover - depends on the installation
            _numba = None
        else:
            _numba = numba
    return _numba


def available() -> bool:
    """Whether compiled kernels can be used: Numba is installed (found, not imported: importing
    it costs ~1 s, which :func:`prepare` spends on a background thread)."""
    global _found
    if _found is None:
        try:
            _found = _numba is not None or importlib.util.find_spec("numba") is not None
        except (ImportError, ValueError):  # a broken or blocked installation
            _found = False
    return _found


_found: bool | None = None


def cache_dir() -> str | None:
    """Where kernel sources (and Numba's cached machine code beside them) are kept: a writable
    directory, or None (then kernels are compiled in memory only)."""
    numba = _import_numba()
    return _cache_dir(getattr(numba, "__version__", "none"))


def _cache_dir(version: str) -> str | None:
    root = os.environ.get("TRELLAX_CACHE_DIR") or os.path.join(
        os.path.expanduser("~"), ".cache", "trellax"
    )
    for base in (root, os.path.join(tempfile.gettempdir(), "trellax-cache")):
        py = f"py{sys.version_info[0]}{sys.version_info[1]}"
        path = os.path.join(base, f"kernels-numba{version}-{py}")
        try:
            os.makedirs(path, exist_ok=True)
        except OSError:
            continue
        if os.access(path, os.W_OK):
            return path
    return None


_loaded = False


def used() -> bool:
    """Whether this process has loaded a kernel (so paid Numba's import and set-up)."""
    return _loaded


def compiled_in_process(k: Kernel) -> bool:
    """Whether ``k`` is loaded and compiled for some argument types in this process."""
    return k.fn is not None and bool(getattr(k.fn, "signatures", ()))


_ON_DISK: dict[str, bool] = {}


def on_disk(k: Kernel) -> bool:
    """Whether Numba's disk cache held machine code of ``k`` when first asked (looked up
    without importing Numba: its version names the cache directory)."""
    found = _ON_DISK.get(k.text)
    if found is None:
        try:
            where = _cache_dir(importlib.metadata.version("numba"))
        except importlib.metadata.PackageNotFoundError:
            where = None
        digest = hashlib.sha256(k.text.encode()).hexdigest()[:24]
        pattern = f"_trellax_kernel_{digest}.*.nbi"
        found = where is not None and bool(glob.glob(os.path.join(where, "__pycache__", pattern)))
        _ON_DISK[k.text] = found
    return found


class Kernel:
    """A compiled kernel, loaded on first need: ``fn`` is None until :meth:`load` has run
    (generated code calls ``kernel.fn(...)`` only once its region is ready)."""

    __slots__ = ("fn", "name", "text")

    def __init__(self, text: str, name: str) -> None:
        self.text = text
        self.name = name
        self.fn: Callable[..., Any] | None = None

    def load(self) -> Callable[..., Any]:
        """Imports Numba and the kernel's module (compiling nothing yet: Numba compiles a
        signature at its first call, or loads it from its disk cache)."""
        with _LOAD_LOCK:  # not _LOCK: loading takes seconds, kernel() must not wait for it
            if self.fn is None:
                digest = hashlib.sha256(self.text.encode()).hexdigest()[:24]
                self.fn = getattr(_load(self.text, digest), self.name)
        global _loaded
        _loaded = True
        return self.fn

    def __repr__(self) -> str:
        digest = hashlib.sha256(self.text.encode()).hexdigest()[:24]
        return f"<compiled kernel {digest}: {'loaded' if self.fn else 'not loaded'}>"


_KERNELS: dict[tuple[str, str], Kernel] = {}


def kernel(source: str, name: str = "kernel") -> Kernel:
    """The kernel ``name`` of the module ``HEADER + source`` (which must define it with
    ``@_kernel``): one :class:`Kernel` per source text and process; compiled once per machine
    (Numba's disk cache)."""
    key = (source, name)
    with _LOCK:
        k = _KERNELS.get(key)
        if k is None:
            k = _KERNELS[key] = Kernel(HEADER + source, name)
    return k


class Ready:
    """Whether a region's kernels are compiled (``done``), set by :func:`prepare`; ``error``
    holds the exception when compiling failed (the region then keeps its NumPy version)."""

    __slots__ = ("done", "error")

    def __init__(self) -> None:
        self.done = False
        self.error: BaseException | None = None

    def __repr__(self) -> str:
        state = "compiled" if self.done else "failed" if self.error else "compiling"
        return f"<compiled kernels: {state}>"


_BACKGROUND: ThreadPoolExecutor | None = None


def prepare(warmups: list[tuple[Kernel, tuple[Any, ...]]], wait: bool) -> Ready:
    """Loads and compiles kernels (calling each with arguments of its types that do no work),
    now (``wait``) or on a background thread; the returned :class:`Ready` says when they are."""
    global _BACKGROUND
    ready = Ready()

    def run() -> None:
        try:
            for k, args in warmups:
                k.load()(*args)
        except Exception as e:  # pragma: no cover - a Numba failure: keep the NumPy version
            ready.error = e
        else:
            ready.done = True

    if wait:
        run()
        if ready.error is not None:
            raise ready.error
        return ready
    with _LOCK:
        if _BACKGROUND is None:
            _BACKGROUND = ThreadPoolExecutor(1, thread_name_prefix="trellax-compile")
        background = _BACKGROUND
    background.submit(run)
    return ready


def submit(fn: Callable[[], None]) -> Future[None]:
    """Runs ``fn`` on the compile thread, after the kernels queued there."""
    global _BACKGROUND
    with _LOCK:
        if _BACKGROUND is None:
            _BACKGROUND = ThreadPoolExecutor(1, thread_name_prefix="trellax-compile")
        background = _BACKGROUND
    return background.submit(fn)


def _load(text: str, digest: str) -> types.ModuleType:
    if _import_numba() is None:
        raise RuntimeError("compiled kernels need numba: pip install 'trellax[compiled]'")
    modname = f"_trellax_kernel_{digest}"
    where = cache_dir()
    if where is None:  # no writable directory: compile in memory, without Numba's disk cache
        module = types.ModuleType(modname)
        module.__dict__["_CACHE"] = False
        exec(compile(text, f"<trellax kernel {digest}>", "exec"), module.__dict__)
        return module
    path = os.path.join(where, modname + ".py")
    if not os.path.exists(path):
        # Written once under a temporary name and renamed: another process that loads the file
        # sees all of it, and its modification time (part of Numba's cache key) never changes.
        fd, tmp = tempfile.mkstemp(dir=where, suffix=".tmp")
        with os.fdopen(fd, "w") as f:
            f.write(text)
        try:
            os.link(tmp, path)
        except FileExistsError:
            pass
        finally:
            os.unlink(tmp)
    spec = importlib.util.spec_from_file_location(modname, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[modname] = module  # Numba's cache locates a function through its module
    spec.loader.exec_module(module)
    return module


#: The prelude of every kernel module (part of its hash: a change here recompiles everything).
HEADER = (
    """\
# Generated by trellax (trellax/_src/backend/compiled.py). Do not edit: the file name is the
# hash of this text.
import math

import numpy as np
import numba

_CACHE = globals().get("_CACHE", True)
_kernel = numba.njit(nogil=True, cache=_CACHE, error_model="numpy", boundscheck=False)
_inline = numba.njit(inline="always", error_model="numpy")


@_inline
def _fmax(a, b):
    # np.maximum's NaN propagation (the first NaN operand), zeros signed as XLA signs them
    # (max(-0, +0) = +0): the backend's max_ (numpy.py: _order_zeros)
    if a != a:
        return a
    if b != b:
        return b
    if a == b:
        return a + b if a == 0 else a
    return a if a > b else b


@_inline
def _fmin(a, b):
    if a != a:
        return a
    if b != b:
        return b
    if a == b:
        return -((-a) + (-b)) if a == 0 else a
    return a if a < b else b
"""
    + compiled_math.SOURCE
    + compiled_erf.SOURCE
    + compiled_log.SOURCE
)


def math_kernel_source(name: str) -> str:
    """A 1-d kernel ``kernel(r, x, out)`` applying the float32 function ``name`` of
    :mod:`.compiled_math` (``exp``, ``tanh``, ``logistic``), :mod:`.compiled_erf` (``erf``,
    ``erfc``, and ``erfc_e``: erfc from the exp it shares with its derivative) or
    :mod:`.compiled_log` (``log``): for the accuracy checks."""
    return (
        f"@_kernel\ndef kernel(r, x, o):\n    for i in range(r):\n        o[i] = _{name}f(x[i])\n"
    )
