"""``trellax.scipy.ndimage.map_coordinates``: the values of an array at fractional coordinates,
by nearest-neighbour (``order=0``) or linear (``order=1``) interpolation, as in JAX.

For each axis the coordinate ``c`` selects the neighbours ``floor(c)`` and ``floor(c) + 1`` with
weights ``1 - frac`` and ``frac`` (order 1) or the single index ``c`` rounded half away from zero
(order 0). Indices outside ``[0, n)`` are mapped by ``mode``: ``"constant"`` (that neighbour
contributes ``cval``), ``"nearest"`` (clamped), ``"wrap"`` (modulo ``n``), ``"mirror"``
(reflected about the end samples, period ``2n - 2``) and ``"reflect"`` (reflected about the
edges, period ``2n``). The result has the input's dtype (integer results are rounded half away
from zero, bool results are nonzero tests) and the broadcast shape of the coordinates; it is
never weakly typed. It is a gather
plus elementwise arithmetic, so it differentiates with respect to both the input and the
coordinates and traces under ``jit``. ``cval`` is a Python scalar (JAX treats it as static).
"""

from __future__ import annotations

import itertools
import operator
from collections.abc import Sequence
from typing import Any

import numpy as np

import trellax.numpy as jnp
from trellax import lax
from trellax._src.core.basearray import Array
from trellax._src.dtypes import dtypes
from trellax._src.lax.structural import _convert

ArrayLike = Any
_MODES = ("constant", "wrap", "reflect", "mirror", "nearest")


def _map_index(i: Array, n: int, mode: str) -> tuple[Array, Array | None]:
    """The in-range index for ``i`` under ``mode``, and (constant mode) where ``i`` was valid."""
    if mode == "constant":
        valid = (i >= 0) & (i < n)
        return jnp.clip(i, 0, n - 1), valid
    if mode == "nearest":
        return jnp.clip(i, 0, n - 1), None
    if mode == "wrap":
        return jnp.remainder(i, n), None
    if mode == "mirror":
        if n == 1:
            return jnp.zeros_like(i), None
        return _triangle(i, n), None
    # reflect: the mirror of the half-step grid 2i + 1 (int32 arithmetic that wraps, as JAX's,
    # so a saturated infinite coordinate lands where JAX's does)
    return jnp.floor_divide(_triangle(2 * i + 1, 2 * n + 1) - 1, 2), None


def _triangle(i: Array, n: int) -> Array:
    """``i`` folded into ``[0, n - 1]`` by the triangular wave of period ``2n - 2``."""
    half = n - 1
    return jnp.abs(jnp.remainder(i + half, 2 * half) - half)


def _round_half_away(x: Array) -> Array:
    return lax.round(x, lax.RoundingMethod.AWAY_FROM_ZERO)


def map_coordinates(
    input: ArrayLike,
    coordinates: Sequence[ArrayLike],
    order: int,
    mode: str = "constant",
    cval: ArrayLike = 0.0,
) -> Array:
    """``input`` interpolated at ``coordinates`` (one array per axis of ``input``)."""
    x = jnp.asarray(input)
    coords = [jnp.asarray(c) for c in coordinates]
    if len(coords) != x.ndim:
        raise ValueError(
            f"coordinates must be a sequence of length input.ndim, but {len(coords)} != {x.ndim}"
        )
    if x.ndim == 0:
        raise TypeError("map_coordinates needs an input with at least one axis")
    if isinstance(order, (Array, np.ndarray)):
        raise ValueError("map_coordinates: order must be a Python int (a static argument)")
    order = operator.index(int(order))
    if order > 1 or order < 0:
        raise NotImplementedError("jax.scipy.ndimage.map_coordinates currently requires order<=1")
    if mode not in _MODES:
        raise NotImplementedError(
            f"jax.scipy.ndimage.map_coordinates does not yet support mode {mode}. "
            f"Currently supported modes are {set(_MODES)}."
        )
    if isinstance(cval, (Array, np.ndarray)):
        raise ValueError("map_coordinates: cval must be a Python scalar (a static argument)")
    if any(dtypes.kind(c.dtype) == "c" for c in coords):
        raise TypeError("map_coordinates: coordinates must be real")
    _check_range(cval, x.dtype)
    cval_value = float(cval)
    shape = np.broadcast_shapes(*(c.shape for c in coords))
    coords = [jnp.broadcast_to(c, shape) for c in coords]
    # per axis: [(index, weight or None), ...]
    axes: list[list[tuple[Array, Array | None]]] = []
    for c in coords:
        if dtypes.kind(c.dtype) in "iub":
            c = c.astype(jnp.result_type(float))
        if order == 0:
            axes.append([(_round_half_away(c).astype(jnp.int32), None)])
        else:
            lower = jnp.floor(c)
            upper_weight = c - lower
            lower_i = lower.astype(jnp.int32)
            axes.append([(lower_i, 1 - upper_weight), (lower_i + 1, upper_weight)])
    compute = x if dtypes.kind(x.dtype) in "fc" else x.astype(jnp.result_type(float))
    total: Array | None = None
    for corner in itertools.product(*axes):
        idx, valid = [], None
        for (i, _), n in zip(corner, x.shape):
            j, ok = _map_index(i, n, mode)
            idx.append(j)
            valid = ok if valid is None else (valid if ok is None else valid & ok)
        value = compute[tuple(idx)]
        if valid is not None:
            value = jnp.where(valid, value, jnp.asarray(cval_value, compute.dtype))
        for _, w in corner:
            if w is not None:
                value = value * w.astype(compute.dtype)
        total = value if total is None else total + value
    assert total is not None
    if dtypes.kind(x.dtype) in "iu":
        total = _round_half_away(total)
    return _convert(total, x.dtype, False)  # a bool result is the nonzero test, as in JAX


def _check_range(cval: Any, dtype: Any) -> None:
    if isinstance(cval, int) and not isinstance(cval, bool) and dtypes.kind(dtype) in "iu":
        info = np.iinfo(dtype)
        if not info.min <= cval <= info.max:
            raise OverflowError(f"Python integer {cval} out of bounds for {dtype}")
