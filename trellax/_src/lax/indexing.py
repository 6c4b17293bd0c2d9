"""``gather`` and the ``scatter`` family, parametrized by dimension numbers as in JAX (XLA's form).

A gather reads one *window* of the operand per *batch* position of ``indices``: the last axis of
``indices`` is the index vector, whose entry ``k`` is the start of the window along operand axis
``start_index_map[k]``; the window has ``slice_sizes[d]`` elements along axis ``d``. Axes listed in
``collapsed_slice_dims`` (window size 1) are dropped from the result; the remaining window axes
appear at the result positions ``offset_dims``, and the batch axes of ``indices`` fill the other
positions in order. ``operand_batching_dims``/``start_indices_batching_dims`` pair operand axes
with batch axes of ``indices`` (the form batching rules produce). A scatter is the transpose: it
writes (or combines) ``updates`` into the windows a gather with the same numbers would read.

Out-of-bounds windows (a start below 0 or past ``dim - slice_size``) follow ``mode``:
``GatherScatterMode.CLIP`` clamps the start, ``FILL_OR_DROP`` fills a gathered window with
``fill_value`` (NaN for inexact dtypes, the minimum of signed, the maximum of unsigned integers,
True for bool) and drops a scattered one, ``PROMISE_IN_BOUNDS`` clamps reads and drops writes. The
NumPy evaluation lives in the backend; these rules only compute shapes and check parameters, so a
transpose rule (gather <-> scatter-add) and a batching rule can be written from the parameters.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from typing import Any, NamedTuple, TypeVar

from trellax._src.backend import numpy_indexing as numpy_indexing_kernels
from trellax._src.backend.numpy import Impl
from trellax._src.core import core
from trellax._src.core.basearray import Array
from trellax._src.core.core import AbstractValue, Primitive, ShapedArray
from trellax._src.core.typing import ArrayLike
from trellax._src.dtypes import dtypes
from trellax._src.lax import ad_util
from trellax._src.lax._base import asarray, same_dtypes_error
from trellax._src.lax.elementwise import add_p, div_p, eq_p, mul_p, neg
from trellax._src.lax.indexing_checks import check_gather, check_scatter
from trellax._src.lax.select_n import select_n_p
from trellax._src.lax.shapes import Dims, axis_size, bdim_at_front


class GatherDimensionNumbers(NamedTuple):
    """Where the axes of a gather go (see the module docstring); all fields are int tuples."""

    offset_dims: tuple[int, ...]
    collapsed_slice_dims: tuple[int, ...]
    start_index_map: tuple[int, ...]
    operand_batching_dims: tuple[int, ...] = ()
    start_indices_batching_dims: tuple[int, ...] = ()


class ScatterDimensionNumbers(NamedTuple):
    """Where the axes of a scatter's ``updates`` go (the transpose of a gather's numbers)."""

    update_window_dims: tuple[int, ...]
    inserted_window_dims: tuple[int, ...]
    scatter_dims_to_operand_dims: tuple[int, ...]
    operand_batching_dims: tuple[int, ...] = ()
    scatter_indices_batching_dims: tuple[int, ...] = ()


class GatherScatterMode(enum.Enum):
    """How out-of-bounds windows are handled."""

    CLIP = "clip"
    FILL_OR_DROP = "fill"
    PROMISE_IN_BOUNDS = "promise_in_bounds"

    @staticmethod
    def from_any(mode: Any, default: GatherScatterMode | None = None) -> GatherScatterMode:
        """``None`` gives ``default`` (``FILL_OR_DROP`` when not given, as JAX's one-argument
        form); ``"drop"`` is ``"fill"``; anything else raises JAX's ValueError."""
        if mode is None:
            return GatherScatterMode.FILL_OR_DROP if default is None else default
        if isinstance(mode, GatherScatterMode):
            return mode
        if mode == "clip":
            return GatherScatterMode.CLIP
        if mode in ("fill", "drop"):
            return GatherScatterMode.FILL_OR_DROP
        if mode == "promise_in_bounds":
            return GatherScatterMode.PROMISE_IN_BOUNDS
        raise ValueError(f'Unknown gather mode "{mode}"')

    def __repr__(self) -> str:
        return f"GatherScatterMode.{self.name}"


def _ints(name: str, v: Any) -> tuple[int, ...]:
    try:
        return tuple(int(i) for i in v)
    except TypeError:
        raise TypeError(f"{name} must be a sequence of integers, got {v!r}") from None


def _check_indices(indices: AbstractValue, n_index: int, what: str) -> tuple[int, ...]:
    if dtypes.kind(indices.dtype) not in ("i", "u"):
        raise ValueError("indices must have an integer type")
    if not indices.shape:
        raise TypeError(f"{what} indices must have at least one dimension (the index vector)")
    if indices.shape[-1] != n_index:
        raise TypeError(
            f"{what.capitalize()} op has {n_index} elements in start_index_map and the bound of "
            f"dimension index_vector_dim={len(indices.shape) - 1} of indices is "
            f"{indices.shape[-1]}. These two numbers must be equal."
        )
    return tuple(indices.shape[:-1])


def _check_axes(what: str, field: str, axes: tuple[int, ...], rank: int) -> None:
    for a in axes:
        if not 0 <= a < rank:
            raise TypeError(f"{what} {field} {axes} must be in [0, {rank}), got {a}")
    if len(set(axes)) != len(axes):
        raise TypeError(f"{what} {field} {axes} must not repeat an axis")


def _layout(
    batch_shape: tuple[int, ...], window_sizes: list[int], window_positions: tuple[int, ...]
) -> tuple[int, ...]:
    """Window sizes at ``window_positions``, batch sizes in order at the other positions."""
    rank = len(batch_shape) + len(window_sizes)
    if list(window_positions) != sorted(set(window_positions)) or any(
        not 0 <= p < rank for p in window_positions
    ):
        raise TypeError(f"window dims {window_positions} must be sorted, unique and in [0, {rank})")
    out = []
    wins = iter(window_sizes)
    batch = iter(batch_shape)
    for p in range(rank):
        out.append(next(wins) if p in window_positions else next(batch))
    return tuple(out)


# -- gather -----------------------------------------------------------------------------------------

gather_p = Primitive("gather")
gather_p.def_impl(numpy_indexing_kernels.gather)


@gather_p.def_abstract_eval
def _gather_abstract_eval(
    operand: AbstractValue,
    indices: AbstractValue,
    *,
    dimension_numbers: GatherDimensionNumbers,
    slice_sizes: tuple[int, ...],
    mode: GatherScatterMode,
    fill_value: Any,
) -> ShapedArray:
    dn = dimension_numbers
    shape = tuple(operand.shape)
    rank = len(shape)
    if dtypes.kind(indices.dtype) not in ("i", "u"):
        raise ValueError("indices must have an integer type")
    check_gather(shape, tuple(indices.shape), dn, slice_sizes)
    batch_shape = _check_indices(indices, len(dn.start_index_map), "gather")
    if len(slice_sizes) != rank:
        raise TypeError(
            f"Gather op must have one slice size for every input dimension, got "
            f"len(slice_sizes)={len(slice_sizes)} for an operand of rank {rank}"
        )
    no_indices = 0 in tuple(indices.shape)  # nothing is gathered: JAX skips the bound check
    for i, (s, n) in enumerate(zip(slice_sizes, shape)):
        if not 0 <= s <= (n if not no_indices else s):
            raise TypeError(
                f"Slice size at index {i} in gather op is out of range, must be within "
                f"[0, {n} + 1), got {s}."
            )
    for field in ("collapsed_slice_dims", "start_index_map", "operand_batching_dims"):
        _check_axes("gather", field, getattr(dn, field), rank)
    for d in (*dn.collapsed_slice_dims, *dn.operand_batching_dims):
        if slice_sizes[d] > 1:
            raise TypeError(
                f"Gather op can only collapse (or batch over) slice dims with bound 1, but bound "
                f"is {slice_sizes[d]} for index {d} at position {d}."
            )
    skip = set(dn.collapsed_slice_dims) | set(dn.operand_batching_dims)
    windows = [slice_sizes[d] for d in range(rank) if d not in skip]
    if len(windows) != len(dn.offset_dims):
        raise TypeError(
            f"All components of the offset index in a gather op must either be a offset "
            f"dimension or explicitly collapsed/batching; got len(slice_sizes)={rank}, "
            f"output_slice_sizes={tuple(windows)}, collapsed_slice_dims="
            f"{dn.collapsed_slice_dims}, operand_batching_dims={dn.operand_batching_dims}."
        )
    out = _layout(batch_shape, windows, dn.offset_dims)
    return ShapedArray._fast(out, operand.dtype, operand.weak_type)


def gather(
    operand: ArrayLike,
    start_indices: ArrayLike,
    dimension_numbers: GatherDimensionNumbers,
    slice_sizes: Any,
    *,
    unique_indices: bool = False,
    indices_are_sorted: bool = False,
    mode: str | GatherScatterMode | None = None,
    fill_value: Any = None,
) -> Array:
    """XLA's gather (see the module docstring); ``mode`` defaults to ``"clip"``.

    >>> import trellax.numpy as tnp
    >>> m = tnp.arange(6.0).reshape(2, 3)
    >>> dn = GatherDimensionNumbers(offset_dims=(1,), collapsed_slice_dims=(0,),
    ...                             start_index_map=(0,))
    >>> gather(m, tnp.array([[1], [0]]), dn, slice_sizes=(1, 3)).tolist()
    [[3.0, 4.0, 5.0], [0.0, 1.0, 2.0]]
    """
    del unique_indices, indices_are_sorted  # hints for XLA; NumPy has no use for them
    dn = GatherDimensionNumbers(*(_ints("dimension_numbers", f) for f in dimension_numbers))
    m = GatherScatterMode.from_any(mode, GatherScatterMode.CLIP)
    fill = None if fill_value is None else _scalar(fill_value)
    return gather_p.bind(
        asarray(operand),
        asarray(start_indices),
        dimension_numbers=dn,
        slice_sizes=_ints("slice_sizes", slice_sizes),
        mode=m,
        fill_value=fill,
    )


def _scalar(v: Any) -> Any:
    """A fill value as a hashable Python scalar (it is a primitive parameter)."""
    if isinstance(v, Array) or hasattr(v, "item"):
        return v.item()
    return v


# -- scatter family ---------------------------------------------------------------------------------


def _scatter_abstract_eval(name: str) -> Any:
    def rule(
        operand: AbstractValue,
        indices: AbstractValue,
        updates: AbstractValue,
        *,
        dimension_numbers: ScatterDimensionNumbers,
        indices_are_sorted: bool,
        unique_indices: bool,
        mode: GatherScatterMode,
    ) -> ShapedArray:
        del indices_are_sorted, unique_indices  # promises about the indices, not shapes
        dn = dimension_numbers
        if operand.dtype != updates.dtype:
            raise same_dtypes_error("scatter", [operand.dtype, updates.dtype])
        shape = tuple(operand.shape)
        rank = len(shape)
        if dtypes.kind(indices.dtype) not in ("i", "u"):
            raise ValueError("indices must have an integer type")
        check_scatter(shape, tuple(indices.shape), tuple(updates.shape), dn)
        batch_shape = _check_indices(indices, len(dn.scatter_dims_to_operand_dims), name)
        for field in ("inserted_window_dims", "scatter_dims_to_operand_dims"):
            _check_axes(name, field, getattr(dn, field), rank)
        _check_axes(name, "operand_batching_dims", dn.operand_batching_dims, rank)
        skip = set(dn.inserted_window_dims) | set(dn.operand_batching_dims)
        window_axes = [d for d in range(rank) if d not in skip]
        ushape = tuple(updates.shape)
        if len(ushape) != len(batch_shape) + len(window_axes) or len(dn.update_window_dims) != len(
            window_axes
        ):
            raise TypeError(
                f"{name}: updates of shape {ushape} do not match indices of shape "
                f"{tuple(indices.shape)} and update_window_dims {dn.update_window_dims} for an "
                f"operand of shape {shape}"
            )
        scatter_dims = [p for p in range(len(ushape)) if p not in dn.update_window_dims]
        for k, (p, b) in enumerate(zip(scatter_dims, batch_shape)):
            if ushape[p] != b:
                raise TypeError(
                    "Bounds of the scatter dimensions of updates must be the same as the bounds "
                    "of the corresponding dimensions of scatter indices. For scatter dimension "
                    f"{k}, updates bound is {ushape[p]}, indices bound is {b}."
                )
        windows = [ushape[p] for p in dn.update_window_dims]
        expected = _layout(batch_shape, windows, dn.update_window_dims)
        if expected != ushape or any(w > shape[d] for w, d in zip(windows, window_axes)):
            raise TypeError(
                f"{name}: updates of shape {ushape} do not match indices of shape "
                f"{tuple(indices.shape)} and update_window_dims {dn.update_window_dims} for an "
                f"operand of shape {shape}"
            )
        return ShapedArray._fast(shape, operand.dtype, operand.weak_type)

    return rule


def _scatter_primitive(name: str, kernel: Impl) -> Primitive:
    prim = Primitive(name)
    prim.def_impl(kernel)
    prim.def_abstract_eval(_scatter_abstract_eval(name))
    return prim


scatter_p = _scatter_primitive("scatter", numpy_indexing_kernels.scatter)
scatter_add_p = _scatter_primitive("scatter-add", numpy_indexing_kernels.scatter_add)
scatter_mul_p = _scatter_primitive("scatter-mul", numpy_indexing_kernels.scatter_mul)
scatter_min_p = _scatter_primitive("scatter-min", numpy_indexing_kernels.scatter_min)
scatter_max_p = _scatter_primitive("scatter-max", numpy_indexing_kernels.scatter_max)

#: ``.at[]`` method name -> scatter primitive.
SCATTER_PRIMITIVES: dict[str, Primitive] = {
    "set": scatter_p,
    "add": scatter_add_p,
    "mul": scatter_mul_p,
    "min": scatter_min_p,
    "max": scatter_max_p,
}


def _scatter_fn(prim: Primitive) -> Any:
    def f(
        operand: ArrayLike,
        scatter_indices: ArrayLike,
        updates: ArrayLike,
        dimension_numbers: ScatterDimensionNumbers,
        *,
        indices_are_sorted: bool = False,
        unique_indices: bool = False,
        mode: str | GatherScatterMode | None = None,
    ) -> Array:
        dn = ScatterDimensionNumbers(*(_ints("dimension_numbers", f) for f in dimension_numbers))
        x = asarray(operand)
        if prim in (scatter_add_p, scatter_mul_p) and dtypes.kind(x.dtype) == "b":
            # JAX's combiners add and mul refuse bool (min, max and plain scatter take it)
            raise TypeError(f"{prim.name} does not accept dtype bool")
        return prim.bind(
            x,
            asarray(scatter_indices),
            asarray(updates),
            dimension_numbers=dn,
            indices_are_sorted=bool(indices_are_sorted),
            unique_indices=bool(unique_indices),
            mode=GatherScatterMode.from_any(mode, GatherScatterMode.FILL_OR_DROP),
        )

    f.__name__ = f.__qualname__ = prim.name.replace("-", "_")
    f.__doc__ = (
        f"XLA's ``{prim.name}``: combines ``updates`` into the windows of ``operand`` that "
        "``gather`` with the same dimension numbers would read; ``mode`` defaults to dropping "
        "out-of-bounds windows. ``unique_indices=True`` promises that no two updates reach one "
        "element (a promise trellax does not check); it is what makes the derivatives of "
        "``scatter`` (through its transpose) and ``scatter_mul`` (with respect to ``updates``) "
        "available, as in JAX. ``indices_are_sorted`` is carried along and otherwise unused."
    )
    return f


scatter = _scatter_fn(scatter_p)
scatter_add = _scatter_fn(scatter_add_p)
scatter_mul = _scatter_fn(scatter_mul_p)
scatter_min = _scatter_fn(scatter_min_p)
scatter_max = _scatter_fn(scatter_max_p)


def scatter_sub(
    operand: ArrayLike,
    scatter_indices: ArrayLike,
    updates: ArrayLike,
    dimension_numbers: ScatterDimensionNumbers,
    *,
    indices_are_sorted: bool = False,
    unique_indices: bool = False,
    mode: str | GatherScatterMode | None = None,
) -> Array:
    """XLA's scatter with subtraction: ``scatter_add`` of the negated ``updates`` (repeated
    windows subtract repeatedly; differentiable through ``scatter_add`` and ``neg``)."""

    out: Array = scatter_add(
        operand,
        scatter_indices,
        neg(asarray(updates)),
        dimension_numbers,
        indices_are_sorted=indices_are_sorted,
        unique_indices=unique_indices,
        mode=mode,
    )
    return out


# -- differentiation rules --------------------------------------------------------------------------
#
# gather is linear in its operand and transposes to a scatter-add with the mirrored dimension
# numbers (and the same mode: a filled window drops its cotangent, a clipped one adds it to the
# clamped window). scatter-add is linear in operand and updates; scatter (set) is made linear by
# masking, as JAX does: every update is tagged with the id of its scatter position, the ids are
# scattered with the same op and gathered back, and only the update that actually landed (and the
# operand elements nobody overwrote) keep their tangent.


def _gather_dnums_of(dn: ScatterDimensionNumbers) -> GatherDimensionNumbers:
    return GatherDimensionNumbers(
        offset_dims=dn.update_window_dims,
        collapsed_slice_dims=dn.inserted_window_dims,
        start_index_map=dn.scatter_dims_to_operand_dims,
        operand_batching_dims=dn.operand_batching_dims,
        start_indices_batching_dims=dn.scatter_indices_batching_dims,
    )


def _scatter_dnums_of(dn: GatherDimensionNumbers) -> ScatterDimensionNumbers:
    return ScatterDimensionNumbers(
        update_window_dims=dn.offset_dims,
        inserted_window_dims=dn.collapsed_slice_dims,
        scatter_dims_to_operand_dims=dn.start_index_map,
        operand_batching_dims=dn.operand_batching_dims,
        scatter_indices_batching_dims=dn.start_indices_batching_dims,
    )


def _inverse_slice_sizes(
    rank: int, dn: ScatterDimensionNumbers, updates_shape: tuple[int, ...]
) -> tuple[int, ...]:
    """The slice sizes of the gather that reads back the windows a scatter writes."""
    skip = set(dn.inserted_window_dims) | set(dn.operand_batching_dims)
    wins = iter(updates_shape[p] for p in dn.update_window_dims)
    return tuple(1 if d in skip else next(wins) for d in range(rank))


def _zeros_like(x: Any) -> Any:
    return ad_util.zeros(ShapedArray._fast(tuple(x.shape), x.dtype, x.weak_type))


def _full(shape: tuple[int, ...], like: Any, value: Any) -> Any:
    return ad_util.broadcast_to_shape(ad_util.const(like, value, like.weak_type), shape)


def _gather_jvp(
    primals: Any, tangents: Any, *, dimension_numbers: Any, slice_sizes: Any, mode: Any, **kw: Any
) -> tuple[Any, Any]:
    operand, indices = primals
    params = dict(dimension_numbers=dimension_numbers, slice_sizes=slice_sizes, mode=mode)
    ans = gather_p.bind(operand, indices, **params, **kw)
    # A filled (out-of-bounds) window does not depend on the operand: its tangent is 0.
    return ans, gather_p.bind(tangents[0], indices, **params, fill_value=0)


def _gather_transpose(
    ct: Any,
    operand: Any,
    indices: Any,
    *,
    dimension_numbers: GatherDimensionNumbers,
    slice_sizes: Any,
    mode: GatherScatterMode,
    fill_value: Any,
) -> list[Any]:
    if ad_util.is_undefined(indices):
        raise TypeError("gather is not linear in its indices")
    if not ad_util.is_undefined(operand):
        return [None, None]
    aval = operand.aval
    zeros = ad_util.zeros(ShapedArray._fast(tuple(aval.shape), ct.dtype, ct.weak_type))
    out = scatter_add_p.bind(
        zeros,
        indices,
        ct,
        dimension_numbers=_scatter_dnums_of(dimension_numbers),
        indices_are_sorted=False,
        unique_indices=False,
        mode=mode,
    )
    # the scatter has the operand's shape and the cotangent's dtype, which it keeps (as JAX: a
    # custom_vjp whose bwd returns bfloat16 for a float8 input gives bfloat16 through a gather)
    return [out, None]


gather_p.def_jvp(_gather_jvp)
gather_p.def_transpose(_gather_transpose)


def _scatter_add_jvp(primals: Any, tangents: Any, **params: Any) -> tuple[Any, Any]:
    operand, indices, updates = primals
    ans = scatter_add_p.bind(operand, indices, updates, **params)
    t_op = ad_util.instantiate(tangents[0])
    t_up = ad_util.convert(ad_util.instantiate(tangents[2]), t_op.dtype, t_op.weak_type)
    return ans, scatter_add_p.bind(t_op, indices, t_up, **params)


def _scatter_add_transpose(
    ct: Any,
    operand: Any,
    indices: Any,
    updates: Any,
    *,
    dimension_numbers: ScatterDimensionNumbers,
    indices_are_sorted: bool,
    unique_indices: bool,
    mode: GatherScatterMode,
) -> list[Any]:
    if ad_util.is_undefined(indices):
        raise TypeError("scatter-add is not linear in its indices")
    ct_op = ad_util.unbroadcast(ct, operand.aval) if ad_util.is_undefined(operand) else None
    ct_up = None
    if ad_util.is_undefined(updates):
        ushape = tuple(updates.aval.shape)
        g = gather_p.bind(
            ct,
            indices,
            dimension_numbers=_gather_dnums_of(dimension_numbers),
            slice_sizes=_inverse_slice_sizes(len(ct.shape), dimension_numbers, ushape),
            mode=mode,
            fill_value=0,
        )
        ct_up = ad_util.unbroadcast(g, updates.aval)
    return [ct_op, None, ct_up]


scatter_add_p.def_jvp(_scatter_add_jvp)
scatter_add_p.def_transpose(_scatter_add_transpose)


def _update_ids(indices: Any, updates: Any, dn: ScatterDimensionNumbers) -> Any:
    """Per update element, 1 + the flat number of its scatter position (int32 constants)."""
    import numpy as np

    ushape = tuple(updates.shape)
    scatter_axes = [p for p in range(len(ushape)) if p not in dn.update_window_dims]
    batch = [ushape[p] for p in scatter_axes]
    ids = np.arange(1, int(np.prod(batch, dtype=np.int64)) + 1, dtype=np.int32).reshape(batch)
    view = [ushape[p] if p in scatter_axes else 1 for p in range(len(ushape))]
    ids = np.broadcast_to(ids.reshape(view), ushape)
    # np.array, not np.ascontiguousarray: that one turns a 0-d array (the ids of a scalar
    # update, x.at[2].set(v)) into shape (1,)
    return core.new_array(np.array(ids, order="C"), np.dtype(np.int32), False)


def _landed_masks(
    prim: Primitive,
    operand: Any,
    indices: Any,
    updates: Any,
    dn: ScatterDimensionNumbers,
    mode: Any,
    indices_are_sorted: bool,
) -> tuple[Any, Any]:
    """(operand elements nobody overwrote, update elements that landed), both bool."""

    ids = _update_ids(indices, updates, dn)
    zeros = ad_util.zeros(ShapedArray._fast(tuple(operand.shape), ids.dtype, False))
    scattered = prim.bind(
        zeros,
        indices,
        ids,
        dimension_numbers=dn,
        indices_are_sorted=indices_are_sorted,
        unique_indices=False,
        mode=mode,
    )
    back = gather_p.bind(
        scattered,
        indices,
        dimension_numbers=_gather_dnums_of(dn),
        slice_sizes=_inverse_slice_sizes(len(operand.shape), dn, tuple(updates.shape)),
        mode=mode,
        fill_value=0,
    )
    kept = eq_p.bind(scattered, zeros)
    landed = eq_p.bind(back, ids)
    return kept, landed


def _scatter_jvp(
    primals: Any,
    tangents: Any,
    *,
    dimension_numbers: ScatterDimensionNumbers,
    indices_are_sorted: bool,
    unique_indices: bool,
    mode: Any,
) -> tuple[Any, Any]:
    operand, indices, updates = primals
    params = dict(
        dimension_numbers=dimension_numbers,
        indices_are_sorted=indices_are_sorted,
        unique_indices=unique_indices,
        mode=mode,
    )
    ans = scatter_p.bind(operand, indices, updates, **params)
    t_op = ad_util.instantiate(tangents[0])
    t_up = ad_util.convert(ad_util.instantiate(tangents[2]), t_op.dtype, t_op.weak_type)
    if unique_indices:
        # every update lands on its own elements: the tangents are scattered the same way
        # (linear in both, transposed below)
        return ans, scatter_p.bind(t_op, indices, t_up, **params)
    kept, landed = _landed_masks(
        scatter_p, operand, indices, updates, dimension_numbers, mode, indices_are_sorted
    )
    t_op = select_n_p.bind(kept, _zeros_like(t_op), t_op)
    t_up = select_n_p.bind(landed, _zeros_like(t_up), t_up)
    return ans, scatter_add_p.bind(t_op, indices, t_up, **params)


def _gather_back(
    x: Any, indices: Any, dn: ScatterDimensionNumbers, updates_shape: tuple[int, ...], mode: Any
) -> Any:
    """The windows of ``x`` a scatter with ``dn`` writes, in the updates' layout (a dropped,
    out-of-bounds window reads 0)."""
    return gather_p.bind(
        x,
        indices,
        dimension_numbers=_gather_dnums_of(dn),
        slice_sizes=_inverse_slice_sizes(len(x.shape), dn, updates_shape),
        mode=mode,
        fill_value=0,
    )


def _scatter_transpose(
    ct: Any,
    operand: Any,
    indices: Any,
    updates: Any,
    *,
    dimension_numbers: ScatterDimensionNumbers,
    indices_are_sorted: bool,
    unique_indices: bool,
    mode: GatherScatterMode,
) -> list[Any]:
    """With unique indices: the operand's cotangent is ``ct`` with the overwritten windows
    zeroed, the updates' is ``ct`` read back at the windows."""
    if not unique_indices:
        raise NotImplementedError("scatter transpose is only implemented where unique_indices=True")
    if ad_util.is_undefined(indices):
        raise TypeError("scatter is not linear in its indices")
    ushape = tuple((updates.aval if ad_util.is_undefined(updates) else updates).shape)
    ct_op = ct_up = None
    if ad_util.is_undefined(operand):
        zeros = ad_util.zeros(ShapedArray._fast(ushape, ct.dtype, ct.weak_type))
        cleared = scatter_p.bind(
            ct,
            indices,
            zeros,
            dimension_numbers=dimension_numbers,
            indices_are_sorted=indices_are_sorted,
            unique_indices=True,
            mode=mode,
        )
        ct_op = ad_util.unbroadcast(cleared, operand.aval)
    if ad_util.is_undefined(updates):
        back = _gather_back(ct, indices, dimension_numbers, ushape, mode)
        ct_up = ad_util.unbroadcast(back, updates.aval)
    return [ct_op, None, ct_up]


scatter_p.def_jvp(_scatter_jvp)
scatter_p.def_transpose(_scatter_transpose)

_SCATTER_MUL_UNIQUE = "scatter_mul gradients are only implemented if `unique_indices=True`"


def _scatter_mul_jvp(
    primals: Any,
    tangents: Any,
    *,
    dimension_numbers: ScatterDimensionNumbers,
    indices_are_sorted: bool,
    unique_indices: bool,
    mode: Any,
) -> tuple[Any, Any]:
    """Linear in the operand (its tangent is scattered with the same updates); with unique
    indices, the updates' tangent enters as ``operand * scatter_add(0, indices, t)``."""
    operand, indices, updates = primals
    params = dict(
        dimension_numbers=dimension_numbers,
        indices_are_sorted=indices_are_sorted,
        unique_indices=unique_indices,
        mode=mode,
    )
    ans = scatter_mul_p.bind(operand, indices, updates, **params)
    t_op, _, t_up = tangents
    out: Any = ad_util.Zero(ad_util.tangent_aval(ans))
    if type(t_op) is not ad_util.Zero:
        out = scatter_mul_p.bind(t_op, indices, updates, **params)
    if type(t_up) is not ad_util.Zero:
        if not unique_indices:
            raise NotImplementedError(_SCATTER_MUL_UNIQUE)
        t_up = ad_util.convert(t_up, operand.dtype, operand.weak_type)
        spread = scatter_add_p.bind(_zeros_like(operand), indices, t_up, **params)
        out = ad_util.add_tangents(out, mul_p.bind(operand, spread))
    return ans, out


def _scatter_mul_transpose(
    ct: Any,
    operand: Any,
    indices: Any,
    updates: Any,
    *,
    dimension_numbers: ScatterDimensionNumbers,
    indices_are_sorted: bool,
    unique_indices: bool,
    mode: GatherScatterMode,
) -> list[Any]:
    """Linear in one of operand and updates at a time: the operand's cotangent is ``ct``
    scattered with the same updates; the updates' (unique indices only) is ``ct * operand``
    read back at the windows."""
    if ad_util.is_undefined(indices):
        raise TypeError("scatter-mul is not linear in its indices")
    ct_op = ct_up = None
    if ad_util.is_undefined(operand):
        out = scatter_mul_p.bind(
            ct,
            indices,
            updates,
            dimension_numbers=dimension_numbers,
            indices_are_sorted=indices_are_sorted,
            unique_indices=unique_indices,
            mode=mode,
        )
        ct_op = ad_util.unbroadcast(out, operand.aval)
    elif ad_util.is_undefined(updates):
        if not unique_indices:
            raise NotImplementedError(_SCATTER_MUL_UNIQUE)
        ushape = tuple(updates.aval.shape)
        back = _gather_back(mul_p.bind(ct, operand), indices, dimension_numbers, ushape, mode)
        ct_up = ad_util.unbroadcast(back, updates.aval)
    return [ct_op, None, ct_up]


scatter_mul_p.def_jvp(_scatter_mul_jvp)
scatter_mul_p.def_transpose(_scatter_mul_transpose)


def _scatter_extremal_jvp(prim: Primitive) -> Any:
    def rule(
        primals: Any,
        tangents: Any,
        *,
        dimension_numbers: ScatterDimensionNumbers,
        indices_are_sorted: bool,
        unique_indices: bool,
        mode: Any,
    ) -> tuple[Any, Any]:
        """JAX's rule: the operand's tangent passes through everywhere, and each written window
        is corrected in the updates' shape. Updates that tie for a position share it equally,
        with the operand element when it is kept too; an update that lost (NaN never equals
        itself, so a NaN update is one) contributes nothing, and an operand element that was
        replaced has its tangent taken out (an untouched NaN keeps its tangent)."""
        operand, indices, updates = primals
        dn = dimension_numbers
        params = dict(
            dimension_numbers=dn,
            indices_are_sorted=indices_are_sorted,
            unique_indices=unique_indices,
            mode=mode,
        )
        ans = prim.bind(operand, indices, updates, **params)
        t_op = ad_util.instantiate(tangents[0])
        t_up = ad_util.convert(ad_util.instantiate(tangents[2]), t_op.dtype, t_op.weak_type)
        # JAX's modes: the read-backs clamp (promise_in_bounds), the counts drop what falls
        # outside, and only the final scatter-add takes the caller's mode
        drop = GatherScatterMode.FILL_OR_DROP
        slices = _inverse_slice_sizes(len(operand.shape), dn, tuple(updates.shape))

        def windows(v: Any) -> Any:  # what the scatter's windows hold in v, updates' shape
            return gather_p.bind(
                v,
                indices,
                dimension_numbers=_gather_dnums_of(dn),
                slice_sizes=slices,
                mode=GatherScatterMode.PROMISE_IN_BOUNDS,
                fill_value=None,
            )

        def count(v: Any) -> Any:  # per window: how many updates wrote its position
            total = scatter_add_p.bind(
                _zeros_like(t_op),
                indices,
                v,
                dimension_numbers=dn,
                indices_are_sorted=indices_are_sorted,
                unique_indices=unique_indices,
                mode=drop,
            )
            return windows(total)

        target = windows(ans)
        won = eq_p.bind(updates, target)
        kept = eq_p.bind(windows(operand), target)
        ones_u = _full(tuple(updates.shape), t_op, 1)
        zeros_u = _zeros_like(ones_u)
        n_won = count(select_n_p.bind(won, zeros_u, ones_u))
        n_refs = count(ones_u)
        one_more = div_p.bind(ones_u, add_p.bind(n_won, ones_u))
        up_share = select_n_p.bind(kept, div_p.bind(ones_u, n_won), one_more)
        up_coef = select_n_p.bind(won, zeros_u, up_share)
        op_share = select_n_p.bind(kept, zeros_u, one_more)
        op_coef = div_p.bind(add_p.bind(neg(ones_u), op_share), n_refs)
        fix = add_p.bind(mul_p.bind(windows(t_op), op_coef), mul_p.bind(t_up, up_coef))
        return ans, scatter_add_p.bind(t_op, indices, fix, **params)

    return rule


scatter_min_p.def_jvp(_scatter_extremal_jvp(scatter_min_p))
scatter_max_p.def_jvp(_scatter_extremal_jvp(scatter_max_p))


# -- batch rules --------------------------------------------------------------------------------
# The batch axis is moved to the front and described in the dimension numbers themselves, as XLA
# does: a batched operand with unbatched indices gains a full-size window on axis 0; batched
# indices with an unbatched operand gain a leading batch axis of the result; when both are
# batched the two axes 0 are paired with ``operand_batching_dims`` /
# ``start_indices_batching_dims``, so each batch element reads (or writes) only its own slice.


DN = TypeVar("DN", GatherDimensionNumbers, ScatterDimensionNumbers)


def shift_dnums(dn: DN, up: Sequence[str] = (), lead: Sequence[str] = ()) -> DN:
    """``dn`` with a new axis 0 in front: the axis lists named in ``up`` renumbered past it, and
    those in ``lead`` renumbered and led by the new axis 0 (it joins them). Every other field is
    kept as it is (``_replace``); the one helper for the batch rules' dimension numbers."""
    changes: dict[str, tuple[int, ...]] = {}
    for field in (*up, *lead):
        axes: tuple[int, ...] = getattr(dn, field)
        shifted: tuple[int, ...] = tuple(a + 1 for a in axes)
        changes[field] = (0, *shifted) if field in lead else shifted
    return dn._replace(**changes)


@gather_p.def_batch
def _gather_batch(
    args: Sequence[Any],
    dims: Dims,
    *,
    dimension_numbers: GatherDimensionNumbers,
    slice_sizes: tuple[int, ...],
    mode: GatherScatterMode,
    fill_value: Any,
) -> tuple[Any, int]:
    operand, indices = args
    od, idim = dims
    dn = dimension_numbers
    size = axis_size(args, dims)
    if idim is None:  # the batch is one more window of the operand, leading the result
        operand = bdim_at_front(operand, od, size)
        new = shift_dnums(
            dn,
            ("collapsed_slice_dims", "start_index_map", "operand_batching_dims"),
            ("offset_dims",),
        )
        sizes = (size, *slice_sizes)
    elif od is None:  # the batch is one more batch axis of the indices, leading the result
        indices = bdim_at_front(indices, idim, size)
        new = shift_dnums(dn, ("offset_dims", "start_indices_batching_dims"))
        sizes = slice_sizes
    else:  # both: pair the two batch axes
        operand = bdim_at_front(operand, od, size)
        indices = bdim_at_front(indices, idim, size)
        new = shift_dnums(
            dn,
            ("offset_dims", "collapsed_slice_dims", "start_index_map"),
            ("operand_batching_dims", "start_indices_batching_dims"),
        )
        sizes = (1, *slice_sizes)
    out = gather_p.bind(
        operand, indices, dimension_numbers=new, slice_sizes=sizes, mode=mode, fill_value=fill_value
    )
    return out, 0


def _scatter_batch_rule(prim: Any) -> Any:
    def rule(
        args: Sequence[Any],
        dims: Dims,
        *,
        dimension_numbers: ScatterDimensionNumbers,
        indices_are_sorted: bool,
        unique_indices: bool,
        mode: GatherScatterMode,
    ) -> tuple[Any, int]:
        # Every operand is given the batch at axis 0 (the result is batched whenever any input
        # is), and the operand's and the indices' axes 0 are paired.
        size = axis_size(args, dims)
        operand, indices, updates = (bdim_at_front(a, d, size) for a, d in zip(args, dims))
        dn = dimension_numbers
        new = shift_dnums(
            dn,
            ("update_window_dims", "inserted_window_dims", "scatter_dims_to_operand_dims"),
            ("operand_batching_dims", "scatter_indices_batching_dims"),
        )
        out = prim.bind(
            operand,
            indices,
            updates,
            dimension_numbers=new,
            indices_are_sorted=indices_are_sorted,
            unique_indices=unique_indices,
            mode=mode,
        )
        return out, 0

    return rule


for _prim in SCATTER_PRIMITIVES.values():
    _prim.def_batch(_scatter_batch_rule(_prim))
