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
    cumsum,
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

_METHODS = ("linear", "lower", "higher", "midpoint", "nearest", "inverted_cdf")


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
    weights: ArrayLike | None = None,
) -> Array:
    """What all the public functions compute (``q`` in percent when ``percent``)."""
    check_no_out(name, out)
    check_arraylike(name, a, q)
    if weights is not None:
        check_arraylike(name, weights)
    (qa,) = promote_args_inexact(name, q)
    if percent:
        qa = lax.div(qa, const(100, qa.dtype, qa.weak_type))
    if method not in _METHODS:
        raise ValueError(
            f"{name}: method can only be 'linear', 'lower', 'higher', 'midpoint', 'nearest' or "
            f"'inverted_cdf'; got {method!r}"
        )
    w: Array | None = None
    if weights is None:
        (x,) = promote_args_inexact(name, a)
    else:
        if dtypes.kind(dtypes.dtype_and_weak_type(weights)[0]) == "c":
            raise ValueError("Weights cannot be complex types.")
        if method != "inverted_cdf":
            raise NotImplementedError(
                f"{method} doesn't support weights. Only method 'inverted_cdf' supports weights."
            )
        x, w = promote_args_inexact_keep_shapes(name, a, weights)
        if tuple(w.shape) != tuple(x.shape):
            w = _weights_along(x, w, axis, quantile=True)
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
    if n == 0 and math.prod(qa.shape) > 0 and (math.prod(batch) > 0 or not squash_nans):
        # an element taken from an empty axis: JAX's gather refuses it, even when there are no
        # rows to take it for (median of (0, 0) along axis 1); its nan- forms index, and only
        # for a 0-d result (one q, no keepdims, no rows left; otherwise the gather's TypeError)
        if squash_nans and qa.ndim == 0 and not keepdims and not batch:
            raise IndexError("index is out of bounds for axis 0 with size 0")
        raise TypeError(
            "Slice size at index 0 in gather op is out of range, must be within [0, 0 + 1), got 1."
        )
    qshape = tuple(qa.shape)
    out_shape = qshape + batch
    qd, one = qa.dtype, const(1, qa.dtype)
    if method == "inverted_cdf":
        if w is not None:
            w = reshape(transpose(w, (*rest, *axes)), (*batch, n))
        result = _inverted_cdf(x, w, qa, squash_nans)
        if keepdims:
            result = reshape(result, qshape + (keep_shape or (1,)))
        return _convert(result, out_dtype, False)

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


def _inverted_cdf(x: Array, w: Array | None, qa: Array, squash_nans: bool) -> Array:
    """NumPy's 'inverted_cdf' quantiles of the rows of ``x`` (shape ``batch + (n,)``) with
    ``weights`` ``w`` (None: all 1), of shape ``q.shape + batch``: the smallest sorted value
    whose cumulative weight reaches ``q`` times the row's total weight.

    A negative or NaN weight makes its row NaN; so does a NaN value, unless ``squash_nans``
    (then NaN values weigh nothing, and an all-NaN row is NaN).
    """
    batch, n = tuple(x.shape[:-1]), int(x.shape[-1])
    qshape = tuple(qa.shape)
    out_shape = qshape + batch
    if n == 0:
        return broadcast_to(const(float("nan"), x.dtype), out_shape)
    if w is None:
        w = full_like_shape(1, x)
    xs, ws = lax_reductions.sort((x, w), dimension=x.ndim - 1, num_keys=1)  # NaNs last
    nan = isnan(xs)
    zero = full_like_shape(0, ws)
    bad = lax.bitwise_or(lax.lt(ws, zero), isnan(ws))
    cw = cumsum(select_n(lax.bitwise_or(bad, nan), ws, zero), axis=-1)
    total = reshape(getitem(cw, (..., slice(n - 1, n))), batch)
    lead, tail = range(len(qshape)), range(len(qshape), len(out_shape))
    target = lax.mul(
        broadcast_in_dim(_convert(qa, ws.dtype, False), out_shape, lead),
        broadcast_in_dim(total, out_shape, tail),
    )
    wide = (*out_shape, n)
    below = lax.lt(
        broadcast_in_dim(cw, wide, range(len(qshape), len(wide))),
        broadcast_in_dim(target, wide, range(len(out_shape))),
    )
    i32 = dtypes.int32
    index = sum(below, axis=-1, dtype=i32)
    valid = (
        sum(lax.bitwise_not(nan), axis=-1, dtype=i32) if squash_nans else full_like_shape(n, total)
    )
    last = broadcast_in_dim(
        _convert(lax.sub(valid, const(1, valid.dtype)), i32, False), out_shape, tail
    )
    index = lax.max(full_like_shape(0, index), lax.min(index, last))
    result = _take_last(xs, index)
    row_nan = lax_reductions.reduce_or(bad, (x.ndim - 1,))
    if squash_nans:
        row_nan = lax.bitwise_or(row_nan, lax.eq(valid, full_like_shape(0, valid)))
    else:
        row_nan = lax.bitwise_or(row_nan, lax_reductions.reduce_or(nan, (x.ndim - 1,)))
    force = broadcast_in_dim(row_nan, out_shape, tail)
    return select_n(force, result, full_like_shape(float("nan"), result))


def quantile(
    a: ArrayLike,
    q: ArrayLike,
    axis: Axis = None,
    out: None = None,
    overwrite_input: bool = False,
    method: str = "linear",
    keepdims: bool = False,
    *,
    weights: ArrayLike | None = None,
) -> Array:
    """The ``q``-th quantiles (``q`` in [0, 1], a scalar or a 1-D array) along ``axis``.

    The result has ``q``'s shape in front. A slice holding NaN gives NaN. ``method`` is one of
    'linear', 'lower', 'higher', 'midpoint', 'nearest' (where 'nearest' rounds a position that
    lies exactly halfway down, as JAX does) or 'inverted_cdf', the only one that takes
    ``weights`` (of ``a``'s shape, or of its sizes along ``axis``; a negative or NaN weight
    gives NaN).
    """
    return _quantile(
        "quantile", a, q, out, axis, method, keepdims, squash_nans=False, weights=weights
    )


def nanquantile(
    a: ArrayLike,
    q: ArrayLike,
    axis: Axis = None,
    out: None = None,
    overwrite_input: bool = False,
    method: str = "linear",
    keepdims: bool = False,
    *,
    weights: ArrayLike | None = None,
) -> Array:
    """:func:`quantile` of the non-NaN elements (an all-NaN slice gives NaN)."""
    return _quantile(
        "nanquantile", a, q, out, axis, method, keepdims, squash_nans=True, weights=weights
    )


def percentile(
    a: ArrayLike,
    q: ArrayLike,
    axis: Axis = None,
    out: None = None,
    overwrite_input: bool = False,
    method: str = "linear",
    keepdims: bool = False,
    *,
    weights: ArrayLike | None = None,
    out_sharding: Any = None,
) -> Array:
    """:func:`quantile` with ``q`` in percent (0 to 100)."""
    if out_sharding is not None:
        check_out_sharding("numpy.percentile", out_sharding)
    return _quantile(
        "percentile",
        a,
        q,
        out,
        axis,
        method,
        keepdims,
        squash_nans=False,
        percent=True,
        weights=weights,
    )


def nanpercentile(
    a: ArrayLike,
    q: ArrayLike,
    axis: Axis = None,
    out: None = None,
    overwrite_input: bool = False,
    method: str = "linear",
    keepdims: bool = False,
    *,
    weights: ArrayLike | None = None,
) -> Array:
    """:func:`nanquantile` with ``q`` in percent (0 to 100)."""
    return _quantile(
        "nanpercentile",
        a,
        q,
        out,
        axis,
        method,
        keepdims,
        squash_nans=True,
        percent=True,
        weights=weights,
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


def _weights_along(x: Array, w: Array, axis: Axis, quantile: bool = False) -> Array:
    """Weights given for the reduced axes only (``w.shape`` is ``x``'s sizes along ``axis``, in
    ``axis``'s order), broadcast to ``x``'s shape, as JAX's ``average`` and ``quantile`` take
    them (with their messages)."""
    if axis is None:
        raise ValueError(
            "Weights shape must match 'a' shape when axis is None."
            if quantile
            else "Axis must be specified when shapes of a and weights differ."
        )
    given = axis if isinstance(axis, (tuple, list)) else (axis,)
    axes = tuple(canonicalize_axis(ax, x.ndim) for ax in given)
    if len(set(axes)) != len(axes):
        raise ValueError(f"repeated axis in {tuple(given)}")
    sizes = tuple(x.shape[ax] for ax in axes)
    if tuple(w.shape) != sizes:
        raise ValueError(
            f"Weights shape {tuple(w.shape)} must match reduction axes {sizes}"
            if quantile
            else "Shape of weights must be consistent with shape of a along specified axis."
        )
    order = sorted(range(len(axes)), key=lambda i: axes[i])
    if order != list(range(len(axes))):
        w = transpose(w, tuple(order))
    return broadcast_in_dim(w, tuple(x.shape), tuple(sorted(axes)))


def average(
    a: ArrayLike,
    axis: Axis = None,
    weights: ArrayLike | None = None,
    returned: bool = False,
    keepdims: bool = False,
) -> Any:
    """The weighted mean ``sum(a * w) / sum(w)``; ``a`` and ``weights`` promote together to an
    inexact dtype (``average(int32, weights=float16)`` is float16).

    ``weights`` of ``a``'s shape, or of its sizes along ``axis`` (an int or a tuple, in that
    order), as in JAX. With ``returned=True``,
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
            w = _weights_along(x, w, axis)
        total = sum(w, axis=axis, keepdims=keepdims)
        avg = ufuncs.true_divide(sum(lax.mul(x, w), axis=axis, keepdims=keepdims), total)
    if returned:
        return avg, broadcast_to(_convert(total, avg.dtype, False), avg.shape)
    return avg
