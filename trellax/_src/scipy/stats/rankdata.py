"""``stats.rankdata``: ranks of the data, with ties resolved as SciPy's ``method`` says."""

from __future__ import annotations

import math

import trellax.numpy as jnp
from trellax._src.core.basearray import Array
from trellax._src.dtypes import dtypes
from trellax._src.numpy.reductions import canonicalize_axis
from trellax._src.numpy.util import check_arraylike
from trellax._src.scipy.stats._runs import run_bounds
from trellax._src.scipy.stats._util import ArrayLike
from trellax._src.scipy.stats.mode import check_nan_policy

_METHODS = ("average", "min", "max", "dense", "ordinal")


def _ranks(x: Array, method: str) -> Array:
    """Ranks along the last axis (``n >= 1`` entries) in the default float dtype."""
    out = dtypes.default_float_dtype()
    order = jnp.argsort(x, axis=-1, stable=True)
    inverse = jnp.argsort(order, axis=-1, stable=True)
    if method == "ordinal":
        return (inverse + 1).astype(out)
    s = jnp.take_along_axis(x, order, axis=-1)
    start, end = run_bounds(s)
    if method == "dense":
        run_starts = start == jnp.arange(s.shape[-1])
        per_sorted = jnp.cumsum(run_starts, axis=-1).astype(out)
    elif method == "min":
        per_sorted = (start + 1).astype(out)
    elif method == "max":
        per_sorted = (end + 1).astype(out)
    else:
        per_sorted = 0.5 * ((start + 1).astype(out) + (end + 1).astype(out))
    return jnp.take_along_axis(per_sorted, inverse, axis=-1)


def rankdata(
    a: ArrayLike,
    method: str = "average",
    *,
    axis: int | None = None,
    nan_policy: str = "propagate",
) -> Array:
    """Ranks from 1 of ``a``'s values (flattened, or along ``axis``), in the default float
    dtype. Ties get the mean (``'average'``), lowest (``'min'``) or highest (``'max'``) rank of
    their run, consecutive ranks (``'dense'``) or their order of appearance (``'ordinal'``).
    A slice containing a NaN ranks as all NaN."""
    check_arraylike("rankdata", a)
    check_nan_policy("rankdata", nan_policy)
    if method not in _METHODS:
        raise ValueError(f"unknown method '{method}'")
    x = jnp.asarray(a)
    if axis is None:
        x, axis = jnp.ravel(x), 0
    else:
        axis = canonicalize_axis(axis, x.ndim)
    x = jnp.moveaxis(x, axis, -1)
    if x.shape[-1] == 0:
        ranks = jnp.zeros(x.shape, dtype=dtypes.default_float_dtype())
    else:
        ranks = _ranks(x, method)
        has_nan = jnp.any(jnp.isnan(x), axis=-1, keepdims=True)
        ranks = jnp.where(has_nan, math.nan, ranks)
    return jnp.moveaxis(ranks, -1, axis)
