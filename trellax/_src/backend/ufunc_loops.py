"""The inner-loop functions of NumPy's ufuncs, for compiled code that must give NumPy's bits.

A compiled loop body (``interpreters/loop_compiled.py``, the ``compiled`` extra) calls NumPy's
own inner loops for what it cannot reproduce exactly: transcendental functions (NumPy's float32
and float64 ``tanh``/``exp``/``sin``... are its own SIMD polynomials, not libm's) and ``matmul``
(BLAS picks a summation order of its own). Calling the very function NumPy calls, with the
operands and strides NumPy would pass, gives NumPy's results by construction.

NumPy does not expose these functions to Python, but every ufunc object is a C struct,
``PyUFuncObject``, whose layout is part of NumPy's public C API (``numpy/ufuncobject.h``)::

    PyObject_HEAD; int nin, nout, nargs; int identity;
    PyUFuncGenericFunction *functions; void *const *data; int ntypes; int reserved1;
    const char *name; const char *types; ...

:func:`loop` reads ``functions[i]`` and ``data[i]`` for the type signature ``i`` and checks
every field it can against what Python sees (``nin``, ``nout``, ``ntypes``, the name, the type
numbers of the signature), so a NumPy whose layout differs yields None (the caller then keeps
its NumPy calls) instead of a wrong pointer.
"""

from __future__ import annotations

import ctypes
import sys
from typing import Any

import numpy as np

_HEAD = 2 * ctypes.sizeof(ctypes.c_void_p)  # ob_refcnt, ob_type (a release build of CPython)
_PTR = ctypes.sizeof(ctypes.c_void_p)

_CACHE: dict[tuple[str, str], tuple[int, int] | None] = {}


def loop(ufunc: np.ufunc, signature: str) -> tuple[int, int] | None:
    """``(function, data)`` addresses of ``ufunc``'s inner loop for ``signature`` (one of
    ``ufunc.types``, e.g. ``"ff->f"``), or None when they cannot be read safely."""
    key = (ufunc.__name__, signature)
    if key not in _CACHE:
        try:
            _CACHE[key] = _read(ufunc, signature)
        except (ValueError, OSError, UnicodeDecodeError):  # pragma: no cover - another layout
            _CACHE[key] = None
    return _CACHE[key]


def _read(ufunc: np.ufunc, signature: str) -> tuple[int, int] | None:
    if (
        type(ufunc) is not np.ufunc
        or signature not in ufunc.types
        or hasattr(sys, "gettotalrefcount")
    ):
        return None  # (a debug build of CPython has a longer object header)
    base = id(ufunc)
    nin, nout, nargs = (ctypes.c_int * 3).from_address(base + _HEAD)
    if (nin, nout, nargs) != (ufunc.nin, ufunc.nout, ufunc.nin + ufunc.nout):
        return None
    at = base + _HEAD + 4 * ctypes.sizeof(ctypes.c_int)
    functions = ctypes.c_void_p.from_address(at).value
    data = ctypes.c_void_p.from_address(at + _PTR).value
    ntypes = ctypes.c_int.from_address(at + 2 * _PTR).value
    name = ctypes.c_char_p.from_address(at + 2 * _PTR + 2 * ctypes.sizeof(ctypes.c_int)).value
    types = ctypes.c_void_p.from_address(at + 3 * _PTR + 2 * ctypes.sizeof(ctypes.c_int)).value
    if not functions or not types or ntypes != ufunc.ntypes or name is None:
        return None
    if name.decode() != ufunc.__name__:
        return None
    i = ufunc.types.index(signature)
    numbers = list(ctypes.string_at(types + i * nargs, nargs))
    wanted = [np.dtype(c).num for c in signature.replace("->", "")]
    if numbers != wanted:
        return None
    fn = ctypes.c_void_p.from_address(functions + i * _PTR).value
    extra = ctypes.c_void_p.from_address(data + i * _PTR).value if data else None
    if not fn:
        return None
    return fn, extra or 0


def signature_of(ufunc: np.ufunc, dtypes: list[Any]) -> str | None:
    """The type signature of ``ufunc``'s loop taking and giving exactly ``dtypes`` (inputs,
    then the output), or None."""
    chars = "".join(np.dtype(d).char for d in dtypes)
    sig = f"{chars[: ufunc.nin]}->{chars[ufunc.nin :]}"
    return sig if sig in ufunc.types else None
