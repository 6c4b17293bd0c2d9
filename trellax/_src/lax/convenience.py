"""``jax.lax``'s convenience functions, written with existing primitives.

``full``/``full_like`` (a weak result exactly when the fill value is a weak scalar and no dtype is
given), the ``*_in_dim`` slicing helpers (negative dynamic indices count from the end, as in JAX),
``collapse``, ``broadcast_to_rank``, ``split``, ``stack``/``unstack``, ``tile``, ``top_k``,
``sort_key_val``, ``cumlogsumexp``, ``batch_matmul``, and the enum-like option classes
``Precision``, ``RoundingMethod`` (``GatherScatterMode`` lives with gather in ``indexing``).
"""

from __future__ import annotations

import enum
import math
import operator
from collections.abc import Sequence
from typing import Any

import numpy as np

from trellax._src.core.basearray import Array
from trellax._src.core.core import broadcast_shapes as _broadcast_shapes
from trellax._src.core.out_sharding import check_out_sharding
from trellax._src.core.typing import ArrayLike, DTypeLike
from trellax._src.dtypes import dtypes
from trellax._src.lax import elementwise as ew
from trellax._src.lax import reductions, structural
from trellax._src.lax._base import asarray, canonicalize_axes, scalar_to_array


class Precision(enum.Enum):
    """Matmul precision hints (accepted and ignored: NumPy computes at the operands' precision)."""

    DEFAULT = 0
    HIGH = 1
    HIGHEST = 2


class RoundingMethod(enum.IntEnum):
    """``lax.round``'s rounding of halves."""

    AWAY_FROM_ZERO = 0
    TO_NEAREST_EVEN = 1


def dtype(x: Any) -> np.dtype[Any]:
    """The canonical dtype of ``x``: of a value (Python scalars give the default dtypes), or of a
    dtype-like (a type, name or dtype, canonicalized as a requested dtype: a 64-bit one with x64
    off warns and is truncated, as in JAX)."""
    if isinstance(x, (type, str, np.dtype)):
        return dtypes.check_user_dtype(x, "dtype")
    return asarray(x).dtype


def full(
    shape: Sequence[int],
    fill_value: ArrayLike,
    dtype: DTypeLike | None = None,
    *,
    sharding: Any = None,
) -> Array:
    """An array of ``shape`` filled with ``fill_value`` (cast to ``dtype`` when given);
    ``sharding`` is checked, and one device holds the result."""
    if sharding is not None:
        check_out_sharding("lax.full", sharding)
    if (
        dtype is not None
        and isinstance(fill_value, (int, complex))
        and type(fill_value) is not bool
    ):
        value = _python_fill(fill_value, dtypes.check_user_dtype(dtype, "full"), False)
        return structural.broadcast(value, tuple(operator.index(s) for s in shape))
    value = asarray(fill_value)
    if value.ndim:
        raise TypeError(
            f"full must be called with scalar fill_value, got fill_value.shape {value.shape}."
        )
    if dtype is not None:
        value = structural._convert(value, dtypes.check_user_dtype(dtype, "full"), False)
    return structural.broadcast(value, tuple(operator.index(s) for s in shape))


def _python_fill(value: int | complex, d: Any, weak: bool) -> Array:
    """A Python int or complex fill value cast straight to ``d`` as ``convert_element_type``
    does (JAX): an int beyond int32 wraps into an integer dtype, a complex one refuses a real
    dtype (``TypeError``) and is its nonzero test as bool."""
    return structural.convert_element_type(value, d, weak_type=weak)


def full_like(
    x: ArrayLike,
    fill_value: ArrayLike,
    dtype: DTypeLike | None = None,
    shape: Sequence[int] | None = None,
    sharding: Any = None,
) -> Array:
    """An array like ``x`` (its shape and dtype unless given) filled with ``fill_value``; weak
    when ``x`` is weak and no dtype is given. ``sharding`` is checked (one device)."""
    if sharding is not None:
        check_out_sharding("lax.full_like", sharding)
    a = asarray(x)
    d = a.dtype if dtype is None else dtypes.check_user_dtype(dtype, "full_like")
    weak = dtype is None and a.weak_type
    if isinstance(fill_value, (int, complex)) and type(fill_value) is not bool:
        return structural.broadcast(
            _python_fill(fill_value, d, weak), tuple(a.shape if shape is None else shape)
        )
    value = asarray(fill_value)
    if value.ndim:
        raise TypeError(
            f"full_like must be called with scalar fill_value, got fill_value.shape {value.shape}."
        )
    value = structural._convert(value, d, weak)
    return structural.broadcast(value, tuple(a.shape if shape is None else shape))


def empty(shape: Sequence[int], dtype: DTypeLike, *, out_sharding: Any = None) -> Array:
    """An array of ``shape`` and ``dtype`` (filled with zeros)."""
    if out_sharding is not None:
        check_out_sharding("lax.empty", out_sharding)
    return full(shape, 0, dtype)


def broadcast_shapes(*shapes: Sequence[int]) -> tuple[int, ...]:
    """The shape the given shapes broadcast to (ValueError when they do not; TypeError for a
    negative size, as in JAX)."""
    given = [_static_shape(s) for s in shapes]
    for s in given:
        if any(d < 0 for d in s):
            raise TypeError(
                "Only non-negative indices are allowed when broadcasting static shapes, but got "
                f"shape {s}."
            )
    return tuple(_broadcast_shapes(*given))


def _static_shape(s: Any) -> tuple[int, ...]:
    """``s`` as a tuple of ints: JAX's ``TypeError`` for anything but a 1-D sequence of them."""
    try:
        if isinstance(s, str):
            raise TypeError
        return tuple(operator.index(d) for d in s)
    except TypeError:
        raise TypeError(
            f"Shapes must be 1D sequences of concrete values of integer type, got {s}."
        ) from None


def broadcast_to_rank(x: ArrayLike, rank: int) -> Array:
    """``x`` with leading axes of size 1 added up to ``rank`` (a Python or NumPy int: an array
    is JAX's ``TypeError``)."""
    if not isinstance(rank, int | np.integer):
        raise TypeError(f"broadcast_to_rank: rank must be an integer, got {type(rank).__name__}")
    a = asarray(x)
    if a.ndim >= rank:
        return a
    return structural.broadcast(a, (1,) * (rank - a.ndim))


def collapse(operand: ArrayLike, start_dimension: int, stop_dimension: int | None = None) -> Array:
    """The axes ``start_dimension:stop_dimension`` merged into one."""
    a = asarray(operand)
    # JAX's slice semantics: negative bounds count from the end, bounds past the rank clip
    lo, hi, _ = slice(start_dimension, stop_dimension).indices(a.ndim)
    if hi < lo:
        raise ValueError(
            f"collapse: start_dimension {start_dimension} is after stop_dimension "
            f"{stop_dimension} for an operand of rank {a.ndim}"
        )
    shape = tuple(a.shape)
    return structural.reshape(a, (*shape[:lo], math.prod(shape[lo:hi]), *shape[hi:]))


def _dynamic_index(index: ArrayLike, size: int, allow_negative: bool) -> Array:
    i = asarray(index)
    if allow_negative and dtypes.kind(i.dtype) == "i":
        zero = scalar_to_array(0, i.dtype, i.weak_type)
        n = scalar_to_array(size, i.dtype, i.weak_type)
        i = structural.select_n(ew.lt(i, zero), i, ew.add(i, n))
    return i


def _same_index_dtypes(starts: Sequence[Any], name: str) -> None:
    """JAX's rule: the start indices of one dynamic slice share one integer type (a Python int
    counts as the default integer type; ``(1, jnp.int8(2))`` is refused)."""
    names: list[str] = []
    for s in starts:
        if isinstance(s, int) and not isinstance(s, bool):
            names.append(dtypes.default_int_dtype().name)
        elif hasattr(s, "dtype"):
            names.append(np.dtype(s.dtype).name)
    if len(set(names)) > 1:
        sep = ": " if name == "dynamic_slice" else " "
        raise TypeError(
            f"index arguments to {name} must be integers of the same type, got{sep}"
            + ", ".join(names)
        )


def _normalized_starts(
    a: Array, start_indices: Sequence[ArrayLike], allow_negative: bool, name: str
) -> list[Any]:
    """Start indices with negative ones counted from the end, as JAX's wrappers do before the
    primitive clamps: a Python int statically, a traced or array index with a ``select``."""
    starts = list(start_indices)
    if len(starts) != a.ndim:
        raise ValueError(  # JAX's class
            f"{name}: need one start index per dimension of shape {tuple(a.shape)}, "
            f"got {len(starts)} (length of slice indices must match the operand's rank)"
        )
    _same_index_dtypes(starts, name)
    out: list[Any] = []
    for s, n in zip(starts, a.shape):
        if isinstance(s, (int, np.integer)) and not isinstance(s, bool):
            v = int(s)
            if v < 0 and not allow_negative:
                raise ValueError(
                    f"Index {v} is out of bounds for dimension {n} if allow_negative_indices=False"
                )
            out.append(v + n if v < 0 else v)
        else:
            out.append(_dynamic_index(s, n, allow_negative))
    return out


def dynamic_slice(
    operand: ArrayLike,
    start_indices: Sequence[ArrayLike],
    slice_sizes: Sequence[int],
    *,
    allow_negative_indices: bool = True,
) -> Array:
    """The ``slice_sizes`` window of ``operand`` at ``start_indices`` (which may be traced).
    Negative starts count from the end of their axis (unless ``allow_negative_indices`` is
    False); then starts are clamped so that the window fits, as XLA does."""
    a = asarray(operand)
    starts = _normalized_starts(a, start_indices, allow_negative_indices, "dynamic_slice")
    return structural.dynamic_slice(a, starts, slice_sizes)


def dynamic_update_slice(
    operand: ArrayLike,
    update: ArrayLike,
    start_indices: Sequence[ArrayLike],
    *,
    allow_negative_indices: bool = True,
) -> Array:
    """``operand`` with ``update`` written at ``start_indices`` (negative starts count from
    the end; then starts are clamped so that the update fits)."""
    a = asarray(operand)
    starts = _normalized_starts(a, start_indices, allow_negative_indices, "dynamic_update_slice")
    return structural.dynamic_update_slice(a, update, starts)


def _starts(a: Array, axis: int, index: Array) -> list[Array]:
    zero = scalar_to_array(0, index.dtype, False)
    return [index if d == axis else zero for d in range(a.ndim)]


def dynamic_slice_in_dim(
    operand: ArrayLike,
    start_index: ArrayLike,
    slice_size: int,
    axis: int = 0,
    *,
    allow_negative_indices: bool = True,
) -> Array:
    """``dynamic_slice`` along one axis (the start may be traced)."""
    a = asarray(operand)
    i = _dynamic_index(start_index, a.shape[axis], allow_negative_indices)
    sizes = list(a.shape)
    sizes[axis] = slice_size
    return structural.dynamic_slice(a, _starts(a, axis, i), sizes)


def dynamic_index_in_dim(
    operand: ArrayLike,
    index: ArrayLike,
    axis: int = 0,
    keepdims: bool = True,
    *,
    allow_negative_indices: bool = True,
) -> Array:
    """The slab at ``index`` along ``axis`` (kept as size 1 with ``keepdims``)."""
    out = dynamic_slice_in_dim(
        operand, index, 1, axis, allow_negative_indices=allow_negative_indices
    )
    return out if keepdims else structural.squeeze(out, (axis,))


def dynamic_update_slice_in_dim(
    operand: ArrayLike,
    update: ArrayLike,
    start_index: ArrayLike,
    axis: int,
    *,
    allow_negative_indices: bool = True,
) -> Array:
    """``dynamic_update_slice`` along one axis."""
    a = asarray(operand)
    i = _dynamic_index(start_index, a.shape[axis], allow_negative_indices)
    return structural.dynamic_update_slice(a, update, _starts(a, axis, i))


def dynamic_update_index_in_dim(
    operand: ArrayLike,
    update: ArrayLike,
    index: ArrayLike,
    axis: int,
    *,
    allow_negative_indices: bool = True,
) -> Array:
    """Replaces the slab at ``index`` along ``axis`` (``update`` may lack that axis)."""
    a, u = asarray(operand), asarray(update)
    if u.ndim == a.ndim - 1:
        u = structural.expand_dims(u, (axis,))
    return dynamic_update_slice_in_dim(
        a, u, index, axis, allow_negative_indices=allow_negative_indices
    )


def index_in_dim(operand: ArrayLike, index: int, axis: int = 0, keepdims: bool = True) -> Array:
    """The slab at the static ``index`` along ``axis``."""
    a = asarray(operand)
    i = operator.index(index)  # JAX's TypeError for a non-integer index comes first
    n = a.shape[axis]
    if not -n <= i < n:
        raise IndexError(f"index {i} is out of bounds for axis {axis} with size {n}")
    i %= n
    out = structural.slice_in_dim(a, i, i + 1, 1, axis)
    return out if keepdims else structural.squeeze(out, (axis,))


def slice_in_dim(
    operand: ArrayLike,
    start_index: int | None,
    limit_index: int | None,
    stride: int = 1,
    axis: int = 0,
) -> Array:
    """``lax.slice`` along one axis (``None`` bounds are the ends; negative ones count back)."""
    return structural.slice_in_dim(operand, start_index, limit_index, stride, axis)


def split(operand: ArrayLike, sizes: Sequence[int], axis: int = 0) -> list[Array]:
    """``operand`` cut along ``axis`` into pieces of the given sizes (they must add up)."""
    a = asarray(operand)
    axis = operator.index(axis)
    if not -a.ndim <= axis < a.ndim:
        raise ValueError(f"axis {axis} is out of bounds for array of dimension {a.ndim}")
    axis %= a.ndim
    n = a.shape[axis]
    if any(s < 0 for s in sizes):
        raise ValueError(f"Sizes passed to split must be nonnegative, got {tuple(sizes)}")
    if sum(sizes) != n:
        raise ValueError(
            f"Sum of sizes {sum(sizes)} must be equal to dimension {axis} of the operand shape "
            f"{list(a.shape)}"
        )
    out = []
    start = 0
    for s in sizes:
        out.append(structural.slice_in_dim(a, start, start + s, 1, axis))
        start += s
    return out


def stack(operands: Sequence[ArrayLike], axis: int = 0) -> Array:
    """Same-dtype operands joined along a new axis (no promotion)."""
    arrays = [asarray(o) for o in operands]
    if not arrays:
        raise ValueError("lax.stack requires at least one operand")
    nd = arrays[0].ndim + 1
    if not -nd <= operator.index(axis) < nd:
        raise ValueError(f"lax.stack: axis {axis} is out of bounds for a {nd}-d result")
    ax = axis % nd
    return structural.concatenate([structural.expand_dims(x, (ax,)) for x in arrays], ax)


def unstack(x: ArrayLike, axis: int = 0) -> tuple[Array, ...]:
    """The slabs of ``x`` along ``axis``."""
    a = asarray(x)
    if not -a.ndim <= operator.index(axis) < a.ndim:
        raise ValueError(f"axis {axis} is out of bounds for array of dimension {a.ndim}")
    return tuple(index_in_dim(a, i, axis, keepdims=False) for i in range(a.shape[axis]))


def tile(operand: ArrayLike, reps: Sequence[int]) -> Array:
    """``operand`` repeated ``reps[i]`` times along axis ``i`` (one entry per axis)."""
    a = asarray(operand)
    reps_t = tuple(operator.index(r) for r in reps)
    if len(reps_t) != a.ndim:
        raise TypeError(
            f"reps length must be equal to the ndim of x, got len(reps)={len(reps_t)} and "
            f"x.ndim={a.ndim}."
        )
    shape = tuple(a.shape)
    tiled = structural.broadcast_in_dim(
        a,
        tuple(v for r, s in zip(reps_t, shape, strict=True) for v in (r, s)),
        tuple(range(1, 2 * a.ndim, 2)),
    )
    return structural.reshape(tiled, tuple(r * s for r, s in zip(reps_t, shape, strict=True)))


def sort_key_val(
    keys: ArrayLike, values: ArrayLike, dimension: int = -1, is_stable: bool = True
) -> tuple[Array, Array]:
    """``keys`` sorted along ``dimension`` and ``values`` permuted alike."""
    k, v = reductions.sort((keys, values), dimension, is_stable, num_keys=1)
    return k, v


def top_k(operand: ArrayLike, k: int, *, axis: int = -1) -> tuple[Array, Array]:
    """The ``k`` largest entries along ``axis`` in descending order, and their int32 indices
    (ties keep the lower index first)."""
    a = asarray(operand)
    if a.ndim and not -a.ndim <= operator.index(axis) < a.ndim:  # JAX checks the axis first
        raise ValueError(f"axis {axis} is out of bounds for array of dimension {a.ndim}")
    k = operator.index(k)
    ax = axis % a.ndim if a.ndim else 0
    n = a.shape[ax] if a.ndim else 0
    if a.ndim == 0:
        raise TypeError("top_k operand must have >= 1 dimension, got ()")
    if not 0 <= k <= n:
        raise ValueError(f"k argument to top_k must be in [0, {n}], got {k}")
    if dtypes.kind(a.dtype) == "c":
        raise ValueError("top_k does not accept complex operands")  # JAX's class
    if n > 2**31:  # the indices are int32 (as in JAX)
        raise ValueError(
            "top_k returns int32 indices, which will overflow for array dimensions larger than "
            f"the maximum int32 ({2**31 - 1}). Got operand.shape={tuple(a.shape)}"
        )
    index = structural.broadcasted_iota(dtypes.int32, tuple(a.shape), ax)
    # descending by value, ascending by index: sort the negated order keys
    if dtypes.kind(a.dtype) == "b":
        key: Array = ew.bitwise_not(a)
    elif dtypes.kind(a.dtype) == "u":
        key = ew.bitwise_not(a)
    elif dtypes.kind(a.dtype) == "i":
        key = ew.bitwise_not(a)  # ~v = -v - 1 reverses the order without overflow
    else:
        # NaN is the largest value (as in XLA's TopK): a first key that is False for NaN
        # XLA's TopK orders floats totally: +NaN, +inf ... +0.0, -0.0 ... -inf, -NaN
        key = ew.neg(a)
        bits = np.dtype(f"int{8 * np.dtype(a.dtype).itemsize}")
        negative = ew.lt(structural.bitcast_convert_type(a, bits), full((), 0, bits))
        nan = ew.ne(a, a)
        not_pos_nan = ew.bitwise_not(ew.bitwise_and(nan, ew.bitwise_not(negative)))
        neg_nan = ew.bitwise_and(nan, negative)
        keys = (not_pos_nan, neg_nan, key, negative)
        sorted_ = reductions.sort((*keys, a, index), ax, True, num_keys=4)
        values, indices = sorted_[4], sorted_[5]
        return (
            structural.slice_in_dim(values, 0, k, 1, ax),
            structural.slice_in_dim(indices, 0, k, 1, ax),
        )
    _, values, indices = reductions.sort((key, a, index), ax, True, num_keys=1)
    return (
        structural.slice_in_dim(values, 0, k, 1, ax),
        structural.slice_in_dim(indices, 0, k, 1, ax),
    )


def cumlogsumexp(operand: ArrayLike, axis: int = 0, reverse: bool = False) -> Array:
    """``log(cumsum(exp(operand)))`` along ``axis``, computed stably."""
    a = asarray(operand)
    if dtypes.kind(a.dtype) not in "fc":
        raise TypeError(f"cumlogsumexp does not accept dtype {a.dtype.name}")
    ndim = reductions._accumulable("cumlogsumexp", a.ndim)
    (ax,) = canonicalize_axes("cumlogsumexp", (axis,), ndim)
    if dtypes.kind(a.dtype) == "c":
        return xla_order_scan(a, ax, reverse)
    if real_cumlogsumexp_hook is None:
        return xla_order_scan(a, ax, reverse)
    out: Array = real_cumlogsumexp_hook(ax, reverse)(a)
    return out


#: ``(axis, reverse) -> function``: the real cumlogsumexp with JAX's tangent rule (a
#: ``custom_jvp`` over :func:`xla_order_scan`, built with the custom-rule, numpy and autodiff
#: layers above this one); ``numpy/cumlogsumexp_rule.py`` fills it when trellax is imported.
#: Until then (this module alone) the values are the same and autodiff differentiates the scan.
real_cumlogsumexp_hook: Any = None


#: XLA CPU's block length for cumulative reduce_windows (``backend/scan_order.py``).
_SCAN_BLOCK = 16


def xla_order_scan(a: Array, ax: int, reverse: bool) -> Array:
    """The cumulative logaddexp of ``a`` along ``ax`` in the order XLA's CPU backend combines
    it (the block scheme of ``backend/scan_order.py``, written in lax operations so that it
    traces and differentiates): blocks of 16 folded left to right, block totals scanned
    recursively, each block combined with the total before (after) it. Each partial result
    stays in its own range, so a small early value is not lost to a shift by the largest one
    (``log(cumsum(exp(x - max)))`` gave -inf for ``[-200, 0]``)."""
    n = a.shape[ax]
    if n <= _SCAN_BLOCK:
        return _fold_blocks(a, ax, reverse)
    shape = tuple(a.shape)
    blocks = -(-n // _SCAN_BLOCK)
    pad = blocks * _SCAN_BLOCK - n
    if pad:
        fill = full((*shape[:ax], pad, *shape[ax + 1 :]), -np.inf, a.dtype)
        a = structural.concatenate([a, fill], ax)
    split = (*shape[:ax], blocks, _SCAN_BLOCK, *shape[ax + 1 :])
    local = _fold_blocks(structural.reshape(a, split), ax + 1, reverse)
    edge = 0 if reverse else _SCAN_BLOCK - 1
    totals = structural.reshape(
        structural.slice_in_dim(local, edge, edge + 1, 1, ax + 1),
        (*shape[:ax], blocks, *shape[ax + 1 :]),
    )
    totals = structural.reshape(
        xla_order_scan(totals, ax, reverse), (*split[: ax + 1], 1, *split[ax + 2 :])
    )
    if reverse:
        inner = _logaddexp(
            structural.slice_in_dim(local, 0, blocks - 1, 1, ax),
            _broadcast_block(structural.slice_in_dim(totals, 1, blocks, 1, ax), ax),
        )
        parts = [inner, structural.slice_in_dim(local, blocks - 1, blocks, 1, ax)]
    else:
        inner = _logaddexp(
            _broadcast_block(structural.slice_in_dim(totals, 0, blocks - 1, 1, ax), ax),
            structural.slice_in_dim(local, 1, blocks, 1, ax),
        )
        parts = [structural.slice_in_dim(local, 0, 1, 1, ax), inner]
    joined = structural.reshape(
        structural.concatenate(parts, ax), (*shape[:ax], blocks * _SCAN_BLOCK, *shape[ax + 1 :])
    )
    return structural.slice_in_dim(joined, 0, n, 1, ax)


def _broadcast_block(totals: Array, ax: int) -> Array:
    """Block totals (a 1 at axis ``ax + 1``) repeated over the 16 elements of each block."""
    shape = list(totals.shape)
    shape[ax + 1] = _SCAN_BLOCK
    return structural.broadcast_in_dim(totals, tuple(shape), tuple(range(len(shape))))


def _fold_blocks(a: Array, ax: int, reverse: bool) -> Array:
    """Each element's window along ``ax`` (at most 16 long) folded left to right: the running
    logaddexp, or for ``reverse`` ``x[i] (+) x[i+1] (+) ... (+) x[-1]`` folded from ``x[i]``."""
    n = a.shape[ax]
    if n < 2:
        return _start(a)
    items = [structural.slice_in_dim(a, i, i + 1, 1, ax) for i in range(n)]
    if not reverse:
        out = [_start(items[0])]
        for item in items[1:]:
            out.append(_logaddexp(out[-1], item))
        return structural.concatenate(out, ax)
    acc = _start(a)
    for k in range(1, n):
        # every window that starts before k takes in x[k], in order
        head = structural.slice_in_dim(acc, 0, k, 1, ax)
        shape = list(head.shape)
        grown = structural.broadcast_in_dim(items[k], tuple(shape), tuple(range(len(shape))))
        acc = structural.concatenate(
            [_logaddexp(head, grown), structural.slice_in_dim(acc, k, n, 1, ax)], ax
        )
    return acc


def _start(x: Array) -> Array:
    """A window's first element as XLA makes it, by combining it with the initial value ``-inf``:
    the element itself for reals, :func:`_logaddexp_complex` of ``-inf`` and it for complex
    (its imaginary part reduced to ``[-pi, pi)``, NaN where its real part is ``-inf``)."""
    if dtypes.kind(x.dtype) != "c":
        return x
    return _logaddexp_complex(full(tuple(x.shape), -np.inf, x.dtype), x)


def _logaddexp_complex(x: Array, y: Array) -> Array:
    """The complex ``log(exp(x) + exp(y))`` as XLA's reduction computes it (observed on JAX
    0.10.2): ``m + log1p(exp(x + y - 2m))`` with ``m`` the lexicographic maximum, and the
    imaginary part of the sum taken to ``[-pi, pi)`` as ``fmod(v + pi, 2pi)`` (plus ``2pi`` when
    negative) ``- pi``. Two ``-inf`` real parts give NaN (``inf - inf`` in the difference)."""
    hi = ew.max(x, y)
    two = scalar_to_array(2, x.dtype, False)
    out = ew.add(hi, ew.log1p(ew.exp(ew.sub(ew.add(x, y), ew.mul(hi, two)))))
    im = ew.imag(out)
    ft = im.dtype
    pi = scalar_to_array(np.pi, ft, False)
    turn = scalar_to_array(2 * np.pi, ft, False)
    zero = scalar_to_array(0, ft, False)
    r = ew.rem(ew.add(im, pi), turn)
    r = structural.select_n(ew.lt(r, zero), r, ew.add(r, turn))
    return ew.complex(ew.real(out), ew.sub(r, pi))


def _logaddexp(x: Array, y: Array) -> Array:
    """``log(exp(x) + exp(y))`` without overflow. Where the two are equal the correction is
    ``log(2)`` through a constant difference (equal infinities would give ``inf - inf``), so
    the derivative at a tie is ``max``'s even split, 1/2 to each, as JAX's rule gives."""
    if dtypes.kind(x.dtype) == "c":
        return _logaddexp_complex(x, y)
    hi, lo = ew.max(x, y), ew.min(x, y)
    zero = scalar_to_array(0, x.dtype, False)
    delta = structural.select_n(ew.eq(hi, lo), ew.sub(lo, hi), zero)
    return ew.add(hi, ew.log1p(ew.exp(delta)))


def batch_matmul(lhs: ArrayLike, rhs: ArrayLike, precision: Any = None) -> Array:
    """Matrix products over matching leading batch axes (same dtypes, equal ranks >= 2)."""
    a, b = asarray(lhs), asarray(rhs)
    if a.ndim < 2 or a.ndim != b.ndim:
        raise ValueError(
            f"batch_matmul requires arguments of equal rank >= 2, got {a.ndim} and {b.ndim}"
        )
    batch = tuple(range(a.ndim - 2))
    return reductions.dot_general(
        a, b, (((a.ndim - 1,), (b.ndim - 2,)), (batch, batch)), precision=precision
    )


def broadcast_like(arr: ArrayLike, like_arr: ArrayLike) -> Array:
    """``arr`` broadcast (trailing axes aligned) to the shape of ``like_arr``; dtype kept."""
    a, like = asarray(arr), asarray(like_arr)
    rank = like.ndim
    return structural.broadcast_in_dim(a, tuple(like.shape), tuple(range(rank - a.ndim, rank)))


def mulhi(x: ArrayLike, y: ArrayLike, /) -> Array:
    """The high half of the double-width product of two integers of the same dtype."""
    a, b = asarray(x), asarray(y)
    if a.dtype != b.dtype:
        raise TypeError(
            f"mulhi requires arguments to have the same dtypes, got {a.dtype.name}, "
            f"{b.dtype.name} (trellax.numpy promotes; convert explicitly)"
        )
    kind, bits = dtypes.kind(a.dtype), a.dtype.itemsize * 8
    if kind not in "iu":
        raise TypeError(f"mulhi does not accept dtype {a.dtype.name}. Accepted dtypes are integer.")
    if bits <= 32:
        wide = np.dtype(f"{kind}{2 * a.dtype.itemsize}")
        product = ew.mul(structural._convert(a, wide, False), structural._convert(b, wide, False))
        shift = scalar_to_array(bits, wide, False)
        high = (
            ew.shift_right_arithmetic(product, shift)
            if kind == "i"
            else (ew.shift_right_logical(product, shift))
        )
        return structural._convert(high, a.dtype, a.weak_type and b.weak_type)
    # 64 bits: schoolbook multiplication of unsigned 32-bit halves
    u64 = dtypes.uint64
    ua, ub = structural.bitcast_convert_type(a, u64), structural.bitcast_convert_type(b, u64)
    mask = scalar_to_array(0xFFFFFFFF, u64, False)
    s32 = scalar_to_array(32, u64, False)
    a0, a1 = ew.bitwise_and(ua, mask), ew.shift_right_logical(ua, s32)
    b0, b1 = ew.bitwise_and(ub, mask), ew.shift_right_logical(ub, s32)
    p00, p01, p10, p11 = ew.mul(a0, b0), ew.mul(a0, b1), ew.mul(a1, b0), ew.mul(a1, b1)
    mid = ew.add(
        ew.add(ew.shift_right_logical(p00, s32), ew.bitwise_and(p01, mask)),
        ew.bitwise_and(p10, mask),
    )
    high = ew.add(
        ew.add(p11, ew.shift_right_logical(p01, s32)),
        ew.add(ew.shift_right_logical(p10, s32), ew.shift_right_logical(mid, s32)),
    )
    if kind == "i":
        # signed: subtract b where a < 0 and a where b < 0 (mod 2**64)
        zero, zero_u = scalar_to_array(0, a.dtype, False), scalar_to_array(0, u64, False)
        high = ew.sub(high, structural.select_n(ew.lt(a, zero), zero_u, ub))
        high = ew.sub(high, structural.select_n(ew.lt(b, zero), zero_u, ua))
    return structural.bitcast_convert_type(high, a.dtype)
