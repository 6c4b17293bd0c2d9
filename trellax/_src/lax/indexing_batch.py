"""Batch rules (``vmap``) of ``gather`` and the scatter primitives, and of ``dynamic_slice`` /
``dynamic_update_slice`` with per-element start indices (which become a gather / scatter).

The batch axis is moved to the front and described in the dimension numbers themselves, as XLA
does: a batched operand with unbatched indices gains a full-size window on axis 0; batched
indices with an unbatched operand gain a leading batch axis of the result; when both are batched
the two axes 0 are paired with ``operand_batching_dims`` / ``start_indices_batching_dims``, so
each batch element reads (or writes) only its own slice. One NumPy call for the whole batch.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from trellax._src.dtypes import dtypes
from trellax._src.lax import structural as _s
from trellax._src.lax._batch import Dims, axis_size, bdim_at_front
from trellax._src.lax.indexing import (
    SCATTER_PRIMITIVES,
    GatherDimensionNumbers,
    GatherScatterMode,
    ScatterDimensionNumbers,
    gather_p,
    scatter_p,
)


def _up(axes: Sequence[int]) -> tuple[int, ...]:
    return tuple(a + 1 for a in axes)


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
        new = GatherDimensionNumbers(
            offset_dims=(0, *_up(dn.offset_dims)),
            collapsed_slice_dims=_up(dn.collapsed_slice_dims),
            start_index_map=_up(dn.start_index_map),
            operand_batching_dims=_up(dn.operand_batching_dims),
            start_indices_batching_dims=dn.start_indices_batching_dims,
        )
        sizes = (size, *slice_sizes)
    elif od is None:  # the batch is one more batch axis of the indices, leading the result
        indices = bdim_at_front(indices, idim, size)
        new = GatherDimensionNumbers(
            offset_dims=_up(dn.offset_dims),
            collapsed_slice_dims=dn.collapsed_slice_dims,
            start_index_map=dn.start_index_map,
            operand_batching_dims=dn.operand_batching_dims,
            start_indices_batching_dims=_up(dn.start_indices_batching_dims),
        )
        sizes = slice_sizes
    else:  # both: pair the two batch axes
        operand = bdim_at_front(operand, od, size)
        indices = bdim_at_front(indices, idim, size)
        new = GatherDimensionNumbers(
            offset_dims=_up(dn.offset_dims),
            collapsed_slice_dims=_up(dn.collapsed_slice_dims),
            start_index_map=_up(dn.start_index_map),
            operand_batching_dims=(0, *_up(dn.operand_batching_dims)),
            start_indices_batching_dims=(0, *_up(dn.start_indices_batching_dims)),
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
        mode: GatherScatterMode,
    ) -> tuple[Any, int]:
        # Every operand is given the batch at axis 0 (the result is batched whenever any input
        # is), and the operand's and the indices' axes 0 are paired.
        size = axis_size(args, dims)
        operand, indices, updates = (bdim_at_front(a, d, size) for a, d in zip(args, dims))
        dn = dimension_numbers
        new = ScatterDimensionNumbers(
            update_window_dims=_up(dn.update_window_dims),
            inserted_window_dims=_up(dn.inserted_window_dims),
            scatter_dims_to_operand_dims=_up(dn.scatter_dims_to_operand_dims),
            operand_batching_dims=(0, *_up(dn.operand_batching_dims)),
            scatter_indices_batching_dims=(0, *_up(dn.scatter_indices_batching_dims)),
        )
        return prim.bind(operand, indices, updates, dimension_numbers=new, mode=mode), 0

    return rule


for _prim in SCATTER_PRIMITIVES.values():
    _prim.def_batch(_scatter_batch_rule(_prim))


def _start_indices(
    x_shape: tuple[int, ...],
    starts: Sequence[Any],
    dims: Sequence[int | None],
    sizes: Sequence[int],
    size: int,
) -> Any:
    """The per-element start indices, clamped so the window fits, stacked as ``(B, n)`` int32."""
    from trellax._src.lax._base import asarray

    def i32(v: Any) -> Any:
        return _s.convert_element_type_p.bind(v, new_dtype=dtypes.int32, weak_type=False)

    columns = []
    for k, (s, d, w) in enumerate(zip(starts, dims, sizes)):
        s = _s.clamp_p.bind(i32(asarray(0)), i32(s), i32(asarray(x_shape[k] - w)))
        s = bdim_at_front(s, d, size)  # (B,)
        columns.append(_s.reshape_p.bind(s, new_sizes=(size, 1), dimensions=None))
    return _s.concatenate_p.bind(*columns, dimension=1)


def dynamic_slice_gather(
    args: Sequence[Any], dims: Dims, slice_sizes: Sequence[int]
) -> tuple[Any, int]:
    size = axis_size(args, dims)
    x = bdim_at_front(args[0], dims[0], size)
    n = x.ndim - 1
    indices = _start_indices(tuple(x.shape[1:]), args[1:], dims[1:], slice_sizes, size)
    dn = GatherDimensionNumbers(
        offset_dims=tuple(range(1, n + 1)),
        collapsed_slice_dims=(),
        start_index_map=tuple(range(1, n + 1)),
        operand_batching_dims=(0,),
        start_indices_batching_dims=(0,),
    )
    out = gather_p.bind(
        x,
        indices,
        dimension_numbers=dn,
        slice_sizes=(1, *slice_sizes),
        mode=GatherScatterMode.CLIP,
        fill_value=None,
    )
    return out, 0


def dynamic_update_slice_scatter(args: Sequence[Any], dims: Dims) -> tuple[Any, int]:
    size = axis_size(args, dims)
    x = bdim_at_front(args[0], dims[0], size)
    update = bdim_at_front(args[1], dims[1], size)
    n = x.ndim - 1
    indices = _start_indices(tuple(x.shape[1:]), args[2:], dims[2:], update.shape[1:], size)
    dn = ScatterDimensionNumbers(
        update_window_dims=tuple(range(1, n + 1)),
        inserted_window_dims=(),
        scatter_dims_to_operand_dims=tuple(range(1, n + 1)),
        operand_batching_dims=(0,),
        scatter_indices_batching_dims=(0,),
    )
    return scatter_p.bind(x, indices, update, dimension_numbers=dn, mode=GatherScatterMode.CLIP), 0
