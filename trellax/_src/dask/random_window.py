"""One chunk's rows of a random draw, bit for bit the rows of the whole draw.

trellax's samplers use JAX's partitionable counter layout: element ``i`` (flat, C order) of a draw
of shape ``S`` under one key hashes the 64-bit counter ``i`` and nothing else. So rows
``r0:r1`` of the draw are the hashes of the counters ``r0 * row`` to ``r1 * row`` (``row`` the
size of one row), turned into floats by the same functions as the whole draw
(:func:`floats.floats_from_bits`, :func:`floats.scale_unit`, :func:`floats.erf_inv_values`).
The three sources are ``random_bits``, ``random_uniform`` with scalar bounds and
``random_normal``; every other sampler of ``tdask.random`` is one of them followed by
elementwise (or row-local) equations, which the chunk stage runs as usual.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from trellax._src.core.jaxpr import JaxprEqn
from trellax._src.random import floats, threefry
from trellax._src.random.normal import lower_bound

_U32 = np.uint32


def bits_window(key: np.ndarray[Any, Any], bit_width: int, start: int, stop: int) -> Any:
    """The raw bits of the flat elements ``start:stop`` of a draw under one key."""
    counters = np.arange(start, stop, dtype=np.uint64)
    lo = counters.astype(_U32)
    hi = None if stop <= 1 << 32 else (counters >> np.uint64(32)).astype(_U32)
    y0, y1 = threefry._hash_counters(np.asarray(key, _U32), hi, lo)
    if bit_width == 64:
        return (y0.astype(np.uint64) << np.uint64(32)) | y1
    y0 ^= y1
    return y0 if bit_width == 32 else y0.astype(np.dtype(f"uint{bit_width}"))


def is_window_source(eqn: JaxprEqn) -> bool:
    """Whether a random equation can be drawn row by row: one key, scalar bounds."""
    key, *rest = eqn.invars
    return key.aval.shape == (2,) and all(not a.aval.shape for a in rest)


def draw_rows(eqn: JaxprEqn, operands: list[Any], start: int, rows: int) -> Any:
    """Rows ``start:start + rows`` (of the leading axis) of the equation's whole draw."""
    name = eqn.primitive.name
    shape = tuple(eqn.params["shape"])
    row = math.prod(shape[1:])
    lo_i, hi_i = start * row, (start + rows) * row
    key = operands[0]
    out_shape = (rows, *shape[1:])
    if name == "random_bits":
        return bits_window(key, eqn.params["bit_width"], lo_i, hi_i).reshape(out_shape)
    d = np.dtype(eqn.params["dtype"])
    f = floats.floats_from_bits(bits_window(key, floats.draw_bits(d), lo_i, hi_i), d)
    if name == "random_uniform":
        _, minval, maxval = operands
        return floats.scale_unit(f, minval, maxval, d).reshape(out_shape)
    if name == "random_normal":
        u = floats.scale_unit(f, np.array(lower_bound(d)), np.array(1, d), d)
        value = np.multiply(np.array(math.sqrt(2), d), floats.erf_inv_values(u))
        return np.asarray(value, d).reshape(out_shape)
    raise NotImplementedError(f"trellax.dask: no row-by-row draw for {name}")
