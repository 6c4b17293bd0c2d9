"""``jax._src.earray``: the concrete array of a user-defined extended dtype.

trellax's is :class:`~trellax._src.backend.array.EArray` (an array whose buffer is the physical
array); ``EArray(aval, physical)`` builds one from an abstract value and a physical array, as
JAX's constructor does.
"""

from __future__ import annotations

from typing import Any

from trellax._src.backend.array import EArray as _EArray


class _EArrayMeta(type):
    def __instancecheck__(cls, obj: Any) -> bool:
        return isinstance(obj, _EArray)


class EArray(metaclass=_EArrayMeta):
    """``EArray(aval, physical)``: an array of ``aval.dtype`` stored as ``physical``."""

    def __new__(cls, aval: Any, physical: Any) -> Any:
        value = getattr(physical, "_value", physical)
        out = _EArray._from_physical(value, aval.dtype)
        if tuple(out.shape) != tuple(aval.shape):
            raise ValueError(
                f"a physical array of shape {tuple(value.shape)} stores an array of shape "
                f"{out.shape}, not {tuple(aval.shape)}"
            )
        return out
