"""``trellax.dlpack``: exchanging arrays through DLPack (``jax.dlpack``)."""

from __future__ import annotations

from typing import Any

import numpy as np

from trellax._src.dtypes import dtypes
from trellax._src.numpy.creation import from_dlpack as from_dlpack

#: The dtypes DLPack carries (JAX 0.10.2's list: no 4-bit integers, no float8).
_SUPPORTED = frozenset(
    [
        *(np.dtype(f"int{b}") for b in (8, 16, 32, 64)),
        *(np.dtype(f"uint{b}") for b in (8, 16, 32, 64)),
        *(np.dtype(f"float{b}") for b in (16, 32, 64)),
        np.dtype("complex64"),
        np.dtype("complex128"),
        np.dtype("bool"),
        dtypes.bfloat16,
    ]
)


def is_supported_dtype(dtype: Any) -> bool:
    """Whether arrays of ``dtype`` can be exchanged through DLPack."""
    return np.dtype(getattr(dtype, "dtype", dtype)) in _SUPPORTED  # no x64 canonicalization


__all__ = ["from_dlpack", "is_supported_dtype"]
