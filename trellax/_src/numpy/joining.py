"""Joining, splitting and replicating: concatenate, stack, split, unstack, tile, repeat.

Joining promotes its inputs with the lattice, like an n-ary ufunc (reference §6.11):
``concatenate([int8, uint8])`` is int16, and the result is weak exactly when the join is a weak
node (``stack([1, 2])`` is a weak int32, ``concatenate([full((1,), 1.0), float16])`` is float16).
Strict mode refuses mixed dtypes. ``dtype=`` casts every input instead of promoting. Splitting
and replicating keep the dtype and the weak flag.
"""

from __future__ import annotations

import itertools
import operator
from collections.abc import Sequence
from typing import Any

import numpy as np

from trellax._src.backend.eager import ConcreteArray
from trellax._src.control_flow import unjitted
from trellax._src.core import core
from trellax._src.core.basearray import Array
from trellax._src.core.errors import ConcretizationTypeError
from trellax._src.core.out_sharding import check_out_sharding
from trellax._src.dtypes import dtypes
from trellax._src.lax import structural as lax_structural
from trellax._src.lax.reductions import cumsum_p
from trellax._src.lax.structural import _convert, broadcast_in_dim
from trellax._src.lax.structural import concatenate as lax_concatenate
from trellax._src.numpy import extended as _extended
from trellax._src.numpy import indexing
from trellax._src.numpy.extended import any_extended, handler
from trellax._src.numpy.reductions import canonicalize_axis, const
from trellax._src.numpy.shapes import (
    _slice_axis,
    atleast_1d,
    atleast_2d,
    atleast_3d,
    canonical_shape,
)
from trellax._src.numpy.static_args import int_axis
from trellax._src.numpy.util import check_arraylike, ensure_array, promote_args_keep_shapes

ArrayLike = Any


#: JAX's class for a 0-d array passed as the sequence to join: ``concat`` iterates over it,
#: ``stack`` takes its ``len()`` (both ``TypeError``); the others fail in a ``ValueError``.
_SCALAR_SEQUENCE_ERROR: dict[str, type[Exception]] = {"concat": TypeError, "stack": TypeError}


def _sequence(name: str, arrays: Any) -> list[Any]:
    """The arrays to join: a sequence, or an array (its sub-arrays along axis 0)."""
    if isinstance(arrays, (Array, np.ndarray)):
        x = ensure_array(name, arrays)
        if x.ndim == 0:
            cls = _SCALAR_SEQUENCE_ERROR.get(name, ValueError)
            raise cls(f"{name}: need a sequence of arrays, got a 0-d array")
        return list(unstack(x))
    if not isinstance(arrays, Sequence) or isinstance(arrays, str):
        raise TypeError(f"{name} requires a sequence of arrays, got {type(arrays)}")
    return list(arrays)


def _promoted(name: str, arrays: Sequence[Any], dtype: Any) -> list[Array]:
    # the operands are converted explicitly, as ``asarray`` does: any object with
    # ``__jax_array__`` is taken for its array
    arrays = [
        a.__jax_array__() if hasattr(type(a), "__jax_array__") and not isinstance(a, Array) else a
        for a in arrays
    ]
    check_arraylike(name, *arrays)
    if dtype is None:
        return promote_args_keep_shapes(name, *arrays)
    d = dtypes.check_user_dtype(dtype, name)
    return [_convert(ensure_array(name, a), d, False) for a in arrays]


def concatenate(arrays: Any, axis: int | None = 0, dtype: Any = None) -> Array:
    """Joins arrays along an existing axis (of the flattened arrays for ``axis=None``).

    >>> import trellax.numpy as tnp
    >>> tnp.concatenate([tnp.ones(1, "int8"), tnp.ones(2, "uint8")]).dtype
    dtype('int16')
    """
    seq = _sequence("concatenate", arrays)
    if not seq:
        raise ValueError("Need at least one array to concatenate.")
    if any_extended(seq):
        return handler("concatenate")(seq, axis)  # type: ignore[no-any-return]
    xs = _promoted("concatenate", seq, dtype)
    if axis is None:
        xs = [lax_structural.reshape(x, (x.size,)) for x in xs]
        axis = 0
    if xs[0].ndim == 0:
        raise ValueError("Zero-dimensional arrays cannot be concatenated.")
    ax = canonicalize_axis(axis, xs[0].ndim)  # JAX checks the axis, then the ranks
    if any(x.ndim != xs[0].ndim for x in xs):
        shapes = ", ".join(str(tuple(x.shape)) for x in xs)
        raise TypeError(
            f"Cannot concatenate arrays with different numbers of dimensions: got {shapes}."
        )
    return lax_concatenate(xs, ax)


def concat(arrays: Any, /, *, axis: int | None = 0) -> Array:
    """The Array API's :func:`concatenate`."""
    return concatenate(_sequence("concat", arrays), axis)


def stack(arrays: Any, axis: int = 0, out: None = None, dtype: Any = None) -> Array:
    """Joins arrays of the same shape along a new axis."""
    if out is not None:
        raise NotImplementedError("The 'out' argument to trellax.numpy.stack is not supported.")
    seq = _sequence("stack", arrays)
    if not seq:
        raise ValueError("Need at least one array to stack.")
    if any_extended(seq):
        return handler("stack")(seq, axis)  # type: ignore[no-any-return]
    axis = int_axis("stack", axis)  # JAX's TypeError comes before the shapes are compared
    xs = _promoted("stack", seq, dtype)
    shape = tuple(xs[0].shape)
    if any(tuple(x.shape) != shape for x in xs[1:]):
        raise ValueError(
            "All input arrays must have the same shape. Got "
            + ", ".join(str(tuple(x.shape)) for x in xs)
            + "."
        )
    ax = canonicalize_axis(axis, len(shape) + 1)
    return lax_concatenate([lax_structural.expand_dims(x, (ax,)) for x in xs], ax)


unjitted.stack_outputs = stack


def hstack(tup: Any, dtype: Any = None) -> Array:
    """Joins along axis 1 (axis 0 for 1-D inputs); 0-d inputs count as 1-D."""
    xs = [atleast_1d(x) for x in _sequence("hstack", tup)]
    if not xs:
        raise ValueError("Need at least one array to concatenate.")
    return concatenate(xs, 0 if xs[0].ndim == 1 else 1, dtype)


def vstack(tup: Any, dtype: Any = None) -> Array:
    """Joins along axis 0 after making every input at least 2-D (``(n,)`` becomes ``(1, n)``)."""
    return concatenate([atleast_2d(x) for x in _sequence("vstack", tup)], 0, dtype)


def dstack(tup: Any, dtype: Any = None) -> Array:
    """Joins along axis 2 after making every input at least 3-D."""
    return concatenate([atleast_3d(x) for x in _sequence("dstack", tup)], 2, dtype)


def column_stack(tup: Any) -> Array:
    """Joins 1-D arrays as columns (``(n,)`` becomes ``(n, 1)``) and 2-D arrays along axis 1."""
    cols = []
    for x in _sequence("column_stack", tup):
        arr = ensure_array("column_stack", x)
        if arr.ndim < 2:
            arr = lax_structural.transpose(atleast_2d(arr), (1, 0))
        cols.append(arr)
    return concatenate(cols, 1)


# -- splitting -----------------------------------------------------------------------------------


def _split(name: str, ary: ArrayLike, indices_or_sections: Any, axis: int) -> list[Array]:
    x = ensure_array(name, ary)
    ax = canonicalize_axis(axis, x.ndim)
    size = x.shape[ax]
    sections = indices_or_sections
    if isinstance(sections, (tuple, list)) or (
        isinstance(sections, (Array, np.ndarray)) and sections.ndim > 0
    ):
        points = [_static_index(name, i) for i in sections]
        bounds = [0, *points, size]
        pieces = list(itertools.pairwise(bounds))
        if any(hi < lo for lo, hi in pieces):
            # JAX's rule (NumPy would slice): split points rise within [0, size]
            raise ValueError(
                f"{name}: split points must be nondecreasing within [0, {size}], got {points}"
            )
    else:
        n = _static_index(name, sections, count=True)
        if n <= 0:
            raise ValueError(f"{name}: number of sections must be larger than 0, got {n}")
        part, rest = divmod(size, n)
        if rest and name in ("split", "hsplit", "vsplit", "dsplit"):
            raise ValueError(
                f"array split does not result in an equal division: rest is {rest} ({size} "
                f"elements into {n} sections); use array_split for unequal parts"
            )
        sizes = [part + 1] * rest + [part] * (n - rest)
        pieces, start = [], 0
        for s in sizes:
            pieces.append((start, start + s))
            start += s
    return [_slice_axis(x, ax, lo, hi) for lo, hi in pieces]


def _static_index(name: str, v: Any, count: bool = False) -> int:
    """A split point (or, with ``count``, the number of sections) as a Python int. A tracer
    that knows its value (``jvp``'s of a concrete primal) gives that value; the number of
    sections may be an integral float (``split(x, 2.0)``), as under JAX."""
    if not core.is_concrete(v):
        known = core.to_concrete_value(v)
        if known is None:
            raise ConcretizationTypeError(
                v, f"the split points of {name} (they set the output shapes)"
            )
        v = known
    if count and isinstance(v, (float, np.floating, np.ndarray)) and np.ndim(v) == 0:
        f = float(v)
        if f.is_integer():
            return int(f)
    try:
        return operator.index(v)
    except TypeError:
        raise TypeError(f"{name}: split points must be integers, got {v!r}") from None


def split(ary: ArrayLike, indices_or_sections: Any, axis: int = 0) -> list[Array]:
    """Splits into equal sections, or at the given indices, along ``axis``."""
    return _split("split", ary, indices_or_sections, axis)


def array_split(ary: ArrayLike, indices_or_sections: Any, axis: int = 0) -> list[Array]:
    """Like :func:`split`, but a number of sections need not divide the axis (the first parts
    get one element more)."""
    return _split("array_split", ary, indices_or_sections, axis)


def hsplit(ary: ArrayLike, indices_or_sections: Any) -> list[Array]:
    """Splits along axis 1 (axis 0 for 1-D input).

    As in JAX, a missing axis (here: a 0-d input) is an ``IndexError`` (an ``AxisError``)."""
    x = ensure_array("hsplit", ary)
    return _split("hsplit", x, indices_or_sections, 1 if x.ndim > 1 else 0)


def vsplit(ary: ArrayLike, indices_or_sections: Any) -> list[Array]:
    """Splits along axis 0: any input with dimensions, 1-D too (JAX's rule; NumPy wants 2-D)."""
    return _split("vsplit", ensure_array("vsplit", ary), indices_or_sections, 0)


def dsplit(ary: ArrayLike, indices_or_sections: Any) -> list[Array]:
    """Splits along axis 2 (the input must be at least 3-D: else an ``AxisError``)."""
    return _split("dsplit", ensure_array("dsplit", ary), indices_or_sections, 2)


def unstack(x: ArrayLike, /, *, axis: int = 0) -> tuple[Array, ...]:
    """The sub-arrays along ``axis``, as a tuple (the inverse of :func:`stack`)."""
    arr = ensure_array("unstack", x)
    axis = int_axis("unstack", axis)  # JAX's TypeError comes before the rank check
    if arr.ndim == 0:
        raise ValueError(
            "Unstack requires arrays with rank > 0, however a scalar array was passed."
        )
    ax = canonicalize_axis(axis, arr.ndim)
    return tuple(
        lax_structural.squeeze(_slice_axis(arr, ax, i, i + 1), (ax,)) for i in range(arr.shape[ax])
    )


# -- replicating ---------------------------------------------------------------------------------


def tile(A: ArrayLike, reps: Any) -> Array:
    """Repeats the whole array ``reps`` times along each axis."""
    x = ensure_array("tile", A)
    counts = canonical_shape("tile", reps)
    if any(r < 0 for r in counts):
        raise ValueError(f"tile: negative repetitions are not allowed, got {counts}")
    shape = (1,) * (len(counts) - x.ndim) + tuple(x.shape)
    counts = (1,) * (len(shape) - len(counts)) + counts
    x = lax_structural.reshape(x, shape)
    # (a, b) tiled (r, s): view as (1, a, 1, b), broadcast to (r, a, s, b), merge pairs.
    paired = lax_structural.reshape(x, tuple(d for n in shape for d in (1, n)))
    wide = tuple(d for r, n in zip(counts, shape) for d in (r, n))
    tiled = broadcast_in_dim(paired, wide, tuple(range(len(wide))))
    return lax_structural.reshape(tiled, tuple(r * n for r, n in zip(counts, shape)))


def repeat(
    a: ArrayLike,
    repeats: Any,
    axis: int | None = None,
    *,
    total_repeat_length: int | None = None,
    out_sharding: Any = None,
) -> Array:
    """Repeats each element ``repeats`` times along ``axis`` (of the flattened array for
    ``None``); ``repeats`` is an int or one count per element.

    The output length depends on the counts: with traced counts (under ``jit``), pass a static
    ``total_repeat_length`` (the output is padded with the last element or truncated to it).
    """
    if out_sharding is not None:
        check_out_sharding("numpy.repeat", out_sharding)
    check_arraylike("repeat", a, repeats)  # counts as a list or tuple: JAX's TypeError
    x = ensure_array("repeat", a)
    if axis is not None and x.ndim == 0:
        # as in JAX, a 0-d operand repeats as one element whatever the axis, by a scalar count
        if np.ndim(repeats) and np.size(repeats) != 1:
            raise ValueError(
                "`repeat` with a scalar parameter `a` is only implemented for scalar values of "
                "the parameter `repeats`."
            )
        axis = None
    if axis is None:
        x = lax_structural.reshape(x, (x.size,))
        axis = 0
    ax = canonicalize_axis(axis, x.ndim)
    n = x.shape[ax]
    scalar = _static_scalar_repeats(repeats)
    if scalar is not None and total_repeat_length is None:
        if scalar < 0:
            raise TypeError(f"repeat: repeats may not be negative, got {scalar}")
        shape = tuple(x.shape)
        expanded = lax_structural.expand_dims(x, (ax + 1,))
        wide = (*shape[: ax + 1], scalar, *shape[ax + 1 :])
        spread = broadcast_in_dim(expanded, wide, tuple(range(len(wide))))
        return lax_structural.reshape(spread, (*shape[:ax], n * scalar, *shape[ax + 1 :]))
    counts = ensure_array("repeat", repeats)
    if counts.ndim > 1:  # JAX reads counts of any rank in order (shape (3, 1) is 3 counts)
        counts = lax_structural.reshape(counts, (counts.size,))
    # JAX checks the counts' shape against the axis (a ValueError) before their dtype
    if counts.ndim == 1 and counts.shape[0] not in (1, n):
        raise ValueError(
            f"repeat: {counts.shape[0]} repeats for an axis of length {n} (need 1 or {n})"
        )
    # JAX's dtype check is its gather's: an empty array gathers nothing and takes any counts
    if dtypes.kind(counts.dtype) not in ("i", "u", "b") and x.size:
        raise TypeError(f"repeat: repeats must be integers, got dtype {counts.dtype.name}")
    if total_repeat_length is None:
        # read before any conversion: under jit an operation on a constant (a closed-over
        # concrete array of counts) is staged, so the converted counts have no value
        if not core.is_concrete(counts):
            raise ConcretizationTypeError(
                "trellax.numpy.repeat with traced repeats needs a static total_repeat_length= "
                "(the output length depends on the values of repeats)"
            )
        values = np.broadcast_to(np.asarray(counts).astype(np.int64), (n,))
        if (values < 0).any():
            raise TypeError("repeat: repeats may not be negative")
        total = int(values.sum())
    else:
        total = operator.index(total_repeat_length)
    counts = lax_structural._convert(counts, dtypes.int32, False)
    if counts.ndim == 0 or counts.shape[0] == 1:
        counts = lax_structural.broadcast_to(counts, (n,))
    return _repeat_by_gather(x, counts, ax, total)


def _static_scalar_repeats(repeats: Any) -> int | None:
    if isinstance(repeats, (int, np.integer)) and not isinstance(repeats, bool):
        return int(repeats)
    if type(repeats) is ConcreteArray and repeats.ndim == 0:
        return operator.index(repeats)
    return None


def _repeat_by_gather(x: Array, counts: Array, axis: int, total: int) -> Array:
    """Output position ``j`` takes element ``i`` where ``i`` = the number of counts' partial
    sums ``<= j`` (built with a scatter-add of block starts and a cumulative sum)."""
    if total == 0 or x.shape[axis] == 0:
        return _slice_axis(x, axis, 0, 0)
    i32 = dtypes.int32
    ends = cumsum_p.bind(counts, axis=0, reverse=False)  # block i ends at ends[i]
    starts = lax_structural.slice(ends, (0,), (counts.shape[0] - 1,))  # blocks 1.. start here
    marks = lax_structural.broadcast_to(const(0, i32), (total,))
    marks = indexing._IndexUpdateHelper(marks)[starts].add(
        lax_structural.broadcast_to(const(1, i32), starts.shape)
    )
    index = cumsum_p.bind(marks, axis=0, reverse=False)
    return indexing.getitem(x, (slice(None),) * axis + (index,))


# the plain functions, for arrays of user-defined extended dtypes (numpy/extended.py)
_extended.PLAIN.update(
    concatenate=lambda seq, axis: concatenate(seq, axis), stack=lambda seq, axis: stack(seq, axis)
)
