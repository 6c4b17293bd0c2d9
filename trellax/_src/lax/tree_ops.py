"""``lax`` functions that take Python computations and pytrees: ``reduce``, ``reduce_window``,
``associative_scan``, ``approx_max_k``/``approx_min_k``, ``optimization_barrier``.

Layer 6 (next to ``control_flow``), since they flatten pytrees. The computation is called on
whole arrays, never per element. ``reduce`` follows JAX's two paths: one of ``lax.add``/``mul``/
``max``/``min``/``bitwise_*`` with a concrete init equal to its identity in the init's own dtype
is the matching reduction primitive (the init dropped, so ``-inf`` reduces integers); otherwise
the init values must have the operands' dtypes (``TypeError``), a monoid computation folds its
init into the primitive's result once, and any other is folded from the left along the reduced
axes, one call per position (exactly JAX's result for associative computations, the sequential
result otherwise). ``reduce_window`` of one array by one of ``lax.add``/``mul``/``max``/``min``
is the ``reduce_window`` primitive; any other computation or a pytree of operands folds the
computation over the window's positions, each a strided slice, skipping padding and the holes
of ``base_dilation`` as XLA does.
``associative_scan`` is the odd/even recursion of Blelloch's scan (``O(log n)`` levels).
"""

from __future__ import annotations

import itertools
import operator
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from trellax._src.backend.array import ArrayImpl
from trellax._src.core.basearray import Array
from trellax._src.core.out_sharding import check_out_sharding
from trellax._src.dtypes import dtypes
from trellax._src.lax import conv, convenience, elementwise, reductions, structural
from trellax._src.lax._base import asarray, canonicalize_axes
from trellax._src.lax.conv import padtype_to_pads
from trellax._src.tree.tree_util import tree_flatten, tree_unflatten

_MONOIDS: dict[Any, Callable[[Array, tuple[int, ...]], Array]] = {
    elementwise.add: reductions.reduce_sum,
    elementwise.mul: reductions.reduce_prod,
    elementwise.max: reductions.reduce_max,
    elementwise.min: reductions.reduce_min,
    elementwise.bitwise_and: reductions.reduce_and,
    elementwise.bitwise_or: reductions.reduce_or,
    elementwise.bitwise_xor: reductions.reduce_xor,
}


def reduce(
    operands: Any,
    init_values: Any,
    computation: Callable[[Any, Any], Any],
    dimensions: Sequence[int],
    *,
    out_sharding: Any = None,
) -> Any:
    """Reduces ``operands`` (a pytree of same-shape arrays) over ``dimensions`` with
    ``computation(accumulated, element)``, starting from ``init_values`` (the same structure)."""
    if out_sharding is not None:
        check_out_sharding("lax.reduce", out_sharding)
    flat, tree = tree_flatten(operands)
    inits, init_tree = tree_flatten(init_values)
    if tree != init_tree:
        raise ValueError(
            f"Operands must have the same tree structure as init_values: {tree} vs. {init_tree}"
        )
    arrays = [asarray(x) for x in flat]
    init_arrays = [asarray(v) for v in inits]
    if not arrays:
        return operands
    shape = tuple(arrays[0].shape)
    if any(tuple(a.shape) != shape for a in arrays):
        raise ValueError("reduce: all operands must have the same shape")
    ndim = len(shape)
    given = [operator.index(d) for d in dimensions]
    if len(set(given)) != len(given):
        raise ValueError(f"duplicate value in 'axes' of reduction: {tuple(given)}")
    dims = tuple(sorted(canonicalize_axes("reduce", given, ndim)))
    if any(v.ndim != 0 for v in init_arrays):
        shapes = [tuple(v.shape) for v in init_arrays]
        raise ValueError(f"reduce found non-scalar initial value: {shapes}")
    if len(arrays) == 1 and is_identity(computation, init_arrays[0]):
        # JAX's monoid reduction: the init value (the identity in its own dtype, whatever
        # the operand's) is dropped, so ``reduce(int8_x, -inf, lax.max, ...)`` works
        return tree_unflatten(tree, [_MONOIDS[computation](arrays[0], dims)])
    if any(v.dtype != a.dtype for a, v in zip(arrays, init_arrays, strict=True)):
        raise TypeError(
            "reduce: the init values' dtypes must equal the operands' (a Python scalar has "
            "its default dtype here: int32/float32, or int64/float64 with x64); got operands "
            f"{[a.dtype.name for a in arrays]} and init values "
            f"{[v.dtype.name for v in init_arrays]}"
        )
    if len(arrays) == 1 and computation in _MONOIDS:
        # another init value is folded in once (XLA may fold it into each of its partial
        # results: JAX's value is then implementation-defined)
        out = _MONOIDS[computation](arrays[0], dims)
        return tree_unflatten(tree, [computation(init_arrays[0], out)])
    rest = [d for d in range(ndim) if d not in dims]
    moved = [structural.transpose(a, (*dims, *rest)) for a in arrays]
    count = 1
    for d in dims:
        count *= shape[d]
    out_shape = tuple(shape[d] for d in rest)
    flat_moved = [structural.reshape(a, (count, *out_shape)) for a in moved]
    acc = [structural.broadcast(v, out_shape) for v in init_arrays]
    for i in range(count):
        elements = [convenience.index_in_dim(a, i, 0, keepdims=False) for a in flat_moved]
        result = computation(tree_unflatten(tree, acc), tree_unflatten(tree, elements))
        acc = [asarray(r) for r in tree_flatten(result)[0]]
    return tree_unflatten(tree, acc)


def _check_window_args(init_value: Any, window: Any, strides: Any) -> None:
    """JAX's checks of ``reduce_window``'s init values, window and strides (its words)."""
    for what, dims in (("window_dimensions", window), ("window_strides", strides)):
        if dims is not None and not all(operator.index(d) >= 1 for d in dims):
            raise TypeError(
                f"reduce_window {what} must have every element be strictly positive, "
                f"got {tuple(dims)}."
            )
    shapes = [tuple(asarray(v).shape) for v in tree_flatten(init_value)[0]]
    if any(shapes):
        raise TypeError(
            f"reduce_window expected init_values to be scalars but init_values have shapes "
            f"{shapes}."
        )


_ARITHMETIC = {elementwise.add: "add", elementwise.mul: "mul", elementwise.max: "max",
               elementwise.min: "min"}  # fmt: skip


def _identity(computation: Any, dtype: Any) -> Any:
    """The identity of ``computation`` in ``dtype`` (None: it has none there), JAX's test."""
    kind = dtypes.kind(dtype)
    if kind not in "biufc":
        return None
    if computation in _ARITHMETIC:
        return conv.monoid_identity(_ARITHMETIC[computation], dtype)
    if kind not in "biu":  # the bitwise computations have no identity in inexact dtypes
        return None
    if computation in (elementwise.bitwise_or, elementwise.bitwise_xor):
        return 0
    if computation is elementwise.bitwise_and:
        return True if kind == "b" else (-1 if kind == "i" else dtypes.iinfo(dtype).max)
    return None


def is_identity(computation: Any, init: Array) -> bool:
    """Whether ``init`` is a concrete scalar equal to ``computation``'s identity in its own
    dtype: then ``reduce`` is the computation's reduction primitive, as in JAX."""
    if computation not in _MONOIDS or not isinstance(init, ArrayImpl) or init.ndim != 0:
        return False
    identity = _identity(computation, init.dtype)
    return identity is not None and bool(np.asarray(init) == identity)


def _window_primitive(computation: Any, operand: Any, init_value: Any) -> bool:
    """Whether ``reduce_window`` of one array is the ``reduce_window`` primitive: always for
    ``lax.add``/``max``/``min``/``mul``; for the ``trellax.numpy`` functions of those names
    (generic computations in JAX) only where JAX's generic window computes the same: init and
    operand of one dtype, and no bool sum or product (``jnp.add`` of bools is ``or``)."""
    comp = conv.reduce_window_computation(computation)
    if comp is None:
        return False
    if computation in (elementwise.add, elementwise.max, elementwise.min, elementwise.mul):
        return True
    leaves = tree_flatten(init_value)[0]
    if len(leaves) != 1:
        return False
    dtype = asarray(operand).dtype
    if asarray(leaves[0]).dtype != dtype:
        return False
    return not (comp in ("add", "mul") and dtypes.kind(dtype) == "b")


def reduce_window_shape_tuple(
    operand_shape: Sequence[int],
    window_dimensions: Sequence[int],
    window_strides: Sequence[int],
    padding: Sequence[tuple[int, int]],
    base_dilation: Sequence[int] | None = None,
    window_dilation: Sequence[int] | None = None,
) -> tuple[int, ...]:
    """The output shape of ``reduce_window``."""
    nd = len(operand_shape)
    base = base_dilation or (1,) * nd
    wdil = window_dilation or (1,) * nd
    out = []
    for n, w, s, (lo, hi), b, d in zip(
        operand_shape, window_dimensions, window_strides, padding, base, wdil, strict=True
    ):
        size = (0 if n == 0 else (n - 1) * b + 1) + lo + hi
        span = 0 if w == 0 else (w - 1) * d + 1
        out.append(max(0, (size - span) // s + 1) if size >= span else 0)
    return tuple(out)


def reduce_window(
    operand: Any,
    init_value: Any,
    computation: Callable[..., Any],
    window_dimensions: Sequence[int],
    window_strides: Sequence[int] | None = None,
    padding: str | Sequence[tuple[int, int]] = "VALID",
    base_dilation: Sequence[int] | None = None,
    window_dilation: Sequence[int] | None = None,
) -> Any:
    """``computation`` folded over every window of ``operand`` (a pytree of same-shape arrays).

    One array reduced by ``lax.add``/``max``/``min``/``mul`` (or the ``trellax.numpy`` ufuncs of
    those names) is the differentiable ``reduce_window`` primitive of
    :mod:`trellax._src.lax.conv`; any other computation, or a pytree of operands, folds one
    strided slice per window offset with ``computation`` itself."""
    _check_window_args(init_value, window_dimensions, window_strides)
    flat, tree = tree_flatten(operand)
    if len(flat) == 1 and _window_primitive(computation, flat[0], init_value):
        (init,) = tree_flatten(init_value)[0] or [init_value]
        out = conv.reduce_window(
            flat[0], init, computation, window_dimensions,
            window_strides if window_strides is not None else (1,) * asarray(flat[0]).ndim,
            padding, base_dilation, window_dilation,
        )  # fmt: skip
        return tree_unflatten(tree, [out])
    inits, init_tree = tree_flatten(init_value)
    if tree != init_tree:
        raise ValueError("reduce_window: operand and init_value must have the same structure")
    arrays = [asarray(x) for x in flat]
    init_arrays = [asarray(v) for v in inits]
    if any(v.dtype != a.dtype for a, v in zip(arrays, init_arrays, strict=True)):
        raise TypeError(
            "reduce_window: the init values' dtypes must equal the operands' (a Python scalar "
            "has its default dtype here); got operands "
            f"{[a.dtype.name for a in arrays]} and init values "
            f"{[v.dtype.name for v in init_arrays]}"
        )
    shape = tuple(arrays[0].shape)
    nd = len(shape)
    window = tuple(operator.index(w) for w in window_dimensions)
    strides = tuple(window_strides) if window_strides is not None else (1,) * nd
    base = tuple(base_dilation) if base_dilation is not None else (1,) * nd
    wdil = tuple(window_dilation) if window_dilation is not None else (1,) * nd
    if not (len(window) == len(strides) == len(base) == len(wdil) == nd):
        raise TypeError(
            f"reduce_window: window_dimensions, strides and dilations need {nd} entries each"
        )
    if isinstance(padding, str):
        dilated = tuple(0 if n == 0 else (n - 1) * b + 1 for n, b in zip(shape, base))
        spans = tuple(0 if w == 0 else (w - 1) * d + 1 for w, d in zip(window, wdil))
        pads = padtype_to_pads(dilated, spans, strides, padding)
    else:
        pads = [(int(lo), int(hi)) for lo, hi in padding]
    out_shape = reduce_window_shape_tuple(shape, window, strides, pads, base, wdil)
    padded = [
        structural.pad(a, v, [(lo, hi, b - 1) for (lo, hi), b in zip(pads, base, strict=True)])
        for a, v in zip(arrays, init_arrays, strict=True)
    ]
    # XLA's windows skip the padding and the holes of base dilation (the init value is folded
    # in once, at the start): where a window position falls there, the accumulator is kept
    real: Array | None = None
    if any(lo or hi for lo, hi in pads) or any(b != 1 for b in base):
        cfg = [(lo, hi, b - 1) for (lo, hi), b in zip(pads, base, strict=True)]
        real = structural.pad(_full_bool(shape, True), _full_bool((), False), cfg)
    acc = [structural.broadcast(v, out_shape) for v in init_arrays]
    for position in itertools.product(*[range(w) for w in window]):
        start = [p * d for p, d in zip(position, wdil, strict=True)]
        limit = [
            st + (m - 1) * s + 1 if m else st
            for st, m, s in zip(start, out_shape, strides, strict=True)
        ]
        elements = [structural.slice(p, start, limit, strides) for p in padded]
        result = computation(tree_unflatten(tree, acc), tree_unflatten(tree, elements))
        leaves, result_tree = tree_flatten(result)
        if result_tree != tree:
            raise ValueError(
                "reduce_window output must have the same tree structure as the operands "
                f"{tree} vs. {result_tree}"
            )
        if real is None:
            acc = [asarray(r) for r in leaves]
        else:
            keep = structural.slice(real, start, limit, strides)
            acc = [structural.select_n(keep, a, asarray(r)) for a, r in zip(acc, leaves)]
    return tree_unflatten(tree, acc)


def _full_bool(shape: tuple[int, ...], value: bool) -> Array:
    return ArrayImpl._new(np.full(shape, value), dtypes.bool_, False)


def associative_scan(
    fn: Callable[[Any, Any], Any], elems: Any, reverse: bool = False, axis: int = 0
) -> Any:
    """The inclusive scan of the associative ``fn`` over ``axis`` of every leaf of ``elems``."""
    if not callable(fn):
        raise TypeError("lax.associative_scan: fn argument should be callable.")
    flat, tree = tree_flatten(elems)
    arrays = [asarray(x) for x in flat]
    if not arrays:
        # JAX's class: it reads the first leaf
        raise IndexError("associative_scan: elems has no array leaves")
    ndim = arrays[0].ndim
    if ndim == 0:
        raise ValueError("associative_scan: the leaves must have at least one dimension")
    (ax,) = canonicalize_axes("associative_scan", (operator.index(axis),), ndim)
    n = arrays[0].shape[ax]
    if any(a.shape[ax] != n for a in arrays):
        raise ValueError("associative_scan: all leaves need the same length along axis")
    if reverse:
        arrays = [structural.rev(a, (ax,)) for a in arrays]

    def combine(a: list[Array], b: list[Array]) -> list[Array]:
        out = fn(tree_unflatten(tree, a), tree_unflatten(tree, b))
        return [asarray(x) for x in tree_flatten(out)[0]]

    def part(xs: list[Array], start: int, stop: int | None, step: int = 1) -> list[Array]:
        return [convenience.slice_in_dim(x, start, stop, step, ax) for x in xs]

    def scan(xs: list[Array]) -> list[Array]:
        size = xs[0].shape[ax]
        if size < 2:
            return xs
        reduced = combine(part(xs, 0, size - 1 if size % 2 else None, 2), part(xs, 1, None, 2))
        odd = scan(reduced)
        if size % 2 == 0:
            even = combine(part(odd, 0, -1), part(xs, 2, None, 2))
        else:
            even = combine(odd, part(xs, 2, None, 2))
        even = [
            structural.concatenate([convenience.slice_in_dim(x, 0, 1, 1, ax), e], ax)
            for x, e in zip(xs, even, strict=True)
        ]
        return [_interleave(e, o, ax) for e, o in zip(even, odd, strict=True)]

    result = scan(arrays)
    if reverse:
        result = [structural.rev(a, (ax,)) for a in result]
    return tree_unflatten(tree, result)


def _interleave(a: Array, b: Array, axis: int) -> Array:
    """``a[0], b[0], a[1], b[1], ...`` along ``axis`` (``a`` may be one longer)."""
    extra = a.shape[axis] - b.shape[axis]
    if extra:
        b = structural.concatenate([b, convenience.slice_in_dim(a, 0, 1, 1, axis)], axis)
    stacked = convenience.stack([a, b], axis + 1)
    shape = list(a.shape)
    shape[axis] = a.shape[axis] * 2
    out = structural.reshape(stacked, tuple(shape))
    return convenience.slice_in_dim(out, 0, shape[axis] - extra, 1, axis) if extra else out


def _approx_k(operand: Any, k: int, dimension: int) -> int:
    """JAX's checks of ``approx_max_k``/``approx_min_k`` before ``top_k``'s own: ``k`` below 1 is
    a ``ValueError``, a ``reduction_dimension`` outside the operand's axes an ``IndexError``."""
    k = operator.index(k)
    if k <= 0:
        raise ValueError(f"approx_max_k/approx_min_k: k must be positive, got {k}")
    ndim = asarray(operand).ndim
    d = operator.index(dimension)
    if ndim and not -ndim <= d < ndim:
        raise IndexError(f"reduction_dimension {d} is not an axis of a rank-{ndim} operand")
    return k


#: the longest axis JAX's CPU ``approx_max_k``/``approx_min_k`` returns whole, sorted, when
#: ``aggregate_to_topk=False`` (observed with JAX 0.10.2; longer axes are cut to sizes that
#: depend on ``k`` and ``recall_target``, which trellax does not follow: it returns ``k``)
_WHOLE_AXIS = 1024


def _kept(operand: Any, k: int, dimension: int, aggregate_to_topk: bool) -> int:
    """How many entries the result keeps along the reduced axis: ``k``, or the whole axis when
    JAX's CPU result is not aggregated to the top ``k`` and the axis is short."""
    k = _approx_k(operand, k, dimension)
    x = asarray(operand)
    if dtypes.kind(x.dtype) != "f":
        raise ValueError(f"approx_max_k/approx_min_k: operand must be floating, got {x.dtype}")
    shape = x.shape
    if not aggregate_to_topk and shape and shape[dimension] <= _WHOLE_AXIS:
        return max(k, int(shape[dimension]))
    return k


def approx_max_k(
    operand: Any,
    k: int,
    reduction_dimension: int = -1,
    recall_target: float = 0.95,
    reduction_input_size_override: int = -1,
    aggregate_to_topk: bool = True,
) -> tuple[Array, Array]:
    """The ``k`` largest values along ``reduction_dimension`` and their indices (exact here,
    as JAX's CPU result is; with ``aggregate_to_topk=False`` an axis of up to 1,024 entries
    comes back whole, sorted, as on JAX's CPU)."""
    kept = _kept(operand, k, reduction_dimension, aggregate_to_topk)
    return convenience.top_k(operand, kept, axis=reduction_dimension)


def approx_min_k(
    operand: Any,
    k: int,
    reduction_dimension: int = -1,
    recall_target: float = 0.95,
    reduction_input_size_override: int = -1,
    aggregate_to_topk: bool = True,
) -> tuple[Array, Array]:
    """The ``k`` smallest values along ``reduction_dimension`` (ascending) and their indices."""
    x = asarray(operand)
    k = _kept(x, k, reduction_dimension, aggregate_to_topk)
    # An order-reversing involution: the top k of the key, mapped back, are x's bottom k.
    flip = elementwise.neg if dtypes.kind(x.dtype) == "f" else elementwise.bitwise_not
    top, indices = convenience.top_k(flip(x), k, axis=reduction_dimension)
    return flip(top), indices


def optimization_barrier(operand: Any, /) -> Any:
    """``operand`` unchanged (a compiler hint in JAX; NumPy reorders nothing)."""
    leaves, tree = tree_flatten(operand)
    return tree_unflatten(tree, [asarray(x) for x in leaves])
