"""``pad``: NumPy's padding modes built from ``lax`` slices, reversals, broadcasts and joins.

Padding never changes the dtype: ``constant_values`` and computed statistics are *cast* to the
array's dtype, not promoted (``pad(int8, 1, constant_values=1.5)`` is int8 padded with 1), and the
weak flag is kept. Pad widths must be static non-negative integers; the fill values may be
traced.

Modes: 'constant', 'edge', 'reflect' and 'symmetric' (``reflect_type`` 'even' or 'odd'),
'wrap', 'linear_ramp', 'maximum', 'minimum', 'mean', 'median', 'empty' (zeros: arrays are
immutable, so there is nothing uninitialized to return), or a function that returns each padded
lane (``mode(lane, (before, after), axis, kwargs)``).
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any

import numpy as np

from trellax._src.core import core
from trellax._src.core.basearray import Array
from trellax._src.core.errors import ConcretizationTypeError
from trellax._src.dtypes import dtypes
from trellax._src.lax import elementwise as lax
from trellax._src.lax import structural as lax_structural
from trellax._src.lax.structural import _convert, broadcast_in_dim, broadcasted_iota, rev
from trellax._src.numpy import reductions, statistics, ufuncs
from trellax._src.numpy.creation import asarray
from trellax._src.numpy.functional import apply_along_axis
from trellax._src.numpy.reductions import const
from trellax._src.numpy.shapes import _slice_axis
from trellax._src.numpy.util import ensure_array

ArrayLike = Any
Pairs = tuple[tuple[int, int], ...]

_ALLOWED_KWARGS = {
    "constant": ("constant_values",),
    "edge": (),
    "wrap": (),
    "empty": (),
    "reflect": ("reflect_type",),
    "symmetric": ("reflect_type",),
    "linear_ramp": ("end_values",),
    "maximum": ("stat_length",),
    "minimum": ("stat_length",),
    "mean": ("stat_length",),
    "median": ("stat_length",),
}


def _all_concrete(value: Any) -> bool:
    if isinstance(value, (list, tuple)):
        return all(_all_concrete(v) for v in value)
    return core.is_concrete(value)


def _pairs(
    value: Any, ndim: int, name: str, *, integral: bool = True
) -> tuple[tuple[Any, Any], ...]:
    """``value`` broadcast to one ``(before, after)`` pair per axis (NumPy's accepted shapes)."""
    if not _all_concrete(value):
        raise ConcretizationTypeError(value, f"the {name} argument of trellax.numpy.pad")
    arr = np.asarray(value, dtype=object if not integral else None)
    if arr.dtype == object and integral:
        raise TypeError(f"`{name}` entries must be the same shape: {value!r}")
    if arr.shape == (ndim, 2):
        rows = arr
    elif arr.shape in ((1, 2), (2,)):
        rows = np.broadcast_to(arr.reshape(1, 2), (ndim, 2))
    elif arr.shape in ((1,), ()):
        rows = np.broadcast_to(arr.reshape(1, 1), (ndim, 2))
    else:
        raise ValueError(
            f"trellax.numpy.pad: {name} with nd={ndim} has unsupported shape {arr.shape}. Valid "
            "shapes are "
            f"({ndim}, 2), (1, 2), (2,), (1,), or ()."
        )
    # JAX checks the shape first, then the type of the widths used (none for a 0-d array)
    if integral and rows.size and arr.dtype.kind not in "iu":
        raise TypeError(f"`{name}` must be of integral type. Got {value!r}")
    if integral:
        out = tuple((operator.index(lo), operator.index(hi)) for lo, hi in rows)
        if any(v < 0 for pair in out for v in pair):
            raise ValueError(f"pad: {name} can't contain negative values, got {value!r}")
        return out
    return tuple((lo, hi) for lo, hi in rows)


def _pad_function(
    x: Array, widths: Pairs, function: Callable[..., Any], kwargs: dict[str, Any]
) -> Array:
    """A callable ``mode``: zeros are padded on, then, axis by axis, every 1-D lane along the
    axis is replaced by ``function(lane, (before, after), axis, kwargs)``. NumPy's function
    writes into the lane; here (as in JAX) it returns the new lane, mapped over the lanes."""
    out = _pad_constant(x, widths, 0)
    for axis in range(out.ndim):
        out = apply_along_axis(function, axis, out, widths[axis], axis, kwargs)
    return out


def pad(array: ArrayLike, pad_width: Any, mode: Any = "constant", **kwargs: Any) -> Array:
    """Pads ``array`` with ``pad_width`` = ``((before, after), ...)`` (or one pair, or one int
    for every side).

    >>> import trellax.numpy as tnp
    >>> tnp.pad(tnp.arange(3, dtype="int8"), 1, constant_values=1.5)
    Array([1, 0, 1, 2, 1], dtype=int8)
    """
    x = ensure_array("pad", array)
    if callable(mode):
        return _pad_function(x, _pairs(pad_width, x.ndim, "pad_width"), mode, kwargs)
    if not isinstance(mode, str) or mode not in _ALLOWED_KWARGS:
        raise NotImplementedError(f"Unimplemented padding mode '{mode}' for np.pad.")
    unsupported = set(kwargs) - set(_ALLOWED_KWARGS[mode])
    if unsupported:
        raise ValueError(f"unsupported keyword arguments for mode '{mode}': {sorted(unsupported)}")
    widths = _pairs(pad_width, x.ndim, "pad_width")
    if x.ndim == 0:
        return x  # nothing to pad (JAX returns a 0-d input as it is)
    if mode == "constant":
        return _pad_constant(x, widths, kwargs.get("constant_values", 0))
    if mode == "empty":
        return _pad_constant(x, widths, 0)
    if x.size == 0 and mode in _EMPTY_ERRORS:  # JAX computes these along every axis, padded
        raise _EMPTY_ERRORS[mode](  # or not: an empty array fails whatever the widths
            f"pad: mode '{mode}' has no values to take from an empty array"
        )
    for i, (lo, hi) in enumerate(widths):
        if x.shape[i] == 0 and (lo or hi) and mode != "mean":  # an empty mean is NaN (JAX)
            raise ValueError(
                f"can't extend empty axis {i} using modes other than 'constant' or 'empty'"
            )
    if mode == "edge":
        return _pad_edge(x, widths)
    if mode in ("reflect", "symmetric"):
        reflect_type = kwargs.get("reflect_type", "even")
        if reflect_type not in ("even", "odd"):
            raise ValueError(f"pad: reflect_type must be 'even' or 'odd', got {reflect_type!r}")
        return _pad_reflect(x, widths, mode == "reflect", reflect_type == "odd")
    if mode == "wrap":
        return _pad_wrap(x, widths)
    if mode == "linear_ramp":
        ends = _pairs(kwargs.get("end_values", 0), x.ndim, "end_values", integral=False)
        return _pad_linear_ramp(x, widths, ends)
    stat_length = kwargs.get("stat_length")
    lengths = None if stat_length is None else _pairs(stat_length, x.ndim, "stat_length")
    stats: dict[str, Callable[..., Array]] = {
        "maximum": reductions.max,
        "minimum": reductions.min,
        "mean": reductions.mean,
        "median": statistics.median,
    }
    return _pad_stats(x, widths, lengths, stats[mode])


#: modes that fail on an empty array in JAX, with its error class: the reductions without an
#: identity (ValueError) and the ones that gather or slice an element (TypeError)
_EMPTY_ERRORS: dict[str, type[Exception]] = {
    "maximum": ValueError,
    "minimum": ValueError,
    "median": TypeError,
    "linear_ramp": TypeError,
}


def _fill_value(x: Array, value: Any) -> Array:
    """A fill value cast (not promoted) to ``x``'s dtype, keeping ``x``'s weak flag."""
    return _cast(value, x.dtype, x.weak_type)


def _cast(value: Any, d: np.dtype[Any], weak_type: bool = False) -> Array:
    v = ensure_array("pad", value)
    if dtypes.kind(v.dtype) == "c" and dtypes.kind(d) != "c":
        v = lax.real(v)  # the real part, without the complex-to-real cast warning
    return _convert(v, d, weak_type)


def _pad_constant(x: Array, widths: Pairs, constant_values: Any) -> Array:
    if isinstance(constant_values, (list, tuple)):
        constant_values = asarray(constant_values)
    values = _fill_value(x, constant_values)
    if values.ndim == 1 and values.shape[0] == 1:
        values = lax_structural.reshape(values, ())
    if values.ndim == 0:
        return lax_structural.pad(x, values, [(lo, hi, 0) for lo, hi in widths])
    if values.ndim == 1 and values.shape[0] != 2:
        raise ValueError(
            f"pad: constant_values has unsupported shape {tuple(values.shape)}. If the shape is "
            "1D or 2D, the last dimension must be of size 1 or 2."
        )
    values = lax_structural.broadcast_to(values, (x.ndim, 2))
    for i, (lo, hi) in enumerate(widths):
        for side, n in ((0, lo), (1, hi)):
            if n:
                config = [(0, 0, 0)] * x.ndim
                config[i] = (n, 0, 0) if side == 0 else (0, n, 0)
                value = lax_structural.reshape(
                    lax_structural.slice(values, (i, side), (i + 1, side + 1)), ()
                )
                x = lax_structural.pad(x, value, config)
    return x


def _repeat_slab(slab: Array, axis: int, n: int) -> Array:
    """A length-1 slab along ``axis`` broadcast to length ``n``."""
    shape = list(slab.shape)
    shape[axis] = n
    return broadcast_in_dim(slab, tuple(shape), tuple(range(slab.ndim)))


def _join(parts: list[Array], axis: int) -> Array:
    parts = [p for p in parts if p.shape[axis]] or parts[:1]
    return lax_structural.concatenate(parts, axis)


def _pad_edge(x: Array, widths: Pairs) -> Array:
    for i, (lo, hi) in enumerate(widths):
        if not (lo or hi):
            continue
        n = x.shape[i]
        before = _repeat_slab(_slice_axis(x, i, 0, 1), i, lo)
        after = _repeat_slab(_slice_axis(x, i, n - 1, n), i, hi)
        x = _join([before, x, after], i)
    return x


def _pad_reflect(x: Array, widths: Pairs, reflect: bool, odd: bool) -> Array:
    """Mirror images of the edge regions, repeated (and re-mirrored) while padding remains.

    'reflect' mirrors about the edge element, 'symmetric' about the edge itself; the odd
    variants reflect values through the edge value (``2 * edge - v``).
    """
    skip = 1 if reflect else 0
    for i, (lo, hi) in enumerate(widths):
        if not (lo or hi):
            continue
        size = x.shape[i]
        if size == 1:  # nothing to mirror: repeat the only element (NumPy's legacy rule)
            x = _pad_edge(x, tuple((lo, hi) if j == i else (0, 0) for j in range(x.ndim)))
            continue
        period = size - skip
        for before, remaining in ((True, lo), (False, hi)):
            while remaining > 0:
                n = x.shape[i]
                chunk = min(remaining, period)
                if before:
                    edge = _slice_axis(x, i, 0, 1)
                    piece = rev(_slice_axis(x, i, skip, skip + chunk), (i,))
                else:
                    edge = _slice_axis(x, i, n - 1, n)
                    piece = rev(_slice_axis(x, i, n - skip - chunk, n - skip), (i,))
                if odd:
                    edges = _repeat_slab(edge, i, chunk)
                    piece = lax.sub(lax.add(edges, edges), piece)
                x = _join([piece, x] if before else [x, piece], i)
                remaining -= chunk
    return x


def _pad_wrap(x: Array, widths: Pairs) -> Array:
    for i, (lo, hi) in enumerate(widths):
        if not (lo or hi):
            continue
        size = x.shape[i]
        left_copies, left_rest = divmod(lo, size)
        right_copies, right_rest = divmod(hi, size)
        parts = []
        if left_rest:
            parts.append(_slice_axis(x, i, size - left_rest, size))
        parts.extend([x] * (left_copies + right_copies + 1))
        if right_rest:
            parts.append(_slice_axis(x, i, 0, right_rest))
        x = _join(parts, i)
    return x


def _pad_stats(x: Array, widths: Pairs, lengths: Pairs | None, stat: Callable[..., Array]) -> Array:
    for i, (lo, hi) in enumerate(widths):
        if lengths is not None and 0 in lengths[i]:  # JAX checks every axis' lengths
            raise ValueError("stat_length of 0 yields no value for padding")
        if not (lo or hi):
            continue
        size = x.shape[i]  # 0 only for 'mean' here: the mean of nothing, NaN, as in JAX
        n_before = size if lengths is None else min(lengths[i][0], size)
        n_after = size if lengths is None else min(lengths[i][1], size)
        parts = []
        for n, count, first in ((n_before, lo, True), (n_after, hi, False)):
            if not count:
                parts.append(_slice_axis(x, i, 0, 0))
                continue
            region = _slice_axis(x, i, 0, n) if first else _slice_axis(x, i, size - n, size)
            value = stat(region, axis=i, keepdims=True)
            if dtypes.kind(x.dtype) in ("i", "u"):
                value = ufuncs.round(value)
            parts.append(_repeat_slab(_convert(value, x.dtype, x.weak_type), i, count))
        x = _join([parts[0], x, parts[1]], i)
    return x


def _pad_linear_ramp(x: Array, widths: Pairs, ends: tuple[tuple[Any, Any], ...]) -> Array:
    """Linear ramps from ``end_values`` towards the edge values (the edge itself excluded).

    Computed in the inexact dtype of the array (float32 for ints, as NumPy's float ramp then
    floored for integer arrays).
    """
    k = dtypes.kind(x.dtype)
    work = x.dtype if k in ("f", "c") else dtypes.default_float_dtype()
    for i, (lo, hi) in enumerate(widths):
        if not (lo or hi):
            continue
        n = x.shape[i]
        parts = []
        for count, end, first in ((lo, ends[i][0], True), (hi, ends[i][1], False)):
            edge = _slice_axis(x, i, 0, 1) if first else _slice_axis(x, i, n - 1, n)
            shape = list(x.shape)
            shape[i] = count
            start = _repeat_slab(
                lax_structural.broadcast_to(_cast(end, work), edge.shape), i, count
            )
            stop = _repeat_slab(_convert(edge, work, False), i, count)
            step = broadcasted_iota(work, tuple(shape), i)
            frac = lax.div(
                step, lax_structural.broadcast_to(const(max(count, 1), work), tuple(shape))
            )
            ramp = lax.add(start, lax.mul(lax.sub(stop, start), frac))
            if k in ("i", "u", "b"):
                ramp = lax.floor(ramp)
            if not first:
                ramp = rev(ramp, (i,))
            parts.append(_convert(ramp, x.dtype, x.weak_type))
        x = _join([parts[0], x, parts[1]], i)
    return x
