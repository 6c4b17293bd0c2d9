"""``trellax.scipy.signal.detrend``: remove the mean (``type="constant"``) or the
least-squares line, piecewise between breakpoints ``bp`` (``type="linear"``), along an axis.

As in JAX: inputs are promoted to an inexact dtype; float16/bfloat16 linear detrending is refused
(JAX's least-squares solver has no half-precision kernel); a linear detrend of a weakly typed
array stays weak, a constant one does not. Each linear piece is fitted in closed form (centred
sample positions), the same line as SciPy's least-squares fit.
"""

from __future__ import annotations

import itertools
import operator
from collections.abc import Sequence
from typing import Any

import numpy as np

import trellax.numpy as jnp
from trellax._src.core.basearray import Array
from trellax._src.dtypes import dtypes
from trellax._src.lax.structural import _convert
from trellax._src.numpy.util import promote_args_inexact

ArrayLike = Any


def _linear_piece(y: Array) -> Array:
    """``y`` minus its least-squares line along the last axis."""
    n = y.shape[-1]
    if n < 2:
        return y - y
    t = np.arange(n, dtype=np.float64) - (n - 1) / 2.0
    lead = (1,) * (y.ndim - 1)  # explicit ranks: no rank promotion (JAX's "raise" mode)
    real = dtypes.finfo(y.dtype).dtype
    tc = jnp.asarray((t / float(np.sum(t * t))).reshape((*lead, n)), dtype=real)
    mean = jnp.mean(y, axis=-1, keepdims=True)
    slope = jnp.sum((y - mean) * tc, axis=-1, keepdims=True)
    return y - mean - slope * jnp.asarray(t.reshape((*lead, n)), dtype=real)


def detrend(
    data: ArrayLike,
    axis: int = -1,
    type: str = "linear",
    bp: int | Sequence[int] | np.ndarray[Any, Any] = 0,
    overwrite_data: None = None,
) -> Array:
    """``data`` with its trend along ``axis`` removed (see the module docstring)."""
    if overwrite_data is not None:
        raise NotImplementedError("overwrite_data argument not implemented.")
    if type not in ("constant", "linear"):
        raise ValueError("Trend type must be 'linear' or 'constant'.")
    x = data if isinstance(data, Array) else jnp.asarray(data)
    weak_type = x.weak_type
    (x,) = promote_args_inexact("detrend", x)
    if x.ndim == 0:
        raise IndexError(f"detrend: axis {axis} is out of range for a 0-d array")
    if type == "constant":
        return _convert(x - jnp.mean(x, axis=axis, keepdims=True), x.dtype, False)
    if x.dtype in (dtypes.float16, dtypes.bfloat16):
        raise NotImplementedError(f"Unsupported dtype {x.dtype}.")
    moved = jnp.moveaxis(x, axis, -1)
    n = moved.shape[-1]
    points = np.unique(np.r_[0, np.asarray(bp, dtype=np.int64).ravel(), n])
    if np.any(points > n) or np.any(points < 0):
        raise ValueError(
            "Breakpoints must be non-negative and less than length of data along given axis."
        )
    pieces = [
        _linear_piece(moved[..., operator.index(lo) : operator.index(hi)])
        for lo, hi in itertools.pairwise(points)
    ]
    out = jnp.moveaxis(jnp.concatenate(pieces, axis=-1), -1, axis)
    return _convert(out, out.dtype, weak_type)
