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
from typing import Any, NamedTuple

from trellax._src import dtypes
from trellax._src.backend import numpy as backend
from trellax._src.basearray import Array
from trellax._src.core import AbstractValue, Primitive, ShapedArray
from trellax._src.lax._base import asarray, same_dtypes_error
from trellax._src.typing import ArrayLike


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
    def from_any(mode: Any, default: GatherScatterMode) -> GatherScatterMode:
        """``None`` gives ``default``; ``"drop"`` is ``"fill"``; anything else raises JAX's
        ValueError."""
        if mode is None:
            return default
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
gather_p.def_impl(backend.impl("gather"))


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
    batch_shape = _check_indices(indices, len(dn.start_index_map), "gather")
    if len(slice_sizes) != rank:
        raise TypeError(
            f"Gather op must have one slice size for every input dimension, got "
            f"len(slice_sizes)={len(slice_sizes)} for an operand of rank {rank}"
        )
    for i, (s, n) in enumerate(zip(slice_sizes, shape)):
        if not 0 <= s <= n:
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
        mode: GatherScatterMode,
    ) -> ShapedArray:
        dn = dimension_numbers
        if operand.dtype != updates.dtype:
            raise same_dtypes_error("scatter", [operand.dtype, updates.dtype])
        shape = tuple(operand.shape)
        rank = len(shape)
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


def _scatter_primitive(name: str) -> Primitive:
    prim = Primitive(name)
    prim.def_impl(backend.impl(name))
    prim.def_abstract_eval(_scatter_abstract_eval(name))
    return prim


scatter_p = _scatter_primitive("scatter")
scatter_add_p = _scatter_primitive("scatter-add")
scatter_mul_p = _scatter_primitive("scatter-mul")
scatter_min_p = _scatter_primitive("scatter-min")
scatter_max_p = _scatter_primitive("scatter-max")

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
        del indices_are_sorted, unique_indices
        dn = ScatterDimensionNumbers(*(_ints("dimension_numbers", f) for f in dimension_numbers))
        return prim.bind(
            asarray(operand),
            asarray(scatter_indices),
            asarray(updates),
            dimension_numbers=dn,
            mode=GatherScatterMode.from_any(mode, GatherScatterMode.FILL_OR_DROP),
        )

    f.__name__ = f.__qualname__ = prim.name.replace("-", "_")
    f.__doc__ = (
        f"XLA's ``{prim.name}``: combines ``updates`` into the windows of ``operand`` that "
        "``gather`` with the same dimension numbers would read; ``mode`` defaults to dropping "
        "out-of-bounds windows."
    )
    return f


scatter = _scatter_fn(scatter_p)
scatter_add = _scatter_fn(scatter_add_p)
scatter_mul = _scatter_fn(scatter_mul_p)
scatter_min = _scatter_fn(scatter_min_p)
scatter_max = _scatter_fn(scatter_max_p)
