"""Indexing helpers and searching: ``take``, ``take_along_axis``, ``put_along_axis``, ``nonzero``,
``flatnonzero``, ``argwhere``, ``searchsorted``, ``digitize``, ``bincount``, ``histogram``.

Everything is built from lax primitives (gather, scatter, sort, cumsum, select_n...), so it runs
unchanged under ``jit``. Functions whose *output shape* depends on the values (``nonzero``,
``argwhere``, ``bincount`` without ``length``...) take JAX's static ``size=`` (and ``fill_value=``):
with it the output has exactly ``size`` entries (truncated, or padded with ``fill_value``);
without it the size is read from the concrete input, which works eagerly and raises
:class:`~trellax._src.core.errors.ConcretizationTypeError` (naming ``size=``) under tracing.

Index results use the default int (int32, int64 with x64 on), except ``searchsorted`` and
``digitize``, which return int32 whatever x64 says, as in JAX.
"""

from __future__ import annotations

import builtins
import operator
import string
from collections.abc import Sequence
from typing import Any

import numpy as np

from trellax._src.backend import eager
from trellax._src.core import core
from trellax._src.core.basearray import Array
from trellax._src.core.errors import ConcretizationTypeError
from trellax._src.core.out_sharding import check_out_sharding
from trellax._src.dtypes import dtypes
from trellax._src.lax import elementwise as lax
from trellax._src.lax._base import canonicalize_axes
from trellax._src.lax.reductions import cumsum, reduce_max, reduce_min, reduce_or, reduce_sum
from trellax._src.lax.structural import (
    _convert,
    broadcast_to,
    broadcasted_iota,
    concatenate,
    iota,
    reshape,
    rev,
    select_n,
    slice,
)
from trellax._src.numpy import creation_traced
from trellax._src.numpy.creation import asarray
from trellax._src.numpy.einsum import einsum
from trellax._src.numpy.indexing import _scatter, getitem
from trellax._src.numpy.util import (
    check_arraylike,
    ensure_array,
    promote_args_inexact_keep_shapes,
    promote_args_keep_shapes,
    promote_shapes,
    to_inexact_dtype,
)

ArrayLike = Any
DType = np.dtype[Any]

# -- small building blocks (shared with sorting.py and setops.py) ---------------------------------


def const(value: Any, dtype: DType, weak_type: bool = False) -> Array:
    """A 0-d constant of ``dtype`` (a literal, not a computation)."""
    return eager.wrap(np.asarray(value).astype(dtype), dtype, weak_type)


def full(shape: Sequence[int], value: Any, dtype: DType, weak_type: bool = False) -> Array:
    return broadcast_to(const(value, dtype, weak_type), tuple(shape))


def ravel(x: Array) -> Array:
    return reshape(x, (x.size,))


def gather1(x: Array, idx: Array) -> Array:
    """``x[idx]`` for a 1-D ``x`` (indices clamped into range; zeros when ``x`` is empty)."""
    if x.shape[0] == 0:
        return full(idx.shape, 0, x.dtype, x.weak_type)
    return getitem(x, (idx,))


def scatter1(x: Array, idx: Array, updates: Array, combine: str) -> Array:
    """``x.at[idx].set/add(updates)`` for a 1-D ``x``; out-of-range updates are dropped."""
    if x.shape[0] == 0:
        return x
    return _scatter(x, (idx,), updates, combine)


def isnan(x: Array) -> Array:
    return lax.ne(x, x)


def logical_not(x: Array) -> Array:
    return lax.bitwise_not(x)


def lt_total(x: Array, y: Array) -> Array:
    """``x < y`` in sort order: NaNs after everything, complex numbers lexicographic."""
    k = dtypes.kind(x.dtype)
    if k == "c":
        xr, xi, yr, yi = lax.real(x), lax.imag(x), lax.real(y), lax.imag(y)
        return lax.bitwise_or(lt_total(xr, yr), lax.bitwise_and(lax.eq(xr, yr), lt_total(xi, yi)))
    if k == "f":
        return lax.bitwise_or(lax.lt(x, y), lax.bitwise_and(isnan(y), logical_not(isnan(x))))
    return lax.lt(x, y)


def concrete_int(x: Array, fun_name: str, what: str = "size") -> int:
    """The value of a 0-d integer result that sets an output shape (eager only)."""
    if not core.is_concrete(x):
        raise ConcretizationTypeError(
            f"trellax.numpy.{fun_name}: the {what} of the result depends on the values of the "
            f"input, which are not known while tracing. Pass a static {what}= argument (e.g. "
            f"{fun_name}(x, {what}=n)) to fix the output shape."
        )
    return int(x)


def static_int(v: Any, fun_name: str, what: str) -> int:
    try:
        return operator.index(v)
    except TypeError:
        raise TypeError(
            f"trellax.numpy.{fun_name}: {what} must be a static Python int, got {v!r}"
        ) from None


def compact(mask: Array, size: int) -> tuple[Array, Array, Array]:
    """Positions of the True entries of a 1-D ``mask``, as ``size`` default-int indices.

    Returns ``(positions, valid, count)``: entries past the number of True values are 0 and
    ``valid`` is False there; ``count`` is the number of True values (0-d).
    """
    d = dtypes.default_int_dtype()
    n = mask.shape[0]
    ones = _convert(mask, d, False)
    slot = lax.sub(cumsum(ones, 0), const(1, d))
    target = select_n(mask, full((n,), size, d), slot)
    positions = scatter1(full((size,), 0, d), target, iota(d, n), "set")
    count = reduce_sum(ones, (0,))
    valid = lax.lt(iota(d, size), count)
    return positions, valid, count


def _index_array(fun_name: str, indices: Any) -> Array:
    idx = _asarray(fun_name, indices)
    if dtypes.kind(idx.dtype) not in ("i", "u"):
        if fun_name == "take":  # JAX's classes: take's ValueError, the *_along_axis TypeError
            raise ValueError(
                f"indices must have an integer type (trellax.numpy.take), got {idx.dtype.name}"
            )
        raise TypeError(f"{fun_name} indices must be of integer type, got {idx.dtype.name}")
    return idx


def _asarray(fun_name: str, x: Any) -> Array:
    if isinstance(x, (list, tuple)):
        return asarray(x)
    return ensure_array(fun_name, x)


def _default_fill(d: DType) -> Any:
    """JAX's fill for out-of-bounds reads: NaN, the most negative int, the largest uint, True."""
    k = dtypes.kind(d)
    if k in ("f", "c"):
        return np.nan
    if k == "i":
        return int(dtypes.iinfo(d).min)
    if k == "u":
        return int(dtypes.iinfo(d).max)
    return True


def _fill_const(fun_name: str, fill_value: Any, like: Array) -> Array:
    if fill_value is None:
        return const(_default_fill(like.dtype), like.dtype, like.weak_type)
    return _convert(ensure_array(fun_name, fill_value), like.dtype, like.weak_type)


def _normalize_indices(idx: Array, n: int, mode: str, fun_name: str) -> tuple[Array, Array | None]:
    """Indices into an axis of size ``n`` for ``mode``; also the out-of-bounds mask for "fill"."""
    d = dtypes.default_int_dtype()  # wide enough for idx + n (int8 indices into 200 elements)
    idx = _convert(idx, d, False)
    if mode == "wrap":
        if n == 0 and idx.size == 0:  # no index to wrap: an empty take, as in JAX
            return idx, None
        if n == 0:
            raise IndexError(f"{fun_name}: cannot wrap indices into an empty axis")
        r = lax.rem(idx, const(n, d))
        return select_n(lax.lt(r, const(0, d)), r, lax.add(r, const(n, d))), None
    if mode in ("clip", "promise_in_bounds"):
        return lax.max(lax.min(idx, const(max(n - 1, 0), d)), const(0, d)), None
    if mode == "fill":
        wrapped = select_n(lax.lt(idx, const(0, d)), idx, lax.add(idx, const(n, d)))
        oob = lax.bitwise_or(lax.lt(wrapped, const(0, d)), lax.ge(wrapped, const(n, d)))
        return wrapped, oob
    if mode == "raise":
        raise NotImplementedError(
            f"The 'raise' mode of trellax.numpy.{fun_name} is not supported (indices are not "
            "checked against bounds); use mode='fill', 'clip' or 'wrap'."
        )
    raise ValueError(f"trellax.numpy.{fun_name}: invalid mode {mode!r}")


# -- take, take_along_axis, put_along_axis ------------------------------------------------------------


def take(
    a: ArrayLike,
    indices: ArrayLike,
    axis: int | None = None,
    out: None = None,
    mode: str | None = None,
    unique_indices: bool = False,
    indices_are_sorted: bool = False,
    fill_value: Any = None,
) -> Array:
    """Elements of ``a`` at ``indices`` along ``axis`` (of the flattened array when None).

    Negative indices count from the end. ``mode``: ``"fill"`` (default) returns ``fill_value``
    for out-of-bounds indices (NaN for inexact dtypes, the most negative int, the largest uint,
    True); ``"clip"`` clamps; ``"wrap"`` wraps around. Keeps ``a``'s dtype and weak flag.
    """
    if out is not None:
        raise NotImplementedError("The 'out' argument to trellax.numpy.take is not supported.")
    x = _asarray("take", a)
    idx = _asarray("take", indices)
    if axis is None:
        x, ax = ravel(x), 0
    elif x.ndim == 0:  # a 0-d array has no axis to take along (JAX: ValueError)
        raise ValueError(f"take: axis {axis} is out of bounds for an array of rank 0")
    else:
        (ax,) = canonicalize_axes("take", (axis,), x.ndim)
    n = x.shape[ax]
    mode = "fill" if mode is None else mode
    if mode == "raise":  # JAX checks the mode before it looks at the axis or the indices
        _normalize_indices(idx, n, mode, "take")
    if mode not in ("fill", "clip", "wrap"):  # JAX's take refuses promise_in_bounds too
        raise ValueError(f"trellax.numpy.take: invalid mode {mode!r}")
    if n == 0 and idx.size:  # JAX refuses it in every mode
        raise IndexError("Cannot do a non-empty jnp.take() from an empty axis.")
    if mode == "fill" and idx.dtype == dtypes.bool_:  # JAX's fill mode wraps negative indices
        idx = _convert(idx, dtypes.default_int_dtype(), False)  # first: bools become 0 and 1
    # as in JAX, empty indices of any dtype select nothing; others must be integers
    idx = _index_array("take", idx) if idx.size else _convert(idx, dtypes.int32, False)
    idx, oob = _normalize_indices(idx, n, mode, "take")
    out_ = getitem(x, (builtins.slice(None),) * ax + (idx,))
    if oob is None:
        return out_
    mask = reshape(oob, (1,) * ax + tuple(idx.shape) + (1,) * (x.ndim - ax - 1))
    return select_n(mask, out_, _fill_const("take", fill_value, x))


def _along_axis_indices(
    fun_name: str, arr: Array, idx: Array, ax: int
) -> tuple[list[Array], tuple[int, ...]]:
    if idx.ndim != arr.ndim:
        raise ValueError(
            f"trellax.numpy.{fun_name}: indices and arr must have the same number of "
            f"dimensions; got {idx.ndim} and {arr.ndim}"
        )
    shape = []
    for i, (sa, si) in enumerate(zip(arr.shape, idx.shape)):
        if i == ax:
            shape.append(si)
        elif sa == si or sa == 1 or si == 1:
            shape.append(max(sa, si) if 0 not in (sa, si) else 0)
        else:
            raise ValueError(
                f"trellax.numpy.{fun_name}: indices of shape {idx.shape} cannot be broadcast "
                f"with arr of shape {arr.shape} outside axis {ax}"
            )
    out_shape = tuple(shape)
    d = dtypes.default_int_dtype()
    # a dimension of size 1 in arr is broadcast: its index is 0 (not the position in the
    # result, which would be out of bounds and lose the cotangent in the transposed scatter)
    arrays = [
        broadcast_to(idx, out_shape)
        if i == ax
        else broadcast_to(const(0, d), out_shape)
        if arr.shape[i] == 1
        else broadcasted_iota(d, out_shape, i)
        for i in range(arr.ndim)
    ]
    return arrays, out_shape


def take_along_axis(
    arr: ArrayLike,
    indices: ArrayLike,
    axis: int | None = -1,
    mode: str | None = None,
    fill_value: Any = None,
    *,
    wrap_negative_indices: bool | None = None,
) -> Array:
    """``out[..., i, ...] = arr[..., indices[..., i, ...], ...]`` along ``axis``; the other
    dimensions broadcast. Negative indices count from the end (unless
    ``wrap_negative_indices=False``; by default they wrap except with
    ``mode="promise_in_bounds"``). Out-of-bounds indices give ``fill_value`` (``mode="fill"``,
    the default) or are clamped (``"clip"``, ``"promise_in_bounds"``); ``mode="one_hot"``
    computes the result as a contraction with one-hot vectors of the indices (as JAX does:
    out-of-bounds indices give 0, and a NaN anywhere along the axis spreads)."""
    x = _asarray("take_along_axis", arr)
    idx = _index_array("take_along_axis", indices)
    if not dtypes.issubdtype(idx.dtype, np.integer):
        raise TypeError(f"take_along_axis indices must be of integer type, got {idx.dtype}")
    if axis is None:
        if idx.ndim != 1:
            raise ValueError(
                f"take_along_axis indices must be 1D if axis=None, got shape {idx.shape}"
            )
        x, ax = ravel(x), 0
    else:
        (ax,) = canonicalize_axes("take_along_axis", (axis,), x.ndim)
    n = x.shape[ax]
    d = dtypes.default_int_dtype()
    if n == 0:  # JAX returns zeros of the broadcast shape before it looks at the mode
        _, out_shape = _along_axis_indices("take_along_axis", x, _convert(idx, d, False), ax)
        return broadcast_to(_fill_const("take_along_axis", 0, x), out_shape)
    if wrap_negative_indices is None:
        wrap_negative_indices = mode != "promise_in_bounds"
    idx = _convert(idx, d, False)
    if wrap_negative_indices:
        idx = select_n(lax.lt(idx, const(0, d)), idx, lax.add(idx, const(n, d)))
    if mode == "one_hot":
        return _take_along_axis_one_hot(x, idx, ax)
    if mode not in (None, "fill", "clip", "promise_in_bounds"):
        raise ValueError(f"trellax.numpy.take_along_axis: invalid mode {mode!r}")
    oob: Array | None = None
    if mode in ("clip", "promise_in_bounds"):
        idx = lax.max(lax.min(idx, const(max(n - 1, 0), d)), const(0, d))
    else:
        oob = lax.bitwise_or(lax.lt(idx, const(0, d)), lax.ge(idx, const(n, d)))
        idx = select_n(oob, idx, const(0, d))
    arrays, out_shape = _along_axis_indices("take_along_axis", x, idx, ax)
    out = getitem(x, tuple(arrays))
    if oob is None:
        return out
    return select_n(
        broadcast_to(oob, out_shape), out, _fill_const("take_along_axis", fill_value, x)
    )


def _take_along_axis_one_hot(x: Array, idx: Array, ax: int) -> Array:
    """``take_along_axis(..., mode="one_hot")``: a contraction of ``x`` with the one-hot
    vectors of ``idx`` along ``ax`` (in ``x``'s dtype)."""
    n = x.shape[ax]
    d = idx.dtype
    positions = broadcasted_iota(d, (*idx.shape, n), idx.ndim)
    column = broadcast_to(reshape(idx, (*idx.shape, 1)), positions.shape)
    hot = _convert(lax.eq(column, positions), x.dtype, False)
    if x.ndim == 1:
        return einsum("...b,b->...", hot, x, preferred_element_type=x.dtype)
    lead = tuple(max(a, b) for a, b in zip(hot.shape[:ax], x.shape[:ax]))
    hot = broadcast_to(hot, (*lead, *hot.shape[ax:]))
    x = broadcast_to(x, (*lead, *x.shape[ax:]))
    labels = string.ascii_letters[:ax]
    spec = f"{labels}y...z,{labels}z...->{labels}y..."
    return einsum(spec, hot, x, preferred_element_type=x.dtype)


def put_along_axis(
    arr: ArrayLike,
    indices: ArrayLike,
    values: ArrayLike,
    axis: int | None,
    inplace: bool = True,
    *,
    mode: str | None = None,
) -> Array:
    """A copy of ``arr`` with ``values`` written at ``indices`` along ``axis`` (the functional
    form of NumPy's in-place ``put_along_axis``: pass ``inplace=False``). Values are cast to
    ``arr``'s dtype; out-of-bounds indices are dropped."""
    if inplace:
        raise ValueError(
            "trellax.numpy.put_along_axis cannot modify arrays in-place, because trellax arrays "
            "are immutable. Pass inplace=False to instead return an updated array."
        )
    x = _asarray("put_along_axis", arr)
    idx = _index_array("put_along_axis", indices)
    original_shape = x.shape
    if axis is None:
        x, ax = ravel(x), 0
    else:
        (ax,) = canonicalize_axes("put_along_axis", (axis,), x.ndim)
    if mode not in (None, "fill", "drop", "promise_in_bounds", "clip"):
        raise ValueError(f"trellax.numpy.put_along_axis: invalid mode {mode!r}")
    if mode == "clip":
        idx, _ = _normalize_indices(idx, x.shape[ax], "clip", "put_along_axis")
    arrays, out_shape = _along_axis_indices("put_along_axis", x, idx, ax)
    v = _convert(_asarray("put_along_axis", values), x.dtype, x.weak_type)
    v = broadcast_to(v, out_shape)
    out = _scatter(x, tuple(arrays), v, "set")
    return reshape(out, original_shape)


# -- nonzero and friends --------------------------------------------------------------------


def _nonzero_mask(x: Array) -> Array:
    if x.dtype == dtypes.bool_:
        return _convert(x, dtypes.bool_, False)
    return lax.ne(x, const(0, x.dtype))


def nonzero(a: ArrayLike, *, size: int | None = None, fill_value: Any = None) -> tuple[Array, ...]:
    """Indices of the nonzero elements, one default-int array per dimension.

    The number of results depends on the values: pass a static ``size`` to fix it (extra
    entries are dropped, missing ones filled with ``fill_value``, 0 by default, or one value per
    dimension).

    >>> import trellax.numpy as tnp
    >>> nonzero(tnp.asarray([0, 3, 0, 4]))
    (Array([1, 3], dtype=int32),)
    """
    x = _asarray("nonzero", a)
    if x.ndim == 0:
        raise ValueError(
            "Calling nonzero on 0d arrays is not allowed. Use trellax.numpy.atleast_1d(scalar)"
            ".nonzero() instead."
        )
    mask = ravel(_nonzero_mask(x))
    d = dtypes.default_int_dtype()
    if size is None:
        n = concrete_int(reduce_sum(_convert(mask, d, False), (0,)), "nonzero")
    else:
        n = static_int(size, "nonzero", "size")
    fills = _per_dim_fill(fill_value, x.ndim)
    if x.size == 0:
        # every slot is filled: with fill_value (JAX 0.10.2 gives zeros whatever the fill value,
        # a departure listed in docs/semantics.md), 0 without one
        return tuple(
            creation_traced.filled((n,), d, 0)
            if f is None
            else broadcast_to(_convert(ensure_array("nonzero", f), d, False), (n,))
            for f in fills
        )
    positions, valid, _ = compact(mask, n)
    out = []
    stride = 1
    strides = []
    for dim in reversed(x.shape):
        strides.append(stride)
        stride *= dim
    strides.reverse()
    for dim, st, fill in zip(x.shape, strides, fills):
        idx = lax.rem(lax.div(positions, const(st, d)), const(max(dim, 1), d))
        if fill is not None:
            idx = select_n(valid, _convert(ensure_array("nonzero", fill), d, False), idx)
        out.append(idx)
    return tuple(out)


def _per_dim_fill(fill_value: Any, ndim: int) -> list[Any]:
    if fill_value is None:
        return [None] * ndim
    if isinstance(fill_value, (tuple, list)):
        if len(fill_value) != ndim:
            raise ValueError(
                f"nonzero: fill_value must be a scalar or a tuple of length {ndim}; got "
                f"{fill_value!r}"
            )
        return list(fill_value)
    return [fill_value] * ndim


def flatnonzero(a: ArrayLike, *, size: int | None = None, fill_value: Any = None) -> Array:
    """Indices of the nonzero elements of the flattened array (``size``/``fill_value`` as in
    :func:`nonzero`)."""
    x = _asarray("flatnonzero", a)
    return nonzero(ravel(x), size=size, fill_value=fill_value)[0]


def argwhere(a: ArrayLike, *, size: int | None = None, fill_value: Any = None) -> Array:
    """The indices of the nonzero elements as rows of an ``(n, ndim)`` default-int array."""
    x = _asarray("argwhere", a)
    d = dtypes.default_int_dtype()
    if x.ndim == 0:
        flat = nonzero(reshape(x, (1,)), size=size, fill_value=fill_value)[0]
        return full((flat.shape[0], 0), 0, d)
    cols = nonzero(x, size=size, fill_value=fill_value)
    return concatenate([reshape(c, (c.shape[0], 1)) for c in cols], 1)


# -- searchsorted, digitize --------------------------------------------------------------------------

_SEARCH_METHODS = ("scan", "scan_unrolled", "sort", "compare_all")


def searchsorted(
    a: ArrayLike,
    v: ArrayLike,
    side: str = "left",
    sorter: ArrayLike | None = None,
    *,
    method: str = "scan",
) -> Array:
    """Indices where ``v`` would be inserted into the sorted 1-D ``a`` to keep it sorted.

    ``side="left"`` gives the first such index, ``"right"`` the last. NaNs sort last. ``a`` and
    ``v`` are promoted together; the result is int32 (also with x64 on, as in JAX). ``method``:
    ``"scan"`` (a vectorized binary search, the default; ``"scan_unrolled"`` and ``"sort"`` are
    accepted as synonyms) or ``"compare_all"`` (compares every pair: faster for small ``a``).
    """
    if side not in ("left", "right"):
        raise ValueError(
            f"{side!r} is an invalid value for keyword 'side'. Expected one of ['left', 'right']."
        )
    if method not in _SEARCH_METHODS:
        raise ValueError(
            f"searchsorted: invalid method {method!r}; expected one of {_SEARCH_METHODS}"
        )
    x, vv = promote_args_keep_shapes("searchsorted", a, v)
    if x.ndim != 1:
        raise ValueError(f"searchsorted: a should be 1-dimensional, got shape {x.shape}")
    if sorter is not None:
        x = take(x, sorter, mode="clip")
    out: Array
    if method == "compare_all":
        out = _search_compare_all(x, vv, side)
    else:
        out = _search_scan(x, vv, side)
    return out


def _search_scan(a: Array, v: Array, side: str) -> Array:
    d = dtypes.int32
    n = a.shape[0]
    lo = full(v.shape, 0, d)
    hi = full(v.shape, n, d)
    one = const(1, d)
    for _ in range(n.bit_length()):
        active = lax.lt(lo, hi)
        mid = lax.div(lax.add(lo, hi), const(2, d))
        am = gather1(a, mid)
        if side == "left":
            right = lt_total(am, v)
        else:
            right = logical_not(lt_total(v, am))
        go_right = lax.bitwise_and(active, right)
        go_left = lax.bitwise_and(active, logical_not(right))
        lo = select_n(go_right, lo, lax.add(mid, one))
        hi = select_n(go_left, hi, mid)
    return lo


def _search_compare_all(a: Array, v: Array, side: str) -> Array:
    d = dtypes.int32
    vb = reshape(v, (*v.shape, 1))
    a, vb = promote_shapes([a, vb])
    if side == "left":
        hits = lt_total(a, vb)
    else:
        hits = logical_not(lt_total(vb, a))
    return reduce_sum(_convert(hits, d, False), (v.ndim,))


def digitize(
    x: ArrayLike, bins: ArrayLike, right: bool = False, *, method: str | None = None
) -> Array:
    """The index of the bin of ``bins`` (1-D, increasing or decreasing) that holds each ``x``:
    ``bins[i-1] <= x < bins[i]`` (``right=False``) or ``bins[i-1] < x <= bins[i]``."""
    xx, b = promote_args_keep_shapes("digitize", x, bins)
    if b.ndim != 1:
        raise ValueError(f"digitize: bins must be a 1-dimensional array, got shape {b.shape}")
    if b.shape[0] == 0:
        return full(xx.shape, 0, dtypes.int32)
    side = "left" if right else "right"
    m = method or "scan"
    increasing = searchsorted(b, xx, side=side, method=m)
    decreasing = lax.sub(
        const(b.shape[0], dtypes.int32), searchsorted(rev(b, (0,)), xx, side=side, method=m)
    )
    first, last = slice(b, (0,), (1,)), slice(b, (b.shape[0] - 1,), (b.shape[0],))
    if dtypes.kind(b.dtype) == "c":  # complex bins are ordered lexicographically, as in JAX
        lr, fr = lax.real(last), lax.real(first)
        ge = lax.bitwise_or(
            lax.gt(lr, fr), lax.bitwise_and(lax.eq(lr, fr), lax.ge(lax.imag(last), lax.imag(first)))
        )
    else:
        ge = lax.ge(last, first)
    is_increasing = reshape(ge, ())
    return select_n(is_increasing, decreasing, increasing)


# -- bincount, histogram -------------------------------------------------------------------------


def bincount(
    x: ArrayLike,
    weights: ArrayLike | None = None,
    minlength: int = 0,
    *,
    length: int | None = None,
    out_sharding: Any = None,
) -> Array:
    """Counts of each non-negative integer in the 1-D ``x`` (negative values count as 0), or
    sums of ``weights`` (result dtype: the weights' dtype, strong; else the default int).

    The output length is ``max(minlength, x.max() + 1)``, which depends on the values: pass a
    static ``length`` under ``jit`` (values >= length are dropped).
    """
    if out_sharding is not None:
        check_out_sharding("numpy.bincount", out_sharding)
    xx = _asarray("bincount", x)
    if xx.dtype == dtypes.bool_:  # JAX counts booleans as 0 and 1
        xx = _convert(xx, dtypes.default_int_dtype(), False)
    if dtypes.kind(xx.dtype) not in ("i", "u"):
        raise TypeError(f"x argument to bincount must have an integer type; got {xx.dtype.name}")
    if xx.ndim != 1:
        raise ValueError(f"bincount: only 1-dimensional input supported, got shape {xx.shape}")
    minlength = static_int(minlength, "bincount", "minlength")
    if length is None and not core.is_concrete(xx):  # JAX needs x's values first, even empty
        raise ConcretizationTypeError(
            "trellax.numpy.bincount: the length of the result depends on the values of x, "
            "which are not known while tracing. Pass a static length= argument."
        )
    if minlength < 0:
        raise ValueError(f"bincount: minlength must be non-negative, got {minlength}")
    if length is None:
        top = 0
        if xx.size:
            top = concrete_int(reduce_max(xx, (0,)), "bincount", "length") + 1
        n = max(minlength, top)
    else:
        n = static_int(length, "bincount", "length")
    if weights is None:
        d = dtypes.default_int_dtype()
        w = full(xx.shape, 1, d)
    else:
        w = _asarray("bincount", weights)
        if w.shape != xx.shape:  # JAX does not broadcast the weights
            raise ValueError(
                f"bincount: weights must have the shape of x, {xx.shape}; got {w.shape}"
            )
        if w.dtype == dtypes.bool_:
            raise TypeError(
                "bincount does not accept weights of dtype bool; cast them to a number type "
                "first (weights.astype(int))"
            )
        d = w.dtype
        w = _convert(w, d, False)
    idx = lax.max(xx, const(0, xx.dtype))
    return scatter1(full((n,), 0, d), idx, w, "add")


def histogram(
    a: ArrayLike,
    bins: ArrayLike = 10,
    range: Sequence[ArrayLike] | None = None,
    weights: ArrayLike | None = None,
    density: bool | None = None,
) -> tuple[Array, Array]:
    """``(counts, bin_edges)`` of the flattened ``a``.

    ``bins`` is a number of equal-width bins over ``range`` (default: ``a``'s min and max) or
    the edges themselves; the last bin includes its right edge; values outside are ignored.
    Edges and counts have ``a``'s inexact dtype (``histogram(int32)`` gives float32), promoted
    with the weights' when there are weights (``histogram(int32, weights=float16)``: float16;
    complex weights: complex counts and edges). ``density=True`` normalizes the counts to a
    probability density. Complex ``a`` raises ``TypeError``.
    """
    check_arraylike("histogram", a, bins)  # JAX's TypeError for a list, tuple or string
    if dtypes.kind(_asarray("histogram", a).dtype) == "c":
        raise TypeError("histogram does not support complex input")
    if weights is None:
        x = ravel(_asarray("histogram", a))
        w = None
    else:
        x, w = (ravel(v) for v in promote_args_inexact_keep_shapes("histogram", a, weights))
        if tuple(w.shape) != tuple(x.shape):
            raise ValueError(
                f"histogram: weights should have the same shape as a, got {w.shape} and {x.shape}"
            )
    # complex weights make everything complex, as in JAX: complex counts, and edges that are
    # the real edges with a zero imaginary part
    d = to_inexact_dtype(x.dtype)
    xf = _convert(x, d, False)
    edges = histogram_bin_edges(xf, bins, range)
    w = full(x.shape, 1, d) if w is None else _convert(w, d, False)
    nedges = edges.shape[0]
    idx = searchsorted(edges, xf, side="right")
    last = slice(edges, (nedges - 1,), (nedges,))
    idx = select_n(lax.eq(xf, last), idx, full(idx.shape, nedges - 1, dtypes.int32))
    counts = scatter1(full((nedges,), 0, d), idx, w, "add")
    counts = slice(counts, (1,), (nedges,))
    if density:
        widths = lax.sub(slice(edges, (1,), (nedges,)), slice(edges, (0,), (nedges - 1,)))
        total = reduce_sum(counts, (0,))
        counts = lax.div(counts, lax.mul(total, widths))
    return counts, edges


def histogram_bin_edges(
    a: ArrayLike,
    bins: ArrayLike = 10,
    range: Sequence[ArrayLike] | None = None,
    weights: ArrayLike | None = None,
) -> Array:
    """The bin edges :func:`histogram` uses (``a``'s inexact dtype); ``weights`` is accepted
    and unused, as in JAX and NumPy (it only matters for string ``bins``)."""
    if isinstance(bins, str):
        raise NotImplementedError(
            f"histogram: string bins ({bins!r}) are not supported; pass a number of bins or edges"
        )
    check_arraylike("histogram_bin_edges", a, bins)  # edges as a list or tuple: JAX's TypeError
    x = ravel(_asarray("histogram_bin_edges", a))
    d = to_inexact_dtype(x.dtype)
    x = _convert(x, d, False)
    if np.ndim(bins) == 0:  # a number of bins: an integer (0-d integer arrays too, as in JAX)
        nbins = operator.index(bins)
        if nbins < 1:
            raise ValueError(f"histogram: `bins` must be positive, got {nbins}")
        if range is None:
            if x.size == 0:
                lo, hi = const(0, d), const(1, d)
            else:
                lo, hi = reduce_min(x, (0,)), reduce_max(x, (0,))
        else:
            if len(range) != 2:
                raise ValueError(f"histogram: range must be a pair (min, max), got {range!r}")
            lo = _convert(ensure_array("histogram", range[0]), d, False)
            hi = _convert(ensure_array("histogram", range[1]), d, False)
        half = const(0.5, d)
        same = lax.eq(lo, hi)
        lo = select_n(same, lo, lax.sub(lo, half))
        hi = select_n(same, hi, lax.add(hi, half))
        # JAX's linspace in a's dtype: lo * (1 - t) + hi * t, which never forms hi - lo (a
        # float16 range from -82 to 65504 overflows it; an infinite end gives infinite edges,
        # not the NaN of lo + (hi - lo) * t)
        return creation_traced.linspace(lo, hi, nbins + 1, True, d)[0]
    b = _asarray("histogram", bins)
    if b.ndim != 1:
        raise ValueError(f"histogram: bins must be an int or a 1-D array, got shape {b.shape}")
    return _convert(b, d, False)


def reduce_any(x: Array, axes: Sequence[int]) -> Array:
    """``any`` over ``axes`` of a bool array (strong result)."""
    return reduce_or(x, tuple(axes))
