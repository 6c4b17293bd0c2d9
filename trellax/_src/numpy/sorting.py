"""Sorting: ``sort``, ``argsort``, ``lexsort``, ``partition``, ``argpartition``.

All go through ``lax.sort`` (stable). NaNs sort to the end; complex numbers sort
lexicographically by (real, imag). ``sort`` keeps the dtype and weak flag; index results are
strong default ints, except ``argpartition``, which returns int32 with the input's weak flag,
as JAX does (its result comes from ``lax.top_k``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from trellax._src.core.basearray import Array
from trellax._src.core.core import broadcast_shapes
from trellax._src.dtypes import dtypes
from trellax._src.lax import elementwise as lax
from trellax._src.lax._base import canonicalize_axes
from trellax._src.lax.convenience import top_k
from trellax._src.lax.reductions import sort as lax_sort
from trellax._src.lax.structural import (
    _convert,
    bitcast_convert_type,
    broadcast_to,
    broadcasted_iota,
    concatenate,
    rev,
    select_n,
    slice_in_dim_static,
)
from trellax._src.numpy.searching import _asarray, const, ravel
from trellax._src.numpy.static_args import check_static, int_axis
from trellax._src.numpy.util import ensure_array

ArrayLike = Any


def sort_keys(x: Array) -> list[Array]:
    """The lax.sort keys that order ``x`` (real and imaginary parts for complex)."""
    if dtypes.kind(x.dtype) == "c":
        return [lax.real(x), lax.imag(x)]
    return [x]


def _check_sort_args(fun_name: str, kind: Any, order: Any) -> None:
    if kind is not None:
        raise TypeError(
            f"'kind' argument to {fun_name} is not supported; use stable=True or stable=False"
        )
    if order is not None:
        raise TypeError(f"'order' argument to {fun_name} is not supported.")


def _axis(fun_name: str, x: Array, axis: int | None) -> tuple[Array, int]:
    """``x`` (flattened when ``axis`` is None) and the axis to sort along; refuses 0-d input."""
    if axis is None:
        return ravel(x), 0
    (ax,) = canonicalize_axes(fun_name, (axis,), x.ndim)
    if x.ndim == 0:
        raise ValueError(f"{fun_name}: axis 0 is out of bounds for an array of dimension 0")
    return x, ax


def sort(
    a: ArrayLike,
    axis: int | None = -1,
    *,
    kind: None = None,
    order: None = None,
    stable: bool = True,
    descending: bool = False,
) -> Array:
    """A sorted copy along ``axis`` (of the flattened array when None); keeps dtype and weak
    flag. ``descending=True`` is the ascending sort reversed, as in JAX (equal values that
    differ, -0.0 and 0.0, come out in reverse order)."""
    _check_sort_args("sort", kind, order)
    x, ax = _axis("sort", _asarray("sort", a), axis)
    keys = sort_keys(x)
    if len(keys) == 1:
        out = lax_sort(x, dimension=ax, is_stable=True)
    else:
        out = lax_sort((*keys, x), dimension=ax, is_stable=True, num_keys=len(keys))[-1]
    return rev(out, (ax,)) if descending else out


def argsort(
    a: ArrayLike,
    axis: int | None = -1,
    *,
    kind: None = None,
    order: None = None,
    stable: bool = True,
    descending: bool = False,
    dtype: Any = None,
) -> Array:
    """Indices that sort ``a`` along ``axis`` (stable: ties keep their order, also when
    ``descending``; ``descending`` with ``stable=False`` is the ascending order reversed, ties
    last-first, as JAX's). Default-int result (``dtype`` overrides)."""
    _check_sort_args("argsort", kind, order)
    x, ax = _axis("argsort", _asarray("argsort", a), axis)
    d = dtypes.default_int_dtype() if dtype is None else dtypes.check_user_dtype(dtype, "argsort")
    if d == dtypes.bool_:  # JAX sorts an iota of the dtype along: any number type but bool
        raise TypeError("argsort: dtype must be a number type, got bool")
    idx = broadcasted_iota(d, x.shape, ax)  # in d: float16 positions round, int8 ones wrap
    if descending and stable:  # reversed, so ties keep their order once reversed back
        x, idx = rev(x, (ax,)), rev(idx, (ax,))
    keys = sort_keys(x)
    out: Array = lax_sort((*keys, idx), dimension=ax, is_stable=True, num_keys=len(keys))[-1]
    return rev(out, (ax,)) if descending else out


def lexsort(keys: Sequence[ArrayLike] | ArrayLike, axis: int = -1) -> Array:
    """Indices that sort by several keys: the *last* key is the primary one (NumPy's order).

    >>> import trellax.numpy as tnp
    >>> lexsort((tnp.asarray([1, 0, 1]), tnp.asarray([0, 0, -1])))
    Array([2, 1, 0], dtype=int32)
    """
    check_static("lexsort", axis=axis)
    ks: list[Array]
    if isinstance(keys, (list, tuple)):
        ks = [_asarray("lexsort", k) for k in keys]
    else:
        arr = ensure_array("lexsort", keys)
        if arr.ndim == 0:
            raise TypeError("lexsort: keys must be a sequence of arrays or an array of rank >= 1")
        ks = [arr[i] for i in range(arr.shape[0])]
    if not ks:
        raise TypeError("need sequence of keys with len > 0 in lexsort")

    if len({tuple(k.shape) for k in ks}) > 1:  # JAX's rule (and NumPy's): no broadcasting
        raise ValueError("all keys need to be the same shape")
    shape = broadcast_shapes(*[tuple(k.shape) for k in ks])
    ks = [broadcast_to(k, shape) for k in ks]
    d = dtypes.default_int_dtype()
    if not shape:  # scalar keys: one element, at index 0 (as JAX and NumPy)
        zero: Array = broadcasted_iota(d, (1,), 0).reshape(())
        return zero
    (ax,) = canonicalize_axes("lexsort", (axis,), len(shape))
    sort_ops = [k2 for k in reversed(ks) for k2 in sort_keys(k)]
    idx = broadcasted_iota(d, shape, ax)
    out: Array = lax_sort((*sort_ops, idx), dimension=ax, is_stable=True, num_keys=len(sort_ops))[
        -1
    ]
    return out


def _check_kth(fun_name: str, kth: Any, n: int) -> int:
    import operator

    try:
        k = operator.index(kth)
    except TypeError:
        raise TypeError(f"{fun_name}: kth must be a static integer, got {kth!r}") from None
    if not -n <= k < n:
        raise ValueError(f"{fun_name}: kth(={k}) out of bounds for axis of size {n}")
    return k


def _reversed_order(x: Array) -> Array:
    """An exact map of ``x`` that reverses its order (and is its own inverse): ``~x`` for
    integers and bools (no overflow at the minimum, unlike ``-x``), ``-x`` for floats (the total
    order -NaN < -inf < ... < -0.0 < 0.0 < ... < inf < NaN, reversed)."""
    return lax.bitwise_not(x) if dtypes.kind(x.dtype) in "biu" else lax.neg(x)


def partition(a: ArrayLike, kth: int, axis: int = -1) -> Array:
    """A copy with the element that would be at position ``kth`` in sorted order moved there:
    the ``kth + 1`` smallest in ascending order, then the others in descending order (JAX's
    arrangement, which it builds from two ``top_k``; here one sort by the floats' total order,
    -NaN < -inf < ... < -0.0 < 0.0 < ... < NaN, the tail reversed). Complex input, which
    ``top_k`` refuses, is fully sorted (a valid partition)."""
    check_static("partition", kth=kth, axis=axis)
    x = _asarray("partition", a)
    (ax,) = canonicalize_axes("partition", (int_axis("partition", axis),), x.ndim)
    n = x.shape[ax]
    k = _check_kth("partition", kth, n) % n
    if dtypes.kind(x.dtype) == "c":
        return sort(x, ax)
    # one sort in the total order (what JAX's two top_k give), then the tail reversed
    if dtypes.kind(x.dtype) == "f":
        width = 8 * np.dtype(x.dtype).itemsize
        bits = bitcast_convert_type(x, np.dtype(f"uint{width}"))
        negative = lax.lt(
            bitcast_convert_type(x, np.dtype(f"int{width}")), const(0, np.dtype(f"int{width}"))
        )
        sign = const(1 << (width - 1), bits.dtype)
        key = select_n(negative, lax.bitwise_or(bits, sign), lax.bitwise_not(bits))
        ordered = lax_sort((key, x), dimension=ax, is_stable=True, num_keys=1)[1]
    else:
        ordered = lax_sort(x, dimension=ax, is_stable=True)
    low = slice_in_dim_static(ordered, 0, k + 1, ax)
    high = rev(slice_in_dim_static(ordered, k + 1, n, ax), (ax,))
    return _convert(concatenate([low, high], ax), x.dtype, x.weak_type)


def argpartition(a: ArrayLike, kth: int, axis: int = -1) -> Array:
    """Indices that partition ``a`` at ``kth``: those of the ``kth + 1`` smallest entries in
    ascending order of value (ties: lower index first), then the other indices in increasing
    order, as JAX's. int32 with ``a``'s weak flag, as in JAX (its indices come from
    ``lax.top_k``). Complex input gives the indices that sort it."""
    check_static("argpartition", kth=kth, axis=axis)
    x = _asarray("argpartition", a)
    (ax,) = canonicalize_axes("argpartition", (int_axis("argpartition", axis),), x.ndim)
    n = x.shape[ax]
    k = _check_kth("argpartition", kth, n) % n
    i32 = dtypes.int32
    if dtypes.kind(x.dtype) == "c":
        return _convert(argsort(x, ax, dtype=i32), i32, x.weak_type)
    order = top_k(_reversed_order(x), n, axis=ax)[1]  # every index, smallest value first
    iota = broadcasted_iota(i32, x.shape, ax)
    rank = lax_sort((order, iota), dimension=ax, is_stable=True, num_keys=1)[1]
    chosen = _convert(lax.lt(rank, const(k + 1, i32)), i32, False)
    others = lax_sort((chosen, iota), dimension=ax, is_stable=True, num_keys=1)[1]
    low = slice_in_dim_static(order, 0, k + 1, ax)
    high = slice_in_dim_static(others, 0, n - k - 1, ax)
    return _convert(concatenate([low, high], ax), i32, x.weak_type)
