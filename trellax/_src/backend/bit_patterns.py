"""Bit patterns of NumPy arrays, the sub-byte types (int4, uint4, int2, uint2, float4) included:
``bitcast_convert_type`` between any two widths, and the right shifts of the narrow integers at
their own width (NumPy stores them in a byte, so its shifts would act on 8 bits)."""

from __future__ import annotations

from typing import Any

import ml_dtypes
import numpy as np

from trellax._src.backend.float_facts import is_custom as _is_custom


def _is_int(d: np.dtype) -> bool:
    return d.kind in "iu" or (d.kind == "V" and "int" in d.name)


def bitcast_convert_type(x: np.ndarray, *, new_dtype: np.dtype) -> Any:
    old, new = _bit_width(x.dtype), _bit_width(new_dtype)
    if old % 8 == 0 and new % 8 == 0:  # whole bytes: NumPy's view
        if old == new:
            return x.view(new_dtype)
        if old > new:
            return np.ascontiguousarray(x).view(new_dtype).reshape((*x.shape, old // new))
        return np.ascontiguousarray(x).view(new_dtype).reshape(x.shape[:-1])
    # Sub-byte types (int4, int2, float4): through the bit patterns, least significant first.
    bits = _bit_pattern(x, old)
    if old == new:
        return _from_bit_pattern(bits, new_dtype, new)
    if old > new:
        shifts = np.arange(0, old, new, dtype=np.uint64)
        parts = (bits[..., None] >> shifts) & np.uint64((1 << new) - 1)
        return _from_bit_pattern(parts, new_dtype, new)
    shifts = np.arange(0, new, old, dtype=np.uint64)
    return _from_bit_pattern(np.bitwise_or.reduce(bits << shifts, axis=-1), new_dtype, new)


def _bit_width(d: np.dtype) -> int:
    if _is_custom(d) and d.itemsize == 1:
        info = ml_dtypes.iinfo(d) if _is_int(d) else ml_dtypes.finfo(d)  # type: ignore[no-untyped-call]
        return int(info.bits)
    return d.itemsize * 8


def _bit_pattern(x: np.ndarray, width: int) -> Any:
    """The ``width``-bit patterns of ``x`` as uint64."""
    if width % 8 == 0:
        return x.view(np.dtype(f"u{x.dtype.itemsize}")).astype(np.uint64)
    raw = x.astype(np.int64) if _is_int(x.dtype) else x.view(np.uint8)
    return raw.astype(np.uint64) & np.uint64((1 << width) - 1)


def _from_bit_pattern(bits: np.ndarray, d: np.dtype, width: int) -> Any:
    if width % 8 == 0:
        return bits.astype(np.dtype(f"u{d.itemsize}")).view(d)
    if not _is_int(d):
        return bits.astype(np.uint8).view(d)
    value = bits.astype(np.int64)
    if ml_dtypes.iinfo(d).min < 0:  # type: ignore[no-untyped-call]
        value = np.where(value >= 1 << (width - 1), value - (1 << width), value)
    return value.astype(d)


def narrow_shift_right_arithmetic(x: np.ndarray, y: np.ndarray) -> Any:
    """``x >> y`` of int4/uint4/int2/uint2 taking the sign from their own top bit; a count out
    of ``[0, width)`` shifts by ``width - 1``."""
    width = _bit_width(x.dtype)
    mask = (1 << width) - 1
    pattern = x.astype(np.int64) & mask
    value = np.where(pattern >> (width - 1) != 0, pattern - (1 << width), pattern)
    count = y.astype(np.int64)
    count = np.where((count < 0) | (count >= width), width - 1, count)
    return _from_bit_pattern(((value >> count) & mask).astype(np.uint64), x.dtype, width)


def narrow_shift_right_logical(x: np.ndarray, y: np.ndarray) -> Any:
    """``x >>> y`` of int4/uint4/int2/uint2 on their own width's bit pattern; a count out of
    ``[0, width)`` gives 0."""
    width = _bit_width(x.dtype)
    pattern = x.astype(np.int64) & ((1 << width) - 1)
    count = y.astype(np.int64)
    out = np.where((count < 0) | (count >= width), 0, pattern >> np.clip(count, 0, 63))
    return _from_bit_pattern(out.astype(np.uint64), x.dtype, width)
