"""Shape manipulation: reshaping, transposing, broadcasting, flipping, rolling, triangles.

Shape operations never change the dtype and keep the weak flag (``reshape(asarray(2.0), (1,))``
is still a weak float32), as in JAX (reference §3.3.4). Shapes and axes must be static Python
integers; everything else is ``lax`` (``reshape``, ``transpose``, ``broadcast_in_dim``, ``rev``,
``slice``, ``concatenate``, ``select_n``), so these functions trace under ``jit``. ``roll`` also
accepts a traced shift.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Sequence
from typing import Any

import numpy as np

from trellax._src.core import core
from trellax._src.core.basearray import Array
from trellax._src.core.out_sharding import check_out_sharding
from trellax._src.dtypes import dtypes
from trellax._src.lax import elementwise as lax
from trellax._src.lax import structural as lax_structural
from trellax._src.lax.structural import (
    broadcast_in_dim,
    broadcasted_iota,
    concatenate,
    dynamic_slice,
    rev,
    select_n,
)
from trellax._src.numpy import extended as _extended
from trellax._src.numpy.creation import asarray
from trellax._src.numpy.extended import handler, is_extended
from trellax._src.numpy.reductions import (
    Axis,
    canonicalize_axis,
    const,
    reduction_axes,
    sum,
)
from trellax._src.numpy.static_args import check_static
from trellax._src.numpy.util import ensure_array

ArrayLike = Any
Shape = tuple[int, ...]


def canonical_shape(name: str, shape: Any) -> Shape:
    """A shape argument (an int, a sequence of ints, a concrete integer array) as a tuple."""
    if isinstance(shape, Array) and shape.ndim == 1:
        shape = tuple(shape)
    if not isinstance(shape, (tuple, list)):
        try:  # any iterable of dimensions is a shape; anything else one dimension
            shape = tuple(shape)
        except TypeError:
            shape = (shape,)
    try:
        return tuple(operator.index(d) for d in shape)
    except TypeError:
        raise TypeError(
            f"{name}: shape must be an integer or a sequence of integers, got {shape!r}"
        ) from None


def _axes_tuple(axis: Any) -> tuple[Any, ...]:
    """``axis`` as a tuple: a sequence, or a concrete array of rank >= 1 taken element by element
    (each must be an integer: an empty array of any dtype is no axes, as in JAX)."""
    if isinstance(axis, (tuple, list, range)):
        return tuple(axis)
    if isinstance(axis, Array) and axis.ndim >= 1 and core.is_concrete(axis):
        return tuple(operator.index(a) for a in axis)
    return (axis,)


def _array(name: str, a: ArrayLike) -> Array:
    """An array argument; nested lists are accepted (as ``asarray`` would take them)."""
    if isinstance(a, (list, tuple)):
        return asarray(a)
    return ensure_array(name, a)


# -- reshaping -----------------------------------------------------------------------------------


def _resolve_shape(x: Array, shape: Shape) -> Shape:
    """Fills in a ``-1`` dimension and checks that the size is unchanged."""
    unknown = [i for i, d in enumerate(shape) if d == -1]
    if len(unknown) > 1:
        raise TypeError(f"can only specify one unknown axis size with a `-1` value, got {shape}")
    if any(d < -1 for d in shape):
        raise TypeError(f"reshape: negative dimensions are not allowed, got shape {shape}")
    size = x.size
    if unknown:
        known = math.prod(d for d in shape if d != -1)
        if known == 0 or size % known:
            raise TypeError(
                f"cannot reshape array of shape {tuple(x.shape)} (size {size}) into shape "
                f"{shape} because the product of the specified axis sizes ({known}) does not "
                f"evenly divide {size}"
            )
        shape = tuple(size // known if d == -1 else d for d in shape)
    if math.prod(shape) != size:
        raise TypeError(
            f"cannot reshape array of shape {tuple(x.shape)} (size {size}) into shape {shape} "
            f"(size {math.prod(shape)})"
        )
    return shape


def reshape(
    a: ArrayLike,
    shape: Any = None,
    order: str = "C",
    *,
    newshape: Any = None,
    copy: bool | None = None,
    out_sharding: Any = None,
) -> Array:
    """A new shape with the same elements (one dimension may be ``-1``); ``order`` 'C' or 'F'.

    >>> import trellax.numpy as tnp
    >>> tnp.reshape(tnp.arange(6), (2, -1)).shape
    (2, 3)
    """
    if out_sharding is not None:
        check_out_sharding("numpy.reshape", out_sharding)
    if is_extended(a):  # typed keys reshape their key data
        return handler("reshape")(a, shape if shape is not None else newshape, order)  # type: ignore[no-any-return]
    x = ensure_array("reshape", a)
    if shape is None:
        if newshape is None:
            raise TypeError("reshape() missing the required argument 'shape'")
        shape = newshape
    dims = _resolve_shape(x, canonical_shape("reshape", shape))
    if order == "C":
        return lax_structural.reshape(x, dims)
    if order == "F":
        flipped = lax_structural.reshape(transpose(x), dims[::-1])
        return transpose(flipped)
    if order == "A":
        raise NotImplementedError("trellax.numpy.reshape does not support order='A'.")
    raise ValueError(f"Unexpected value for 'order' argument: {order!r}")


def ravel(a: ArrayLike, order: str = "C", *, out_sharding: Any = None) -> Array:
    """The elements as a 1-D array (row-major for 'C', column-major for 'F')."""
    if out_sharding is not None:
        check_out_sharding("numpy.ravel", out_sharding)
    x = ensure_array("ravel", a)
    if order == "K":
        raise NotImplementedError("Ravel not implemented for order='K'.")
    return reshape(x, (x.size,), order)


def _reshape_method(
    self: Array, *args: Any, order: str = "C", shape: Any = None, out_sharding: Any = None
) -> Array:
    """``x.reshape(2, 3)`` and ``x.reshape((2, 3))``."""
    if shape is None:
        if len(args) == 1 and not isinstance(args[0], int):
            shape = args[0]
        else:
            shape = args
    return reshape(self, shape, order, out_sharding=out_sharding)


def _flatten_method(self: Array, order: str = "C", *, out_sharding: Any = None) -> Array:
    return ravel(self, order, out_sharding=out_sharding)


# -- permuting axes ------------------------------------------------------------------------------


def transpose(a: ArrayLike, axes: Sequence[int] | None = None) -> Array:
    """Permutes the axes (reverses them by default)."""
    x = ensure_array("transpose", a)
    if axes is None:
        perm = tuple(range(x.ndim))[::-1]
    else:
        perm = tuple(canonicalize_axis(i, x.ndim) for i in axes)
        if len(perm) != x.ndim or sorted(perm) != list(range(x.ndim)):
            raise TypeError(
                "transpose permutation isn't a permutation of operand dimensions, got "
                f"permutation {tuple(axes)} for operand shape {tuple(x.shape)}."
            )
    return lax_structural.transpose(x, perm)


def permute_dims(a: ArrayLike, /, axes: Sequence[int]) -> Array:
    """The Array API's :func:`transpose` (``axes`` is required)."""
    return transpose(a, axes)


def _transpose_method(self: Array, *args: Any) -> Array:
    """``x.transpose()``, ``x.transpose(1, 0)`` and ``x.transpose((1, 0))``."""
    if not args or (len(args) == 1 and args[0] is None):
        return transpose(self)
    if len(args) == 1 and isinstance(args[0], (tuple, list)):
        return transpose(self, args[0])
    return transpose(self, args)


def moveaxis(a: ArrayLike, source: int | Sequence[int], destination: int | Sequence[int]) -> Array:
    """Moves axes ``source`` to positions ``destination``; the others keep their order."""
    x = ensure_array("moveaxis", a)
    src = tuple(canonicalize_axis(i, x.ndim) for i in _axes_tuple(source))
    dst = tuple(canonicalize_axis(i, x.ndim) for i in _axes_tuple(destination))
    if len(src) != len(dst):
        raise ValueError(
            "moveaxis: `source` and `destination` arguments must have the same number of "
            f"elements, got {len(src)} vs {len(dst)}"
        )
    if len(set(src)) != len(src) or len(set(dst)) != len(dst):
        raise ValueError(f"moveaxis: repeated axis in source {src} or destination {dst}")
    perm = [i for i in range(x.ndim) if i not in src]
    for d, s in sorted(zip(dst, src)):
        perm.insert(d, s)
    return lax_structural.transpose(x, tuple(perm))


def swapaxes(a: ArrayLike, axis1: int, axis2: int) -> Array:
    """Exchanges two axes."""
    x = ensure_array("swapaxes", a)
    perm = list(range(x.ndim))
    i, j = canonicalize_axis(axis1, x.ndim), canonicalize_axis(axis2, x.ndim)
    perm[i], perm[j] = perm[j], perm[i]
    return lax_structural.transpose(x, tuple(perm))


# -- adding and removing unit axes ----------------------------------------------------------------


def squeeze(a: ArrayLike, axis: Axis = None) -> Array:
    """Removes axes of length one (all of them, or those in ``axis``, which must have length 1)."""
    x = ensure_array("squeeze", a)
    if axis is None:
        dims = tuple(i for i, d in enumerate(x.shape) if d == 1)
    else:
        dims = reduction_axes(x.ndim, axis)
    return lax_structural.squeeze(x, dims)


def expand_dims(a: ArrayLike, axis: int | Sequence[int]) -> Array:
    """Inserts axes of length one at positions ``axis`` of the result."""
    if is_extended(a):
        return handler("expand_dims")(a, axis)  # type: ignore[no-any-return]
    x = ensure_array("expand_dims", a)
    axes = _axes_tuple(axis)
    dims = tuple(canonicalize_axis(a, x.ndim + len(axes)) for a in axes)
    if len(set(dims)) != len(dims):  # JAX's words
        raise ValueError(f"repeated axis in lax.expand_dims: {tuple(axes)}")
    return lax_structural.expand_dims(x, dims)


def atleast_1d(*arys: ArrayLike) -> Any:
    """Each argument with at least one dimension (a list for several arguments)."""
    out = [_at_least(_array("atleast_1d", a), 1) for a in arys]
    return out[0] if len(out) == 1 else out


def atleast_2d(*arys: ArrayLike) -> Any:
    """Each argument with at least two dimensions: ``(n,)`` becomes ``(1, n)``."""
    out = [_at_least(_array("atleast_2d", a), 2) for a in arys]
    return out[0] if len(out) == 1 else out


def atleast_3d(*arys: ArrayLike) -> Any:
    """Each argument with at least three dimensions: ``(n,)`` becomes ``(1, n, 1)`` and
    ``(m, n)`` becomes ``(m, n, 1)``."""
    out = []
    for a in arys:
        x = _array("atleast_3d", a)
        if x.ndim == 0:
            x = lax_structural.expand_dims(x, (0, 1, 2))
        elif x.ndim == 1:
            x = lax_structural.expand_dims(x, (0, 2))
        elif x.ndim == 2:
            x = lax_structural.expand_dims(x, (2,))
        out.append(x)
    return out[0] if len(out) == 1 else out


def _at_least(x: Array, ndim: int) -> Array:
    if x.ndim >= ndim:
        return x
    return lax_structural.reshape(x, (1,) * (ndim - x.ndim) + tuple(x.shape))


# -- broadcasting --------------------------------------------------------------------------------


def broadcast_shapes(*shapes: Any) -> Shape:
    """The shape that NumPy broadcasting of ``shapes`` gives (ints and 0-d arrays count as 1-D
    shapes; a 1-D integer array is a shape too).

    As in JAX, each entry of the result is the object given for that dimension (an integer
    array's element stays a 0-d array), and non-integer entries are a ``TypeError``.
    """
    if not shapes:
        return ()
    given = [tuple(s) if _shape_rank(s) else (s,) for s in shapes]
    try:
        dims = [tuple(operator.index(d) for d in s) for s in given]
    except TypeError:
        raise TypeError(
            "Shapes must be 1D sequences of concrete values of integer type, got "
            f"{next(s for s in given if not _all_index(s))}."
        ) from None
    out = core.broadcast_shapes(*dims)
    if all(type(d) is int for s in given for d in s):
        return out
    if all(s == dims[0] for s in dims):
        return given[0]
    picked = []
    for i, size in enumerate(out):
        k = len(out) - i  # the dimension counted from the right
        src = [s[-k] for s, d in zip(given, dims, strict=True) if len(d) >= k and d[-k] == size]
        picked.append(src[0])
    return tuple(picked)


def _shape_rank(s: Any) -> int:
    return 1 if isinstance(s, (tuple, list)) else int(getattr(s, "ndim", 0))


def _all_index(dims: tuple[Any, ...]) -> bool:
    try:
        for d in dims:
            operator.index(d)
    except TypeError:
        return False
    return True


def broadcast_to(array: ArrayLike, shape: Any, *, out_sharding: Any = None) -> Array:
    """``array`` broadcast to ``shape`` (a view-like result with the same dtype and weak flag)."""
    if out_sharding is not None:
        check_out_sharding("numpy.broadcast_to", out_sharding)
    if is_extended(array):  # typed keys broadcast their key data
        return handler("broadcast_to")(array, shape)  # type: ignore[no-any-return]
    x = ensure_array("broadcast_to", array)
    dims = canonical_shape("broadcast_to", shape)
    if tuple(x.shape) == dims:
        return x
    if len(dims) < x.ndim:
        raise ValueError(
            f"Cannot broadcast to shape with fewer dimensions: arr_shape={tuple(x.shape)} "
            f"shape={dims}"
        )
    lead = len(dims) - x.ndim
    if any(d not in (1, s) for d, s in zip(x.shape, dims[lead:])):
        raise ValueError(
            "Incompatible types for broadcasting: input type="
            f"{x.dtype.name}[{','.join(map(str, x.shape))}] and requested type="
            f"{x.dtype.name}[{','.join(map(str, dims))}]"
        )
    return broadcast_in_dim(x, dims, tuple(range(lead, len(dims))))


def broadcast_arrays(*args: ArrayLike) -> list[Array]:
    """The arguments broadcast against each other (a list, as in JAX and the Array API)."""
    arrays = [ensure_array("broadcast_arrays", a) for a in args]
    if not arrays:
        return []
    shape = core.broadcast_shapes(*[tuple(x.shape) for x in arrays])
    return [broadcast_to(x, shape) for x in arrays]


# -- reversing and rotating ----------------------------------------------------------------------


def flip(m: ArrayLike, axis: Axis = None) -> Array:
    """Reverses the order of elements along ``axis`` (all axes by default)."""
    x = ensure_array("flip", m)
    return rev(x, reduction_axes(x.ndim, axis))


def fliplr(m: ArrayLike) -> Array:
    """Reverses axis 1 (left/right)."""
    x = ensure_array("fliplr", m)
    if x.ndim < 2:
        raise ValueError(f"fliplr: the input must be at least 2-d, got shape {tuple(x.shape)}")
    return rev(x, (1,))


def flipud(m: ArrayLike) -> Array:
    """Reverses axis 0 (up/down)."""
    x = ensure_array("flipud", m)
    if x.ndim < 1:
        raise ValueError("flipud: the input must be at least 1-d, got a 0-d array")
    return rev(x, (0,))


def _static_ints(value: Any) -> tuple[int, ...] | None:
    """``value`` as a tuple of Python ints, or None when it is not static (a traced array).

    As in JAX, a float shift is converted to an integer (toward zero: 1.7 shifts by 1) and a
    complex one by its real part."""
    if isinstance(value, (np.ndarray, np.generic)):  # a NumPy shift: read like a concrete array
        value = ensure_array("roll", value)
    if isinstance(value, Array):
        if not core.is_concrete(value):
            return None
        if dtypes.kind(value.dtype) == "c":  # JAX keeps the real part (1+5j shifts by 1)
            value = lax.real(value)
        value = value.astype(dtypes.int32)
        return tuple(int(v) for v in value.tolist()) if value.ndim else (int(value),)
    try:
        return tuple(
            int(v) if isinstance(v, float) else operator.index(v) for v in _axes_tuple(value)
        )
    except TypeError:
        raise TypeError(f"roll: shift must be an integer or integers, got {value!r}") from None


def roll(a: ArrayLike, shift: Any, axis: Axis = None) -> Array:
    """Shifts elements cyclically by ``shift`` along ``axis`` (of the flattened array for
    ``None``). ``shift`` may be a traced integer."""
    x = ensure_array("roll", a)
    if axis is None:
        return reshape(roll(ravel(x), shift, 0), x.shape)
    axes = tuple(canonicalize_axis(i, x.ndim) for i in _axes_tuple(axis))
    shifts = _static_ints(shift)
    if shifts is None:
        return _roll_dynamic(x, ensure_array("roll", shift), axes)
    if len(shifts) == 1:
        shifts = shifts * len(axes)
    elif len(axes) == 1:
        axes = axes * len(shifts)
    if len(shifts) != len(axes):
        raise ValueError(
            f"roll: shift {shifts} and axis {axes} must have the same length (or one of "
            "them length 1)"
        )
    for ax, s in zip(axes, shifts):
        n = x.shape[ax]
        if n == 0:
            continue
        i = (-s) % n
        if i:
            x = concatenate([_slice_axis(x, ax, i, n), _slice_axis(x, ax, 0, i)], ax)
    return x


def _roll_dynamic(x: Array, shift: Array, axes: tuple[int, ...]) -> Array:
    """``roll`` with a traced shift: a dynamic slice of the array concatenated with itself."""
    if shift.ndim > 1 or (shift.ndim == 1 and shift.shape[0] not in (1, len(axes))):
        raise ValueError(f"roll: shift of shape {tuple(shift.shape)} does not match axes {axes}")
    i32 = dtypes.int32
    shift = lax_structural._convert(shift, i32, False)
    for k, ax in enumerate(axes):
        if shift.ndim == 0:
            s = shift
        else:
            j = k if shift.shape[0] > 1 else 0
            s = lax_structural.reshape(_slice_axis(shift, 0, j, j + 1), ())
        n = x.shape[ax]
        if n == 0:
            continue
        size = const(n, i32)
        start = lax.sub(size, lax.rem(lax.add(lax.rem(s, size), size), size))
        doubled = concatenate([x, x], ax)
        starts = [const(0, i32)] * x.ndim
        starts[ax] = start
        x = dynamic_slice(doubled, starts, x.shape)
    return x


def _slice_axis(x: Array, axis: int, start: int, stop: int) -> Array:
    starts = [0] * x.ndim
    stops = list(x.shape)
    starts[axis], stops[axis] = start, stop
    return lax_structural.slice(x, starts, stops)


def rot90(m: ArrayLike, k: int = 1, axes: tuple[int, int] = (0, 1)) -> Array:
    """Rotates by 90 degrees ``k`` times in the plane of ``axes`` (from the first axis towards
    the second)."""
    check_static("rot90", k=k, axes=axes)
    x = ensure_array("rot90", m)
    if x.ndim < 2:
        raise ValueError(
            "rot90 requires its first argument to have ndim at least two, but got first "
            f"argument of shape {tuple(x.shape)}, which has ndim {x.ndim}"
        )
    if len(axes) != 2:
        raise ValueError(f"rot90: len(axes) must be 2, got {axes}")
    ax1, ax2 = (canonicalize_axis(i, x.ndim) for i in axes)
    if ax1 == ax2:
        raise ValueError(f"rot90: axes must be different, got {axes}")
    k = operator.index(k) % 4
    if k == 0:
        return x
    if k == 2:
        return rev(x, (ax1, ax2))
    perm = list(range(x.ndim))
    perm[ax1], perm[ax2] = perm[ax2], perm[ax1]
    if k == 1:
        return lax_structural.transpose(rev(x, (ax2,)), tuple(perm))
    return rev(lax_structural.transpose(x, tuple(perm)), (ax2,))


# -- triangles and diagonals ---------------------------------------------------------------------


def _tri_mask(shape: Shape, k: int, upper: bool) -> Array:
    """True on and below (``tril``) or on and above (``triu``) the k-th diagonal."""
    n, m = shape[-2:]
    i32 = dtypes.int32
    rows = broadcasted_iota(i32, (n, m), 0)
    cols = broadcasted_iota(i32, (n, m), 1)
    offset = lax.add(rows, const(k, i32))
    mask = lax.ge(cols, offset) if upper else lax.le(cols, offset)
    return broadcast_in_dim(mask, shape, (len(shape) - 2, len(shape) - 1))


def _triangle(name: str, m: ArrayLike, k: int, upper: bool) -> Array:
    check_static(name, k=k)
    x = ensure_array(name, m)
    if x.ndim < 2:
        raise ValueError(f"Argument to trellax.numpy.{name} must be at least 2D")
    zeros = lax_structural.broadcast_to(const(0, x.dtype, x.weak_type), x.shape)
    return select_n(_tri_mask(tuple(x.shape), operator.index(k), upper), zeros, x)


def tril(m: ArrayLike, k: int = 0) -> Array:
    """Zeros above the k-th diagonal of the last two axes."""
    return _triangle("tril", m, k, upper=False)


def triu(m: ArrayLike, k: int = 0) -> Array:
    """Zeros below the k-th diagonal of the last two axes."""
    return _triangle("triu", m, k, upper=True)


class _SameAxes(ValueError, TypeError):
    """``diagonal`` of one axis with itself."""


def diagonal(a: ArrayLike, offset: int = 0, axis1: int = 0, axis2: int = 1) -> Array:
    """The ``offset``-th diagonal of the planes spanned by ``axis1`` and ``axis2``; it becomes
    the last axis of the result."""
    check_static("diagonal", offset=offset, axis1=axis1, axis2=axis2)
    x = ensure_array("diagonal", a)
    if x.ndim < 2:
        raise ValueError(
            f"diagonal requires an array of at least two dimensions, got shape {tuple(x.shape)}"
        )
    a1, a2 = canonicalize_axis(axis1, x.ndim), canonicalize_axis(axis2, x.ndim)
    if a1 == a2:  # JAX's TypeError (from its transpose), NumPy's ValueError: both catch it
        raise _SameAxes("diagonal: axis1 and axis2 cannot be the same")
    k = operator.index(offset)
    x = moveaxis(x, (a1, a2), (-2, -1))
    *batch, n, m = x.shape
    length = max(0, min(n, m - k) if k >= 0 else min(n + k, m))
    # In the row-major flattening of an (n, m) plane, the diagonal is a strided slice.
    flat = lax_structural.reshape(x, (*batch, n * m))
    start = (k if k >= 0 else -k * m) if length else 0
    stop = start + (length - 1) * (m + 1) + 1 if length else 0
    nb = len(batch)
    return lax_structural.slice(flat, (0,) * nb + (start,), (*batch, stop), (1,) * nb + (m + 1,))


def trace(
    a: ArrayLike,
    offset: int = 0,
    axis1: int = 0,
    axis2: int = 1,
    dtype: Any = None,
    out: None = None,
) -> Array:
    """The sum along a diagonal; accumulation dtypes as :func:`sum` (``trace(int8)`` is the
    default int)."""
    if out is not None:
        raise NotImplementedError("The 'out' argument to trellax.numpy.trace is not supported.")
    nd = np.ndim(a)
    if nd >= 2 and canonicalize_axis(axis1, nd) == canonicalize_axis(axis2, nd):
        raise ValueError(f"axis1 and axis2 can not be same. axis1={axis1} and axis2={axis2}")
    return sum(diagonal(a, offset, axis1, axis2), axis=-1, dtype=dtype)


# the plain functions, for arrays of user-defined extended dtypes (numpy/extended.py)
_extended.PLAIN.update(
    reshape=lambda a, shape, order: reshape(a, shape, order),
    expand_dims=lambda a, axis: expand_dims(a, axis),
    broadcast_to=lambda a, shape: broadcast_to(a, shape),
)
