"""Set operations: ``unique`` and the Array API's ``unique_*``, ``isin``, ``intersect1d``,
``union1d``, ``setdiff1d``.

One engine does all of them: sort the values (stably, carrying their original positions), mark
the first element of each run of equal values, and compact the marked ones with
:func:`~trellax._src.numpy.searching.compact`. Restricting to a subset (``intersect1d``,
``setdiff1d``) sorts the excluded elements last and never marks them.

The number of unique values depends on the data: pass a static ``size=`` (and ``fill_value=``) to
use these under ``jit``. Padding follows JAX: ``unique`` and ``union1d`` pad with the smallest
unique value (``unique``'s indices with its index, counts with 0); ``intersect1d``/``setxor1d``
with the smallest result (NaN if a result is NaN, 0 if there is none; ``intersect1d``'s indices
with the size of each array); ``setdiff1d`` pads with 0.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from trellax._src.core import core
from trellax._src.core.basearray import Array
from trellax._src.core.errors import ConcretizationTypeError, NonConcreteBooleanIndexError
from trellax._src.dtypes import dtypes
from trellax._src.lax import elementwise as lax
from trellax._src.lax._base import canonicalize_axes
from trellax._src.lax.reductions import cumsum, reduce_or, reduce_sum
from trellax._src.lax.reductions import sort as lax_sort
from trellax._src.lax.structural import (
    _convert,
    broadcast_to,
    concatenate,
    iota,
    reshape,
    select_n,
    slice,
    transpose,
)
from trellax._src.numpy.searching import (
    _asarray,
    compact,
    concrete_int,
    const,
    full,
    gather1,
    isnan,
    logical_not,
    ravel,
    scatter1,
    searchsorted,
    static_int,
    take,
)
from trellax._src.numpy.sorting import sort, sort_keys
from trellax._src.numpy.util import ensure_array, promote_args_keep_shapes, promote_shapes

ArrayLike = Any


class UniqueAllResult(NamedTuple):
    values: Array
    indices: Array
    inverse_indices: Array
    counts: Array


class UniqueCountsResult(NamedTuple):
    values: Array
    counts: Array


class UniqueInverseResult(NamedTuple):
    values: Array
    inverse_indices: Array


class _Unique(NamedTuple):
    values: Array
    first_index: Array | None  # each None unless asked for (``want``)
    inverse: Array | None
    counts: Array | None
    filled: Array | None = None  # with a static ``size``: True where a value is padding


def _get(x: Array | None) -> Array:
    assert x is not None
    return x


def _run_starts(xs: Array, equal_nan: bool) -> Array:
    """True where a sorted 1-D ``xs`` starts a new run of equal values."""
    n = xs.shape[0]
    if n == 0:
        return full((0,), True, dtypes.bool_)
    differs = _differs(slice(xs, (1,), (n,)), slice(xs, (0,), (n - 1,)), equal_nan)
    return concatenate([full((1,), True, dtypes.bool_), differs], 0)


def _differs(head: Array, tail: Array, equal_nan: bool) -> Array:
    """``head != tail`` elementwise, where two NaNs are equal when ``equal_nan``."""
    differs = lax.ne(head, tail)
    if equal_nan and dtypes.kind(head.dtype) in ("f", "c"):
        differs = lax.bitwise_and(differs, logical_not(lax.bitwise_and(isnan(head), isnan(tail))))
    return differs


def _unique_1d(
    x: Array,
    fun_name: str,
    *,
    valid: Array | None = None,
    equal_nan: bool = True,
    size: int | None = None,
    fill_value: Any = None,
    want: str = "",
) -> _Unique:
    """The sorted unique values of a 1-D ``x`` (of the entries where ``valid`` holds), and
    those of the first-occurrence indices (``"i"`` in ``want``), inverse indices (``"v"``)
    and counts (``"c"``) asked for."""
    d = dtypes.default_int_dtype()
    n = x.shape[0]
    x = _one_complex_nan(x)
    keys = sort_keys(x)
    if valid is not None:
        keys = [logical_not(valid), *keys]  # excluded entries sort last
    carry_x = len(keys) > 1  # complex keys or a validity key: x rides along as a payload
    payload = [x] if carry_x else []
    track = "i" in want or "v" in want
    if track:
        payload.append(iota(d, n))
    if payload:
        out = lax_sort((*keys, *payload), dimension=0, is_stable=True, num_keys=len(keys))
    else:
        out = (lax_sort(x, dimension=0, is_stable=True),)
    xs = out[len(keys)] if carry_x else out[0]
    perm = out[-1] if track else None
    starts = _run_starts(xs, equal_nan)
    if valid is not None:
        starts = lax.bitwise_and(starts, logical_not(out[0]))
    if size is None:
        ones = _convert(starts, d, False)

        size = concrete_int(reduce_sum(ones, (0,)), fun_name)
    else:
        size = static_int(size, fun_name, "size")
        _check_empty_fill(fun_name, n, size, fill_value)
    positions, ok, _ = compact(starts, size)
    values = gather1(xs, positions) if n else full((size,), 0, x.dtype, x.weak_type)
    if fill_value is not None:
        # JAX's padded values are strong, except setdiff1d's (its padding keeps the flag)
        weak = x.weak_type and fun_name == "setdiff1d"
        fill = _convert(ensure_array(fun_name, fill_value), x.dtype, weak)
        values = select_n(ok, fill, _convert(values, x.dtype, weak))
    values = _strong_if_complex(values)
    index = inverse = counts = None
    if "i" in want:
        index = gather1(_get(perm), positions) if n else full((size,), 0, d)
    if "v" in want or "c" in want:
        # which unique value each sorted entry is; excluded entries count for nothing
        run = lax.sub(_cumsum(_convert(starts, d, False)), const(1, d))
        if valid is not None:
            run = select_n(logical_not(out[0]), full((n,), size, d), run)
        if "c" in want:
            counts = scatter1(full((size,), 0, d), run, full((n,), 1, d), "add")
        if "v" in want:
            inverse = scatter1(full((n,), 0, d), _get(perm), run, "set")
    return _Unique(values, index, inverse, counts, logical_not(ok))


_PAD_FROM_VALUES = frozenset(
    ["unique", "union1d", "unique_values", "unique_counts", "unique_inverse", "unique_all"]
)


def _check_empty_fill(fun_name: str, n: int, size: int, fill_value: Any) -> None:
    """JAX's ValueError: padding with the smallest unique value needs a value to exist."""
    if fun_name in _PAD_FROM_VALUES and n == 0 and size > 0 and fill_value is None:
        raise ValueError(
            "jnp.unique: for zero-sized input with nonzero size argument, fill_value must be "
            "specified"
        )


def _one_complex_nan(x: Array) -> Array:
    """Complex entries with a NaN part all become ``nan+0j``, as in JAX's set operations: one
    NaN that sorts last (sorted by parts, ``0+nanj`` came first and ``nan+2j`` differed from
    ``nan+nanj``)."""
    if dtypes.kind(x.dtype) != "c":
        return x
    nan = _convert(full(x.shape, complex(float("nan"), 0.0), x.dtype), x.dtype, x.weak_type)
    return select_n(isnan(x), x, nan)


def _strong_if_complex(values: Array) -> Array:
    """Unique complex values are strong (JAX sorts complex by real and imaginary keys and builds
    the values again from them); real ones keep the input's weak flag."""
    if values.weak_type and dtypes.kind(values.dtype) == "c":
        return _convert(values, values.dtype, False)
    return values


def _cumsum(x: Array) -> Array:
    return cumsum(x, 0) if x.shape[0] else x


def unique(
    ar: ArrayLike,
    return_index: bool = False,
    return_inverse: bool = False,
    return_counts: bool = False,
    axis: int | None = None,
    *,
    equal_nan: bool = True,
    size: int | None = None,
    fill_value: Any = None,
    sorted: bool = True,
) -> Any:
    """The sorted unique elements of ``ar`` (of its slices along ``axis``), optionally with the
    index of each one's first occurrence, the inverse indices that rebuild ``ar`` (shaped like
    ``ar`` when ``axis`` is None) and the counts. ``equal_nan`` treats NaNs as equal.

    >>> import trellax.numpy as tnp
    >>> unique(tnp.asarray([3, 1, 3]))
    Array([1, 3], dtype=int32)
    """
    x = _asarray("unique", ar)
    # the flags are read with bool(), as JAX reads them (an array of one element is its truth)
    return_index, return_inverse = bool(return_index), bool(return_inverse)
    return_counts = bool(return_counts)
    if size is None and not core.is_concrete(x):  # JAX needs the values before the axis
        raise ConcretizationTypeError(
            "trellax.numpy.unique: the size of the result depends on the values of the input, "
            "which are not known while tracing. Pass a static size= argument."
        )
    if axis is None:
        want = "i" * return_index + "v" * return_inverse + "c" * return_counts
        u = _unique_1d(
            ravel(x), "unique", equal_nan=equal_nan, size=size, fill_value=fill_value, want=want
        )
        inverse = reshape(_get(u.inverse), x.shape) if return_inverse else None
    else:
        u = _unique_axis(x, axis, equal_nan, size, fill_value)
        inverse = u.inverse
    extra = [
        v
        for flag, v in (
            (return_index, u.first_index),
            (return_inverse, inverse),
            (return_counts, u.counts),
        )
        if flag
    ]
    return (u.values, *extra) if extra else u.values


def _unique_axis(
    x: Array, axis: int, equal_nan: bool, size: int | None, fill_value: Any
) -> _Unique:
    """Unique slices along ``axis``: lexicographic sort of the flattened slices."""
    if x.ndim == 0:  # no axis to take slices along (JAX's ValueError)
        raise ValueError(f"unique: axis {axis} is out of bounds for a 0-d array")
    (ax,) = canonicalize_axes("unique", (axis,), x.ndim)
    x = _one_complex_nan(x)
    perm_axes = (ax, *[i for i in range(x.ndim) if i != ax])
    moved = transpose(x, perm_axes)
    rest = moved.shape[1:]
    n = moved.shape[0]
    m = 1
    for s in rest:
        m *= s
    rows = reshape(moved, (n, m))
    d = dtypes.default_int_dtype()
    cols = [reshape(slice(rows, (0, j), (n, j + 1)), (n,)) for j in range(m)]
    keys = [k for c in cols for k in sort_keys(c)]
    if keys:
        out = lax_sort((*keys, iota(d, n)), dimension=0, is_stable=True, num_keys=len(keys))
        perm = out[-1]
    else:  # empty slices: all equal
        perm = iota(d, n)
    spec_rows = take(rows, perm, axis=0, mode="clip")
    if n:
        head = slice(spec_rows, (1, 0), (n, m))
        tail = slice(spec_rows, (0, 0), (n - 1, m))
        differs = _differs(head, tail, equal_nan)
        starts = concatenate([full((1,), True, dtypes.bool_), reduce_or(differs, (1,))], 0)
    else:
        starts = full((0,), True, dtypes.bool_)
    if size is None:
        size = concrete_int(reduce_sum(_convert(starts, d, False), (0,)), "unique")
    else:
        _check_empty_fill("unique", n, size, fill_value)
    positions, ok, _ = compact(starts, size)
    if n:
        values = take(spec_rows, positions, axis=0, mode="clip")
    else:  # no slices to take: all padding
        values = full((size, m), 0, x.dtype, x.weak_type)
    if fill_value is not None:
        # a scalar, or one slice (the shape of ``x`` without ``axis``) for every padded slice
        fill = _convert(ensure_array("unique", fill_value), x.dtype, False)
        fill = broadcast_to(reshape(fill, (1, fill.size)) if fill.ndim else fill, (size, m))
        pad = broadcast_to(reshape(ok, (size, 1)), (size, m))
        values = select_n(pad, fill, _convert(values, x.dtype, False))
    values = reshape(values, (size, *rest))
    inv_perm = [0] * x.ndim
    for i, p in enumerate(perm_axes):
        inv_perm[p] = i
    values = _strong_if_complex(transpose(values, tuple(inv_perm)))
    run = lax.sub(_cumsum(_convert(starts, d, False)), const(1, d))
    counts = scatter1(full((size,), 0, d), run, full((n,), 1, d), "add")
    inverse = scatter1(full((n,), 0, d), perm, run, "set")
    index = gather1(perm, positions) if n else full((size,), 0, d)
    return _Unique(values, index, inverse, counts)


def _unique_api(
    fun_name: str, x: ArrayLike, size: int | None, fill_value: Any, want: str
) -> tuple[Array, _Unique]:
    """``x`` as an array and the Array API's unique of its elements (NaNs distinct)."""
    a = _asarray(fun_name, x)
    u = _unique_1d(ravel(a), fun_name, equal_nan=False, size=size, fill_value=fill_value, want=want)
    return a, u


def unique_values(x: ArrayLike, /, *, size: int | None = None, fill_value: Any = None) -> Array:
    """The unique elements of ``x``, sorted; NaNs are distinct (Array API)."""
    return _unique_api("unique_values", x, size, fill_value, "")[1].values


def unique_counts(
    x: ArrayLike, /, *, size: int | None = None, fill_value: Any = None
) -> UniqueCountsResult:
    """``(values, counts)`` of the unique elements of ``x``; NaNs are distinct."""
    _, u = _unique_api("unique_counts", x, size, fill_value, "c")
    return UniqueCountsResult(u.values, _get(u.counts))


def unique_inverse(
    x: ArrayLike, /, *, size: int | None = None, fill_value: Any = None
) -> UniqueInverseResult:
    """``(values, inverse_indices)``: ``values[inverse_indices]`` rebuilds ``x`` (same shape)."""
    a, u = _unique_api("unique_inverse", x, size, fill_value, "v")
    return UniqueInverseResult(u.values, reshape(_get(u.inverse), a.shape))


def unique_all(
    x: ArrayLike, /, *, size: int | None = None, fill_value: Any = None
) -> UniqueAllResult:
    """``(values, indices, inverse_indices, counts)`` of the unique elements of ``x``."""
    a, u = _unique_api("unique_all", x, size, fill_value, "ivc")
    return UniqueAllResult(
        u.values, _get(u.first_index), reshape(_get(u.inverse), a.shape), _get(u.counts)
    )


# -- membership and set algebra --------------------------------------------------------------------

_ISIN_METHODS = ("auto", "compare_all", "binary_search", "sort")


def isin(
    element: ArrayLike,
    test_elements: ArrayLike,
    assume_unique: bool = False,
    invert: bool = False,
    *,
    method: str = "auto",
) -> Array:
    """Whether each element of ``element`` is in ``test_elements`` (promoted together);
    a strong bool array shaped like ``element``. NaN is in nothing.

    ``method``: ``"compare_all"`` compares every pair; ``"sort"``/``"binary_search"`` sorts
    ``test_elements`` and binary-searches; ``"auto"`` picks by size.
    """
    if method not in _ISIN_METHODS:
        raise ValueError(f"isin: invalid method {method!r}; expected one of {_ISIN_METHODS}")
    e, t = promote_args_keep_shapes("isin", element, test_elements)
    t = ravel(t)
    if method == "auto":
        method = "compare_all" if e.size * t.size <= 1 << 20 else "sort"
    if t.size == 0:
        out = full(e.shape, False, dtypes.bool_)
    elif method == "compare_all":
        column = reshape(e, (*e.shape, 1))
        out = reduce_or(lax.eq(*promote_shapes([column, ravel(t)])), (e.ndim,))
    else:
        ts = sort(t)
        pos = searchsorted(ts, e, side="left")
        out = lax.eq(take(ts, pos, mode="clip"), e)
    out = _convert(out, dtypes.bool_, False)
    return logical_not(out) if invert else out


def intersect1d(
    ar1: ArrayLike,
    ar2: ArrayLike,
    assume_unique: bool = False,
    return_indices: bool = False,
    *,
    size: int | None = None,
    fill_value: Any = None,
) -> Any:
    """The sorted unique values found in both arrays (promoted together); with
    ``return_indices``, also the index of each one's first occurrence in ``ar1`` and ``ar2``."""
    a1, a2 = promote_args_keep_shapes("intersect1d", ar1, ar2)
    a1, a2 = ravel(a1), ravel(a2)
    if size is not None and fill_value is None and a1.shape[0] + a2.shape[0] == 1:
        # one entry in all: no result, and JAX pads with that entry (indices with the sizes)
        k = static_int(size, "intersect1d", "size")
        lone = broadcast_to(concatenate([a1, a2], 0), (k,))
        d = dtypes.default_int_dtype()
        pad1, pad2 = full((k,), a1.shape[0], d), full((k,), a2.shape[0], d)
        return (lone, pad1, pad2) if return_indices else lone
    if assume_unique:
        return _intersect_assumed_unique(a1, a2, return_indices, size, fill_value)
    u = _unique_1d(
        a1, "intersect1d", valid=isin(a1, a2), size=size, fill_value=fill_value, want="i"
    )
    if size is not None and fill_value is None:
        u = u._replace(values=_default_pad(u.values, logical_not(_get(u.filled))))
    if not return_indices:
        return u.values
    d = dtypes.default_int_dtype()
    n2 = a2.shape[0]
    keys = sort_keys(a2)
    out = lax_sort((*keys, a2, iota(d, n2)), dimension=0, is_stable=True, num_keys=len(keys))
    s2, p2 = out[-2], out[-1]
    pos = searchsorted(s2, u.values, side="left")
    ind2 = gather1(p2, pos) if n2 else full(u.values.shape, 0, d)
    ind1 = _get(u.first_index)
    if size is not None:  # padded indices are each array's size, as in JAX
        pad = _get(u.filled)
        ind1 = select_n(pad, ind1, full(ind1.shape, a1.shape[0], d))
        ind2 = select_n(pad, ind2, full(ind2.shape, n2, d))
    return u.values, ind1, ind2


def union1d(
    ar1: ArrayLike, ar2: ArrayLike, *, size: int | None = None, fill_value: Any = None
) -> Array:
    """The sorted unique values found in either array (promoted together)."""
    a1, a2 = promote_args_keep_shapes("union1d", ar1, ar2)
    both = concatenate([ravel(a1), ravel(a2)], 0)
    return _unique_1d(both, "union1d", size=size, fill_value=fill_value).values


def setdiff1d(
    ar1: ArrayLike,
    ar2: ArrayLike,
    assume_unique: bool = False,
    *,
    size: int | None = None,
    fill_value: Any = None,
) -> Array:
    """The sorted unique values of ``ar1`` that are not in ``ar2`` (with ``assume_unique``:
    ``ar1``'s entries not in ``ar2``, in their order, as JAX); keeps ``ar1``'s dtype (as JAX
    does). Padding (with ``size``) uses ``fill_value``, 0 by default."""
    a1 = ravel(_asarray("setdiff1d", ar1))
    a2 = _asarray("setdiff1d", ar2)
    keep = isin(a1, a2, invert=True)
    fill = 0 if fill_value is None and size is not None else fill_value
    if assume_unique:  # as JAX: ar1's kept entries in their order, repeats included, unsorted
        d = dtypes.default_int_dtype()
        if size is None:
            n = concrete_int(reduce_sum(_convert(keep, d, False), (0,)), "setdiff1d")
        else:
            n = static_int(size, "setdiff1d", "size")
        positions, ok, _ = compact(keep, n)
        if a1.shape[0]:
            values = gather1(a1, positions)
        else:
            values = full((n,), 0, a1.dtype, a1.weak_type)
        if fill is not None:
            pad = _convert(ensure_array("setdiff1d", fill), a1.dtype, a1.weak_type)
            values = select_n(ok, pad, values)
        return _strong_if_complex(values)
    return _unique_1d(a1, "setdiff1d", valid=keep, size=size, fill_value=fill).values


def setxor1d(
    ar1: ArrayLike,
    ar2: ArrayLike,
    assume_unique: bool = False,
    *,
    size: int | None = None,
    fill_value: Any = None,
) -> Array:
    """The sorted unique values found in exactly one of the arrays (promoted together)."""
    a1, a2 = promote_args_keep_shapes("setxor1d", ar1, ar2)
    a1, a2 = ravel(a1), ravel(a2)
    both = concatenate([a1, a2], 0)
    if assume_unique:  # as JAX: the values that occur once in both arrays together, every NaN
        if size is None and both.shape[0] == 0:
            return both  # nothing in either array: JAX returns it, under jit too
        keep = _singletons(both)
        if size is None:
            _mask_count(keep)  # JAX's error class under tracing
    else:  # each array's NaNs count as one value, which is in neither other array (JAX)
        keep = concatenate(
            [
                lax.bitwise_and(isin(a1, a2, invert=True), _not_later_nan(a1)),
                lax.bitwise_and(isin(a2, a1, invert=True), _not_later_nan(a2)),
            ],
            0,
        )
    u = _unique_1d(both, "setxor1d", valid=keep, equal_nan=False, size=size, fill_value=fill_value)
    if size is not None and fill_value is None:
        return _default_pad(u.values, logical_not(_get(u.filled)))
    return u.values


def _default_pad(values: Array, ok: Array) -> Array:
    """JAX's default padding of ``intersect1d``/``setxor1d`` with a ``size``: the smallest
    result, NaN when a result is NaN (JAX pads with the maximum, then the minimum, and both
    propagate NaN), and 0 when there is no result."""
    n = values.shape[0]
    if n == 0:
        return values
    weak = values.weak_type
    first = slice(values, (0,), (1,))
    zero = full((1,), 0, values.dtype, weak)
    pad = select_n(slice(ok, (0,), (1,)), zero, first)
    if dtypes.kind(values.dtype) == "f":
        nan_result = reduce_or(lax.bitwise_and(isnan(values), ok), (0,))
        nan = full((1,), float("nan"), values.dtype, weak)
        pad = select_n(reshape(nan_result, (1,)), pad, nan)
    return select_n(ok, broadcast_to(pad, (n,)), values)


def _mask_count(mask: Array) -> int:
    """The number of True entries of a mask JAX uses as a boolean index (eager only: JAX's
    error class under tracing)."""
    if not core.is_concrete(mask):
        raise NonConcreteBooleanIndexError(mask)
    return int(reduce_sum(_convert(mask, dtypes.default_int_dtype(), False), (0,)))


def _intersect_assumed_unique(
    a1: Array, a2: Array, return_indices: bool, size: int | None, fill_value: Any
) -> Any:
    """``intersect1d(..., assume_unique=True)`` as JAX computes it for any input: both arrays
    sorted together (stably) and every entry equal to its successor kept, repeats included;
    the indices are those two entries' positions in ``a1`` and ``a2``."""
    d = dtypes.default_int_dtype()
    n1, n2 = a1.shape[0], a2.shape[0]
    n = n1 + n2
    both = concatenate([a1, a2], 0)
    keys = sort_keys(both)
    out = lax_sort((*keys, both, iota(d, n)), dimension=0, is_stable=True, num_keys=len(keys))
    xs, perm = out[-2], out[-1]
    if n > 1:
        head, tail = slice(xs, (0,), (n - 1,)), slice(xs, (1,), (n,))
        hit = lax.eq(head, tail)
        p1, p2 = slice(perm, (0,), (n - 1,)), slice(perm, (1,), (n,))
    else:
        head = xs
        hit = full((0,), False, dtypes.bool_)
        p1 = p2 = full((0,), 0, d)
    if size is None:  # JAX indexes with the mask; its indices are int32 then (int64 if needed)
        k = _mask_count(hit)
        d = dtypes.int32 if n < 2**31 else d
        perm = _convert(perm, d, False)
        if n > 1:
            p1, p2 = slice(perm, (0,), (n - 1,)), slice(perm, (1,), (n,))
    else:
        k = static_int(size, "intersect1d", "size")
    positions, ok, _ = compact(hit, k)
    if n > 1:
        values = gather1(head, positions)
        ind1 = gather1(p1, positions)
        ind2 = lax.sub(gather1(p2, positions), const(n1, d))
    else:
        values = full((k,), 0, both.dtype, both.weak_type)
        ind1 = ind2 = full((k,), 0, d)
    if size is not None:
        if fill_value is None:
            values = _default_pad(values, ok)
        else:
            fill = _convert(ensure_array("intersect1d", fill_value), both.dtype, False)
            values = select_n(ok, fill, _convert(values, both.dtype, False))
        ind1 = select_n(ok, full((k,), n1, d), ind1)
        ind2 = select_n(ok, full((k,), n2, d), ind2)
    values = _strong_if_complex(values)
    return (values, ind1, ind2) if return_indices else values


def _not_later_nan(x: Array) -> Array:
    """False at the NaNs of a 1-D ``x`` after its first one."""
    nan = isnan(x)
    if x.shape[0] == 0 or dtypes.kind(x.dtype) not in ("f", "c"):
        return logical_not(nan)
    seen = cumsum(_convert(nan, dtypes.int32, False), 0)
    return logical_not(lax.bitwise_and(nan, lax.gt(seen, const(1, dtypes.int32))))


def _singletons(x: Array) -> Array:
    """True where an entry of a 1-D ``x`` equals no other entry (NaNs differ from everything)."""
    n = x.shape[0]
    if n == 0:
        return full((0,), True, dtypes.bool_)
    d = dtypes.default_int_dtype()
    keys = sort_keys(x)
    out = lax_sort((*keys, x, iota(d, n)), dimension=0, is_stable=True, num_keys=len(keys))
    xs, perm = out[-2], out[-1]
    starts = _run_starts(xs, equal_nan=False)
    ends = concatenate([slice(starts, (1,), (n,)), full((1,), True, dtypes.bool_)], 0)
    alone = lax.bitwise_and(starts, ends)
    return scatter1(full((n,), False, dtypes.bool_), perm, alone, "set")
