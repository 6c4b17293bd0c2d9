"""Building new arrays from parts of old ones: ``append``, ``insert``, ``delete``, ``resize``,
``rollaxis``, ``compress``, ``extract``, ``place``, ``put``, ``choose``, ``select``,
``piecewise``, ``block``, ``trim_zeros`` and ``sort_complex``.

Positions given as indices, slices or masks (``delete``'s ``obj``, ``compress``'s condition,
``trim_zeros``'s values) must be concrete, since they decide the result's shape; a traced one
raises ``ConcretizationTypeError``. ``place`` and ``put`` need ``inplace=False`` (arrays are
immutable; the default raises, as in JAX).
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from trellax._src.core.basearray import Array
from trellax._src.core.errors import ConcretizationTypeError, TracerBoolConversionError
from trellax._src.dtypes import dtypes
from trellax._src.lax.structural import _convert
from trellax._src.numpy import joining, reductions, shapes, sorting, ufuncs
from trellax._src.numpy.creation import arange, asarray, zeros_like
from trellax._src.numpy.reductions import as_bool, canonicalize_axis, cumsum
from trellax._src.numpy.searching import nonzero, take, take_along_axis
from trellax._src.numpy.selection import where
from trellax._src.numpy.static_args import check_static, moved_axis
from trellax._src.numpy.util import (
    check_arraylike,
    ensure_array,
    promote_args,
    promote_args_complex,
    promote_args_keep_shapes,
)

ArrayLike = Any


def _concrete(name: str, x: Any, what: str) -> np.ndarray[Any, Any]:
    try:
        return np.asarray(x)
    except TypeError:
        if what == "condition":  # JAX's compress and extract test its truth: bool conversion
            raise TracerBoolConversionError(x) from None
        raise ConcretizationTypeError(
            f"{name}: {what} must be concrete (it decides the shape of the result), got a "
            "traced value"
        ) from None


def _is_traced(x: Any) -> bool:
    """Whether ``x`` is a value without data (a tracer), so shape-deciding code cannot read it."""
    if not isinstance(x, Array):
        return False
    try:
        np.asarray(x)
    except TypeError:
        return True
    return False


def _flat_or_axis(name: str, arr: ArrayLike, axis: int | None) -> tuple[Array, int]:
    x = ensure_array(name, arr)
    if axis is None:
        return shapes.ravel(x), 0
    return x, canonicalize_axis(axis, x.ndim)


def _take_static(x: Array, index: np.ndarray[Any, Any], axis: int) -> Array:
    return take(x, asarray(index.astype(np.int32)), axis=axis)


def append(arr: ArrayLike, values: ArrayLike, axis: int | None = None) -> Array:
    """``values`` joined to the end of ``arr`` (both flattened when ``axis`` is None)."""
    check_arraylike("append", arr, values)
    if axis is None:
        return joining.concatenate([shapes.ravel(arr), shapes.ravel(values)], axis=0)
    return joining.concatenate([arr, values], axis=axis)


class _OutOfBounds(IndexError, ValueError):
    """An index out of range: JAX's ValueError, NumPy's IndexError (both catch it)."""


def delete(
    arr: ArrayLike, obj: Any, axis: int | None = None, *, assume_unique_indices: bool = False
) -> Array:
    """``arr`` without the entries ``obj`` (an int, a slice, indices or a mask) along ``axis``."""
    x, ax = _flat_or_axis("delete", arr, axis)
    n = x.shape[ax]
    if assume_unique_indices and _is_traced(obj):
        return _delete_unique_traced(x, obj, ax)
    if isinstance(obj, slice):
        keep = np.delete(np.arange(n), obj)
    else:
        if isinstance(obj, (list, tuple)):  # JAX's TypeError: a sequence is not an array
            raise TypeError(
                f"delete requires ndarray or scalar arguments, got {type(obj)} at position 1."
            )
        index = _concrete("delete", obj, "obj")
        if index.dtype == np.bool_:
            if index.shape != (n,):
                raise ValueError(
                    f"boolean array argument obj to delete must be one dimensional and match "
                    f"the axis length of {n}"
                )
            keep = np.nonzero(~index)[0]
        else:
            # an empty list is float to NumPy, so only a non-integer array or entry is refused
            if not np.issubdtype(index.dtype, np.integer) and (
                index.size or isinstance(obj, Array)
            ):
                raise ValueError(
                    f"np.delete(arr, obj): got obj.dtype={index.dtype}; must be integer or bool."
                )
            index = index.astype(np.int64).ravel()
            if index.size and (index.min() < -n or index.max() >= n):
                raise _OutOfBounds(f"delete: index out of bounds for axis {ax} with size {n}")
            keep = np.delete(np.arange(n), index)
    return _take_static(x, keep, ax)


def _wrap_and_clip(idx: Array, n: int) -> Array:
    """Traced positions into an axis of ``n``: negative ones count from the end, then clamped
    to ``[0, n]``."""
    idx = where(ufuncs.less(idx, 0), ufuncs.add(idx, n), idx)
    return ufuncs.minimum(ufuncs.maximum(idx, 0), n)


def _delete_unique_traced(x: Array, obj: Array, ax: int) -> Array:
    """``delete`` of traced, unique integer indices: the result has ``n - len(obj)`` entries,
    the ``i``-th kept one at ``i`` plus the number of deleted positions at or before it."""
    n = x.shape[ax]
    if not dtypes.issubdtype(obj.dtype, np.integer):
        raise ValueError(f"np.delete(arr, obj): got obj.dtype={obj.dtype}; must be integer.")
    d = dtypes.default_int_dtype()
    idx = _convert(shapes.ravel(obj), d, False)
    idx = _wrap_and_clip(idx, n)
    idx = ufuncs.subtract(sorting.sort(idx), arange(idx.size, dtype=d))
    kept = arange(n - idx.size, dtype=d)
    before = ufuncs.greater_equal(kept[None, :], idx[:, None])
    kept = ufuncs.add(kept, reductions.sum(before, axis=0, dtype=d))
    return take(x, kept, axis=ax, mode="clip")


def insert(arr: ArrayLike, obj: Any, values: ArrayLike, axis: int | None = None) -> Array:
    """``values`` inserted before the positions ``obj`` along ``axis`` (in ``arr``'s dtype)."""
    # JAX checks the positions with the arrays, before the axis: a list of positions is its
    # TypeError whatever the axis
    check_arraylike("insert", arr, 0 if isinstance(obj, slice) or _is_traced(obj) else obj, values)
    x, ax = _flat_or_axis("insert", arr, axis)
    n = x.shape[ax]
    v = ensure_array("insert", values)
    v = _convert(v, x.dtype, x.weak_type) if v.dtype != x.dtype else v
    if _is_traced(obj):
        return _insert_traced(x, ax, obj, v)
    if isinstance(obj, slice):
        index = np.arange(*obj.indices(n))
    else:
        index = _concrete("insert", obj, "obj")
        if index.dtype == np.bool_ or not np.issubdtype(index.dtype, np.integer):
            raise ValueError(
                f"trellax.numpy.insert(): index array must be integer typed; got {index}"
            )
    if index.ndim > 1:
        raise ValueError("insert: the index array obj must be one-dimensional or a scalar")
    scalar = index.ndim == 0
    index = index.astype(np.int64).ravel()
    # JAX's rule (also under jit): a negative index counts from the end, then every index is
    # clipped into [0, n] (NumPy raises IndexError out of range)
    index = np.clip(np.where(index < 0, index + n, index), 0, n)
    if scalar:
        # NumPy's rule: the values' leading axis becomes the inserted slab along ``axis``
        v = shapes.reshape(v, (1,) * (x.ndim - v.ndim) + tuple(v.shape)) if v.ndim < x.ndim else v
        v = shapes.moveaxis(v, 0, ax)
        count = v.shape[ax]
        index = np.repeat(index, count)
    else:
        count = index.size
    slab_shape = list(x.shape)
    slab_shape[ax] = count
    v = shapes.broadcast_to(v, tuple(slab_shape))
    order = np.argsort(index, kind="stable")
    positions = index.copy()
    positions[order] += np.arange(count)
    perm = np.empty(n + count, np.int64)
    old = np.ones(n + count, bool)
    old[positions] = False
    perm[positions] = n + np.arange(count)
    perm[old] = np.arange(n)
    return _take_static(joining.concatenate([x, v], axis=ax), perm, ax)


def _insert_traced(x: Array, ax: int, obj: Array, v: Array) -> Array:
    """``insert`` at traced integer positions (the count of inserted slabs is static: one per
    index, or the values' length for a single index, as NumPy's rule)."""
    if not dtypes.issubdtype(obj.dtype, np.integer) or obj.ndim > 1:
        raise ValueError(f"trellax.numpy.insert(): index array must be integer typed; got {obj}")
    n = x.shape[ax]
    d = dtypes.default_int_dtype()
    idx = _wrap_and_clip(_convert(obj, d, False), n)
    if obj.ndim == 0:
        v = shapes.reshape(v, (1,) * (x.ndim - v.ndim) + tuple(v.shape)) if v.ndim < x.ndim else v
        v = shapes.moveaxis(v, 0, ax)
        count = v.shape[ax]
        idx = shapes.broadcast_to(idx, (count,))
    else:
        count = idx.shape[0]
    slab_shape = list(x.shape)
    slab_shape[ax] = count
    vf = shapes.moveaxis(shapes.broadcast_to(v, tuple(slab_shape)), ax, 0)
    xf = shapes.moveaxis(x, ax, 0)
    order = sorting.argsort(idx)
    values_at = idx.at[order].add(arange(count, dtype=d))
    old = asarray(np.ones(n + count, bool)).at[values_at].set(False)
    (old_at,) = nonzero(old, size=n)
    out = zeros_like(xf, shape=(n + count, *xf.shape[1:]))
    out = out.at[values_at].set(vf).at[old_at].set(xf)
    return shapes.moveaxis(out, 0, ax)


def resize(a: ArrayLike, new_shape: Any) -> Array:
    """``a``'s elements repeated cyclically to fill ``new_shape``."""
    check_static("resize", new_shape=new_shape)
    x = shapes.ravel(ensure_array("resize", a))
    shape = shapes.canonical_shape("resize", new_shape)
    if any(s < 0 for s in shape):
        raise ValueError("All elements of `new_shape` must be non-negative")
    size = int(np.prod(shape))
    if x.size == 0 or size == 0:
        return zeros_like(x, shape=shape)
    repeats = -(-size // x.size)
    return shapes.reshape(joining.tile(x, repeats)[:size], shape)


def rollaxis(a: ArrayLike, axis: int, start: int = 0) -> Array:
    """``axis`` moved to lie before position ``start`` (prefer ``moveaxis``)."""
    x = ensure_array("rollaxis", a)
    ax = canonicalize_axis(axis, x.ndim)
    start = operator.index(start)
    if not -x.ndim <= start <= x.ndim:
        raise ValueError(f"rollaxis: start={start} must satisfy {-x.ndim} <= start <= {x.ndim}")
    start = start + x.ndim if start < 0 else start  # NumPy's rule: -1 is before the last axis
    if ax < start:
        start -= 1
    return shapes.moveaxis(x, ax, start)


def _bool_positions(name: str, condition: Any) -> np.ndarray[Any, Any]:
    c = _concrete(name, condition, "condition")
    if c.ndim != 1:
        raise ValueError(f"{name}: condition must be a 1-D array, got shape {c.shape}")
    return np.nonzero(c.astype(bool))[0]


def compress(
    condition: ArrayLike,
    a: ArrayLike,
    axis: int | None = None,
    *,
    size: int | None = None,
    fill_value: ArrayLike = 0,
    out: None = None,
) -> Array:
    """The slices of ``a`` along ``axis`` where ``condition`` is true."""
    if out is not None:
        raise NotImplementedError("The 'out' argument to trellax.numpy.compress is not supported.")
    check_arraylike("compress", condition, a, fill_value)  # JAX's TypeError for None or a list
    if axis is not None:  # JAX moves the axis to the front with moveaxis
        axis = moved_axis("compress", axis)
    x, ax = _flat_or_axis("compress", a, axis)
    if size is not None:
        return _compress_sized(condition, x, ax, operator.index(size), fill_value)
    keep = _bool_positions("compress", condition)
    if keep.size and keep.max() >= x.shape[ax]:
        raise ValueError(
            f"compress: condition has {keep.max() + 1}+ entries but axis {ax} has length "
            f"{x.shape[ax]}"
        )
    return _take_static(x, keep, ax)


def _compress_sized(
    condition: ArrayLike, x: Array, ax: int, size: int, fill_value: ArrayLike
) -> Array:
    """``compress`` with a static ``size`` (the condition may be traced): the first ``size``
    kept slices, then ``fill_value``. As in JAX, entries of the condition past the axis are
    ignored, and ``size`` may not exceed the shorter of the condition and the axis."""
    c = condition if isinstance(condition, Array) else asarray(condition)
    if c.ndim != 1:
        raise ValueError("condition must be a 1D array")
    n = x.shape[ax]
    m = min(c.shape[0], n)
    if not 0 <= size <= m:
        raise ValueError(
            "size must be positive and not greater than the size of the array axis; got "
            f"size={size} for a.shape[axis]={m}"
        )
    (positions,) = nonzero(c[:m], size=size, fill_value=n)
    fill = _convert(ensure_array("compress", fill_value), x.dtype, False)
    return take(x, positions, axis=ax, mode="fill", fill_value=fill)


def extract(
    condition: ArrayLike, arr: ArrayLike, *, size: int | None = None, fill_value: ArrayLike = 0
) -> Array:
    """The elements of ``arr`` where ``condition`` is true (both flattened)."""
    check_arraylike("extract", condition, arr, fill_value)  # JAX's TypeError for None or a list
    if size is not None and _is_traced(condition):
        c: Any = shapes.ravel(condition)
    else:
        c = _concrete("extract", condition, "condition").ravel()
    return compress(c, shapes.ravel(arr), size=size, fill_value=fill_value)


def place(arr: ArrayLike, mask: ArrayLike, vals: ArrayLike, *, inplace: bool = True) -> Array:
    """A copy of ``arr`` whose masked elements take ``vals`` in turn (cycled); needs
    ``inplace=False``."""
    if inplace:
        raise ValueError(
            "trellax.numpy.place cannot modify arrays in-place, because trellax arrays are "
            "immutable. Pass inplace=False to instead return an updated array."
        )
    x = ensure_array("place", arr)
    if _is_traced(mask):
        return _place_traced(x, mask, ensure_array("place", vals))
    m = _concrete("place", mask, "mask").astype(bool)
    if m.shape != tuple(x.shape):
        m = np.broadcast_to(m, x.shape)
    positions = np.nonzero(m.ravel())[0]
    v = shapes.ravel(ensure_array("place", vals))
    if positions.size == 0:
        return x
    if v.size == 0:
        raise ValueError("Cannot place values from an empty array")
    v = _take_static(v, np.arange(positions.size) % v.size, 0)
    flat = shapes.ravel(x).at[asarray(positions.astype(np.int32))].set(v)
    return shapes.reshape(flat, tuple(x.shape))


def _place_traced(x: Array, mask: Array, vals: Array) -> Array:
    """``place`` with a traced mask: the ``k``-th masked element takes ``vals[k % len]``."""
    m = shapes.ravel(shapes.broadcast_to(_convert(mask, dtypes.bool_, False), tuple(x.shape)))
    v = shapes.ravel(vals)
    if v.size == 0:
        raise ValueError("Cannot place values from an empty array")
    k = ufuncs.remainder(ufuncs.subtract(cumsum(m, dtype=dtypes.int32), 1), v.size)
    picked = take(_convert(v, x.dtype, False), k, mode="clip")
    return shapes.reshape(where(m, picked, shapes.ravel(x)), tuple(x.shape))


def put(
    a: ArrayLike, ind: ArrayLike, v: ArrayLike, mode: str | None = None, *, inplace: bool = True
) -> Array:
    """A copy of ``a`` with the flat positions ``ind`` set to ``v`` (cycled); needs
    ``inplace=False``. ``mode``: 'clip' clamps every index to ``[0, size - 1]`` (negative ones
    to 0), None counts a negative index from the end and clamps, 'wrap' wraps."""
    if inplace:
        raise ValueError(
            "trellax.numpy.put cannot modify arrays in-place, because trellax arrays are "
            "immutable. Pass inplace=False to instead return an updated array."
        )
    check_arraylike("put", a, ind, v)
    x = ensure_array("put", a)
    i = shapes.ravel(ensure_array("put", ind))
    values = shapes.ravel(ensure_array("put", v))
    if i.size == 0 or values.size == 0:
        return x
    if mode == "raise":
        raise NotImplementedError("The 'raise' mode to trellax.numpy.put is not supported.")
    if mode not in (None, "clip", "wrap"):
        raise ValueError(f"mode should be one of 'wrap' or 'clip'; got {mode=}")
    if mode == "wrap":
        i = ufuncs.remainder(i, x.size)
    elif mode == "clip":  # clamped to [0, size - 1]: a negative index is position 0, as JAX's
        i = ufuncs.minimum(ufuncs.maximum(i, 0), x.size - 1)
    else:  # None: a negative index counts from the end once, then the index is clamped
        i = ufuncs.minimum(ufuncs.maximum(i, -x.size), x.size - 1)
        i = where(ufuncs.less(i, 0), ufuncs.add(i, x.size), i)
    values = _take_static(values, np.arange(i.size) % values.size, 0)
    flat = shapes.ravel(x).at[i].set(values)
    return shapes.reshape(flat, tuple(x.shape))


def choose(
    a: ArrayLike, choices: Sequence[ArrayLike], out: None = None, mode: str = "raise"
) -> Array:
    """``choices[a[i]][i]`` for every ``i`` (all broadcast together; ``mode``: 'raise', 'wrap',
    'clip')."""
    if out is not None:
        raise NotImplementedError("The 'out' argument to trellax.numpy.choose is not supported.")
    check_arraylike("choose", a, *choices)
    index = ensure_array("choose", a)
    if not dtypes.issubdtype(index.dtype, np.integer):
        raise ValueError("`a` array must be integer typed")
    n = len(choices)
    if mode == "raise":
        if _is_traced(index):
            raise ConcretizationTypeError(
                index,
                "jnp.choose. The error occurred because jnp.choose was jit-compiled with "
                "mode='raise'. Use mode='wrap' or mode='clip' instead.",
            )
        values = np.asarray(index)
        if values.size and (values.min() < 0 or values.max() >= n):
            raise ValueError("invalid entry in choice array")
    elif mode == "wrap":
        index = ufuncs.remainder(index, n)
    elif mode == "clip":
        index = ufuncs.minimum(ufuncs.maximum(index, 0), n - 1)
    else:
        raise ValueError(f"mode={mode!r} not understood. Must be 'raise', 'wrap', or 'clip'")
    arrays = shapes.broadcast_arrays(index, *promote_args_keep_shapes("choose", *choices))
    index, picked = arrays[0], joining.stack(arrays[1:])

    chosen = take_along_axis(picked, shapes.expand_dims(index, 0), axis=0)[0]
    return _convert(chosen, chosen.dtype, False)  # JAX's choose gives a strong result


def select(
    condlist: Sequence[ArrayLike], choicelist: Sequence[ArrayLike], default: ArrayLike = 0
) -> Array:
    """The choice of the first true condition, element by element (``default`` where none is).

    As in JAX, an array ``condlist``/``choicelist`` is the sequence of its rows, and a condition
    that is not boolean is true where it is nonzero."""
    condlist, choicelist = _rows(condlist), _rows(choicelist)
    if len(condlist) != len(choicelist):
        raise ValueError(
            f"condlist must have length equal to choicelist ({len(condlist)} vs {len(choicelist)})"
        )
    if not condlist:
        raise ValueError("condlist must be non-empty")
    check_arraylike("select", *condlist, *choicelist, default)
    conds = [as_bool(ensure_array("select", c)) for c in condlist]  # a 1j condition is true
    *choices, fallback = promote_args("select", *choicelist, default)
    result = fallback
    for c, choice in zip(reversed(conds), reversed(choices), strict=True):
        result = where(c, choice, result)
    return result


def _rows(seq: Any) -> Any:
    return list(seq) if isinstance(seq, (Array, np.ndarray)) else seq


def piecewise(
    x: ArrayLike,
    condlist: Array | Sequence[ArrayLike],
    funclist: Sequence[ArrayLike | Callable[..., Array]],
    *args: Any,
    **kw: Any,
) -> Array:
    """Each ``funclist[i]`` (a function of ``x`` or a constant) where ``condlist[i]`` holds; one
    extra entry gives the value where no condition does. Every function is evaluated on all of
    ``x`` and the results selected (no Python branching, so it traces under ``jit``)."""
    check_arraylike("piecewise", x)
    xa = ensure_array("piecewise", x)
    conds = (
        list(condlist) if not isinstance(condlist, Array) or condlist.ndim > xa.ndim else [condlist]
    )
    n = len(conds)
    funcs = list(funclist)
    if len(funcs) == n + 1:
        otherwise = funcs.pop()
    elif len(funcs) == n:
        otherwise = 0
    else:
        raise ValueError(
            f"with {n} condition(s), either {n} or {n + 1} functions are expected; got {len(funcs)}"
        )

    def value(f: Any) -> Array:
        out = f(xa, *args, **kw) if callable(f) else f
        return shapes.broadcast_to(
            _convert(ensure_array("piecewise", out), xa.dtype, False), tuple(xa.shape)
        )

    result = value(otherwise)
    for c, f in zip(conds, funcs, strict=True):
        result = where(ensure_array("piecewise", c), value(f), result)
    return result


def _block_depth(arrays: Any) -> tuple[int, int]:
    """(list depth, max array rank) of a nested ``block`` argument; the depth must be uniform."""
    if isinstance(arrays, tuple):
        raise TypeError("trellax.numpy.block does not allow tuples; use lists")
    if isinstance(arrays, list):
        if not arrays:
            raise ValueError("Lists cannot be empty")
        results = [_block_depth(a) for a in arrays]
        depths = {d for d, _ in results}
        if len(depths) != 1:
            raise ValueError("List depths are mismatched in trellax.numpy.block")
        return depths.pop() + 1, max(r for _, r in results)
    return 0, ensure_array("block", arrays).ndim


def block(arrays: Any) -> Array:
    """An array assembled from nested lists of blocks (the innermost lists join along the last
    axis, the next ones along the axis before, ...)."""
    depth, rank = _block_depth(arrays)
    ndim = max(depth, rank)

    def build(a: Any, level: int) -> Array:
        if level == depth:
            x = ensure_array("block", a)
            return shapes.reshape(x, (1,) * (ndim - x.ndim) + tuple(x.shape))
        return joining.concatenate([build(b, level + 1) for b in a], axis=level - depth)

    if depth == 0:
        return ensure_array("block", arrays)
    return build(arrays, 0)


def trim_zeros(filt: ArrayLike, trim: str = "fb", axis: Any = None) -> Array:
    """``filt`` without its leading ('f') and/or trailing ('b') zeros along ``axis`` (every axis
    when None: the bounding box of the nonzero entries, as NumPy 2 and JAX trim N-D input; a
    0-d input is returned as it is). All zeros give an empty array."""
    x = ensure_array("trim_zeros", filt)
    check_static("trim_zeros", axis=axis)
    values = _concrete("trim_zeros", x, "filt")  # JAX needs the values before anything else
    axes = (
        set(range(x.ndim))
        if axis is None
        else {canonicalize_axis(a, x.ndim) for a in (axis if isinstance(axis, tuple) else (axis,))}
    )
    if x.ndim == 0:
        return x
    mode = trim.lower()
    nonzero = np.nonzero(values)
    if nonzero[0].size == 0:
        return x[tuple(slice(0, 0) if i in axes else slice(None) for i in range(x.ndim))]
    box = tuple(
        slice(int(p.min()) if "f" in mode else 0, int(p.max()) + 1 if "b" in mode else n)
        if i in axes
        else slice(None)
        for i, (p, n) in enumerate(zip(nonzero, x.shape, strict=True))
    )
    return x[box]


def sort_complex(a: ArrayLike) -> Array:
    """``a`` sorted along its last axis (by real, then imaginary part), as a complex array."""
    (x,) = promote_args_complex("sort_complex", a)
    out = sorting.sort(x, axis=-1)
    return _convert(out, out.dtype, False)  # JAX ends with astype: a strong result
