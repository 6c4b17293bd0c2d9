"""Order statistics and weighted means: ``quantile``, ``percentile``, ``median``, ``average``.

Integer and bool input is promoted with ``to_inexact_dtype`` (``median(int32)`` is float32, even
with x64 on); results are strong. A quantile sorts along the reduced axes and gathers the two
neighbouring order statistics, so the functions trace under ``jit`` (``q`` may be traced too).
Complex input is refused (the ordering is ill-defined), as in JAX.
"""

from __future__ import annotations

import math
from typing import Any

from trellax._src.core.basearray import Array
from trellax._src.core.out_sharding import check_out_sharding
from trellax._src.dtypes import dtypes
from trellax._src.lax import elementwise as lax
from trellax._src.lax import reductions as lax_reductions
from trellax._src.lax.structural import (
    _convert,
    broadcast_in_dim,
    broadcast_to,
    broadcasted_iota,
    reshape,
    select_n,
    transpose,
)
from trellax._src.numpy import ufuncs
from trellax._src.numpy.indexing import getitem
from trellax._src.numpy.reductions import (
    Axis,
    canonicalize_axis,
    check_no_out,
    const,
    full_like_shape,
    isnan,
    mean,
    reduction_axes,
    sum,
)
from trellax._src.numpy.util import (
    check_arraylike,
    promote_args_inexact,
    promote_args_inexact_keep_shapes,
)

ArrayLike = Any

_METHODS = ("linear", "lower", "higher", "midpoint", "nearest")


def _take_last(x: Array, index: Array) -> Array:
    """``x[b..., index[q..., b...]]``: for ``x`` of shape ``batch + (n,)`` and ``index`` of shape
    ``qshape + batch``, the element of each batch row at the given position (clamped)."""
    batch = tuple(x.shape[:-1])
    shape = tuple(index.shape)
    lead = len(shape) - len(batch)
    i32 = dtypes.int32
    operands = [broadcasted_iota(i32, shape, lead + j) for j in range(len(batch))]
    operands.append(_convert(index, i32, False))

    return getitem(x, tuple(operands))


def _quantile(
    name: str,
    a: ArrayLike,
    q: ArrayLike,
    out: None,
    axis: Axis,
    method: str,
    keepdims: bool,
    *,
    squash_nans: bool,
    percent: bool = False,
) -> Array:
    """What all the public functions compute (``q`` in percent when ``percent``)."""
    check_no_out(name, out)
    check_arraylike(name, a, q)
    (qa,) = promote_args_inexact(name, q)
    if percent:
        qa = lax.div(qa, const(100, qa.dtype, qa.weak_type))
    if method not in _METHODS:
        raise ValueError(
            f"{name}: method can only be 'linear', 'lower', 'higher', 'midpoint', or 'nearest'; "
            f"got {method!r}"
        )
    (x,) = promote_args_inexact(name, a)
    if dtypes.kind(x.dtype) == "c":
        raise ValueError(
            f"{name} does not support complex input, as the operation is poorly defined."
        )
    if qa.ndim > 1:
        raise ValueError(f"{name}: q must have rank <= 1, got shape {tuple(qa.shape)}")
    out_dtype = x.dtype
    axes = reduction_axes(x.ndim, axis)
    keep_shape = tuple(1 if i in axes else s for i, s in enumerate(x.shape))
    rest = [i for i in range(x.ndim) if i not in axes]
    batch = tuple(x.shape[i] for i in rest)
    n = math.prod(x.shape[i] for i in axes)
    x = reshape(transpose(x, (*rest, *axes)), (*batch, n))
    qshape = tuple(qa.shape)
    out_shape = qshape + batch
    qd, one = qa.dtype, const(1, qa.dtype)

    if squash_nans:
        x = lax_reductions.sort(x, dimension=x.ndim - 1)  # NaNs sort to the end
        count = sum(lax.bitwise_not(isnan(x)), axis=-1, dtype=qd)
        last = broadcast_in_dim(lax.sub(count, one), out_shape, range(len(qshape), len(out_shape)))
    else:
        any_nan = lax_reductions.reduce_or(isnan(x), (x.ndim - 1,))
        nan_rows = broadcast_in_dim(any_nan, x.shape, range(len(batch)))
        x = select_n(nan_rows, x, full_like_shape(float("nan"), x))  # any NaN -> NaN
        x = lax_reductions.sort(x, dimension=x.ndim - 1)
        last = broadcast_to(const(n - 1, qd), out_shape)
    pos = lax.mul(broadcast_in_dim(qa, out_shape, range(len(qshape))), last)
    low, high = lax.floor(pos), lax.ceil(pos)
    high_weight = lax.sub(pos, low)
    low_weight = lax.sub(full_like_shape(1, high_weight), high_weight)
    zero = full_like_shape(0, pos)
    low = lax.max(zero, lax.min(low, last))
    high = lax.max(zero, lax.min(high, last))
    low_value, high_value = _take_last(x, low), _take_last(x, high)

    if method == "linear":
        result = lax.add(
            lax.mul(_convert(low_value, qd, False), low_weight),
            lax.mul(_convert(high_value, qd, False), high_weight),
        )
    elif method == "lower":
        result = low_value
    elif method == "higher":
        result = high_value
    elif method == "nearest":
        result = select_n(
            lax.le(high_weight, full_like_shape(0.5, high_weight)), high_value, low_value
        )
    else:
        result = lax.mul(lax.add(low_value, high_value), full_like_shape(0.5, low_value))
    if keepdims:
        # JAX ravels a 0-d input first: its kept shape is (1,)
        result = reshape(result, qshape + (keep_shape or (1,)))
    return _convert(result, out_dtype, False)


def quantile(
    a: ArrayLike,
    q: ArrayLike,
    axis: Axis = None,
    out: None = None,
    overwrite_input: bool = False,
    method: str = "linear",
    keepdims: bool = False,
) -> Array:
    """The ``q``-th quantiles (``q`` in [0, 1], a scalar or a 1-D array) along ``axis``.

    The result has ``q``'s shape in front. A slice holding NaN gives NaN. ``method`` is one of
    'linear', 'lower', 'higher', 'midpoint', 'nearest' (where 'nearest' rounds a position that
    lies exactly halfway down, as JAX does).
    """
    return _quantile("quantile", a, q, out, axis, method, keepdims, squash_nans=False)


def nanquantile(
    a: ArrayLike,
    q: ArrayLike,
    axis: Axis = None,
    out: None = None,
    overwrite_input: bool = False,
    method: str = "linear",
    keepdims: bool = False,
) -> Array:
    """:func:`quantile` of the non-NaN elements (an all-NaN slice gives NaN)."""
    return _quantile("nanquantile", a, q, out, axis, method, keepdims, squash_nans=True)


def percentile(
    a: ArrayLike,
    q: ArrayLike,
    axis: Axis = None,
    out: None = None,
    overwrite_input: bool = False,
    method: str = "linear",
    keepdims: bool = False,
    *,
    out_sharding: Any = None,
) -> Array:
    """:func:`quantile` with ``q`` in percent (0 to 100)."""
    if out_sharding is not None:
        check_out_sharding("numpy.percentile", out_sharding)
    return _quantile(
        "percentile", a, q, out, axis, method, keepdims, squash_nans=False, percent=True
    )


def nanpercentile(
    a: ArrayLike,
    q: ArrayLike,
    axis: Axis = None,
    out: None = None,
    overwrite_input: bool = False,
    method: str = "linear",
    keepdims: bool = False,
) -> Array:
    """:func:`nanquantile` with ``q`` in percent (0 to 100)."""
    return _quantile(
        "nanpercentile", a, q, out, axis, method, keepdims, squash_nans=True, percent=True
    )


def median(
    a: ArrayLike,
    axis: Axis = None,
    out: None = None,
    overwrite_input: bool = False,
    keepdims: bool = False,
) -> Array:
    """The median along ``axis`` (the midpoint of the two middle values for an even count)."""
    return _quantile("median", a, 0.5, out, axis, "midpoint", keepdims, squash_nans=False)


def nanmedian(
    a: ArrayLike,
    axis: Axis = None,
    out: None = None,
    overwrite_input: bool = False,
    keepdims: bool = False,
) -> Array:
    """:func:`median` of the non-NaN elements."""
    return _quantile("nanmedian", a, 0.5, out, axis, "midpoint", keepdims, squash_nans=True)


def average(
    a: ArrayLike,
    axis: Axis = None,
    weights: ArrayLike | None = None,
    returned: bool = False,
    keepdims: bool = False,
) -> Any:
    """The weighted mean ``sum(a * w) / sum(w)``; ``a`` and ``weights`` promote together to an
    inexact dtype (``average(int32, weights=float16)`` is float16).

    1-D ``weights`` may go with an N-D ``a`` along a single ``axis``. With ``returned=True``,
    also the sum of the weights (broadcast to the result's shape).
    """
    if weights is None:
        check_arraylike("average", a)
        (x,) = promote_args_inexact("average", a)
        avg = mean(x, axis=axis, keepdims=keepdims)
        total = const(math.prod(x.shape[d] for d in reduction_axes(x.ndim, axis)), avg.dtype)
    else:
        check_arraylike("average", a, weights)
        x, w = promote_args_inexact_keep_shapes("average", a, weights)
        if tuple(x.shape) != tuple(w.shape):
            if w.ndim != 1:
                raise ValueError("1D weights expected when shapes of a and weights differ.")
            if axis is None:
                raise ValueError("Axis must be specified when shapes of a and weights differ.")
            if isinstance(axis, (tuple, list)):
                raise ValueError("Single axis expected when shapes of a and weights differ")
            ax = canonicalize_axis(axis, x.ndim)
            if w.shape[0] != x.shape[ax]:
                raise ValueError("Length of weights not compatible with specified axis.")
            w = broadcast_in_dim(w, x.shape, (ax,))
        total = sum(w, axis=axis, keepdims=keepdims)
        avg = ufuncs.true_divide(sum(lax.mul(x, w), axis=axis, keepdims=keepdims), total)
    if returned:
        return avg, broadcast_to(_convert(total, avg.dtype, False), avg.shape)
    return avg
