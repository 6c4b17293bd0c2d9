"""``jax._src.literals``: JAX's typed Python scalars (``TypedInt``, ``TypedFloat``,
``TypedComplex``) and host arrays (``TypedNdArray``), which carry a dtype that is never
canonicalized, whatever the x64 setting. JAX makes them while tracing; programs and tests that
build them get these, which ``jax._src.dtypes.dtype`` and ``canonicalize_value`` (the stand-ins
beside this module) read as JAX does: by their own dtype.
"""

from __future__ import annotations

from typing import Any

import numpy as np


class TypedInt(int):
    """A Python int with a dtype (weakly typed)."""

    dtype: np.dtype[Any]

    def __new__(cls, value: int, dtype: Any) -> TypedInt:
        v = super().__new__(cls, value)
        v.dtype = np.dtype(dtype)
        return v

    def __repr__(self) -> str:
        return f"TypedInt({int(self)}, dtype={self.dtype.name})"

    def __getnewargs__(self) -> tuple[int, np.dtype[Any]]:  # type: ignore[override]
        return (int(self), self.dtype)


class TypedFloat(float):
    """A Python float with a dtype (weakly typed)."""

    dtype: np.dtype[Any]

    def __new__(cls, value: float, dtype: Any) -> TypedFloat:
        v = super().__new__(cls, value)
        v.dtype = np.dtype(dtype)
        return v

    def __repr__(self) -> str:
        return f"TypedFloat({float(self)}, dtype={self.dtype.name})"

    def __str__(self) -> str:
        return str(float(self))

    def __getnewargs__(self) -> tuple[float, np.dtype[Any]]:  # type: ignore[override]
        return (float(self), self.dtype)


class TypedComplex(complex):
    """A Python complex with a dtype (weakly typed)."""

    dtype: np.dtype[Any]

    def __new__(cls, value: complex, dtype: Any) -> TypedComplex:
        v = super().__new__(cls, value)
        v.dtype = np.dtype(dtype)
        return v

    def __repr__(self) -> str:
        return f"TypedComplex({complex(self)}, dtype={self.dtype.name})"

    def __getnewargs__(self) -> tuple[complex, np.dtype[Any]]:
        return (complex(self), self.dtype)


typed_scalar_types: set[type] = {TypedInt, TypedFloat, TypedComplex}


class TypedNdArray(np.ndarray):
    """A host NumPy array whose dtype is never canonicalized; weakly typed when the abstract
    value given (``aval``) is."""

    weak_type: bool

    def __new__(cls, val: Any, aval: Any = None) -> TypedNdArray:
        obj = np.asarray(val).view(cls)
        obj.weak_type = bool(getattr(aval, "weak_type", False))
        return obj

    def __array_finalize__(self, obj: Any) -> None:
        self.weak_type = bool(getattr(obj, "weak_type", False))
