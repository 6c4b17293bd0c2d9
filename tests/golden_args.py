"""Reading ``tests/golden/promotion.json``: its SPEC strings, decoded into trellax-side arguments.

The golden file is written by ``tools/gen_golden.py`` from a real JAX. Each case's ``args`` are
SPEC strings (see that script's docstring); :func:`decode` turns one into the object trellax is
given in its place:

=====================  ==========================================================================
``dtype:NAME``         the dtype (NumPy or ml_dtypes)
``type:T``             the Python type ``int``, ``float``, ``complex`` or ``bool``
``py:LITERAL``         a Python scalar (``ast.literal_eval``)
``np:NAME:VALUE``      a NumPy scalar; ``np0d:NAME:VALUE``: a 0-d NumPy array
``arr:NAME``           a strong 0-d array (``jnp.zeros((), NAME)``: canonicalized for x64 off)
``weak:NAME``          a weakly typed 0-d array of dtype NAME (not canonicalized)
``none``               ``None``
``str:TEXT``           the string TEXT, used as a dtype-like
=====================  ==========================================================================

trellax has no arrays yet, so ``arr:`` and ``weak:`` decode to :class:`FakeArray`, a tiny object
with ``.dtype``, ``.shape`` and ``.weak_type`` (what promotion reads). When ``trellax.numpy``
arrives, :func:`make_array` is the one place to change.
"""

from __future__ import annotations

import ast
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import ml_dtypes
import numpy as np

GOLDEN_PATH = Path(__file__).resolve().parent / "golden" / "promotion.json"

PY_TYPES: dict[str, type] = {"int": int, "float": float, "complex": complex, "bool": bool}

#: What ``jnp.zeros((), NAME)`` gives with x64 off (written out here, not asked of trellax).
TO_32: dict[str, str] = {
    "int64": "int32",
    "uint64": "uint32",
    "float64": "float32",
    "complex128": "complex64",
}


@dataclass(frozen=True)
class FakeArray:
    """Stands in for a 0-d trellax array until ``trellax.numpy`` exists: promotion only reads
    ``dtype``, ``shape`` and ``weak_type``."""

    dtype: np.dtype[Any]
    weak_type: bool
    shape: tuple[int, ...] = ()

    def __repr__(self) -> str:
        flag = ", weak_type=True" if self.weak_type else ""
        return f"FakeArray(dtype={self.dtype}{flag})"


def make_array(dtype: np.dtype[Any], weak_type: bool) -> Any:
    """A 0-d array of ``dtype`` with the given weak flag. The single place to swap in
    ``trellax.numpy`` arrays (e.g. ``lax_internal._convert_element_type(0, dtype, weak_type)``)."""
    return FakeArray(dtype, weak_type)


def dtype_by_name(name: str) -> np.dtype[Any]:
    """The dtype of a NumPy or ml_dtypes name (``'bool'``, ``'bfloat16'``, ``'float8_e4m3fn'``)."""
    if name != "bool" and hasattr(ml_dtypes, name):
        return np.dtype(getattr(ml_dtypes, name))
    return np.dtype(name)


def decode(spec: str, *, x64: bool) -> Any:
    """The trellax-side argument for one SPEC string, for a case run with the given x64 flag."""
    if spec == "none":
        return None
    kind, sep, rest = spec.partition(":")
    if not sep:
        raise ValueError(f"unknown golden spec {spec!r}")
    if kind == "dtype":
        return dtype_by_name(rest)
    if kind == "type":
        return PY_TYPES[rest]
    if kind == "py":
        return ast.literal_eval(rest)
    if kind == "str":
        return rest
    if kind in ("np", "np0d"):
        name, _, value = rest.partition(":")
        dt = dtype_by_name(name)
        literal = ast.literal_eval(value)
        return dt.type(literal) if kind == "np" else np.array(literal, dtype=dt)
    if kind == "arr":
        name = rest if x64 else TO_32.get(rest, rest)
        return make_array(dtype_by_name(name), weak_type=False)
    if kind == "weak":
        return make_array(dtype_by_name(rest), weak_type=True)
    raise ValueError(f"unknown golden spec {spec!r}")


def decode_args(args: list[str], *, x64: bool) -> list[Any]:
    return [decode(s, x64=x64) for s in args]


def load_golden() -> dict[str, Any] | None:
    """The parsed golden file, or None when it has not been generated yet."""
    if not GOLDEN_PATH.exists():
        return None
    data: dict[str, Any] = json.loads(GOLDEN_PATH.read_text(encoding="utf-8"))
    return data
