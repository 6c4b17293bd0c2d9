"""Golden arrays stored as hex bit patterns (the division goldens' records), and the comparison
that goes with them: bits, with any NaN matching any NaN (a NaN's payload is not JAX's contract)."""

from __future__ import annotations

from typing import Any

import ml_dtypes
import numpy as np

#: the unsigned integer viewing an element of each itemsize (a complex128 is two uint64)
UINT = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64, 16: np.uint64}


def decode(rec: dict[str, Any]) -> np.ndarray:
    """The array of a record ``{"dtype", "hex", "shape"}``."""
    dtype = np.dtype(getattr(ml_dtypes, rec["dtype"], rec["dtype"]))
    raw = np.frombuffer(bytes.fromhex(rec["hex"]), UINT[dtype.itemsize])
    return raw.view(dtype).reshape(rec["shape"])


def bits_differ(got: Any, want: np.ndarray) -> np.ndarray:
    """Where ``got``'s bits differ from ``want``'s (each part of a complex value on its own);
    dtype and shape must be the same."""
    got = np.asarray(got)
    assert got.dtype == want.dtype and got.shape == want.shape, (got.dtype, got.shape)
    if want.dtype.kind == "c":
        return bits_differ(got.real, want.real) | bits_differ(got.imag, want.imag)
    nan = np.isnan(got.astype(np.float64)) & np.isnan(want.astype(np.float64))
    view = UINT[want.dtype.itemsize]
    return ~((got.view(view) == want.view(view)) | nan)


def same_bits(got: Any, want: np.ndarray) -> bool:
    """Whether ``got`` has ``want``'s dtype, shape and bits."""
    got = np.asarray(got)
    if got.dtype != want.dtype or got.shape != want.shape:
        return False
    return not bits_differ(got, want).any()
