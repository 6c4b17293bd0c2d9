"""Dtype conversion and shape primitives: convert_element_type, reshape, broadcast, slicing, ...

Shape ops keep the operand's weak flag; ``convert_element_type`` sets it explicitly (and the
``trellax.numpy`` casts always ask for a strong result); ``bitcast_convert_type`` strips it.
"""

from __future__ import annotations

import math
import operator
import warnings
from collections.abc import Sequence
from typing import Any

import numpy as np

from trellax._src.backend import numpy as backend
from trellax._src.core.basearray import Array
from trellax._src.core.core import AbstractValue, Primitive, ShapedArray, broadcast_shapes
from trellax._src.core.typing import ArrayLike, DTypeLike, ShapeLike
from trellax._src.dtypes import dtypes
from trellax._src.lax import ad_util
from trellax._src.lax._base import (
    any_,
    asarray,
    canonicalize_axes,
    check_dtype,
    check_same_dtypes,
    elementwise_shape,
    integer,
    num,
    same_dtypes_error,
)

Shape = tuple[int, ...]


def _prim(name: str, *, multiple_results: bool = False) -> Primitive:
    p = Primitive(name, multiple_results=multiple_results)
    p.def_impl(backend.impl(name), fp_free=name in backend.DATA_MOVEMENT)
    return p


def _aval(shape: Sequence[int], dtype: Any, weak: bool) -> ShapedArray:
    return ShapedArray._fast(tuple(shape), dtype, weak)


def _shape_tuple(name: str, shape: Any) -> Shape:
    try:
        dims = tuple(
            operator.index(d) for d in (shape if isinstance(shape, Sequence) else (shape,))
        )
    except TypeError:
        raise TypeError(f"{name}: shape must be a sequence of integers, got {shape!r}") from None
    if any(d < 0 for d in dims):
        raise TypeError(f"{name}: shape {dims} has negative dimensions")
    return dims


# -- convert_element_type --------------------------------------------------------------------------

convert_element_type_p = _prim("convert_element_type")


@convert_element_type_p.def_abstract_eval
def _convert_abstract_eval(x: AbstractValue, *, new_dtype: Any, weak_type: bool) -> ShapedArray:
    return _aval(x.shape, new_dtype, weak_type)


def convert_element_type(x: ArrayLike, new_dtype: DTypeLike, *, weak_type: bool = False) -> Array:
    """Casts to ``new_dtype`` (any pair of dtypes is allowed); the result is strong by default.

    A 64-bit request with x64 off is truncated with a warning; a complex operand cast to a real,
    integer or bool dtype warns ``ComplexWarning`` (its imaginary part is discarded), as in JAX.
    """
    d = dtypes.check_user_dtype(new_dtype, "convert_element_type")
    if type(x) is int:
        # A Python int goes straight to the target dtype (JAX): 2**40 -> float32 works with x64
        # off, and an integer target wraps instead of raising.
        from trellax._src.backend.array import ArrayImpl

        return _convert(ArrayImpl._new(_python_int_as(x, d), d, False), d, weak_type)
    a = asarray(x)
    if dtypes.kind(a.dtype) == "c" and dtypes.kind(d) != "c":
        warnings.warn(
            "Casting complex values to real discards the imaginary part",
            np.exceptions.ComplexWarning,
            stacklevel=dtypes.user_stacklevel(),
        )
    return _convert(a, d, weak_type)


def _python_int_as(x: int, d: np.dtype[Any]) -> np.ndarray[Any, Any]:
    if dtypes.kind(d) in ("i", "u", "b"):
        bits = 64 if dtypes.kind(d) == "b" else dtypes.itemsize_bits(d)
        wrapped = x % (1 << bits)  # two's complement wrap-around, like a C cast
        if dtypes.kind(d) == "i" and wrapped >= 1 << (bits - 1):
            wrapped -= 1 << bits
        return np.array(wrapped if dtypes.kind(d) != "b" else x != 0).astype(d)
    try:
        value = float(x)
    except OverflowError:  # beyond float64: infinite in every float type
        value = math.inf if x > 0 else -math.inf
    return np.array(value).astype(d)


def _convert(x: Array, d: np.dtype[Any], weak_type: bool) -> Array:
    """Internal cast; a no-op when dtype and flag already match."""
    if x.dtype == d and x.weak_type == weak_type:
        return x
    return convert_element_type_p.bind(x, new_dtype=d, weak_type=weak_type)


bitcast_convert_type_p = _prim("bitcast_convert_type")


@bitcast_convert_type_p.def_abstract_eval
def _bitcast_abstract_eval(x: AbstractValue, *, new_dtype: Any) -> ShapedArray:
    old, new = dtypes.itemsize_bits(x.dtype), dtypes.itemsize_bits(new_dtype)
    shape = tuple(x.shape)
    if old == new:
        return _aval(shape, new_dtype, False)
    if old > new:
        if old % new:
            raise TypeError(f"bitcast_convert_type: {x.dtype.name} -> {new_dtype.name}")
        return _aval((*shape, old // new), new_dtype, False)
    if not shape or shape[-1] != new // old:
        raise TypeError(
            f"bitcast_convert_type from {x.dtype.name} to {np.dtype(new_dtype).name} needs a "
            f"trailing dimension of size {new // old}, got shape {shape}"
        )
    return _aval(shape[:-1], new_dtype, False)


def bitcast_convert_type(x: ArrayLike, new_dtype: DTypeLike) -> Array:
    """Reinterprets the bits; a narrower type adds a trailing dimension, a wider one consumes it."""
    d = dtypes.check_user_dtype(new_dtype, "bitcast_convert_type")
    return bitcast_convert_type_p.bind(asarray(x), new_dtype=d)


# -- broadcasting and reshaping -----------------------------------------------------------------

broadcast_in_dim_p = _prim("broadcast_in_dim")


@broadcast_in_dim_p.def_abstract_eval
def _broadcast_in_dim_abstract_eval(
    x: AbstractValue, *, shape: Shape, broadcast_dimensions: Shape
) -> ShapedArray:
    if len(broadcast_dimensions) != len(x.shape):
        raise TypeError(
            f"broadcast_in_dim: broadcast_dimensions {broadcast_dimensions} must have one entry "
            f"per operand dimension (operand shape {tuple(x.shape)})"
        )
    for src, dst in enumerate(broadcast_dimensions):
        if not 0 <= dst < len(shape) or x.shape[src] not in (1, shape[dst]):
            raise TypeError(
                f"broadcast_in_dim: operand shape {tuple(x.shape)} cannot be broadcast to {shape} "
                f"with broadcast_dimensions {broadcast_dimensions}"
            )
    if list(broadcast_dimensions) != sorted(set(broadcast_dimensions)):
        raise TypeError(
            f"broadcast_in_dim: broadcast_dimensions must be strictly increasing, got "
            f"{broadcast_dimensions}"
        )
    return _aval(shape, x.dtype, x.weak_type)


def broadcast_in_dim(x: ArrayLike, shape: ShapeLike, broadcast_dimensions: Sequence[int]) -> Array:
    x = asarray(x)
    shape = _shape_tuple("broadcast_in_dim", shape)
    dims = tuple(int(d) for d in broadcast_dimensions)
    if tuple(x.shape) == shape and dims == tuple(range(len(shape))):
        same: Array = x
        return same
    return broadcast_in_dim_p.bind(x, shape=shape, broadcast_dimensions=dims)


def broadcast(x: ArrayLike, sizes: Sequence[int]) -> Array:
    """Adds leading dimensions of the given sizes."""
    x = asarray(x)
    sizes = _shape_tuple("broadcast", sizes)
    n = len(sizes)
    return broadcast_in_dim(x, (*sizes, *x.shape), tuple(range(n, n + x.ndim)))


def broadcast_to(x: ArrayLike, shape: ShapeLike) -> Array:
    """NumPy-style broadcasting to ``shape`` (used by ``trellax.numpy.broadcast_to``)."""
    x = asarray(x)
    shape = _shape_tuple("broadcast_to", shape)
    if tuple(x.shape) == shape:
        same: Array = x
        return same
    if len(shape) < x.ndim or broadcast_shapes(tuple(x.shape), shape) != shape:
        raise ValueError(f"Incompatible shapes for broadcasting: {tuple(x.shape)} and {shape}")
    n = len(shape) - x.ndim
    return broadcast_in_dim(x, shape, tuple(range(n, len(shape))))


reshape_p = _prim("reshape")


@reshape_p.def_abstract_eval
def _reshape_abstract_eval(
    x: AbstractValue, *, new_sizes: Shape, dimensions: Shape | None = None
) -> ShapedArray:
    if math.prod(new_sizes) != math.prod(x.shape):
        raise TypeError(
            f"reshape total size must be unchanged, got new_sizes {new_sizes} for shape "
            f"{tuple(x.shape)}."
        )
    return _aval(new_sizes, x.dtype, x.weak_type)


def reshape(x: ArrayLike, new_sizes: ShapeLike, dimensions: Sequence[int] | None = None) -> Array:
    x = asarray(x)
    sizes = _shape_tuple("reshape", new_sizes)
    dims = None if dimensions is None else tuple(int(d) for d in dimensions)
    if sizes == tuple(x.shape) and (dims is None or dims == tuple(range(x.ndim))):
        same: Array = x
        return same
    return reshape_p.bind(x, new_sizes=sizes, dimensions=dims)


squeeze_p = _prim("squeeze")


@squeeze_p.def_abstract_eval
def _squeeze_abstract_eval(x: AbstractValue, *, dimensions: Shape) -> ShapedArray:
    for d in dimensions:
        if x.shape[d] != 1:
            raise ValueError(
                f"cannot select an axis to squeeze out which has size not equal to one, got "
                f"shape={tuple(x.shape)} and dimensions={dimensions}"
            )
    return _aval([s for i, s in enumerate(x.shape) if i not in dimensions], x.dtype, x.weak_type)


def squeeze(x: ArrayLike, dimensions: Sequence[int]) -> Array:
    x = asarray(x)
    dims = canonicalize_axes("squeeze", dimensions, x.ndim)
    if not dims:
        same: Array = x
        return same
    return squeeze_p.bind(x, dimensions=dims)


expand_dims_p = _prim("expand_dims")


@expand_dims_p.def_abstract_eval
def _expand_dims_abstract_eval(x: AbstractValue, *, dimensions: Shape) -> ShapedArray:
    shape = list(x.shape)
    for d in sorted(dimensions):
        shape.insert(d, 1)
    return _aval(shape, x.dtype, x.weak_type)


def expand_dims(x: ArrayLike, dimensions: Sequence[int]) -> Array:
    x = asarray(x)
    dims = canonicalize_axes("expand_dims", dimensions, x.ndim + len(dimensions))
    return expand_dims_p.bind(x, dimensions=dims)


transpose_p = _prim("transpose")


@transpose_p.def_abstract_eval
def _transpose_abstract_eval(x: AbstractValue, *, permutation: Shape) -> ShapedArray:
    if sorted(permutation) != list(range(len(x.shape))):
        raise TypeError(
            f"transpose permutation isn't a permutation of operand dimensions, got permutation "
            f"{permutation} for operand shape {tuple(x.shape)}."
        )
    return _aval([x.shape[p] for p in permutation], x.dtype, x.weak_type)


def transpose(x: ArrayLike, permutation: Sequence[int]) -> Array:
    x = asarray(x)
    perm = tuple(int(p) for p in permutation)
    if perm == tuple(range(x.ndim)):
        same: Array = x
        return same
    return transpose_p.bind(x, permutation=perm)


rev_p = _prim("rev")


@rev_p.def_abstract_eval
def _rev_abstract_eval(x: AbstractValue, *, dimensions: Shape) -> ShapedArray:
    return _aval(x.shape, x.dtype, x.weak_type)


def rev(x: ArrayLike, dimensions: Sequence[int]) -> Array:
    x = asarray(x)
    dims = canonicalize_axes("rev", dimensions, x.ndim)
    return rev_p.bind(x, dimensions=dims)


# -- joining, padding and slicing ----------------------------------------------------------------

concatenate_p = _prim("concatenate")


@concatenate_p.def_abstract_eval
def _concatenate_abstract_eval(*xs: AbstractValue, dimension: int) -> ShapedArray:
    if not xs:
        raise ValueError("concatenate requires at least one operand")
    check_same_dtypes("concatenate", xs)
    first = tuple(xs[0].shape)
    if not 0 <= dimension < max(len(first), 1) or not first:
        raise ValueError(
            f"concatenate dimension out of bounds: dimension {dimension} for shapes "
            f"{', '.join(str(tuple(x.shape)) for x in xs)}"
        )
    if any(len(x.shape) != len(first) for x in xs[1:]):
        raise TypeError(
            "Cannot concatenate arrays with different numbers of dimensions: got "
            f"{', '.join(str(tuple(x.shape)) for x in xs)}."
        )
    for x in xs[1:]:
        s = tuple(x.shape)
        if len(s) != len(first) or any(
            a != b for i, (a, b) in enumerate(zip(s, first)) if i != dimension
        ):
            raise TypeError(
                "Cannot concatenate arrays with shapes that differ in dimensions other than the "
                f"one being concatenated: concatenating along dimension {dimension} for shapes "
                f"{', '.join(str(tuple(x.shape)) for x in xs)}."
            )
    shape = list(first)
    shape[dimension] = sum(x.shape[dimension] for x in xs)
    return _aval(shape, xs[0].dtype, all(x.weak_type for x in xs))


def concatenate(operands: Sequence[ArrayLike], dimension: int) -> Array:
    xs = [asarray(x) for x in operands]
    if len(xs) == 1:
        return xs[0]
    return concatenate_p.bind(*xs, dimension=int(dimension))


pad_p = _prim("pad")


@pad_p.def_abstract_eval
def _pad_abstract_eval(
    x: AbstractValue, padding_value: AbstractValue, *, padding_config: tuple[Shape, ...]
) -> ShapedArray:
    if x.dtype != padding_value.dtype:
        raise TypeError(
            "pad operand and padding_value must be same dtype: got "
            f"{x.dtype.name} and {padding_value.dtype.name}."
        )
    if tuple(padding_value.shape) != ():
        raise TypeError(f"pad padding_value must be a scalar, got shape {padding_value.shape}")
    if len(padding_config) != len(x.shape):
        raise ValueError(
            f"pad: padding_config has {len(padding_config)} entries for an operand of rank "
            f"{len(x.shape)}"
        )
    shape = []
    for n, (lo, hi, interior) in zip(x.shape, padding_config):
        if interior < 0:
            raise ValueError(f"pad: interior padding must be >= 0, got {interior}")
        size = lo + hi + n + max(n - 1, 0) * interior
        if size < 0:
            raise ValueError(f"pad: negative padding {padding_config} leaves a negative size")
        shape.append(size)
    return _aval(shape, x.dtype, x.weak_type and padding_value.weak_type)


def pad(x: ArrayLike, padding_value: ArrayLike, padding_config: Sequence[Sequence[int]]) -> Array:
    """Pads with ``padding_value``: one ``(low, high, interior)`` per dimension (may be negative)."""
    config = tuple((int(lo), int(hi), int(it)) for lo, hi, it in padding_config)
    return pad_p.bind(asarray(x), asarray(padding_value), padding_config=config)


slice_p = _prim("slice")


@slice_p.def_abstract_eval
def _slice_abstract_eval(
    x: AbstractValue, *, start_indices: Shape, limit_indices: Shape, strides: Shape | None
) -> ShapedArray:
    shape = tuple(x.shape)
    steps = strides or (1,) * len(shape)
    if not len(start_indices) == len(limit_indices) == len(steps) == len(shape):
        raise TypeError(
            f"slice: start_indices {start_indices}, limit_indices {limit_indices} and strides "
            f"must each have one entry per dimension of shape {shape}"
        )
    out = []
    for s, e, st, n in zip(start_indices, limit_indices, steps, shape):
        if not 0 <= s <= e <= n or st < 1:
            raise TypeError(
                f"slice start_indices {start_indices}, limit_indices {limit_indices} and strides "
                f"{strides} are invalid for operand shape {shape}"
            )
        out.append(-(-(e - s) // st))
    return _aval(out, x.dtype, x.weak_type)


def slice(
    x: ArrayLike,
    start_indices: Sequence[int],
    limit_indices: Sequence[int],
    strides: Sequence[int] | None = None,
) -> Array:
    return slice_p.bind(
        asarray(x),
        start_indices=tuple(int(i) for i in start_indices),
        limit_indices=tuple(int(i) for i in limit_indices),
        strides=None if strides is None else tuple(int(i) for i in strides),
    )


dynamic_slice_p = _prim("dynamic_slice")


@dynamic_slice_p.def_abstract_eval
def _dynamic_slice_abstract_eval(
    x: AbstractValue, *starts: AbstractValue, slice_sizes: Shape
) -> ShapedArray:
    if len(starts) != len(x.shape) or len(slice_sizes) != len(x.shape):
        raise TypeError(
            f"dynamic_slice: need one start index and one slice size per dimension of shape "
            f"{tuple(x.shape)}, got {len(starts)} and {len(slice_sizes)}"
        )
    for i, s in enumerate(starts):
        check_dtype("dynamic_slice", s.dtype, integer, i + 1)
    for size, n in zip(slice_sizes, x.shape):
        if not 0 <= size <= n:
            raise TypeError(f"dynamic_slice: slice_sizes {slice_sizes} exceed shape {x.shape}")
    return _aval(slice_sizes, x.dtype, x.weak_type)


def dynamic_slice(
    x: ArrayLike, start_indices: Sequence[ArrayLike], slice_sizes: Sequence[int]
) -> Array:
    """A slice whose start may be a traced value; starts are clamped so the slice fits."""
    starts = [asarray(s) for s in start_indices]
    return dynamic_slice_p.bind(asarray(x), *starts, slice_sizes=tuple(int(s) for s in slice_sizes))


dynamic_update_slice_p = _prim("dynamic_update_slice")


@dynamic_update_slice_p.def_abstract_eval
def _dynamic_update_slice_abstract_eval(
    x: AbstractValue, update: AbstractValue, *starts: AbstractValue
) -> ShapedArray:
    if x.dtype != update.dtype:
        raise same_dtypes_error("dynamic_update_slice", [x.dtype, update.dtype])
    if len(update.shape) != len(x.shape) or any(u > n for u, n in zip(update.shape, x.shape)):
        raise TypeError(
            f"dynamic_update_slice update shape {tuple(update.shape)} must fit in operand shape "
            f"{tuple(x.shape)}"
        )
    if len(starts) != len(x.shape):
        raise TypeError("dynamic_update_slice: need one start index per operand dimension")
    return _aval(x.shape, x.dtype, x.weak_type)


def dynamic_update_slice(
    x: ArrayLike, update: ArrayLike, start_indices: Sequence[ArrayLike]
) -> Array:
    starts = [asarray(s) for s in start_indices]
    return dynamic_update_slice_p.bind(asarray(x), asarray(update), *starts)


# -- creation, selection, clamping ---------------------------------------------------------------

iota_p = _prim("iota")


@iota_p.def_abstract_eval
def _iota_abstract_eval(*, dtype: Any, shape: Shape, dimension: int) -> ShapedArray:
    check_dtype("iota", dtype, num, None)
    return _aval(shape, dtype, False)


def iota(dtype: DTypeLike, size: int) -> Array:
    """``[0, 1, ..., size-1]`` in ``dtype``."""
    d = dtypes.check_user_dtype(dtype, "iota")
    return iota_p.bind(dtype=d, shape=(int(size),), dimension=0)


def broadcasted_iota(dtype: DTypeLike, shape: Sequence[int], dimension: int) -> Array:
    d = dtypes.check_user_dtype(dtype, "broadcasted_iota")
    dims = _shape_tuple("broadcasted_iota", shape)
    return iota_p.bind(dtype=d, shape=dims, dimension=int(dimension))


select_n_p = _prim("select_n")


@select_n_p.def_abstract_eval
def _select_n_abstract_eval(which: AbstractValue, *cases: AbstractValue) -> ShapedArray:
    if len(cases) == 2:  # the common case (where): one bool predicate, two cases of one type
        f, t = cases
        d = f.dtype
        s = f.shape
        if which.dtype is dtypes.bool_ and t.dtype is d and which.shape == s and t.shape == s:
            return ShapedArray._fast(tuple(s), d, f.weak_type and t.weak_type)
    if not cases:
        raise ValueError("select_n requires at least one case")
    if which.dtype != dtypes.bool_ and dtypes.kind(which.dtype) not in ("i", "u"):
        raise TypeError(f"select_n which must be boolean or integer type, got {which.dtype.name}.")
    if which.dtype == dtypes.bool_ and len(cases) > 2:
        raise TypeError("select_n with a boolean predicate takes at most two cases")
    check_same_dtypes("select", cases)  # JAX's message names lax.select
    shapes = [tuple(c.shape) for c in cases]
    shape = elementwise_shape("select_n", tuple(which.shape), *shapes)
    return _aval(shape, cases[0].dtype, all(c.weak_type for c in cases))


def select_n(which: ArrayLike, *cases: ArrayLike) -> Array:
    """``cases[which]`` elementwise; a bool ``which`` picks ``cases[1]`` where True."""
    return select_n_p.bind(asarray(which), *[asarray(c) for c in cases])


def select(pred: ArrayLike, on_true: ArrayLike, on_false: ArrayLike) -> Array:
    """``on_true`` where ``pred`` else ``on_false`` (``select_n`` with the cases swapped)."""
    return select_n(pred, on_false, on_true)


clamp_p = _prim("clamp")


@clamp_p.def_abstract_eval
def _clamp_abstract_eval(lo: AbstractValue, x: AbstractValue, hi: AbstractValue) -> ShapedArray:
    check_dtype("clamp", x.dtype, any_, 1)
    if not lo.dtype == x.dtype == hi.dtype:
        raise same_dtypes_error("clamp", [lo.dtype, x.dtype, hi.dtype])
    for b, what in ((lo, "min"), (hi, "max")):
        if tuple(b.shape) not in ((), tuple(x.shape)):
            raise TypeError(
                f"clamp requires {what} to be a scalar or have the operand's shape "
                f"{tuple(x.shape)}, got {tuple(b.shape)}"
            )
    return _aval(x.shape, x.dtype, x.weak_type)


def clamp(min: ArrayLike, x: ArrayLike, max: ArrayLike) -> Array:
    return clamp_p.bind(asarray(min), asarray(x), asarray(max))


def slice_in_dim_static(x: ArrayLike, start: int, limit: int, axis: int) -> Array:
    """``x[..., start:limit, ...]`` along one axis (static bounds)."""
    arr = asarray(x)
    starts = [0] * arr.ndim
    limits = list(arr.shape)
    starts[axis], limits[axis] = start, limit
    return slice(arr, starts, limits)


def slice_in_dim(
    operand: ArrayLike,
    start_index: int | None,
    limit_index: int | None,
    stride: int = 1,
    axis: int = 0,
) -> Array:
    """``lax.slice`` along one axis (``None`` bounds mean the ends)."""
    arr = asarray(operand)
    n = arr.shape[axis]
    lo = 0 if start_index is None else (start_index + n if start_index < 0 else start_index)
    hi = n if limit_index is None else (limit_index + n if limit_index < 0 else limit_index)
    starts = [0] * arr.ndim
    limits = list(arr.shape)
    strides = [1] * arr.ndim
    starts[axis], limits[axis], strides[axis] = lo, hi, stride
    return slice(arr, starts, limits, strides)


# -- differentiation rules ------------------------------------------------------------------------
# Registered after every primitive of the module is defined (the rules use the wrappers above).


def _convert_jvp(
    primals: Sequence[Any], tangents: Sequence[Any], *, new_dtype: Any, weak_type: bool
) -> tuple[Any, Any]:
    (x,), (t,) = primals, tangents
    ans = convert_element_type_p.bind(x, new_dtype=new_dtype, weak_type=weak_type)
    if not ad_util.differentiable(np.dtype(new_dtype)):
        return ans, ad_util.zero_of(ans)
    if dtypes.kind(t.dtype) == "c" and dtypes.kind(new_dtype) != "c":
        from trellax._src.lax.elementwise import real_p

        t = real_p.bind(t)
    return ans, convert_element_type_p.bind(t, new_dtype=new_dtype, weak_type=weak_type)


def _convert_transpose(ct: Any, x: Any, *, new_dtype: Any, weak_type: bool) -> list[Any]:
    # The cast back to the operand's dtype and weak flag: an f16 parameter used with f32 data
    # gets an f16 gradient, a weak one a weak gradient.
    aval = x.aval
    if dtypes.kind(ct.dtype) == "c" and dtypes.kind(aval.dtype) != "c":
        from trellax._src.lax.elementwise import real_p

        ct = real_p.bind(ct)
    return [ad_util.convert(ct, aval.dtype, aval.weak_type)]


convert_element_type_p.def_jvp(_convert_jvp)
convert_element_type_p.def_transpose(_convert_transpose)
ad_util.defzeros("reinterprets bits: no derivative", bitcast_convert_type_p)
ad_util.defzeros("an index computation: no operands to differentiate", iota_p)


def _broadcast_in_dim_transpose(
    ct: Any, x: Any, *, shape: Shape, broadcast_dimensions: Shape
) -> list[Any]:
    in_shape = tuple(x.aval.shape)
    # summing a size-1 axis is a reshape: only axes that were really broadcast are reduced
    axes = tuple(
        i
        for i in range(len(shape))
        if shape[i] != 1
        and (i not in broadcast_dimensions or in_shape[broadcast_dimensions.index(i)] == 1)
    )
    summed = _reduce_sum(ct, axes) if axes else ct
    if tuple(summed.shape) != in_shape:
        summed = reshape_p.bind(summed, new_sizes=in_shape, dimensions=None)
    return [summed]


def _reduce_sum(x: Any, axes: Shape) -> Any:
    from trellax._src.lax.reductions import reduce_sum_p

    return reduce_sum_p.bind(x, axes=tuple(axes))


def _reshape_back(ct: Any, x: Any, **params: Any) -> list[Any]:
    return [reshape_p.bind(ct, new_sizes=tuple(x.aval.shape), dimensions=None)]


def _transpose_transpose(ct: Any, x: Any, *, permutation: Shape) -> list[Any]:
    return [transpose_p.bind(ct, permutation=tuple(int(i) for i in np.argsort(permutation)))]


ad_util.deflinear(broadcast_in_dim_p, _broadcast_in_dim_transpose)
ad_util.deflinear(reshape_p, _reshape_back)
ad_util.deflinear(squeeze_p, _reshape_back)
ad_util.deflinear(expand_dims_p, _reshape_back)
ad_util.deflinear(transpose_p, _transpose_transpose)
ad_util.deflinear(rev_p, lambda ct, x, *, dimensions: [rev_p.bind(ct, dimensions=dimensions)])


def _concatenate_transpose(ct: Any, *xs: Any, dimension: int) -> list[Any]:
    out: list[Any] = []
    start = 0
    for x in xs:
        shape = tuple(x.aval.shape) if ad_util.is_undefined(x) else tuple(x.shape)
        size = shape[dimension]
        if ad_util.is_undefined(x):
            starts = [0] * len(shape)
            limits = list(ct.shape)
            starts[dimension], limits[dimension] = start, start + size
            out.append(
                slice_p.bind(
                    ct, start_indices=tuple(starts), limit_indices=tuple(limits), strides=None
                )
            )
        else:
            out.append(None)
        start += size
    return out


ad_util.deflinear(concatenate_p, _concatenate_transpose)


def _pad_transpose(
    ct: Any, x: Any, padding_value: Any, *, padding_config: tuple[Shape, ...]
) -> list[Any]:
    lo, hi, interior = zip(*padding_config) if padding_config else ((), (), ())
    t_x = None
    if ad_util.is_undefined(x):
        unpad = tuple((-a, -b, 0) for a, b in zip(lo, hi))
        unpadded = pad_p.bind(ct, ad_util.const(ct, 0), padding_config=unpad)
        t_x = slice_p.bind(
            unpadded,
            start_indices=(0,) * len(lo),
            limit_indices=tuple(unpadded.shape),
            strides=tuple(i + 1 for i in interior),
        )
    t_pv = None
    if ad_util.is_undefined(padding_value):
        every = tuple(range(len(ct.shape)))
        total = _reduce_sum(ct, every)
        if t_x is not None:
            from trellax._src.lax.elementwise import sub_p

            total = sub_p.bind(total, _reduce_sum(t_x, every))
        t_pv = total
    return [t_x, t_pv]


ad_util.deflinear(pad_p, _pad_transpose)


def _slice_transpose(
    ct: Any, x: Any, *, start_indices: Shape, limit_indices: Shape, strides: Shape | None
) -> list[Any]:
    shape = tuple(x.aval.shape)
    if strides is None or all(s == 1 for s in strides):
        config = tuple((s, n - e, 0) for s, e, n in zip(start_indices, limit_indices, shape))
    else:
        real_limits = [
            s + (0 if c == 0 else 1 + (c - 1) * st)
            for s, c, st in zip(start_indices, ct.shape, strides)
        ]
        config = tuple(
            (s, n - e, st - 1) for s, e, n, st in zip(start_indices, real_limits, shape, strides)
        )
    return [pad_p.bind(ct, ad_util.const(ct, 0), padding_config=config)]


ad_util.deflinear(slice_p, _slice_transpose)


def _dynamic_slice_jvp(
    primals: Sequence[Any], tangents: Sequence[Any], *, slice_sizes: Shape
) -> tuple[Any, Any]:
    x, *starts = primals
    ans = dynamic_slice_p.bind(x, *starts, slice_sizes=slice_sizes)
    t = ad_util.instantiate(tangents[0])
    return ans, dynamic_slice_p.bind(t, *starts, slice_sizes=slice_sizes)


def _dynamic_slice_transpose(ct: Any, x: Any, *starts: Any, slice_sizes: Shape) -> list[Any]:
    zeros = ad_util.zeros(x.aval)
    return [dynamic_update_slice_p.bind(zeros, ct, *starts), *[None] * len(starts)]


dynamic_slice_p.def_jvp(_dynamic_slice_jvp)
dynamic_slice_p.def_transpose(_dynamic_slice_transpose)


def _dynamic_update_slice_jvp(primals: Sequence[Any], tangents: Sequence[Any]) -> tuple[Any, Any]:
    x, update, *starts = primals
    ans = dynamic_update_slice_p.bind(x, update, *starts)
    t_x = ad_util.instantiate(tangents[0])
    t_u = ad_util.instantiate(tangents[1])
    if t_u.dtype != t_x.dtype:
        t_u = ad_util.convert(t_u, t_x.dtype, t_u.weak_type)
    return ans, dynamic_update_slice_p.bind(t_x, t_u, *starts)


def _dynamic_update_slice_transpose(ct: Any, x: Any, update: Any, *starts: Any) -> list[Any]:
    u_aval = update.aval if ad_util.is_undefined(update) else core_get_aval(update)
    ct_x = (
        dynamic_update_slice_p.bind(ct, ad_util.zeros(u_aval.update(dtype=ct.dtype)), *starts)
        if ad_util.is_undefined(x)
        else None
    )
    ct_u = (
        dynamic_slice_p.bind(ct, *starts, slice_sizes=tuple(u_aval.shape))
        if ad_util.is_undefined(update)
        else None
    )
    return [ct_x, ct_u, *[None] * len(starts)]


dynamic_update_slice_p.def_jvp(_dynamic_update_slice_jvp)
dynamic_update_slice_p.def_transpose(_dynamic_update_slice_transpose)


def _select_n_jvp(primals: Sequence[Any], tangents: Sequence[Any]) -> tuple[Any, Any]:
    which, *cases = primals
    ans = select_n_p.bind(which, *cases)
    ts = [ad_util.instantiate(t) for t in tangents[1:]]
    shape = tuple(ans.shape)
    ts = [ad_util.broadcast_to_shape(t, shape) for t in ts]
    return ans, select_n_p.bind(which, *ts)


def _select_n_transpose(ct: Any, which: Any, *cases: Any) -> list[Any]:
    if ad_util.is_undefined(which):
        raise TypeError("select_n is not linear in its predicate")
    zeros = ad_util.zeros(core_get_aval(ct))
    out: list[Any] = [None]
    for i, c in enumerate(cases):
        if ad_util.is_undefined(c):
            picked = select_n_p.bind(which, *[ct if j == i else zeros for j in range(len(cases))])
            out.append(ad_util.unbroadcast(picked, c.aval))
        else:
            out.append(None)
    return out


select_n_p.def_jvp(_select_n_jvp)
select_n_p.def_transpose(_select_n_transpose)


def _clamp_jvp_factor(cond: Any, like: Any) -> Any:
    shape = tuple(cond.shape)
    one = ad_util.broadcast_to_shape(ad_util.const(like, 1), shape)
    zero = ad_util.broadcast_to_shape(ad_util.const(like, 0), shape)
    return select_n_p.bind(cond, zero, one)


def _clamp_rule(which: int) -> Any:
    def rule(t: Any, ans: Any, lo: Any, x: Any, hi: Any) -> Any:
        from trellax._src.lax import elementwise as ew

        if which == 0:  # lo gets the gradient where it is the result (strictly above x, lo < hi)
            cond = ew.bitwise_and(ew.gt(lo, x), ew.lt(lo, hi))
        elif which == 1:  # x strictly inside the bounds: ties at a bound give nobody anything
            cond = ew.bitwise_and(ew.gt(x, lo), ew.lt(x, hi))
        else:
            cond = ew.lt(hi, x)
        return ew.mul(t, _clamp_jvp_factor(cond, ans))

    return rule


ad_util.defjvp(clamp_p, _clamp_rule(0), _clamp_rule(1), _clamp_rule(2))


def core_get_aval(x: Any) -> ShapedArray:
    return ShapedArray._fast(tuple(x.shape), x.dtype, x.weak_type)
