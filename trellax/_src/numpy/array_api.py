"""``trellax.numpy.__array_namespace_info__()``: the Array API's inspection utilities (2024.12).

Default dtypes and the dtype lists follow the x64 flag *at call time*: with x64 off the default
float is float32 and the 64-bit types are not offered (trellax would truncate them, with a
warning), as in JAX.

Capabilities differ from JAX's on purpose: trellax arrays are eager, so boolean-mask indexing and
functions with data-dependent output shapes (``nonzero``, ``unique_*`` without ``size=``) work
and are reported as supported; under ``jit`` they need ``size=`` (or raise), as in JAX.

>>> import trellax.numpy as tnp
>>> tnp.__array_namespace_info__().default_dtypes()["real floating"]
dtype('float32')
"""

from __future__ import annotations

from typing import Any

import numpy as np

from trellax._src.config import settings as _config
from trellax._src.dtypes import dtypes

DType = np.dtype[Any]

_KINDS: dict[str, tuple[str, ...]] = {
    "bool": ("bool",),
    "signed integer": ("int8", "int16", "int32", "int64"),
    "unsigned integer": ("uint8", "uint16", "uint32", "uint64"),
    "integral": ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"),
    "real floating": ("float32", "float64"),
    "complex floating": ("complex64", "complex128"),
}
_KINDS["numeric"] = _KINDS["integral"] + _KINDS["real floating"] + _KINDS["complex floating"]
_ALL = _KINDS["bool"] + _KINDS["numeric"]
_64BIT = frozenset({"int64", "uint64", "float64", "complex128"})


def _check_device(device: Any) -> None:
    if device not in (None, "cpu"):
        raise ValueError(f"trellax has a single device, 'cpu'; got {device!r}")


class ArrayNamespaceInfo:
    """What ``__array_namespace_info__()`` returns: capabilities, devices and dtypes."""

    __module__ = "trellax.numpy"

    def capabilities(self) -> dict[str, Any]:
        """``boolean indexing`` and ``data-dependent shapes`` (True: arrays are eager),
        ``max dimensions`` (64, NumPy's limit)."""
        return {"boolean indexing": True, "data-dependent shapes": True, "max dimensions": 64}

    def default_device(self) -> str:
        return "cpu"

    def devices(self) -> list[str]:
        return ["cpu"]

    def default_dtypes(self, *, device: Any = None) -> dict[str, DType]:
        """The default real, complex, integral and indexing dtypes (64-bit with x64 on)."""
        _check_device(device)
        return {
            "real floating": dtypes.default_float_dtype(),
            "complex floating": dtypes.default_complex_dtype(),
            "integral": dtypes.default_int_dtype(),
            "indexing": dtypes.default_int_dtype(),
        }

    def dtypes(
        self, *, device: Any = None, kind: str | tuple[str, ...] | None = None
    ) -> dict[str, DType]:
        """The Array API dtypes trellax offers, by name, optionally of one ``kind`` (or any of a
        tuple of kinds): "bool", "signed integer", "unsigned integer", "integral",
        "real floating", "complex floating", "numeric". 64-bit types need x64."""
        _check_device(device)
        if kind is None:
            names: tuple[str, ...] = _ALL
        else:
            kinds = (kind,) if isinstance(kind, str) else tuple(kind)
            picked: list[str] = []
            for k in kinds:
                if k not in _KINDS:
                    raise ValueError(
                        f"unsupported dtype kind {k!r}; expected one of {sorted(_KINDS)}"
                    )
                picked.extend(n for n in _KINDS[k] if n not in picked)
            names = tuple(n for n in _ALL if n in picked)
        x64 = _config.state().x64
        return {n: dtypes.dtype_from_name(n) for n in names if x64 or n not in _64BIT}

    def __repr__(self) -> str:
        return "trellax.numpy.__array_namespace_info__()"


_INFO = ArrayNamespaceInfo()


def __array_namespace_info__() -> ArrayNamespaceInfo:
    """The Array API inspection namespace of ``trellax.numpy``."""
    return _INFO
