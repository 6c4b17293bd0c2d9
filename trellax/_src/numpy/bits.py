"""``packbits`` and ``unpackbits``: bools (nonzero values) to the bits of uint8 values and back;
``bitwise_count``: the 1 bits of each value."""

from __future__ import annotations

from typing import Any

import numpy as np

from trellax._src.core import core
from trellax._src.core.basearray import Array
from trellax._src.dtypes import dtypes
from trellax._src.lax import elementwise as lax
from trellax._src.lax.structural import _convert
from trellax._src.numpy import reductions, shapes, ufuncs
from trellax._src.numpy.creation import asarray
from trellax._src.numpy.padding import pad
from trellax._src.numpy.static_args import int_axis
from trellax._src.numpy.util import check_arraylike, ensure_array, promote_args_numeric

ArrayLike = Any


def _shifts(bitorder: str) -> Array:
    if bitorder == "big":
        return asarray(np.arange(7, -1, -1, dtype=np.uint8))
    if bitorder == "little":
        return asarray(np.arange(8, dtype=np.uint8))
    raise ValueError("'order' must be either 'little' or 'big'")


def _bit_axis(fun_name: str, axis: Any) -> int:
    """The axis of :func:`packbits`/:func:`unpackbits`. JAX indexes a NumPy array of the shape
    with it: a one-element sequence is that axis; any other non-integer is its IndexError."""
    if isinstance(axis, (tuple, list)) and len(axis) == 1:
        axis = axis[0]
    return int_axis(fun_name, axis, error=IndexError)


def packbits(a: ArrayLike, axis: int | None = None, bitorder: str = "big") -> Array:
    """Groups of 8 truth values along ``axis`` (flattened for None) packed into uint8 values,
    zero-padded at the end."""
    check_arraylike("packbits", a)
    x = ensure_array("packbits", a)
    if dtypes.kind(x.dtype) not in "biu":
        raise TypeError("Expected an input array of integer or boolean data type")
    shifts = _shifts(bitorder)
    if axis is None:
        x, axis = shapes.ravel(x), 0
    axis = _bit_axis("packbits", axis)
    bits = ufuncs.not_equal(x, 0).astype(dtypes.uint8)
    bits = shapes.moveaxis(bits, axis, -1)
    remainder = bits.shape[-1] % 8
    if remainder:
        bits = pad(bits, [(0, 0)] * (bits.ndim - 1) + [(0, 8 - remainder)])
    bits = shapes.reshape(bits, (*bits.shape[:-1], bits.shape[-1] // 8, 8))
    shifts = shapes.reshape(shifts, (1,) * (bits.ndim - 1) + (8,))  # no rank promotion
    packed = reductions.sum(ufuncs.left_shift(bits, shifts), axis=-1, dtype=dtypes.uint8)
    return shapes.moveaxis(packed, -1, axis)


def unpackbits(
    a: ArrayLike, axis: int | None = None, count: int | None = None, bitorder: str = "big"
) -> Array:
    """The bits of uint8 values along ``axis`` (flattened for None), as uint8 0s and 1s; ``count``
    keeps that many (padding with zeros), a negative one drops bits from the end."""
    check_arraylike("unpackbits", a)
    x = ensure_array("unpackbits", a)
    if x.dtype != dtypes.uint8:
        raise TypeError("Expected an input array of unsigned byte data type")
    shifts = _shifts(bitorder)
    if axis is None:
        x, axis = shapes.ravel(x), 0
    axis = _bit_axis("unpackbits", axis)
    moved = shapes.moveaxis(x, axis, -1)
    shifts = shapes.reshape(shifts, (1,) * moved.ndim + (8,))  # no rank promotion
    bits = ufuncs.bitwise_and(ufuncs.right_shift(moved[..., None], shifts), 1)
    bits = shapes.reshape(bits, (*bits.shape[:-2], bits.shape[-2] * 8))
    if count is not None:
        n = bits.shape[-1]
        keep = count if count >= 0 else max(n + count, 0)
        if keep > n:
            bits = pad(bits, [(0, 0)] * (bits.ndim - 1) + [(0, keep - n)])
        else:
            bits = bits[..., :keep]
    return shapes.moveaxis(bits, -1, axis)


def bitwise_count(x: ArrayLike, /) -> Array:
    """The number of 1 bits in ``|x|``, as uint8 (never weak: JAX ends with ``astype``); bool
    input counts as int32."""
    (a,) = promote_args_numeric("bitwise_count", x)
    k = dtypes.kind(a.dtype)
    if k not in ("i", "u"):  # JAX's jitted function checks the dtype before any rule
        lax.population_count_p.abstract_eval(core.get_aval(a))
    counted = lax.population_count(lax.abs(a) if k == "i" else a)
    return _convert(counted, dtypes.uint8, False)
