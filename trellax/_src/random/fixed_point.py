"""Random floats from 64 random bits read as a fixed-point fraction: ``gumbel(mode="highest")``.

Drawing ``u`` from 32 bits bounds how far into the tails ``-log(-log(u))`` reaches; with 64 bits
per sample, read as ``u = bits / 2**64`` and converted to float32 by truncation (24 significant
bits from the leading one, so tiny values keep full relative precision and nothing rounds up to
1), the tails reach much further. JAX does this for float32 in ``gumbel(..., mode="highest")``
(other float dtypes use the "high" scheme); the same bits give the same samples here.
"""

from __future__ import annotations

from typing import Any

import numpy as np

import trellax.numpy as tnp
from trellax import lax
from trellax._src.core.basearray import Array
from trellax._src.random.logs import random_log1p_p, random_log_p
from trellax._src.random.primitives import random_bits_p

_U32 = np.uint32
_ALL_ONES = _U32(0xFFFFFFFF)


def safe_int_to_float(bits: Any) -> Array:
    """float32 values of 64-bit fractions given as ``uint32[2, ...]`` (high word first): the
    value times 2**-64, truncated to float32's 24 significant bits (a zero input is not
    handled: its result is not 0)."""
    hi, lo = bits[0], bits[1]
    hi_zeros, lo_zeros = lax.clz(hi), lax.clz(lo)
    high_empty = hi_zeros == _U32(32)
    # the 32 bits that start at the leading one (a shift by 32 gives 0)
    top = tnp.where(
        high_empty,
        lax.shift_left(lo, lo_zeros),
        lax.bitwise_or(
            lax.shift_left(hi, hi_zeros), lax.shift_right_logical(lo, _U32(32) - hi_zeros)
        ),
    )
    leading = tnp.where(high_empty, _U32(32) + lo_zeros, hi_zeros)
    fraction = lax.bitwise_and(lax.shift_right_logical(top, _U32(8)), _U32((1 << 23) - 1))
    # the leading one weighs 2**-(leading + 1): biased exponent 127 - (leading + 1)
    exponent = lax.shift_left(_U32(126) - leading, _U32(23))
    return lax.bitcast_convert_type(lax.bitwise_or(exponent, fraction), np.float32)


def gumbel_highest_float32(data: Array, shape: tuple[int, ...]) -> Array:
    """float32 Gumbel samples from 64 bits each: ``u`` below one half is converted as is and
    mapped with ``log1p(-u)``; above, ``1 - u`` (exact in 64-bit fixed point) is converted and
    mapped with ``log``, so both tails keep their precision."""
    words = random_bits_p.bind(data, bit_width=32, shape=(2, *shape))
    hi, lo = words[0], words[1]
    # 2**64 - u in 64-bit fixed point: complement both words, add one with the carry
    comp_lo = lax.bitwise_not(lo)
    comp_hi = lax.bitwise_not(hi)
    carry = lax.convert_element_type(comp_lo == _ALL_ONES, np.uint32)
    neg_hi, neg_lo = comp_hi + carry, comp_lo + _U32(1)
    low_half = hi < _U32(1 << 31)
    x = safe_int_to_float(
        tnp.stack([tnp.where(low_half, hi, neg_hi), tnp.where(low_half, lo, neg_lo)])
    )
    log, log1p = random_log_p.bind, random_log1p_p.bind  # XLA's float32 functions (logs.py)
    return tnp.where(low_half, -log(-log1p(-x)), -log(-log(x)))
