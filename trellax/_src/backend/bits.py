"""NumPy impl of ``reduce_precision``: XLA's rounding of a float to fewer exponent and mantissa
bits, on the bit pattern of the operand's own format.

The mantissa is rounded to nearest, ties to even, by adding a bias to the integer pattern and
masking (a carry may move into the exponent, up to infinity); then exponents above the reduced
format's range become infinity and exponents at or below its smallest normal exponent become
(signed) zero: the reduced format has no subnormals, as in XLA. NaNs pass through unchanged,
except that bfloat16 NaNs become the quiet NaN of their sign when bits are removed (XLA computes
bfloat16 in float32 unless the operation is a no-op on float32).
Formats other than float16, bfloat16, float32 and float64 (the float8 family) are computed in
float32 and converted back.
"""

from __future__ import annotations

from typing import Any

import ml_dtypes
import numpy as np

_UINT = {2: np.uint16, 4: np.uint32, 8: np.uint64}
_NATIVE = {np.dtype(np.float16), np.dtype(ml_dtypes.bfloat16), np.dtype(np.float32)}
_NATIVE.add(np.dtype(np.float64))
_BF16 = np.dtype(ml_dtypes.bfloat16)


def _round_bits(x: np.ndarray[Any, Any], exponent_bits: int, mantissa_bits: int) -> Any:
    nbits = x.dtype.itemsize * 8
    src_mantissa = int(ml_dtypes.finfo(x.dtype).nmant)  # type: ignore[no-untyped-call]
    src_exponent = nbits - 1 - src_mantissa
    u = _UINT[x.dtype.itemsize]
    bits = np.ascontiguousarray(x).view(u).copy()
    if mantissa_bits < src_mantissa:
        shift = src_mantissa - mantissa_bits
        last_bit = u(1) << u(shift)
        base_bias = (last_bit >> u(1)) - u(1)
        bias = ((bits & last_bit) >> u(shift)) + base_bias
        bits = (bits + bias) & ~(last_bit - u(1))
    if exponent_bits < src_exponent:
        exp_mask = u(((1 << src_exponent) - 1) << src_mantissa)
        sign_mask = u(1 << (nbits - 1))
        bias_src = (1 << (src_exponent - 1)) - 1
        bias_new = (1 << (exponent_bits - 1)) - 1
        exponent = bits & exp_mask
        overflow = exponent > u((bias_src + bias_new) << src_mantissa)
        underflow = exponent <= u((bias_src - bias_new) << src_mantissa)
        signed_zero = bits & sign_mask
        bits = np.where(overflow, signed_zero | exp_mask, np.where(underflow, signed_zero, bits))
    out = np.asarray(bits, dtype=u).view(x.dtype).reshape(x.shape)
    return np.where(np.isnan(x), x, out)


def reduce_precision(x: Any, *, exponent_bits: int, mantissa_bits: int) -> Any:
    a = np.asarray(x)
    if a.dtype == _BF16 and (exponent_bits < 8 or mantissa_bits < 23):
        # XLA rounds bfloat16 in float32 (unless that is a no-op there): its NaNs come back as the
        # quiet NaN of their sign
        out = _round_bits(a, exponent_bits, mantissa_bits)
        bits = np.asarray(out).view(np.uint16)
        quiet = (bits & np.uint16(0x8000)) | np.uint16(0x7FC0)
        return np.where(np.isnan(a), quiet, bits).view(_BF16).reshape(a.shape)
    if a.dtype in _NATIVE:
        return _round_bits(a, exponent_bits, mantissa_bits)
    wide = _round_bits(a.astype(np.float32), exponent_bits, mantissa_bits)
    return wide.astype(a.dtype)
