"""``trellax.scipy.interpolate.RegularGridInterpolator``: linear or nearest-neighbour
interpolation on a rectilinear grid, as JAX's.

``points`` is one increasing 1-D array per grid axis (not checked, as in JAX), ``values`` has
those sizes as its leading axes (trailing axes are carried along) and is promoted to an inexact
dtype. A query point outside the grid gets ``fill_value`` (default NaN) or, with
``fill_value=None``, is extrapolated from the edge cell. ``method="nearest"`` picks the lower
neighbour on exact ties. ``bounds_error=True`` raises ``NotImplementedError`` (JAX cannot check
bounds under ``jit``). Query points are ``(..., ndim)`` arrays or a tuple of ``ndim`` arrays
(broadcast together); a 1-D array is one point (or, on a 1-D grid, a list of points). The
interpolator is a pytree whose leaves are the grid arrays, ``values`` and ``fill_value``.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Sequence
from typing import Any

import numpy as np

import trellax.numpy as jnp
from trellax._src.core.basearray import Array
from trellax._src.numpy.dtype_functions import can_cast
from trellax._src.numpy.util import check_arraylike, promote_args_inexact
from trellax._src.tree.registry import register_pytree_node

ArrayLike = Any
_METHODS = ("linear", "nearest")


def _check_method(method: str) -> None:
    if method not in _METHODS:
        raise ValueError(f"method {method!r} is not defined")


class RegularGridInterpolator:
    """Interpolate ``values`` given on the grid ``points`` at query points (see the module
    docstring)."""

    grid: tuple[Array, ...]
    values: Array
    method: str
    bounds_error: bool
    fill_value: Array | None

    def __init__(
        self,
        points: Sequence[ArrayLike],
        values: ArrayLike,
        method: str = "linear",
        bounds_error: bool = False,
        fill_value: ArrayLike | None = np.nan,
    ) -> None:
        _check_method(method)
        if bounds_error:
            raise NotImplementedError("`bounds_error` takes no effect under JIT")
        check_arraylike("RegularGridInterpolator", values)
        (v,) = promote_args_inexact("RegularGridInterpolator", values)
        if len(points) > v.ndim:
            raise ValueError(
                f"there are {len(points)} point arrays, but values has {v.ndim} dimensions"
            )
        fill: Array | None = None
        if fill_value is not None:
            check_arraylike("RegularGridInterpolator", fill_value)
            fill = jnp.asarray(fill_value)
            if not can_cast(fill.dtype, v.dtype, casting="same_kind"):
                raise ValueError(
                    "fill_value must be either 'None' or of a type compatible with values"
                )
        check_arraylike("RegularGridInterpolator", *points)
        grid = tuple(jnp.asarray(p) for p in points)
        for i, g in enumerate(grid):
            if g.ndim != 1:
                raise ValueError(f"the points in dimension {i} must be 1-dimensional")
        self.grid, self.values, self.method = grid, v, method
        self.bounds_error, self.fill_value = bounds_error, fill

    def __call__(self, xi: ArrayLike, method: str | None = None) -> Array:
        """The interpolated values at ``xi`` (shape ``xi.shape[:-1] + values.shape[ndim:]``)."""
        method = self.method if method is None else method
        _check_method(method)
        ndim = len(self.grid)
        if isinstance(xi, tuple):
            check_arraylike("RegularGridInterpolator", *xi)
            parts = jnp.broadcast_arrays(*(jnp.asarray(p) for p in xi))
            # as in JAX, a tuple of coordinates is gathered into an array of the default float
            x = jnp.stack(parts, axis=-1).astype(jnp.result_type(float))
        else:
            check_arraylike("RegularGridInterpolator", xi)
            x = jnp.asarray(xi)
            if x.ndim <= 1:
                x = x.reshape(-1, ndim)
        if x.shape[-1] != ndim:
            raise ValueError(
                f"the requested sample points xi have dimension {x.shape[-1]}, but this "
                f"RegularGridInterpolator has dimension {ndim}"
            )
        lead = x.shape[:-1]
        x = x.reshape(-1, ndim)
        indices, distances, outside = [], [], None
        for k, g in enumerate(self.grid):
            xk = x[:, k]
            i = jnp.clip(jnp.searchsorted(g, xk) - 1, 0, g.shape[0] - 2)
            indices.append(i)
            distances.append((xk - g[i]) / (g[i + 1] - g[i]))
            oob = (xk < g[0]) | (xk > g[-1])
            outside = oob if outside is None else outside | oob
        trailing = (1,) * (self.values.ndim - ndim)
        if method == "nearest":
            near = tuple(jnp.where(d <= 0.5, i, i + 1) for i, d in zip(indices, distances))
            result = self.values[near]
        else:
            result = self._linear(indices, distances, trailing)
        if self.fill_value is not None:
            assert outside is not None
            result = jnp.where(outside.reshape(-1, *trailing), self.fill_value, result)
        return result.reshape(*lead, *self.values.shape[ndim:])

    def _linear(
        self, indices: list[Array], distances: list[Array], trailing: tuple[int, ...]
    ) -> Array:
        """The weighted sum over the ``2**ndim`` corners of each query point's cell."""
        terms = []
        for corner in itertools.product((0, 1), repeat=len(indices)):
            factors = [d if upper else 1 - d for upper, d in zip(corner, distances)]
            weight = functools.reduce(jnp.multiply, factors)
            idx = tuple(i + u for i, u in zip(indices, corner))
            terms.append(self.values[idx] * weight.reshape(-1, *trailing))
        return functools.reduce(jnp.add, terms)


def _flatten(r: RegularGridInterpolator) -> tuple[tuple[Any, ...], tuple[str, bool]]:
    return (r.grid, r.values, r.fill_value), (r.method, r.bounds_error)


def _unflatten(aux: tuple[str, bool], children: Any) -> RegularGridInterpolator:
    r = object.__new__(RegularGridInterpolator)
    r.grid, r.values, r.fill_value = children
    r.method, r.bounds_error = aux
    return r


register_pytree_node(RegularGridInterpolator, _flatten, _unflatten)
