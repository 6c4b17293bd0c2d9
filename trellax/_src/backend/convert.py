"""Element-type conversion with JAX's (XLA's) rules, computed by NumPy.

NumPy's float -> integer cast is undefined behaviour out of range (on x86, NaN, inf and 3e9 all
become ``-2**31`` in int32, and 128.0 becomes -128 in int8). JAX saturates instead:

* NaN becomes 0; values are truncated toward zero, then clamped to the target's range, so
  ``inf``/``3e9`` -> ``2**31 - 1`` in int32, ``128.0`` -> 127 in int8, ``-1.0`` -> 0 in uint8,
  ``9.0`` -> 7 in int4 (every integer width, int2/int4 included);
* a complex source loses its imaginary part first, to ``bool`` too (XLA's conversion: ``0+1j``
  is False; ``jnp.astype(bool)`` is the nonzero test instead, computed as ``x != 0``);
* integer -> integer conversion wraps (two's complement), as NumPy's cast does.

Values already in range take NumPy's cast directly (two reductions decide that).
"""

from __future__ import annotations

from typing import Any

import ml_dtypes
import numpy as np

__all__ = ["convert"]


def convert(x: np.ndarray[Any, Any], new_dtype: np.dtype[Any]) -> Any:
    """``x`` as ``new_dtype`` with JAX's conversion rules (see the module docstring)."""
    src = x.dtype
    if src.kind == "c" and new_dtype.kind != "c":
        x = x.real  # XLA's conversion drops the imaginary part first, to bool too (1j is False)
        src = x.dtype
    if new_dtype == np.bool_:
        return x if src == np.bool_ else x != 0
    if _is_float(src) and _is_int(new_dtype):
        return _float_to_int(x, new_dtype)
    if _is_int(src) and _is_int(new_dtype) and "V" in (src.kind, new_dtype.kind):
        # between ml_dtypes' int4/uint4/int2/uint2 (NumPy has no direct cast): through int64,
        # whose cast into the narrow type wraps
        return x.astype(np.int64).astype(new_dtype)
    return x.astype(new_dtype)


def _is_int(d: np.dtype[Any]) -> bool:
    return d.kind in "iu" or (d.kind == "V" and "int" in d.name)


def _is_float(d: np.dtype[Any]) -> bool:
    return d.kind == "f" or (d.kind == "V" and "float" in d.name)


def _bounds(d: np.dtype[Any]) -> tuple[int, int]:
    info = ml_dtypes.iinfo(d)  # type: ignore[no-untyped-call]
    return int(info.min), int(info.max)


def _float_to_int(x: np.ndarray[Any, Any], d: np.dtype[Any]) -> Any:
    lo, hi = _bounds(d)
    if x.size:
        # Fast path: every value in range (a NaN fails both comparisons).
        first, last = float(np.min(x)), float(np.max(x))
        if first > float(lo - 1) and last < float(hi + 1):
            return x.astype(d)
    wide = x.astype(np.float64)
    top = float(hi)
    exact_top = int(top) == hi  # 2**63 - 1 and 2**64 - 1 round up to a power of two
    if not exact_top:
        top = float(np.nextafter(top, 0.0))
    clipped = np.clip(wide, float(lo), top)
    clipped = np.where(np.isnan(clipped), 0.0, clipped)
    # NumPy's int types of the same signedness hold int2/int4 values; then the narrow cast.
    mid = np.dtype(np.int64) if lo < 0 else np.dtype(np.uint64)
    out = clipped.astype(mid)
    if not exact_top:
        out = np.where(wide >= float(hi), np.asarray(hi, mid), out)
    return out.astype(d)


def complex_sum_to_int(out: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """A complex ``dot_general`` sum into an integer type, as XLA's CPU code converts it (JAX
    0.10.2, observed): the real part truncated where it fits; NaN, an infinity or a value out
    of range gives the type's minimum for signed types (-2**31 for int32) and its maximum for
    unsigned ones (-1.0 into uint32 is 2**32 - 1), not the saturation of ``convert``."""
    real = np.trunc(out.real)
    info = np.iinfo(dtype)
    # the bounds as floats: the maximum rounds up to 2**bits, itself out of range
    with np.errstate(invalid="ignore"):
        fits = (real >= float(info.min)) & (real < float(info.max) + 1.0)
    bad = info.min if dtype.kind == "i" else info.max
    res: np.ndarray = np.where(fits, real, 0).astype(dtype)
    res[~fits] = bad
    return res
