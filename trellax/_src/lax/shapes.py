"""Dtype conversion and the shape primitives: convert_element_type, bitcast_convert_type,
broadcast_in_dim, reshape, squeeze, expand_dims, transpose, rev; each with all its rules (abstract
eval, JVP/transpose, batch rule) and its NumPy kernel.

Shape ops keep the operand's weak flag; ``convert_element_type`` sets it explicitly (and the
``trellax.numpy`` casts always ask for a strong result); ``bitcast_convert_type`` strips it.

The batching helpers every batch rule uses (:func:`moveaxis`, :func:`bdim_at_front`,
:func:`elementwise_rule`, ...) live here too: they are built from these primitives, so a module
that defines primitives with batch rules imports them from here (``lax.structural`` and every
module above it).
"""

from __future__ import annotations

import cmath
import math
import operator
import warnings
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from trellax._src.backend import numpy as backend
from trellax._src.backend.array import ArrayImpl
from trellax._src.backend.numpy import Impl
from trellax._src.core.basearray import Array
from trellax._src.core.core import AbstractValue, Primitive, ShapedArray, broadcast_shapes
from trellax._src.core.out_sharding import check_out_sharding
from trellax._src.core.typing import ArrayLike, DTypeLike, ShapeLike
from trellax._src.dtypes import dtypes
from trellax._src.dtypes.extended import ExtendedDType
from trellax._src.lax import ad_util
from trellax._src.lax._base import (
    asarray,
    canonicalize_axes,
)

# -- batching helpers (built from the shape primitives below; used by every batch rule) -----

Shape = tuple[int, ...]
Dims = Sequence[int | None]


def moveaxis(x: Any, src: int, dst: int) -> Any:
    """``x`` with axis ``src`` moved to position ``dst`` (nothing bound if it is there already)."""
    n = x.ndim
    src, dst = src % n, dst % n
    if src == dst:
        return x
    perm = [i for i in range(n) if i != src]
    perm.insert(dst, src)
    return transpose_p.bind(x, permutation=tuple(perm))


def axis_size(args: Sequence[Any], dims: Dims) -> int:
    """The batch size, read from the first batched operand."""
    for a, d in zip(args, dims):
        if d is not None:
            return int(a.shape[d])
    raise ValueError("no batched operand")


def bdim_at_front(x: Any, dim: int | None, size: int) -> Any:
    """``x`` with its batch at axis 0; an unbatched ``x`` is broadcast to ``size`` copies."""
    if dim is None:
        shape = tuple(x.shape)
        return broadcast_in_dim_p.bind(
            x, shape=(size, *shape), broadcast_dimensions=tuple(range(1, len(shape) + 1))
        )
    return moveaxis(x, dim, 0)


def all_at_front(args: Sequence[Any], dims: Dims) -> list[Any]:
    size = axis_size(args, dims)
    return [bdim_at_front(a, d, size) for a, d in zip(args, dims)]


def shift_axes(axes: Sequence[int], dim: int) -> tuple[int, ...]:
    """Axes of an unbatched operand renamed for the batched operand (batch at ``dim``)."""
    return tuple(a + 1 if a >= dim else a for a in axes)


def elementwise_rule(prim: Primitive) -> Callable[..., Any]:
    """The batch rule of an elementwise primitive (equal ranks; 0-d operands broadcast).

    When every batched operand has the batch at one axis and the full rank, and every unbatched
    one is 0-d, the primitive applies as it is and the batch stays where it was. Otherwise the
    batched operands get their batch at axis 0 (0-d ones reshaped to ``(B, 1, ..., 1)``) and
    unbatched non-scalar ones a leading axis of size 1.
    """
    multiple = prim.multiple_results

    def rule(args: Sequence[Any], dims: Dims, **params: Any) -> tuple[Any, Any]:
        rank = max(a.ndim - (d is not None) for a, d in zip(args, dims))
        first = next(d for d in dims if d is not None)
        if all(
            (a.ndim == 0) if d is None else (d == first and a.ndim == rank + 1)
            for a, d in zip(args, dims)
        ):
            out_dim = first
            new_args = list(args)
        else:
            out_dim = 0
            new_args = []
            for a, d in zip(args, dims):
                if d is None:
                    if a.ndim:
                        a = expand_dims_p.bind(a, dimensions=(0,))
                elif a.ndim == 1 and rank:
                    a = reshape_p.bind(a, new_sizes=(a.shape[0],) + (1,) * rank, dimensions=None)
                else:
                    a = moveaxis(a, d, 0)
                new_args.append(a)
        out = prim.bind_multi(*new_args, **params) if multiple else prim.bind(*new_args, **params)
        return out, ((out_dim,) * len(out) if multiple else out_dim)

    return rule


def def_elementwise(prim: Primitive, *, fusable: bool) -> Primitive:
    """Marks ``prim`` elementwise and registers :func:`elementwise_rule` as its batch rule.

    ``fusable`` says the jit compiler may run its impl chunk by chunk inside a fused region
    (``interpreters/fusion.py``: the impl must give the unfused result bit for bit on any chunk
    of rows). ``naryop`` calls this for every primitive it makes; other elementwise primitives
    call it beside their definition.
    """
    prim.elementwise = True
    prim.fusable = fusable
    prim.def_batch(elementwise_rule(prim))
    return prim


def leading_rule(prim: Primitive) -> Callable[..., Any]:
    """For primitives that act on trailing axes and map over leading ones (linear algebra, FFT):
    every operand gets the batch at axis 0."""
    multiple = prim.multiple_results

    def rule(args: Sequence[Any], dims: Dims, **params: Any) -> tuple[Any, Any]:
        new_args = all_at_front(args, dims)
        out = prim.bind_multi(*new_args, **params) if multiple else prim.bind(*new_args, **params)
        return out, ((0,) * len(out) if multiple else 0)

    return rule


def unary_front_rule(prim: Primitive, shift: Callable[[dict[str, Any]], dict[str, Any]]) -> Any:
    """Batch at axis 0 of the single operand; ``shift`` renames the axis parameters."""

    def rule(args: Sequence[Any], dims: Dims, **params: Any) -> tuple[Any, int]:
        (x,), (d,) = args, dims
        assert d is not None
        return prim.bind(moveaxis(x, d, 0), **shift(params)), 0

    return rule


# -- primitives ----------------------------------------------------------------------------------


def _prim(
    name: str, kernel: Impl, *, multiple_results: bool = False, fp_free: bool = False
) -> Primitive:
    """A primitive computed by ``kernel``; ``fp_free``: the kernel only moves or selects data
    (no arithmetic, no casts, no index arithmetic on NumPy scalars), so it can never raise a
    NumPy floating-point error and runs without switching NumPy's error state."""
    p = Primitive(name, multiple_results=multiple_results)
    p.def_impl(kernel, fp_free=fp_free)
    return p


def _aval(shape: Sequence[int], dtype: Any, weak: bool) -> ShapedArray:
    return ShapedArray._fast(tuple(shape), dtype, weak)


def _shape_tuple(name: str, shape: Any) -> Shape:
    """``shape`` (a sequence of ints, one int, or a 1-d integer array, as JAX accepts) as a tuple
    of non-negative ints; anything else is a ``TypeError``. An empty array of any dtype is
    ``()``."""
    if getattr(shape, "ndim", None) == 1:
        shape = list(shape)  # a 1-d NumPy or trellax array: its elements are the sizes
    try:
        dims = tuple(
            operator.index(d) for d in (shape if isinstance(shape, Sequence) else (shape,))
        )
    except TypeError:
        raise TypeError(
            "Shapes must be 1D sequences of concrete values of integer type, got "
            f"{shape!r} (the shape given to {name})."
        ) from None
    if any(d < 0 for d in dims):
        raise TypeError(f"{name}: shape {dims} has negative dimensions")
    return dims


# -- convert_element_type --------------------------------------------------------------------------

convert_element_type_p = _prim("convert_element_type", backend.convert_element_type)
def_elementwise(convert_element_type_p, fusable=True)
ad_util.PRIMITIVES.convert_element_type = convert_element_type_p


@convert_element_type_p.def_abstract_eval
def _convert_abstract_eval(x: AbstractValue, *, new_dtype: Any, weak_type: bool) -> ShapedArray:
    return _aval(x.shape, new_dtype, weak_type)


def convert_element_type(
    operand: ArrayLike, new_dtype: DTypeLike, *, weak_type: bool = False
) -> Array:
    """Casts to ``new_dtype`` (any pair of dtypes is allowed); the result is strong by default.

    A 64-bit request with x64 off is truncated with a warning; a complex operand cast to a real,
    integer or bool dtype warns ``ComplexWarning`` (its imaginary part is discarded), as in JAX.
    """
    src = getattr(operand, "dtype", None)
    if _is_user_ext(new_dtype) or _is_user_ext(src):
        out: Array = EXTENDED_CONVERT[0](
            operand if src is not None else asarray(operand), new_dtype
        )
        return out
    if _is_ext(new_dtype) or _is_ext(src):
        if not (_is_ext(src) and src == new_dtype):
            shown = src if src is not None else dtypes.dtype_and_weak_type(operand)[0]
            to = new_dtype if _is_ext(new_dtype) else dtypes.check_user_dtype(new_dtype, "")
            raise ValueError(f"Cannot convert_element_type from {shown} to {to}")
        return operand  # type: ignore[return-value]  # a key array to its own dtype
    d = dtypes.check_user_dtype(new_dtype, "convert_element_type")
    if type(operand) is complex and dtypes.kind(d) != "c":
        # JAX warns, then casts a Python complex as NumPy's array constructor does: the
        # nonzero test as bool, int()'s or float()'s TypeError otherwise, except that a
        # non-finite one goes to an integer type as a complex array would (the real part)
        warnings.warn(
            "Casting complex values to real discards the imaginary part",
            np.exceptions.ComplexWarning,
            stacklevel=dtypes.user_stacklevel(),
        )
        if dtypes.kind(d) == "b":
            return _convert(ArrayImpl._new(np.array(operand != 0), d, False), d, weak_type)
        if dtypes.kind(d) != "f" and not cmath.isfinite(operand):
            with warnings.catch_warnings():  # warned once above
                warnings.simplefilter("ignore", np.exceptions.ComplexWarning)
                return convert_element_type(asarray(operand), d, weak_type=weak_type)
        kind = "float" if dtypes.kind(d) == "f" else "int"
        raise TypeError(
            f"{kind}() argument must be a string or a real number, not 'complex' "
            f"(convert_element_type of {operand!r} to {d.name})"
        )
    if type(operand) is int:
        # A Python int goes straight to the target dtype (JAX): 2**40 -> float32 works with x64
        # off, and an integer target wraps instead of raising.
        return _convert(ArrayImpl._new(_python_int_as(operand, d), d, False), d, weak_type)
    a = asarray(operand)
    if dtypes.kind(a.dtype) == "c" and dtypes.kind(d) != "c":
        warnings.warn(
            "Casting complex values to real discards the imaginary part",
            np.exceptions.ComplexWarning,
            stacklevel=dtypes.user_stacklevel(),
        )
        if d == dtypes.bool_:  # XLA's conversion drops the imaginary part first: 1j is False
            a = _convert(a, np.finfo(a.dtype).dtype, False)
    return _convert(a, d, weak_type)


#: ``convert(x, new_dtype)`` for user-defined extended dtypes (``lax/extended_dtypes.py``).
EXTENDED_CONVERT: list[Callable[[Any, Any], Any]] = []


def _is_user_ext(d: Any) -> bool:
    """A user-defined extended dtype (one with rules; a key dtype has none)."""
    return isinstance(d, ExtendedDType) and getattr(d, "_rules", None) is not None


def _is_ext(d: Any) -> bool:
    """An extended dtype (a key dtype): no NumPy dtype, no conversion to or from it."""
    return d is not None and not isinstance(d, np.dtype) and dtypes._extended_type(d) is not None


def _python_int_as(x: int, d: np.dtype[Any]) -> np.ndarray[Any, Any]:
    if dtypes.kind(d) in ("i", "u") and not -(2**63) <= x < 2**64:
        # JAX wraps an int of int64's or uint64's range into an integer type; a wider one
        # cannot reach the conversion (a float or bool target takes any int)
        raise OverflowError("Python int too large to convert to C long")
    if dtypes.kind(d) in ("i", "u", "b"):
        bits = 64 if dtypes.kind(d) == "b" else dtypes.itemsize_bits(d)
        wrapped = x % (1 << bits)  # two's complement wrap-around, like a C cast
        if dtypes.kind(d) == "i" and wrapped >= 1 << (bits - 1):
            wrapped -= 1 << bits
        return np.array(wrapped if dtypes.kind(d) != "b" else x != 0).astype(d)
    if abs(x) >= 2**64 and dtypes.kind(d) == "f" and d not in (np.float16, np.float32, np.float64):
        # JAX hands such an int to NumPy as an object, which ml_dtypes' types refuse
        raise TypeError(f"Python int {x} cannot be converted to {d.name}")
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


bitcast_convert_type_p = _prim("bitcast_convert_type", backend.bitcast_convert_type)


@bitcast_convert_type_p.def_abstract_eval
def _bitcast_abstract_eval(x: AbstractValue, *, new_dtype: Any) -> ShapedArray:
    old, new = dtypes.itemsize_bits(x.dtype), dtypes.itemsize_bits(new_dtype)
    shape = tuple(x.shape)
    if old == new:
        return _aval(shape, new_dtype, False)
    if old > new:
        if old % new:  # JAX's class for every size mismatch of a bitcast
            raise ValueError(f"bitcast_convert_type: {x.dtype.name} -> {new_dtype.name}")
        return _aval((*shape, old // new), new_dtype, False)
    if not shape or shape[-1] != new // old:
        raise ValueError(
            f"bitcast_convert_type from {x.dtype.name} to {np.dtype(new_dtype).name} needs a "
            f"trailing dimension of size {new // old}, got shape {shape}"
        )
    return _aval(shape[:-1], new_dtype, False)


def bitcast_convert_type(operand: ArrayLike, new_dtype: DTypeLike) -> Array:
    """Reinterprets the bits; a narrower type adds a trailing dimension, a wider one consumes it."""
    d = dtypes.check_user_dtype(new_dtype, "bitcast_convert_type")
    a = asarray(operand)
    # widths in bits: int4 is 4 bits wide although NumPy stores it in a byte (int4 -> float16
    # consumes a trailing axis of 4)
    wide, narrow = dtypes.itemsize_bits(np.dtype(d)), dtypes.itemsize_bits(a.dtype)
    if wide > narrow and (a.ndim == 0 or a.shape[-1] != wide // narrow):
        # JAX checks the trailing axis a widening bitcast consumes first (ValueError)
        raise ValueError(
            f"bitcast_convert_type from {a.dtype.name} to {np.dtype(d).name}: the last axis "
            f"must have {wide // narrow} elements, got shape {tuple(a.shape)}"
        )
    kinds = np.dtype(d).kind + a.dtype.kind
    if np.dtype(d) != a.dtype and ("b" in kinds or "c" in kinds):
        # bool and complex have no bit layout JAX reinterprets: only to their own type (TypeError)
        raise TypeError(
            f"bitcast_convert_type from {a.dtype.name} to {np.dtype(d).name}: bool and complex "
            "convert only to their own type"
        )
    return bitcast_convert_type_p.bind(a, new_dtype=d)


# -- broadcasting and reshaping -----------------------------------------------------------------

broadcast_in_dim_p = _prim("broadcast_in_dim", backend.broadcast_in_dim, fp_free=True)
ad_util.PRIMITIVES.broadcast_in_dim = broadcast_in_dim_p


def _check_broadcast_in_dim(operand: Shape, shape: Shape, dims: Shape) -> None:
    """JAX's checks of ``broadcast_in_dim``'s arguments, in its order and words."""
    nd = len(operand)
    if nd != len(dims):
        raise TypeError(
            "broadcast_in_dim broadcast_dimensions must have length equal to operand ndim; got "
            f"broadcast_dimensions {dims} for operand ndim {nd}."
        )
    if len(shape) < nd:
        raise TypeError(
            "broadcast_in_dim target broadcast shape must have equal or higher rank to the "
            f"operand shape; got operand ndim {nd} and target broadcast ndim {len(shape)}."
        )
    if not all(0 <= d < len(shape) for d in dims):
        raise TypeError(
            "broadcast_in_dim broadcast_dimensions must be a subset of output dimensions, got "
            f"{dims} for operand ndim {nd} and shape {shape}."
        )
    if not all(operand[i] in (1, shape[d]) for i, d in enumerate(dims)):
        raise TypeError(
            "broadcast_in_dim operand dimension sizes must either be 1, or be equal to their "
            "corresponding dimensions in the target broadcast shape; got operand of shape "
            f"{tuple(operand)}, target broadcast shape {shape}, broadcast_dimensions {dims} "
        )
    if len(set(dims)) != len(dims):
        raise TypeError(
            "broadcast_in_dim broadcast_dimensions must not contain duplicates, got "
            f"broadcast_dimensions {dims}"
        )


@broadcast_in_dim_p.def_abstract_eval
def _broadcast_in_dim_abstract_eval(
    x: AbstractValue, *, shape: Shape, broadcast_dimensions: Shape
) -> ShapedArray:
    _check_broadcast_in_dim(tuple(x.shape), shape, broadcast_dimensions)
    if list(broadcast_dimensions) != sorted(broadcast_dimensions):
        # the primitive keeps its dims increasing (lax.broadcast_in_dim transposes first)
        raise TypeError(
            f"broadcast_in_dim: broadcast_dimensions must be strictly increasing, got "
            f"{broadcast_dimensions}"
        )
    return _aval(shape, x.dtype, x.weak_type)


def broadcast_in_dim(
    operand: ArrayLike,
    shape: ShapeLike,
    broadcast_dimensions: Sequence[int],
    *,
    out_sharding: Any = None,
) -> Array:
    """Broadcasts ``x`` to ``shape``, its axis ``i`` becoming axis ``broadcast_dimensions[i]``
    (in any order, as in JAX: unordered dimensions transpose ``x`` first)."""
    if out_sharding is not None:
        check_out_sharding("lax.broadcast_in_dim", out_sharding)
    operand = asarray(operand)
    shape = _shape_tuple("broadcast_in_dim", shape)
    dims = tuple(int(d) for d in broadcast_dimensions)
    if tuple(operand.shape) == shape and dims == tuple(range(len(shape))):
        same: Array = operand
        return same
    _check_broadcast_in_dim(tuple(operand.shape), shape, dims)
    if list(dims) != sorted(dims):
        order = tuple(int(i) for i in np.argsort(dims))
        operand = transpose_p.bind(operand, permutation=order)
        dims = tuple(sorted(dims))
    return broadcast_in_dim_p.bind(operand, shape=shape, broadcast_dimensions=dims)


def _array_of_values(arg: Any) -> bool:
    """Whether a static sequence argument is an array with elements (or 0-d): JAX cannot hash
    its elements and raises TypeError; an empty 1-d array is an empty sequence."""
    return isinstance(arg, Array) and (arg.ndim == 0 or arg.size > 0)


def broadcast(operand: ArrayLike, sizes: Sequence[int], *, out_sharding: Any = None) -> Array:
    """Adds leading dimensions of the given sizes."""
    if out_sharding is not None:
        check_out_sharding("lax.broadcast", out_sharding)
    operand = asarray(operand)
    if _array_of_values(sizes):  # JAX's sizes are static: a sequence of ints, not an array
        raise TypeError(f"lax.broadcast: sizes must be a sequence of ints, got {sizes!r}")
    sizes = _shape_tuple("broadcast", sizes)
    n = len(sizes)
    return broadcast_in_dim(operand, (*sizes, *operand.shape), tuple(range(n, n + operand.ndim)))


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


reshape_p = _prim("reshape", backend.reshape, fp_free=True)
ad_util.PRIMITIVES.reshape = reshape_p


@reshape_p.def_abstract_eval
def _reshape_abstract_eval(
    x: AbstractValue, *, new_sizes: Shape, dimensions: Shape | None = None
) -> ShapedArray:
    if math.prod(new_sizes) != math.prod(x.shape):
        # JAX 0.10.2 lets this through its shape rule and fails compiling it: a ValueError
        raise ValueError(
            f"reshape: {math.prod(x.shape)} elements of shape {tuple(x.shape)} cannot take the "
            f"shape {new_sizes} ({math.prod(new_sizes)} elements)"
        )
    return _aval(new_sizes, x.dtype, x.weak_type)


def reshape(
    operand: ArrayLike,
    new_sizes: ShapeLike,
    dimensions: Sequence[int] | None = None,
    *,
    out_sharding: Any = None,
) -> Array:
    if out_sharding is not None:
        check_out_sharding("lax.reshape", out_sharding)
    operand = asarray(operand)
    sizes = _shape_tuple("reshape", new_sizes)
    dims = None if dimensions is None else tuple(int(d) for d in dimensions)
    if dims is not None and sorted(dims) != list(range(operand.ndim)):
        raise TypeError(
            f"reshape: dimensions {dims} must be a permutation of the axes of shape "
            f"{tuple(operand.shape)}"
        )
    if sizes == tuple(operand.shape) and (dims is None or dims == tuple(range(operand.ndim))):
        same: Array = operand
        return same
    return reshape_p.bind(operand, new_sizes=sizes, dimensions=dims)


squeeze_p = _prim("squeeze", backend.squeeze, fp_free=True)


@squeeze_p.def_abstract_eval
def _squeeze_abstract_eval(x: AbstractValue, *, dimensions: Shape) -> ShapedArray:
    for d in dimensions:
        if x.shape[d] != 1:
            raise ValueError(
                f"cannot select an axis to squeeze out which has size not equal to one, got "
                f"shape={tuple(x.shape)} and dimensions={dimensions}"
            )
    return _aval([s for i, s in enumerate(x.shape) if i not in dimensions], x.dtype, x.weak_type)


def squeeze(array: ArrayLike, dimensions: Sequence[int]) -> Array:
    """Removes the size-1 ``dimensions`` of ``x``."""
    array = asarray(array)
    given = [operator.index(d) for d in dimensions]  # JAX's TypeError for a non-integer
    if len(set(given)) != len(given):
        raise ValueError(f"dimensions are not unique: {tuple(given)}")
    dims = canonicalize_axes("squeeze", given, array.ndim)
    if not dims:
        same: Array = array
        return same
    return squeeze_p.bind(array, dimensions=dims)


expand_dims_p = _prim("expand_dims", backend.expand_dims, fp_free=True)


@expand_dims_p.def_abstract_eval
def _expand_dims_abstract_eval(x: AbstractValue, *, dimensions: Shape) -> ShapedArray:
    shape = list(x.shape)
    for d in sorted(dimensions):
        shape.insert(d, 1)
    return _aval(shape, x.dtype, x.weak_type)


def expand_dims(array: ArrayLike, dimensions: Sequence[int]) -> Array:
    array = asarray(array)
    if _array_of_values(dimensions):  # static: a sequence of ints (JAX's TypeError)
        raise TypeError(
            f"lax.expand_dims: dimensions must be a sequence of ints, got {dimensions!r}"
        )
    dims = canonicalize_axes("expand_dims", dimensions, array.ndim + len(dimensions))
    return expand_dims_p.bind(array, dimensions=dims)


transpose_p = _prim("transpose", backend.transpose, fp_free=True)


@transpose_p.def_abstract_eval
def _transpose_abstract_eval(x: AbstractValue, *, permutation: Shape) -> ShapedArray:
    if sorted(permutation) != list(range(len(x.shape))):
        raise TypeError(
            f"transpose permutation isn't a permutation of operand dimensions, got permutation "
            f"{permutation} for operand shape {tuple(x.shape)}."
        )
    return _aval([x.shape[p] for p in permutation], x.dtype, x.weak_type)


def transpose(operand: ArrayLike, permutation: Sequence[int]) -> Array:
    operand = asarray(operand)
    perm = tuple(int(p) for p in permutation)
    if perm == tuple(range(operand.ndim)):
        same: Array = operand
        return same
    return transpose_p.bind(operand, permutation=perm)


rev_p = _prim("rev", backend.rev, fp_free=True)


@rev_p.def_abstract_eval
def _rev_abstract_eval(x: AbstractValue, *, dimensions: Shape) -> ShapedArray:
    return _aval(x.shape, x.dtype, x.weak_type)


def rev(operand: ArrayLike, dimensions: Sequence[int]) -> Array:
    operand = asarray(operand)
    dims = canonicalize_axes("rev", dimensions, operand.ndim, TypeError)  # JAX's class
    return rev_p.bind(operand, dimensions=dims)


# -- differentiation rules ------------------------------------------------------------------------
# Registered after every primitive of the module is defined (the rules use the wrappers above).


def _convert_jvp(
    primals: Sequence[Any], tangents: Sequence[Any], *, new_dtype: Any, weak_type: bool
) -> tuple[Any, Any]:
    (x,), (t,) = primals, tangents
    ans = convert_element_type_p.bind(x, new_dtype=new_dtype, weak_type=weak_type)
    if not ad_util.differentiable(np.dtype(new_dtype)):
        return ans, ad_util.zero_of(ans)
    # complex -> real: the conversion itself drops the imaginary part (no real_p in between, so
    # the transpose gives back the operand's weak flag, as in JAX)
    return ans, convert_element_type_p.bind(t, new_dtype=new_dtype, weak_type=weak_type)


def _convert_transpose(ct: Any, x: Any, *, new_dtype: Any, weak_type: bool) -> list[Any]:
    # The cast back to the operand's dtype and weak flag: an f16 parameter used with f32 data
    # gets an f16 gradient, a weak one a weak gradient.
    aval = x.aval
    if dtypes.kind(ct.dtype) == "c" and dtypes.kind(aval.dtype) != "c":
        ct = ad_util.PRIMITIVES.real.bind(ct)
    return [ad_util.convert(ct, aval.dtype, aval.weak_type)]


convert_element_type_p.def_jvp(_convert_jvp)
convert_element_type_p.def_transpose(_convert_transpose)
ad_util.defzeros("reinterprets bits: no derivative", bitcast_convert_type_p)


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
    return ad_util.PRIMITIVES.reduce_sum.bind(x, axes=tuple(axes))


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


# -- batch rules --------------------------------------------------------------------------------


@bitcast_convert_type_p.def_batch
def _bitcast_batch(args: Sequence[Any], dims: Dims, *, new_dtype: Any) -> tuple[Any, int]:
    return bitcast_convert_type_p.bind(moveaxis(args[0], dims[0], 0), new_dtype=new_dtype), 0  # type: ignore[arg-type]


# -- shapes ----------------------------------------------------------------------------------------


@broadcast_in_dim_p.def_batch
def _broadcast_in_dim_batch(
    args: Sequence[Any],
    dims: Dims,
    *,
    shape: tuple[int, ...],
    broadcast_dimensions: tuple[int, ...],
) -> tuple[Any, int]:
    (x,), (d,) = args, dims
    assert d is not None
    x = moveaxis(x, d, 0)
    bd = (0, *(b + 1 for b in broadcast_dimensions))
    return broadcast_in_dim_p.bind(x, shape=(x.shape[0], *shape), broadcast_dimensions=bd), 0


@reshape_p.def_batch
def _reshape_batch(
    args: Sequence[Any], dims: Dims, *, new_sizes: tuple[int, ...], dimensions: Any
) -> tuple[Any, int]:
    (x,), (d,) = args, dims
    assert d is not None
    x = moveaxis(x, d, 0)
    if dimensions is not None:
        x = transpose_p.bind(x, permutation=(0, *(i + 1 for i in dimensions)))
    return reshape_p.bind(x, new_sizes=(x.shape[0], *new_sizes), dimensions=None), 0


def _front_axes_rule(prim: Primitive, key: str) -> None:
    """Batch at axis 0; the axis tuple parameter ``key`` shifts by one."""

    def rule(args: Sequence[Any], dims: Dims, **params: Any) -> tuple[Any, int]:
        (x,), (d,) = args, dims
        assert d is not None
        params[key] = tuple(a + 1 for a in params[key])
        return prim.bind(moveaxis(x, d, 0), **params), 0

    prim.def_batch(rule)


_front_axes_rule(squeeze_p, "dimensions")
_front_axes_rule(expand_dims_p, "dimensions")
_front_axes_rule(rev_p, "dimensions")


@transpose_p.def_batch
def _transpose_batch(
    args: Sequence[Any], dims: Dims, *, permutation: tuple[int, ...]
) -> tuple[Any, int]:
    (x,), (d,) = args, dims
    assert d is not None
    perm = (d, *shift_axes(permutation, d))
    return transpose_p.bind(x, permutation=perm), 0


@ad_util.add_any_p.def_batch
def _add_any_batch(args: Sequence[Any], dims: Dims) -> tuple[Any, int]:
    """``add_any`` (defined in ``ad_util``, below lax) takes equal shapes: both operands get the
    batch at axis 0 (an unbatched one copied)."""
    return ad_util.add_any_p.bind(*all_at_front(args, dims)), 0
