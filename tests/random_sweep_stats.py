"""Bit-level comparison of two draws, shared by ``tools/gen_golden_random_sweep.py`` and
``tests/test_random_sweep.py``: SHA-256 of the bits and the distance in ulps."""

from __future__ import annotations

import hashlib
from typing import Any

import numpy as np

_WIDTH = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}


def bits_of(x: np.ndarray) -> np.ndarray:
    """The draw's bit patterns as unsigned integers of its width."""
    return np.ascontiguousarray(x).view(_WIDTH[x.dtype.itemsize]).reshape(-1)


def digest(x: np.ndarray) -> str:
    return hashlib.sha256(bits_of(x).tobytes()).hexdigest()[:16]


def _ordered(raw: np.ndarray, bits: int) -> Any:
    """Sign-magnitude float bit patterns mapped onto a monotone integer line (as Python ints
    in an object array for 64-bit patterns, to avoid overflow)."""
    r = raw.astype(object) if bits == 64 else raw.astype(np.int64)
    top = 1 << (bits - 1)
    return np.where(r >= top, top - r, r)


def distance(got: np.ndarray, want: np.ndarray) -> np.ndarray:
    """Elementwise distance: ulps of the dtype for floats (two NaNs are equal, a NaN against a
    number counts as 2**62), the difference of values for integers."""
    if got.dtype.kind in "iu":
        d: np.ndarray = np.abs(got.astype(np.int64) - want.astype(np.int64)).reshape(-1)
        return d
    bits = 8 * got.dtype.itemsize
    a = np.asarray(got, np.float64).reshape(-1)
    b = np.asarray(want, np.float64).reshape(-1)
    gap = np.abs(_ordered(bits_of(got), bits) - _ordered(bits_of(want), bits))
    gap = np.minimum(gap, 2**62).astype(np.int64)
    nan_a, nan_b = np.isnan(a), np.isnan(b)
    out: np.ndarray = np.where(nan_a & nan_b, 0, np.where(nan_a | nan_b, 2**62, gap))
    return out


def from_hex(values: list[str], dtype: np.dtype[Any]) -> np.ndarray:
    width = _WIDTH[dtype.itemsize]
    out: np.ndarray = np.array([int(h, 16) for h in values], width).view(dtype)
    return out


def check_kernel_independent(got: np.ndarray, want: dict[str, Any]) -> None:
    """On a host other than the golden file's, what does not depend on NumPy's SIMD kernels
    (exp, log, tan, pow, ...): the NaN and inf positions of the first values."""
    if "head" in want:
        head = from_hex(want["head"], got.dtype)
        first = got.reshape(-1)[: head.size]
        assert np.array_equal(np.isnan(first), np.isnan(head))
        assert np.array_equal(np.isinf(first), np.isinf(head))
