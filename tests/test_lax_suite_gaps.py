"""``lax`` behaviour JAX's ``lax_test`` checks that trellax got wrong (branch ``jt15``).

``bitcast_convert_type``'s argument check counted bytes, so a 4-bit type (stored by NumPy in a
byte) widening to 16 bits wanted a trailing axis of 2 where JAX (and the primitive itself) take
4 nibbles: ``int4[4] -> float16`` raised ``ValueError``.
"""

from __future__ import annotations

import numpy as np
import pytest

import trellax
import trellax.numpy as tnp
from trellax import lax


def test_bitcast_int4_to_16_bits_takes_four_nibbles() -> None:
    x = tnp.array([1, 2, 3, 4], tnp.int4)
    assert int(lax.bitcast_convert_type(x, tnp.int16)) == 0x4321
    assert lax.bitcast_convert_type(x, tnp.float16).dtype == tnp.float16
    assert float(lax.bitcast_convert_type(x, tnp.float16)) == float(
        np.int16(0x4321).view(np.float16)
    )
    jitted = trellax.jit(lambda v: lax.bitcast_convert_type(v, tnp.int16))(x)
    assert int(jitted) == 0x4321
    with pytest.raises(ValueError, match="4 elements"):
        lax.bitcast_convert_type(tnp.array([1, 2], tnp.int4), tnp.int16)
    # whole bytes as before
    assert int(lax.bitcast_convert_type(tnp.array([1, 2], tnp.int8), tnp.int16)) == 513
