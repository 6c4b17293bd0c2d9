"""``jax._src.random.core``: private helpers of JAX's samplers that tests import.

``_check_broadcast_shapes`` is the shape check of every sampler (``trellax.random``'s own);
``_safe_int_to_float`` turns 64 random bits, given as ``uint32[2, ...]`` (high word first), into
the float32 below ``bits / 2**64`` with 24 significant bits, exactly (no rounding up to 1).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from trellax import numpy as tnp
from trellax._src.core.basearray import Array
from trellax._src.random.fixed_point import safe_int_to_float
from trellax._src.random.util import resolve_shape


def _check_broadcast_shapes(name: str, shape: Any, *args: Any) -> tuple[int, ...]:
    """``shape``, checked against the parameters' shapes; ``None`` means their broadcast."""
    return resolve_shape(name, shape, *args)


def _safe_int_to_float(bits: Any, dtype: Any) -> Array:
    """float32 values in [0, 1) from 64-bit integers split in two uint32 words (``bits[0]``
    high, ``bits[1]`` low): the value times 2**-64, its lower bits truncated to float32's 24."""
    bits = tnp.asarray(bits)
    if bits.dtype != np.uint32 or np.dtype(dtype) != np.float32:
        raise RuntimeError("_safe_int_to_float only works for u32 -> f32")
    return safe_int_to_float(bits)
