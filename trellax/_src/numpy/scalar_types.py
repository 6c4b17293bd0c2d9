"""``trellax.numpy.float32`` and friends: dtype objects that, called, make strong 0-d arrays.

``tnp.int16(1)`` is ``Array(1, dtype=int16)`` (not a NumPy scalar, so it follows trellax's rules),
``tnp.float32.dtype`` is the dtype, ``isinstance(np.float32(1), tnp.float32)`` is True, and, as in
JAX, ``tnp.float32 == np.float32`` with equal hashes.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from trellax._src.core.basearray import Array
from trellax._src.dtypes import dtypes
from trellax._src.numpy.creation import asarray


class _ScalarMeta(type):
    """The type of ``tnp.float32`` and friends: a dtype-like (it has ``.dtype``) that, called,
    makes a strong 0-d array (or converts an array, list or scalar to its dtype)."""

    dtype: np.dtype[Any]

    def __call__(cls, x: Any = 0) -> Array:
        return asarray(x, dtype=cls)

    def __instancecheck__(cls, instance: Any) -> bool:
        return isinstance(instance, cls.dtype.type)

    # As in JAX, the type compares and hashes as the NumPy scalar type it stands for, so
    # ``tnp.float32 == np.float32`` and ``{np.float32: v}[tnp.float32]`` work.
    def __eq__(cls, other: Any) -> bool:
        return cls is other or cls.dtype.type == other

    def __ne__(cls, other: Any) -> bool:
        return not cls == other

    def __hash__(cls) -> int:
        return hash(cls.dtype.type)

    def __repr__(cls) -> str:
        return f"<class 'trellax.numpy.{cls.__name__}'>"


def _scalar_type(name: str, dtype: np.dtype[Any]) -> _ScalarMeta:
    return _ScalarMeta(name, (), {"dtype": dtype, "__module__": "trellax.numpy"})


bool_ = _scalar_type("bool", dtypes.bool_)
int8 = _scalar_type("int8", dtypes.int8)
int16 = _scalar_type("int16", dtypes.int16)
int32 = _scalar_type("int32", dtypes.int32)
int64 = _scalar_type("int64", dtypes.int64)
uint8 = _scalar_type("uint8", dtypes.uint8)
uint16 = _scalar_type("uint16", dtypes.uint16)
uint32 = _scalar_type("uint32", dtypes.uint32)
uint64 = _scalar_type("uint64", dtypes.uint64)
bfloat16 = _scalar_type("bfloat16", dtypes.bfloat16)
float16 = _scalar_type("float16", dtypes.float16)
float32 = _scalar_type("float32", dtypes.float32)
float64 = _scalar_type("float64", dtypes.float64)
complex64 = _scalar_type("complex64", dtypes.complex64)
complex128 = _scalar_type("complex128", dtypes.complex128)

LOW_PRECISION: dict[str, _ScalarMeta] = {
    name: _scalar_type(name, d) for name, d in {**dtypes.LOW_INTS, **dtypes.SMALL_FLOATS}.items()
}

# As in JAX, these name the 64-bit types even with x64 off (using them as dtype= warns then).
float_ = float64
int_ = int64
uint = uint64
complex_ = complex128
