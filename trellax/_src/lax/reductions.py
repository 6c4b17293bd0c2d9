"""Reductions, cumulative ops, sorting and ``dot_general``.

lax reductions keep the operand dtype (``reduce_sum`` of int8 is int8) and its weak flag, except
``argmax``/``argmin`` and the bitwise reductions, which strip it. ``trellax.numpy`` decides
accumulation dtypes (``sum`` of int8 is the default int) by casting *before* reducing.
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from typing import Any, Protocol, TypeAlias, overload

import numpy as np

from trellax._src.backend import numpy as backend
from trellax._src.backend.complex_order import with_complex_order
from trellax._src.backend.numpy import Impl
from trellax._src.config import jax_flags
from trellax._src.core.basearray import Array
from trellax._src.core.core import AbstractValue, Primitive, ShapedArray, get_aval
from trellax._src.core.out_sharding import check_out_sharding
from trellax._src.core.typing import ArrayLike, DTypeLike
from trellax._src.dtypes import dtypes
from trellax._src.lax import ad_util
from trellax._src.lax import elementwise as ew
from trellax._src.lax._base import (
    Category,
    any_,
    asarray,
    bool_or_int,
    canonicalize_axes,
    check_dtype,
    not_complex,
    number,
)
from trellax._src.lax.shapes import Dims, all_at_front, moveaxis, shift_axes
from trellax._src.lax.sharding_rules import with_out_sharding
from trellax._src.lax.structural import (
    broadcast_in_dim_p,
    broadcasted_iota,
    concatenate_p,
    convert_element_type_p,
    pad_p,
    reshape_p,
    rev_p,
    slice_p,
    transpose_p,
)

Shape = tuple[int, ...]
DotDimensionNumbers: TypeAlias = tuple[
    tuple[Sequence[int], Sequence[int]], tuple[Sequence[int], Sequence[int]]
]
"""``((lhs_contracting, rhs_contracting), (lhs_batch, rhs_batch))``."""


def _reduction(name: str, kernel: Impl, accepted: Any, *, keep_weak: bool = True) -> Primitive:
    prim = Primitive(name)
    prim.def_impl(kernel)

    ok = accepted.dtypes

    @prim.def_abstract_eval
    def abstract_eval(x: AbstractValue, *, axes: Shape) -> ShapedArray:
        if x.dtype not in ok:
            check_dtype(name, x.dtype, accepted, None)
        shape = tuple(s for i, s in enumerate(x.shape) if i not in axes) if axes else x.shape
        return ShapedArray._fast(shape, x.dtype, x.weak_type and keep_weak)

    return prim


reduce_sum_p = _reduction("reduce_sum", backend.reduce_sum, number)
ad_util.PRIMITIVES.reduce_sum = reduce_sum_p
reduce_prod_p = _reduction("reduce_prod", backend.reduce_prod, number)
# complex: XLA's order and fold (NaN does not propagate as in NumPy's maximum)
reduce_max_p = _reduction("reduce_max", with_complex_order(backend.reduce_max, for_max=True), any_)
reduce_min_p = _reduction("reduce_min", with_complex_order(backend.reduce_min, for_max=False), any_)
reduce_and_p = _reduction("reduce_and", backend.reduce_and, bool_or_int, keep_weak=False)
reduce_or_p = _reduction("reduce_or", backend.reduce_or, bool_or_int, keep_weak=False)
reduce_xor_p = _reduction("reduce_xor", backend.reduce_xor, bool_or_int, keep_weak=False)
_LOGICAL = (reduce_and_p, reduce_or_p, reduce_xor_p)


class Reducer(Protocol):
    """What type checkers see of ``lax.reduce_sum`` and the other reductions built below."""

    __name__: str

    def __call__(self, operand: ArrayLike, axes: Sequence[int]) -> Array: ...


def _reducer(prim: Primitive) -> Reducer:
    def f(operand: ArrayLike, axes: Sequence[int]) -> Array:
        x = asarray(operand)
        # JAX: a bad axis of a logical reduction is an IndexError, of the others a ValueError
        bad = IndexError if prim in _LOGICAL else ValueError
        return prim.bind(x, axes=canonicalize_axes(prim.name, axes, x.ndim, bad, ValueError))

    f.__name__ = f.__qualname__ = prim.name
    f.__doc__ = f"``{prim.name}`` over ``axes``; keeps the operand dtype."
    return f


def reduce_sum(operand: ArrayLike, axes: Sequence[int], *, out_sharding: Any = None) -> Array:
    """``reduce_sum`` over ``axes``; keeps the operand dtype (``out_sharding``: one device)."""
    if out_sharding is not None:
        check_out_sharding("lax.reduce_sum", out_sharding)
    x = asarray(operand)
    axes = canonicalize_axes("reduce_sum", axes, x.ndim)
    half = x.dtype in _HALF and not jax_flags.allow_f16_reductions.value
    if half and any(x.shape[a] != 1 for a in axes):  # singleton axes are allowed
        raise ValueError(
            f"reduce_sum on operand {get_aval(x).str_short()} is not allowed when "
            "jax_allow_f16_reductions=False."
        )
    return reduce_sum_p.bind(x, axes=axes)


_HALF = frozenset([np.dtype(np.float16), np.dtype(dtypes.bfloat16)])


reduce_prod = _reducer(reduce_prod_p)
reduce_max = _reducer(reduce_max_p)
reduce_min = _reducer(reduce_min_p)
reduce_and = _reducer(reduce_and_p)
reduce_or = _reducer(reduce_or_p)
reduce_xor = _reducer(reduce_xor_p)


def _arg_reduction(name: str, kernel: Impl) -> Primitive:
    prim = Primitive(name)
    prim.def_impl(kernel)

    @prim.def_abstract_eval
    def abstract_eval(x: AbstractValue, *, axes: Shape, index_dtype: Any) -> ShapedArray:
        check_dtype(name, x.dtype, not_complex, None)
        (axis,) = axes
        if not 0 <= axis < len(x.shape):
            raise ValueError(f"Invalid axis {axis} for operand shape {tuple(x.shape)}")
        if x.shape[axis] == 0:  # before the index dtype, as in JAX
            raise ValueError(
                "argmin and argmax require non-empty reduced dimension. "
                f"operand.shape={tuple(x.shape)} axis={axis}"
            )
        if dtypes.kind(index_dtype) not in ("i", "u"):
            raise TypeError(f"{name}: index_dtype must be an integer type, got {index_dtype}")
        shape = tuple(s for i, s in enumerate(x.shape) if i != axis)
        return ShapedArray._fast(shape, index_dtype, False)

    return prim


argmax_p = _arg_reduction("argmax", backend.argmax)
argmin_p = _arg_reduction("argmin", backend.argmin)


def argmax(operand: ArrayLike, axis: int, index_dtype: DTypeLike) -> Array:
    """The index of the maximum along ``axis`` (a negative axis counts from the end: a
    superset of JAX, docs/semantics.md)."""
    x = asarray(operand)
    ax = operator.index(axis)
    if -x.ndim <= ax < 0:
        ax += x.ndim
    d = dtypes.check_user_dtype(index_dtype, "argmax")
    return argmax_p.bind(x, axes=(ax,), index_dtype=d)


def argmin(operand: ArrayLike, axis: int, index_dtype: DTypeLike) -> Array:
    """The index of the minimum along ``axis`` (a negative axis counts from the end: a
    superset of JAX, docs/semantics.md)."""
    x = asarray(operand)
    ax = operator.index(axis)
    if -x.ndim <= ax < 0:
        ax += x.ndim
    d = dtypes.check_user_dtype(index_dtype, "argmin")
    return argmin_p.bind(x, axes=(ax,), index_dtype=d)


# -- cumulative ---------------------------------------------------------------------------------


def _cumulative(name: str, kernel: Impl, accepted: Any) -> Primitive:
    prim = Primitive(name)
    prim.def_impl(kernel)

    @prim.def_abstract_eval
    def abstract_eval(x: AbstractValue, *, axis: int, reverse: bool) -> ShapedArray:
        check_dtype(name, x.dtype, accepted, None)
        return ShapedArray._fast(tuple(x.shape), x.dtype, x.weak_type)

    return prim


cumsum_p = _cumulative("cumsum", backend.cumsum, number)
cumprod_p = _cumulative("cumprod", backend.cumprod, number)
cummax_p = _cumulative("cummax", backend.cummax, not_complex)
cummin_p = _cumulative("cummin", backend.cummin, not_complex)


class Cumulative(Protocol):
    """What type checkers see of ``lax.cumsum`` and the other cumulative ops built below."""

    __name__: str

    def __call__(self, operand: ArrayLike, axis: int = 0, reverse: bool = False) -> Array: ...


def _accumulable(name: str, ndim: int) -> int:
    """``ndim``, or JAX's ValueError for a 0-d operand (there is no axis to accumulate along)."""
    if ndim == 0:
        raise ValueError(f"{name}: the operand must have at least one dimension, got a 0-d array")
    return ndim


def _cumulator(prim: Primitive) -> Cumulative:
    def f(operand: ArrayLike, axis: int = 0, reverse: bool = False) -> Array:
        x = asarray(operand)
        (ax,) = canonicalize_axes(prim.name, (axis,), _accumulable(prim.name, x.ndim))
        return prim.bind(x, axis=ax, reverse=bool(reverse))

    f.__name__ = f.__qualname__ = prim.name
    f.__doc__ = f"Cumulative ``{prim.name}`` along ``axis``; keeps the operand dtype."
    return f


cumsum = _cumulator(cumsum_p)
cumprod = _cumulator(cumprod_p)
cummax = _cumulator(cummax_p)
cummin = _cumulator(cummin_p)


# -- sort ---------------------------------------------------------------------------------------

#: sort keys: every numeric type; complex ones order lexicographically (real part, then
#: imaginary part), as XLA's comparator and NumPy's sort do
_sortable = Category("bool, integer, floating, complex", "buifc")

sort_p = Primitive("sort", multiple_results=True)
sort_p.def_impl(backend.sort)


@sort_p.def_abstract_eval
def _sort_abstract_eval(
    *operands: AbstractValue, dimension: int, is_stable: bool, num_keys: int
) -> tuple[ShapedArray, ...]:
    shape = tuple(operands[0].shape)
    for op in operands:
        if tuple(op.shape) != shape:
            raise TypeError(
                f"sort operands must all have the same shape, got "
                f"{', '.join(str(tuple(o.shape)) for o in operands)}"
            )
    for op in operands[:num_keys]:
        check_dtype("sort", op.dtype, _sortable, None)
    return tuple(ShapedArray._fast(shape, o.dtype, o.weak_type) for o in operands)


@overload
def sort(
    operand: ArrayLike, dimension: int = -1, is_stable: bool = True, num_keys: int = 1
) -> Array: ...
@overload
def sort(
    operand: Sequence[ArrayLike], dimension: int = -1, is_stable: bool = True, num_keys: int = 1
) -> tuple[Array, ...]: ...


def sort(
    operand: ArrayLike | Sequence[ArrayLike],
    dimension: int = -1,
    is_stable: bool = True,
    num_keys: int = 1,
) -> Array | tuple[Array, ...]:
    """Sorts along ``dimension``; a tuple of operands is sorted by its first ``num_keys``."""
    single = not isinstance(operand, (tuple, list))
    ops = (
        [asarray(o) for o in operand] if isinstance(operand, (tuple, list)) else [asarray(operand)]
    )
    if not ops:
        raise TypeError("sort: no operands to sort")
    if not 1 <= int(num_keys) <= len(ops):
        raise ValueError(f"sort: num_keys={num_keys} must be between 1 and {len(ops)}")
    (dim,) = canonicalize_axes("sort", (dimension,), ops[0].ndim)
    out = sort_p.bind_multi(*ops, dimension=dim, is_stable=bool(is_stable), num_keys=int(num_keys))
    return out[0] if single else tuple(out)


# -- dot_general --------------------------------------------------------------------------------

dot_general_p = Primitive("dot_general")
dot_general_p.def_impl(backend.dot_general)


def _dot_rank(d: Any) -> tuple[int, int, int, int, int]:
    """XLA's "higher precision" order used when ``dot`` mixes dtypes."""
    k = dtypes.kind(d)
    if k in ("f", "c"):
        info = dtypes.finfo(d)
        maxexp, nmant = int(info.maxexp), int(info.nmant)
    else:
        maxexp, nmant = -1, -1
    return (int(k == "c"), maxexp, nmant, dtypes.itemsize_bits(d), int(k in ("i", "f", "c")))


@dot_general_p.def_abstract_eval
def _dot_general_abstract_eval(
    x: AbstractValue, y: AbstractValue, *, dimension_numbers: Any, preferred_element_type: Any
) -> ShapedArray:
    xs, ys = tuple(x.shape), tuple(y.shape)
    if dimension_numbers == backend.MATMUL_2D and len(xs) == 2 and len(ys) == 2 and xs[1] == ys[0]:
        weak = x.weak_type and y.weak_type  # the plain matrix product, checked in one line
        return ShapedArray._fast((xs[0], ys[1]), preferred_element_type, weak)
    (lc, rc), (lb, rb) = dimension_numbers
    if len(lc) != len(rc) or len(lb) != len(rb):
        raise TypeError(
            f"dot_general requires equal numbers of contracting/batch dimensions, got {dimension_numbers}"
        )
    for a, b in zip(lc, rc):
        if xs[a] != ys[b]:
            raise TypeError(
                f"dot_general requires contracting dimensions to have the same shape, got "
                f"{tuple(xs[i] for i in lc)} and {tuple(ys[i] for i in rc)}."
            )
    for a, b in zip(lb, rb):
        if xs[a] != ys[b]:
            raise TypeError(
                f"dot_general requires lhs batch dimensions and rhs batch dimensions to have "
                f"the same shape, got {[xs[i] for i in lb]} and {[ys[i] for i in rb]}."
            )
    shape = (
        *[xs[i] for i in lb],
        *[s for i, s in enumerate(xs) if i not in lc and i not in lb],
        *[s for i, s in enumerate(ys) if i not in rc and i not in rb],
    )
    return ShapedArray._fast(shape, preferred_element_type, x.weak_type and y.weak_type)


def dot_general(
    lhs: ArrayLike,
    rhs: ArrayLike,
    dimension_numbers: DotDimensionNumbers,
    precision: Any = None,
    preferred_element_type: DTypeLike | None = None,
    *,
    out_sharding: Any = None,
) -> Array:
    """Generalized dot product: ``((lhs_contract, rhs_contract), (lhs_batch, rhs_batch))``.

    Mixed operand dtypes are allowed (XLA's rule: the result takes the "higher precision" type);
    ``preferred_element_type`` widens the result.
    """
    if out_sharding is not None:
        check_out_sharding("lax.dot_general", out_sharding)
        return with_out_sharding(
            lambda: dot_general(lhs, rhs, dimension_numbers, precision, preferred_element_type),
            out_sharding,
        )
    x, y = asarray(lhs), asarray(rhs)
    dn = dot_dimension_numbers(dimension_numbers, x.ndim, y.ndim)
    out = dot_result_dtype(x.dtype, y.dtype)
    if preferred_element_type is not None:
        pref = dtypes.check_user_dtype(preferred_element_type, "dot_general")
        _check_preferred(out, pref)
        out = pref
    return dot_general_p.bind(x, y, dimension_numbers=dn, preferred_element_type=out)


def _value_bits(d: Any) -> int:
    """The width ``dot_general`` compares a preferred type by: a complex type's part's width,
    one bit for bool."""
    k = dtypes.kind(d)
    if k == "b":
        return 1
    bits = dtypes.itemsize_bits(d)
    return bits // 2 if k == "c" else bits


def _check_preferred(result: Any, pref: Any) -> None:
    """JAX's refusal of a ``preferred_element_type`` narrower than an integer or complex result
    (float results take any type: observed with JAX 0.10.2, every pair of 13 dtypes)."""
    if dtypes.kind(result) in ("i", "u", "c") and _value_bits(pref) < _value_bits(result):
        raise TypeError(
            "`preferred_element_type` must not be narrower than the original type, got "
            f"preferred_element_type of {np.dtype(pref).name} for result type of "
            f"{np.dtype(result).name}."
        )


def dot_dimension_numbers(dn: Any, lhs_ndim: int, rhs_ndim: int) -> Any:
    """``dn`` checked as JAX checks it (in its order, each a ``TypeError``), with negative axes
    counted from the end (a superset of JAX, which refuses them)."""
    (lc, rc), (lb, rb) = dn
    out = []
    for side, ndim, contract, batch in (("lhs", lhs_ndim, lc, lb), ("rhs", rhs_ndim, rc, rb)):
        c = tuple(int(a) + ndim if -ndim <= int(a) < 0 else int(a) for a in contract)
        b = tuple(int(a) + ndim if -ndim <= int(a) < 0 else int(a) for a in batch)
        if not all(0 <= a < ndim for a in (*c, *b)):
            raise TypeError(
                f"dot_general: every {side} dimension number must be an axis of the {side} "
                f"(rank {ndim}); got {side} contracting {tuple(contract)} and batch {tuple(batch)}"
            )
        out.append((c, b))
    (lc, lb), (rc, rb) = out
    if len(lb) != len(rb):
        raise TypeError(
            f"dot_general: lhs and rhs need as many batch dimensions, got {lb} and {rb}"
        )
    for side, c, b in (("lhs", lc, lb), ("rhs", rc, rb)):
        for what, axes in (("batch", b), ("contracting", c)):
            if len(set(axes)) != len(axes):
                raise TypeError(f"dot_general: repeated {side} {what} dimensions {axes}")
    for side, c, b in (("lhs", lc, lb), ("rhs", rc, rb)):
        if set(c) & set(b):
            raise TypeError(
                f"dot_general: {side} dimensions {sorted(set(c) & set(b))} are both batch "
                f"({b}) and contracting ({c}) dimensions"
            )
    return (lc, rc), (lb, rb)


def dot_result_dtype(a: Any, b: Any) -> Any:
    if a == b:
        return a
    ka, kb = _dot_rank(a), _dot_rank(b)
    if ka == kb:
        raise TypeError(f"lax.dot_general argument type error: {a}, {b}")
    return a if ka > kb else b


def dot(
    lhs: ArrayLike,
    rhs: ArrayLike,
    *,
    dimension_numbers: Any = None,
    precision: Any = None,
    preferred_element_type: DTypeLike | None = None,
    out_sharding: Any = None,
) -> Array:
    """``dot_general`` with ``dimension_numbers`` defaulting to a vector/matrix product of rank
    1 or 2 operands (as in JAX, the options after the operands are keyword-only)."""
    if out_sharding is not None:
        check_out_sharding("lax.dot", out_sharding)
        return with_out_sharding(
            lambda: dot(
                lhs,
                rhs,
                dimension_numbers=dimension_numbers,
                precision=precision,
                preferred_element_type=preferred_element_type,
            ),
            out_sharding,
        )
    x, y = asarray(lhs), asarray(rhs)
    if dimension_numbers is None:
        if x.ndim not in (1, 2) or y.ndim not in (1, 2) or x.shape[-1] != y.shape[0]:
            raise ValueError(
                "jax.lax.dot: dimension_numbers must be specified when not performing simple "
                "un-batched matrix-matrix, matrix-vector, or vector-vector products; got "
                f"lhs_shape={tuple(x.shape)} rhs_shape={tuple(y.shape)}"
            )
        dimension_numbers = (((x.ndim - 1,), (0,)), ((), ()))
    return dot_general(x, y, dimension_numbers, precision, preferred_element_type)


# -- differentiation rules ------------------------------------------------------------------------


def _keep_axes_broadcast(x: Any, shape: Shape, axes: Shape) -> Any:
    """A reduction's result broadcast back over the reduced ``axes`` to ``shape``."""

    kept = tuple(i for i in range(len(shape)) if i not in axes)
    return broadcast_in_dim_p.bind(x, shape=tuple(shape), broadcast_dimensions=kept)


def _reduce_sum_transpose(ct: Any, x: Any, *, axes: Shape) -> list[Any]:
    return [_keep_axes_broadcast(ct, tuple(x.aval.shape), axes)]


ad_util.deflinear(reduce_sum_p, _reduce_sum_transpose)


def _chooser_jvp(prim: Primitive) -> Any:
    """max/min reductions: the tangent is the mean of the tangents of the tied maxima (a NaN
    result gives NaN: no element equals it)."""

    def rule(t: Any, ans: Any, x: Any, *, axes: Shape) -> Any:
        shape = tuple(x.shape)
        where = ew.eq(x, _keep_axes_broadcast(ans, shape, axes))
        ind = convert_element_type_p.bind(where, new_dtype=t.dtype, weak_type=False)
        counts = reduce_sum_p.bind(ind, axes=axes)
        return ew.div(reduce_sum_p.bind(ew.mul(t, ind), axes=axes), counts)

    return rule


ad_util.defjvp(reduce_max_p, _chooser_jvp(reduce_max_p))
ad_util.defjvp(reduce_min_p, _chooser_jvp(reduce_min_p))


def _prod_of_others(x: Any, axis: int) -> Any:
    """``prod_{j != i} x_j`` along ``axis`` without dividing (exact at zeros)."""

    n = x.ndim
    one = ad_util.const(x, 1)
    shift = tuple((1, -1, 0) if i == axis else (0, 0, 0) for i in range(n))
    left = pad_p.bind(cumprod_p.bind(x, axis=axis, reverse=False), one, padding_config=shift)
    rshift = tuple((-1, 1, 0) if i == axis else (0, 0, 0) for i in range(n))
    right = pad_p.bind(cumprod_p.bind(x, axis=axis, reverse=True), one, padding_config=rshift)
    return ew.mul(left, right)


def _reduce_prod_jvp(t: Any, ans: Any, x: Any, *, axes: Shape) -> Any:
    if not axes:
        return t
    n = x.ndim
    kept = [i for i in range(n) if i not in axes]
    perm = (*kept, *axes)
    size = 1
    for a in axes:
        size *= x.shape[a]
    moved_shape = (*[x.shape[i] for i in kept], size)
    xm = reshape_p.bind(
        transpose_p.bind(x, permutation=perm), new_sizes=moved_shape, dimensions=None
    )
    tm = reshape_p.bind(
        transpose_p.bind(t, permutation=perm), new_sizes=moved_shape, dimensions=None
    )
    others = _prod_of_others(xm, len(kept))
    return reduce_sum_p.bind(ew.mul(tm, others), axes=(len(kept),))


ad_util.defjvp(reduce_prod_p, _reduce_prod_jvp)
# reduce_and/reduce_xor have no rule, as in JAX (interpreters/ad.NOT_DIFFERENTIABLE_YET); JAX's
# reduce_or has a zero linearization rule and no JVP rule: grad/vjp of it reach its dtype check
# (TypeError for floats), jvp reports the missing rule first (NotImplementedError)
ad_util.defzeros("a logical reduction of integers or bools (reverse mode only)", reduce_or_p)
reduce_or_p.linearize_only = True
ad_util.defzeros("an index result: float0 tangent", argmax_p, argmin_p)


def _cumsum_transpose(ct: Any, x: Any, *, axis: int, reverse: bool) -> list[Any]:
    return [cumsum_p.bind(ct, axis=axis, reverse=not reverse)]


ad_util.deflinear(cumsum_p, _cumsum_transpose)


def _slice_axis(x: Any, start: int, stop: int | None, stride: int, axis: int) -> Any:
    n = x.shape[axis]
    stop = n if stop is None else (stop if stop >= 0 else n + stop)
    starts = [0] * x.ndim
    limits = list(x.shape)
    strides = [1] * x.ndim
    starts[axis], limits[axis], strides[axis] = start, max(stop, start), stride
    return slice_p.bind(
        x, start_indices=tuple(starts), limit_indices=tuple(limits), strides=tuple(strides)
    )


def _interleave(a: Any, b: Any, axis: int) -> Any:
    """``[a0, b0, a1, b1, ...]`` along ``axis`` (``a`` has as many or one more elements)."""

    extra = 1 if a.shape[axis] == b.shape[axis] else 0
    cfg_a = tuple((0, extra, 1) if i == axis else (0, 0, 0) for i in range(a.ndim))
    cfg_b = tuple((1, 0 if extra else 1, 1) if i == axis else (0, 0, 0) for i in range(b.ndim))
    zero = ad_util.const(a, 0)
    return ew.add(
        pad_p.bind(a, zero, padding_config=cfg_a), pad_p.bind(b, zero, padding_config=cfg_b)
    )


def _pair_scan(combine: Any, x: Any, t: Any, axis: int) -> tuple[Any, Any]:
    """The prefix scan of (value, tangent) pairs in the recursive odd/even order JAX's
    ``associative_scan`` uses, so ties are shared exactly as JAX's derivatives share them."""

    n = x.shape[axis]
    if n < 2:
        return x, t
    rx, rt = combine(
        _slice_axis(x, 0, -1, 2, axis),
        _slice_axis(t, 0, -1, 2, axis),
        _slice_axis(x, 1, None, 2, axis),
        _slice_axis(t, 1, None, 2, axis),
    )
    ox, ot = _pair_scan(combine, rx, rt, axis)
    if n % 2 == 0:
        ex, et = combine(
            _slice_axis(ox, 0, -1, 1, axis),
            _slice_axis(ot, 0, -1, 1, axis),
            _slice_axis(x, 2, None, 2, axis),
            _slice_axis(t, 2, None, 2, axis),
        )
    else:
        ex, et = combine(ox, ot, _slice_axis(x, 2, None, 2, axis), _slice_axis(t, 2, None, 2, axis))
    ex = concatenate_p.bind(_slice_axis(x, 0, 1, 1, axis), ex, dimension=axis)
    et = concatenate_p.bind(_slice_axis(t, 0, 1, 1, axis), et, dimension=axis)
    return _interleave(ex, ox, axis), _interleave(et, ot, axis)


def _cumulative_select_jvp(prim: Primitive) -> Any:
    """cummax/cummin: the JVP of the associative scan of ``max``/``min``, whose own rule shares
    a tie equally (so ``cummax([1, 1, 0]).sum()`` has gradient ``[2, 1, 0]``, as in JAX)."""

    def rule(t: Any, ans: Any, x: Any, *, axis: int, reverse: bool) -> Any:
        chooser = ew.max_p if prim is cummax_p else ew.min_p

        def combine(a: Any, ta: Any, b: Any, tb: Any) -> tuple[Any, Any]:
            out = chooser.bind(a, b)
            wa = ew._balanced_eq(a, out, b)
            wb = ew._balanced_eq(b, out, a)
            return out, ew.add(ew.mul(ta, wa), ew.mul(tb, wb))

        if reverse:
            x, t = rev_p.bind(x, dimensions=(axis,)), rev_p.bind(t, dimensions=(axis,))
        _, out = _pair_scan(combine, x, t, axis)
        return rev_p.bind(out, dimensions=(axis,)) if reverse else out

    return rule


ad_util.defjvp(cummax_p, _cumulative_select_jvp(cummax_p))
ad_util.defjvp(cummin_p, _cumulative_select_jvp(cummin_p))


def _cumprod_jvp(
    primals: Sequence[Any], tangents: Sequence[Any], *, axis: int, reverse: bool
) -> Any:
    """The JVP of the associative scan of ``mul`` (JAX's rule: its derivative of ``cumprod`` is
    the product rule applied in the scan's odd/even order, and the primal it returns is that
    scan's product, not ``cumprod``'s). The order decides where an infinite factor meets a zero:
    ``grad(sum(cumprod([a, inf, -0.0, b])))`` has JAX's -inf and NaN in the same places."""
    (x,), (t,) = primals, tangents
    if type(t) is ad_util.Zero:
        ans = cumprod_p.bind(x, axis=axis, reverse=reverse)
        return ans, ad_util.zero_of(ans)

    def combine(a: Any, ta: Any, b: Any, tb: Any) -> tuple[Any, Any]:
        return ew.mul(a, b), ad_util.add_any_p.bind(ew.mul(ta, b), ew.mul(a, tb))

    if reverse:
        x, t = rev_p.bind(x, dimensions=(axis,)), rev_p.bind(t, dimensions=(axis,))
    out, t_out = _pair_scan(combine, x, t, axis)
    if reverse:
        out, t_out = rev_p.bind(out, dimensions=(axis,)), rev_p.bind(t_out, dimensions=(axis,))
    return out, t_out


cumprod_p.def_jvp(_cumprod_jvp)


def _sort_jvp(
    primals: Sequence[Any],
    tangents: Sequence[Any],
    *,
    dimension: int,
    is_stable: bool,
    num_keys: int,
) -> tuple[Any, Any]:
    outs = sort_p.bind_multi(*primals, dimension=dimension, is_stable=is_stable, num_keys=num_keys)
    keys = primals[:num_keys]
    t_outs: list[Any] = []
    for t in tangents:
        if type(t) is ad_util.Zero:
            t_outs.append(t)
            continue
        # The tangent rides along with the keys: sorted by the same permutation.
        t_outs.append(
            sort_p.bind_multi(
                *keys, t, dimension=dimension, is_stable=is_stable, num_keys=num_keys
            )[-1]
        )
    return outs, tuple(t_outs)


def _sort_transpose(
    cts: Any, *operands: Any, dimension: int, is_stable: bool, num_keys: int
) -> list[Any]:
    keys = operands[:num_keys]
    if any(ad_util.is_undefined(k) for k in keys) or len(operands) != num_keys + 1:
        raise TypeError("sort is linear only in a single non-key operand")
    ct = cts[-1]
    if type(ct) is ad_util.Zero:
        return [None] * len(operands)
    iota = broadcasted_iota(dtypes.int32, tuple(ct.shape), dimension)
    perm = sort_p.bind_multi(
        *keys, iota, dimension=dimension, is_stable=is_stable, num_keys=num_keys
    )[-1]
    back = sort_p.bind_multi(perm, ct, dimension=dimension, is_stable=True, num_keys=1)[-1]
    return [*[None] * num_keys, back]


sort_p.def_jvp(_sort_jvp)
sort_p.def_transpose(_sort_transpose)


def _ranges_like(*xs: Sequence[int]) -> list[tuple[int, ...]]:
    out, start = [], 0
    for x in xs:
        out.append(tuple(range(start, start + len(x))))
        start += len(x)
    return out


def _remaining(n: int, *removed: Sequence[int]) -> list[int]:
    gone = {i for r in removed for i in r}
    return [i for i in range(n) if i not in gone]


def _dot_transpose_lhs(
    ct: Any, x_aval: ShapedArray, y: Any, dimension_numbers: Any, swap_ans: bool = False
) -> Any:
    (x_contract, y_contract), (x_batch, y_batch) = dimension_numbers
    x_kept = _remaining(len(x_aval.shape), x_contract, x_batch)
    y_kept = _remaining(y.ndim, y_contract, y_batch)
    if swap_ans:
        ans_batch, ans_y, _ = _ranges_like(x_batch, y_kept, x_kept)
    else:
        ans_batch, _, ans_y = _ranges_like(x_batch, x_kept, y_kept)
    dims = ((ans_y, tuple(y_kept)), (ans_batch, tuple(y_batch)))
    order = np.argsort(y_contract) if len(y_contract) else np.array([], int)
    x_contract_sorted = [x_contract[int(i)] for i in order]
    out_axes = tuple(int(i) for i in np.argsort([*x_batch, *x_kept, *x_contract_sorted]))
    if ct.dtype != y.dtype:
        y = ad_util.convert(y, ct.dtype, y.weak_type)
    res = dot_general_p.bind(ct, y, dimension_numbers=dims, preferred_element_type=ct.dtype)
    if out_axes != tuple(range(len(out_axes))):
        res = transpose_p.bind(res, permutation=out_axes)
    return ad_util.unbroadcast(res, x_aval)


def _dot_general_transpose(
    ct: Any, x: Any, y: Any, *, dimension_numbers: Any, preferred_element_type: Any
) -> list[Any]:
    (xc, yc), (xb, yb) = dimension_numbers
    if ad_util.is_undefined(x) and ad_util.is_undefined(y):
        raise TypeError("dot_general is not linear in both operands at once")
    if ad_util.is_undefined(x):
        return [_dot_transpose_lhs(ct, x.aval, y, dimension_numbers), None]
    swapped = ((yc, xc), (yb, xb))
    return [None, _dot_transpose_lhs(ct, y.aval, x, swapped, swap_ans=True)]


def _dot_jvp_rule(which: int) -> Any:
    def rule(
        t: Any, ans: Any, x: Any, y: Any, *, dimension_numbers: Any, preferred_element_type: Any
    ) -> Any:
        a, b = (t, y) if which == 0 else (x, t)
        return dot_general_p.bind(
            a, b, dimension_numbers=dimension_numbers, preferred_element_type=preferred_element_type
        )

    return rule


ad_util.defjvp(dot_general_p, _dot_jvp_rule(0), _dot_jvp_rule(1))
dot_general_p.def_transpose(_dot_general_transpose)


# -- batch rules --------------------------------------------------------------------------------


def _reduce_rule(prim: Primitive) -> None:
    """The batch stays put; the reduced axes are renamed around it."""

    def rule(args: Sequence[Any], dims: Dims, **params: Any) -> tuple[Any, int]:
        (x,), (d,) = args, dims
        assert d is not None
        axes = shift_axes(params["axes"], d)
        params["axes"] = axes
        return prim.bind(x, **params), d - sum(1 for a in axes if a < d)

    prim.def_batch(rule)


for _p in (
    reduce_sum_p,
    reduce_prod_p,
    reduce_max_p,
    reduce_min_p,
    reduce_and_p,
    reduce_or_p,
    reduce_xor_p,
    argmax_p,
    argmin_p,
):
    _reduce_rule(_p)


def _cumulative_rule(prim: Primitive) -> None:
    def rule(args: Sequence[Any], dims: Dims, *, axis: int, reverse: bool) -> tuple[Any, int]:
        (x,), (d,) = args, dims
        assert d is not None
        return prim.bind(x, axis=axis + (axis >= d), reverse=reverse), d

    prim.def_batch(rule)


for _p in (cumsum_p, cumprod_p, cummax_p, cummin_p):
    _cumulative_rule(_p)


@sort_p.def_batch
def _sort_batch(args: Sequence[Any], dims: Dims, *, dimension: int, **params: Any) -> Any:
    outs = sort_p.bind_multi(*all_at_front(args, dims), dimension=dimension + 1, **params)
    return outs, (0,) * len(outs)


@dot_general_p.def_batch
def _dot_general_batch(
    args: Sequence[Any], dims: Dims, *, dimension_numbers: Any, preferred_element_type: Any
) -> tuple[Any, int]:
    """Both batched: a new batch dimension. One batched: its batch is a free dimension of that
    operand, which keeps its place among the free dimensions of the result."""
    (x, y), (dx, dy) = args, dims
    (lc, rc), (lb, rb) = dimension_numbers
    if dx is not None and dy is not None:
        x, y = moveaxis(x, dx, 0), moveaxis(y, dy, 0)
        dn = (
            (tuple(a + 1 for a in lc), tuple(a + 1 for a in rc)),
            ((0, *(a + 1 for a in lb)), (0, *(a + 1 for a in rb))),
        )
        out_dim = 0
    elif dx is not None:
        lc, lb = shift_axes(lc, dx), shift_axes(lb, dx)
        dn = ((lc, rc), (lb, rb))
        free = [i for i in range(x.ndim) if i not in lc and i not in lb]
        out_dim = len(lb) + free.index(dx)
    else:
        assert dy is not None
        rc, rb = shift_axes(rc, dy), shift_axes(rb, dy)
        dn = ((lc, rc), (lb, rb))
        x_free = x.ndim - len(lc) - len(lb)
        free = [i for i in range(y.ndim) if i not in rc and i not in rb]
        out_dim = len(lb) + x_free + free.index(dy)
    out = dot_general_p.bind(
        x, y, dimension_numbers=dn, preferred_element_type=preferred_element_type
    )
    return out, out_dim
