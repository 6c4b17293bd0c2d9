"""Compiled loops kept as shared libraries, loaded without Numba (issue 23, ``speed-loops5``).

A compiled loop (:mod:`.loop_compiled`) is a Numba function; a new process that finds it in
Numba's disk cache still pays Numba's import and set-up (~1 s) before its first call, which a
program calling its loop a hundred times never repays. So once a loop kernel is compiled, the
same kernel is also built as a C-callable function (a Numba ``cfunc`` taking one array of
addresses), emitted as position-independent machine code for this host, linked by the system's
C compiler into a shared library and kept beside Numba's cache. A later process on the same
host loads that library with :mod:`ctypes` (~0.3 ms) and calls it: no Numba, no LLVM.

The library runs the same generated loop as the Numba function: the same elementwise
arithmetic and the same calls of NumPy's own inner loops (whose addresses the caller passes at
every call, as to the Numba function), so the same bits (``tests/test_loop_native.py``). The
kernel's buffers are slices of one scratch block the caller allocates (the library allocates
nothing); every array argument must be C-contiguous (else the Numba function or the Python loop
runs). Linux only, and only with a C compiler (``cc``) and Numba present when building; the
library's file name is the hash of its source, the host's CPU (model and feature flags), and the
versions of Python, NumPy, Numba and llvmlite.
"""

from __future__ import annotations

import array
import ctypes
import hashlib
import importlib.metadata
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
import threading
from collections.abc import Sequence
from concurrent.futures import Future
from typing import Any

import numpy as np

from trellax._src.backend import compiled

#: Switched off to test or measure without the libraries (``TRELLAX_NATIVE_LOOPS=0`` too).
enabled = os.environ.get("TRELLAX_NATIVE_LOOPS", "1").strip() not in ("0", "false")

_LOCK = threading.Lock()
_host: str | None = None
_host_tried = False


def _host_key() -> str | None:
    """What the machine code depends on besides its source (None: not supported here)."""
    global _host, _host_tried
    if _host_tried:
        return _host
    _host_tried = True
    if not sys.platform.startswith("linux") or shutil.which("cc") is None:
        return None
    try:
        with open("/proc/cpuinfo") as f:
            info = f.read()
        model = re.search(r"^model name\s*:(.*)$", info, re.M)
        flags = re.search(r"^(flags|Features)\s*:(.*)$", info, re.M)
        versions = [importlib.metadata.version(p) for p in ("numba", "llvmlite")]
    except (OSError, importlib.metadata.PackageNotFoundError):
        return None
    parts = [
        platform.machine(),
        model.group(1).strip() if model else "",
        flags.group(2).strip() if flags else "",
        sys.version,
        np.__version__,
        *versions,
    ]
    _host = hashlib.sha256("\n".join(parts).encode()).hexdigest()[:16]
    return _host


_numba_version: list[str | None] = []


def _directory() -> str | None:
    if not _numba_version:  # looked up once (~1 ms a look-up; every kernel asks)
        try:
            _numba_version.append(importlib.metadata.version("numba"))
        except importlib.metadata.PackageNotFoundError:
            _numba_version.append(None)
    version = _numba_version[0]
    return None if version is None else compiled._cache_dir(f"{version}-native")


_ALLOC = re.compile(r"^( +)(\w+) = np\.empty\((\d+), ([\w.]+)\)$", re.M)

#: The entry point's prelude (after a kernel's module text): ``_vp(address)`` is a pointer that
#: ``_carray`` views as an array.
ENTRY_PRELUDE = """

from llvmlite import ir as _ir
from numba import carray as _carray, cfunc as _cfunc
from numba.core import types as _nt
from numba.extending import intrinsic as _intrinsic


@_intrinsic
def _vp(typingctx, a):
    def codegen(context, builder, signature, args):
        return builder.inttoptr(args[0], _ir.IntType(8).as_pointer())

    return _nt.voidptr(a), codegen


"""


def source(text: str, kinds: list[tuple[int, str]]) -> str | None:
    """The module of the C-callable version of the loop kernel module ``text``, whose kernel
    takes ``n, P`` and then arrays of ``kinds`` (ndim, dtype name; ndim -1: a scalar): ``entry``
    takes one int64 array ``[n, address and shape of each parameter..., scratch address]``.
    None when the kernel allocates what this translation does not know."""
    head = "@_kernel\ndef kernel(n, P, "
    if text.count(head) != 1:
        return None
    text = text.replace(head, "@_inline\ndef kernel(S, n, P, ")
    offset = 0

    def scratch(m: re.Match[str]) -> str:
        nonlocal offset
        indent, name, count, dtype = m.groups()
        at, offset = offset, offset + 64 * ((int(count) * 8 + 63) // 64)
        return f"{indent}{name} = _carray(_vp(S + {at}), ({count},), {dtype})"

    text = _ALLOC.sub(scratch, text)
    if "np.empty(" in text.split("def kernel(S, n, P, ", 1)[1]:
        return None
    lines = [
        '@_cfunc("void(CPointer(int64))", error_model="numpy", boundscheck=False)',
        "def entry(A):",
    ]
    names, j = ["A[0]", "_carray(_vp(A[1]), (A[2],), np.uintp)"], 3
    for k, (ndim, dtype) in enumerate(kinds):
        if ndim < 0:
            lines.append(f"    p{k} = _carray(_vp(A[{j}]), (1,), np.{dtype})[0]")
            j += 1
        else:
            shape = ", ".join(f"A[{j + 1 + d}]" for d in range(ndim))
            lines.append(f"    p{k} = _carray(_vp(A[{j}]), ({shape},), np.{dtype})")
            j += 1 + ndim
        names.append(f"p{k}")
    lines.append(f"    kernel(A[{j}], {', '.join(names)})")
    return text + ENTRY_PRELUDE + "\n".join(lines) + "\n" + f"SCRATCH = {max(offset, 64)}\n"


class Library:
    """A kernel module ``text`` (a Numba module defining the C-callable ``entry`` taking one
    int64 array, and ``SCRATCH``) as a shared library: :meth:`load` it when :meth:`on_disk`, or
    :meth:`build` it (Numba and ``cc``); then ``fn(address of the argument array)``. ``text``
    None: no library (``path`` None)."""

    def __init__(self, text: str | None, prefix: str = "_trellax_loop_") -> None:
        self.text = text
        host = _host_key()
        where = _directory() if host is not None and self.text is not None else None
        self.path: str | None = None
        if where is not None and self.text is not None:
            digest = hashlib.sha256(f"{host}\n{self.text}".encode()).hexdigest()[:24]
            self.path = os.path.join(where, f"{prefix}{digest}")
        self.fn: Any = None
        self.scratch = 0
        self.failed = False
        self.error: BaseException | None = None
        self.building = False
        #: The build on the compile thread, once queued (tests wait for it).
        self.future: Future[None] | None = None

    def on_disk(self) -> bool:
        return self.path is not None and os.path.exists(self.path + ".so")

    def load(self) -> bool:
        """Loads the library (True when it is ready to call)."""
        if self.fn is not None:
            return True
        if self.failed or not self.on_disk():
            return False
        assert self.path is not None
        try:
            with open(self.path + ".txt") as f:
                name, scratch = f.read().split()
            lib = ctypes.CDLL(self.path + ".so")
            address = ctypes.cast(getattr(lib, name), ctypes.c_void_p).value
            if not address:
                raise OSError(f"no {name} in {self.path}.so")
            self.scratch = int(scratch)
            self.fn = ctypes.CFUNCTYPE(None, ctypes.c_void_p)(address)
        except Exception as e:  # a broken file: keep the other loops
            self.failed, self.error = True, e
            return False
        return True

    def build(self) -> None:
        """Compiles the C-callable kernel with Numba and links it with ``cc`` (seconds of CPU,
        once per host and kernel); then loads it. Failures are kept in ``error``."""
        if self.path is None or self.text is None or self.on_disk():
            self.load()
            return
        try:
            self._build(self.path, self.text)
        except Exception as e:  # no compiler, a Numba or linker failure: keep the others
            self.failed, self.error = True, e
            return
        self.load()

    @staticmethod
    def _build(path: str, text: str) -> None:
        if compiled._import_numba() is None:
            raise RuntimeError("building a kernel library needs numba")
        import llvmlite.binding as llvm  # type: ignore[import-untyped]

        module: dict[str, Any] = {"_CACHE": False}
        exec(compile(text, f"<trellax kernel library {os.path.basename(path)}>", "exec"), module)
        entry = module["entry"]
        lib = entry._library
        lib._ensure_finalized()
        final = llvm.parse_bitcode(lib._final_module.as_bitcode())
        # The cfunc's error path (never taken: the kernel raises nothing) names Numba's runtime;
        # those functions trap here. Python's own functions resolve in the loading process, the
        # C library's (libm's erf, erfc: fused kernels call them) through the link with -lm.
        process = ctypes.CDLL(None)
        missing = [
            f.name
            for f in final.functions
            if f.is_declaration
            and not f.name.startswith(("Py", "_Py", "llvm."))
            and (f.name.startswith(("NRT_", "numba_")) or not hasattr(process, f.name))
        ]
        if missing:
            stubs = "".join(
                f"define void @{n}() {{\n  call void @llvm.trap()\n  unreachable\n}}\n"
                for n in missing
            )
            final.link_in(llvm.parse_assembly("declare void @llvm.trap()\n" + stubs))
        llvm.initialize_native_target()
        llvm.initialize_native_asmprinter()
        tm = llvm.Target.from_default_triple().create_target_machine(
            cpu=llvm.get_host_cpu_name(),
            features=llvm.get_host_cpu_features().flatten(),
            opt=3,
            reloc="pic",
            codemodel="default",
        )
        where = os.path.dirname(path)
        with tempfile.TemporaryDirectory(dir=where) as tmp:
            obj, so, txt = (os.path.join(tmp, "k" + s) for s in (".o", ".so", ".txt"))
            with open(obj, "wb") as fb:
                fb.write(tm.emit_object(final))
            subprocess.run(
                ["cc", "-shared", "-o", so, obj, "-lm"],
                check=True,
                capture_output=True,
                timeout=120,
            )
            with open(txt, "w") as f:
                f.write(f"{entry.native_name} {module['SCRATCH']}\n")
            os.replace(txt, path + ".txt")  # the name first: the library's presence means both
            os.replace(so, path + ".so")


class Native(Library):
    """One loop kernel (:mod:`.loop_compiled`) as a shared library."""

    def __init__(self, text: str, kinds: list[tuple[int, str]]) -> None:
        self.kinds = kinds
        super().__init__(source(text, kinds))
        self._head: list[int] | None = None
        self._scratch = threading.local()

    def arguments(self, full: list[Any]) -> list[int] | None:
        """The argument words of the call ``kernel(*full)`` (``n, P``, then the parameters;
        scalars as 0-d arrays), without the scratch block's, or None when an array is not
        C-contiguous."""
        n, pointers, *rest = full
        words = [n, _address(pointers), pointers.shape[0]]
        return words if self._words(rest, 0, words) else None

    def _words(self, values: Sequence[Any], start: int, words: list[int]) -> bool:
        for a, (ndim, _) in zip(values, self.kinds[start:]):
            if ndim < 0:
                words.append(_address(a))
            elif not a.flags.c_contiguous:
                return False
            else:
                words.append(_address(a))
                words.extend(a.shape)
        return True

    def call(
        self,
        n: int,
        pointers: np.ndarray,
        consts: Sequence[np.ndarray],
        ins: Sequence[np.ndarray],
        outs: Sequence[np.ndarray],
    ) -> bool:
        """Runs the loaded library on the kernel's arguments (scalars as 0-d arrays, kept alive
        by the caller): True when it ran, False when an array is not C-contiguous."""
        head = self._head
        if head is None:  # the step count, NumPy's loops and the loop's constants: fixed
            head = self.arguments([n, pointers, *consts])
            if head is None:
                return False
            self._head = head
        words = head.copy()
        k = len(consts)
        if not self._words(ins, k, words) or not self._words(outs, k + len(ins), words):
            return False
        # the scratch block: one per thread (a call runs on its caller's thread, start to end)
        block = getattr(self._scratch, "address", None)
        if block is None:
            kept = self._scratch.block = np.empty(self.scratch, np.uint8)
            block = self._scratch.address = _address(kept)
        words.append(block)
        packed = array.array("q", words)
        self.fn(packed.buffer_info()[0])
        return True


_from_buffer = ctypes.c_char.from_buffer
_addressof = ctypes.addressof


def _address(a: np.ndarray) -> int:
    """The address of a C-contiguous array's data (through ctypes' buffer view when writable
    and not empty: ~5x faster than ``a.ctypes.data``)."""
    if a.flags.writeable and a.size:
        return _addressof(_from_buffer(a))  # type: ignore[arg-type]
    return int(a.ctypes.data)


def kinds_of(full: list[Any]) -> list[tuple[int, str]] | None:
    """The parameter kinds of a loop kernel's arguments ``full`` (after ``n, P``), or None when
    one is not a number or array this module passes (a 0-d array operand)."""
    out: list[tuple[int, str]] = []
    for a in full[2:]:
        if isinstance(a, np.ndarray):
            if a.ndim == 0:
                return None
            out.append((a.ndim, a.dtype.name))
        elif isinstance(a, np.generic):
            out.append((-1, a.dtype.name))
        else:
            return None
    return out


def build_later(native: Library) -> None:
    """Builds ``native`` on the compile thread (after what is queued there)."""
    with _LOCK:
        if native.building:
            return
        native.building = True
    native.future = compiled.submit(native.build)
