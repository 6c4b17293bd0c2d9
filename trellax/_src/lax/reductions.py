"""Reductions, cumulative ops, sorting and ``dot_general``.

lax reductions keep the operand dtype (``reduce_sum`` of int8 is int8) and its weak flag, except
``argmax``/``argmin`` and the bitwise reductions, which strip it. ``trellax.numpy`` decides
accumulation dtypes (``sum`` of int8 is the default int) by casting *before* reducing.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, TypeAlias, overload

from trellax._src import dtypes
from trellax._src.backend import numpy as backend
from trellax._src.basearray import Array
from trellax._src.core import AbstractValue, Primitive, ShapedArray
from trellax._src.lax._base import (
    any_,
    asarray,
    bool_or_int,
    canonicalize_axes,
    check_dtype,
    not_complex,
    number,
)
from trellax._src.typing import ArrayLike, DTypeLike

Shape = tuple[int, ...]
DotDimensionNumbers: TypeAlias = tuple[
    tuple[Sequence[int], Sequence[int]], tuple[Sequence[int], Sequence[int]]
]
"""``((lhs_contracting, rhs_contracting), (lhs_batch, rhs_batch))``."""


def _reduction(name: str, accepted: Any, *, keep_weak: bool = True) -> Primitive:
    prim = Primitive(name)
    prim.def_impl(backend.impl(name))

    ok = accepted.dtypes

    @prim.def_abstract_eval
    def abstract_eval(x: AbstractValue, *, axes: Shape) -> ShapedArray:
        if x.dtype not in ok:
            check_dtype(name, x.dtype, accepted, None)
        shape = tuple(s for i, s in enumerate(x.shape) if i not in axes) if axes else x.shape
        return ShapedArray._fast(shape, x.dtype, x.weak_type and keep_weak)

    return prim


reduce_sum_p = _reduction("reduce_sum", number)
reduce_prod_p = _reduction("reduce_prod", number)
reduce_max_p = _reduction("reduce_max", any_)
reduce_min_p = _reduction("reduce_min", any_)
reduce_and_p = _reduction("reduce_and", bool_or_int, keep_weak=False)
reduce_or_p = _reduction("reduce_or", bool_or_int, keep_weak=False)
reduce_xor_p = _reduction("reduce_xor", bool_or_int, keep_weak=False)


class Reducer(Protocol):
    """What type checkers see of ``lax.reduce_sum`` and the other reductions built below."""

    __name__: str

    def __call__(self, operand: ArrayLike, axes: Sequence[int]) -> Array: ...


def _reducer(prim: Primitive) -> Reducer:
    def f(operand: ArrayLike, axes: Sequence[int]) -> Array:
        x = asarray(operand)
        return prim.bind(x, axes=canonicalize_axes(prim.name, axes, x.ndim))

    f.__name__ = f.__qualname__ = prim.name
    f.__doc__ = f"``{prim.name}`` over ``axes``; keeps the operand dtype."
    return f


reduce_sum = _reducer(reduce_sum_p)
reduce_prod = _reducer(reduce_prod_p)
reduce_max = _reducer(reduce_max_p)
reduce_min = _reducer(reduce_min_p)
reduce_and = _reducer(reduce_and_p)
reduce_or = _reducer(reduce_or_p)
reduce_xor = _reducer(reduce_xor_p)


def _arg_reduction(name: str) -> Primitive:
    prim = Primitive(name)
    prim.def_impl(backend.impl(name))

    @prim.def_abstract_eval
    def abstract_eval(x: AbstractValue, *, axes: Shape, index_dtype: Any) -> ShapedArray:
        check_dtype(name, x.dtype, not_complex, None)
        if dtypes.kind(index_dtype) not in ("i", "u"):
            raise TypeError(f"{name}: index_dtype must be an integer type, got {index_dtype}")
        (axis,) = axes
        if not 0 <= axis < len(x.shape):
            raise ValueError(f"{name}: axis {axis} is out of bounds for operand shape {x.shape}")
        if x.shape[axis] == 0:
            raise ValueError(f"{name} of an empty axis (shape {tuple(x.shape)}, axis {axis})")
        shape = tuple(s for i, s in enumerate(x.shape) if i != axis)
        return ShapedArray._fast(shape, index_dtype, False)

    return prim


argmax_p = _arg_reduction("argmax")
argmin_p = _arg_reduction("argmin")


def argmax(operand: ArrayLike, axis: int, index_dtype: DTypeLike) -> Array:
    x = asarray(operand)
    (ax,) = canonicalize_axes("argmax", (axis,), x.ndim)
    d = dtypes.check_user_dtype(index_dtype, "argmax")
    return argmax_p.bind(x, axes=(ax,), index_dtype=d)


def argmin(operand: ArrayLike, axis: int, index_dtype: DTypeLike) -> Array:
    x = asarray(operand)
    (ax,) = canonicalize_axes("argmin", (axis,), x.ndim)
    d = dtypes.check_user_dtype(index_dtype, "argmin")
    return argmin_p.bind(x, axes=(ax,), index_dtype=d)


# -- cumulative ---------------------------------------------------------------------------------


def _cumulative(name: str, accepted: Any) -> Primitive:
    prim = Primitive(name)
    prim.def_impl(backend.impl(name))

    @prim.def_abstract_eval
    def abstract_eval(x: AbstractValue, *, axis: int, reverse: bool) -> ShapedArray:
        check_dtype(name, x.dtype, accepted, None)
        return ShapedArray._fast(tuple(x.shape), x.dtype, x.weak_type)

    return prim


cumsum_p = _cumulative("cumsum", number)
cumprod_p = _cumulative("cumprod", number)
cummax_p = _cumulative("cummax", not_complex)
cummin_p = _cumulative("cummin", not_complex)


class Cumulative(Protocol):
    """What type checkers see of ``lax.cumsum`` and the other cumulative ops built below."""

    __name__: str

    def __call__(self, operand: ArrayLike, axis: int = 0, reverse: bool = False) -> Array: ...


def _cumulator(prim: Primitive) -> Cumulative:
    def f(operand: ArrayLike, axis: int = 0, reverse: bool = False) -> Array:
        x = asarray(operand)
        (ax,) = canonicalize_axes(prim.name, (axis,), x.ndim)
        return prim.bind(x, axis=ax, reverse=bool(reverse))

    f.__name__ = f.__qualname__ = prim.name
    f.__doc__ = f"Cumulative ``{prim.name}`` along ``axis``; keeps the operand dtype."
    return f


cumsum = _cumulator(cumsum_p)
cumprod = _cumulator(cumprod_p)
cummax = _cumulator(cummax_p)
cummin = _cumulator(cummin_p)


# -- sort ---------------------------------------------------------------------------------------

sort_p = Primitive("sort", multiple_results=True)
sort_p.def_impl(backend.impl("sort"))


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
        check_dtype("sort", op.dtype, not_complex, None)
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
    (dim,) = canonicalize_axes("sort", (dimension,), ops[0].ndim)
    out = sort_p.bind_multi(*ops, dimension=dim, is_stable=bool(is_stable), num_keys=int(num_keys))
    return out[0] if single else tuple(out)


# -- dot_general --------------------------------------------------------------------------------

dot_general_p = Primitive("dot_general")
dot_general_p.def_impl(backend.impl("dot_general"))


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
                f"{[xs[i] for i in lc]} and {[ys[i] for i in rc]}."
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
) -> Array:
    """Generalized dot product: ``((lhs_contract, rhs_contract), (lhs_batch, rhs_batch))``.

    Mixed operand dtypes are allowed (XLA's rule: the result takes the "higher precision" type);
    ``preferred_element_type`` widens the result.
    """
    x, y = asarray(lhs), asarray(rhs)
    (lc, rc), (lb, rb) = dimension_numbers
    dn = (
        (
            canonicalize_axes("dot_general", lc, x.ndim),
            canonicalize_axes("dot_general", rc, y.ndim),
        ),
        (
            canonicalize_axes("dot_general", lb, x.ndim),
            canonicalize_axes("dot_general", rb, y.ndim),
        ),
    )
    out = dot_result_dtype(x.dtype, y.dtype)
    if preferred_element_type is not None:
        pref = dtypes.check_user_dtype(preferred_element_type, "dot_general")
        out = pref
    return dot_general_p.bind(x, y, dimension_numbers=dn, preferred_element_type=out)


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
    precision: Any = None,
    preferred_element_type: DTypeLike | None = None,
) -> Array:
    """Vector/matrix products of rank <= 2 operands."""
    x, y = asarray(lhs), asarray(rhs)
    if x.ndim not in (1, 2) or y.ndim not in (1, 2):
        raise TypeError(
            f"dot only supports rank 1 or 2 operands, got shapes {x.shape} and {y.shape}"
        )
    dn = (((x.ndim - 1,), (0,)), ((), ()))
    return dot_general(x, y, dn, precision, preferred_element_type)
