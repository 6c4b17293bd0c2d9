"""Batch rules (``vmap``) of ``gather`` and ``scatter``, and of ``dynamic_slice`` /
``dynamic_update_slice`` with per-element start indices (which become a gather / scatter).

The batch axis becomes one more integer-array index: an iota ``(B, 1, ..., 1)`` on the operand's
axis 0, broadcast with the (batched or not) index arrays. By NumPy's rule the broadcast index
dimensions then lead the result, so the batch is at axis 0 of every result, and each batch
element reads (or writes) only its own slice: one NumPy indexing call for the whole batch.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from trellax._src import dtypes
from trellax._src.lax import elementwise as ew
from trellax._src.lax import structural as _s
from trellax._src.lax._batch import Dims, axis_size, bdim_at_front, moveaxis
from trellax._src.lax.indexing import IndexSpec, gather_p, scatter_p


def _batch_indices(indices: Sequence[Any], dims: Dims, size: int) -> tuple[list[Any], int]:
    """The batch iota followed by the index arrays, all of rank ``1 + R`` (R: the broadcast rank
    of the per-element index arrays) with the batch (or a size-1 axis) first."""
    ranks = [i.ndim - (d is not None) for i, d in zip(indices, dims)]
    rank = max(ranks, default=0)
    iota = _s.iota_p.bind(dtype=dtypes.int32, shape=(size,), dimension=0)
    out = [_s.reshape_p.bind(iota, new_sizes=(size,) + (1,) * rank, dimensions=None)]
    for i, d, r in zip(indices, dims, ranks):
        shape = tuple(i.shape) if d is None else tuple(moveaxis(i, d, 0).shape[1:])
        lead = 1 if d is None else size
        i = i if d is None else moveaxis(i, d, 0)
        out.append(
            _s.reshape_p.bind(i, new_sizes=(lead,) + (1,) * (rank - r) + shape, dimensions=None)
        )
    return out, rank


def _batched_spec(spec: IndexSpec) -> IndexSpec:
    return IndexSpec((("array",), *spec.entries), spec.ndim + 1)


def _reorder(spec: IndexSpec, rank: int, out_ndim: int) -> tuple[int, ...] | None:
    """The permutation from the batched result ``(B, advanced..., basic...)`` to the
    per-element layout with the batch in front, or ``None`` when they agree.

    NumPy puts the advanced-index dimensions where the first advanced index is when the advanced
    indices are adjacent, and in front otherwise. The batch iota always leads, so the batched
    result has them in front; a per-element index whose adjacent advanced indices come after
    some slices (``x[:, idx]``) needs those slices' dimensions moved back in front of them.
    """
    kinds = [e[0] for e in spec.entries]
    if "array" not in kinds:
        return None
    adv = [i for i, k in enumerate(kinds) if k in ("array", "int")]
    first = adv[0]
    if first == 0 or adv != list(range(first, adv[-1] + 1)):
        return None
    before = sum(1 for k in kinds[:first] if k in ("slice", "newaxis"))
    if before == 0:
        return None
    adv_dims = list(range(1, 1 + rank))
    before_dims = list(range(1 + rank, 1 + rank + before))
    rest = list(range(1 + rank + before, out_ndim))
    return (0, *before_dims, *adv_dims, *rest)


@gather_p.def_batch
def _gather_batch(
    args: Sequence[Any], dims: Dims, *, spec: IndexSpec, mode: str
) -> tuple[Any, int]:
    size = axis_size(args, dims)
    x = bdim_at_front(args[0], dims[0], size)
    indices, rank = _batch_indices(args[1:], dims[1:], size)
    out = gather_p.bind(x, *indices, spec=_batched_spec(spec), mode=mode)
    perm = _reorder(spec, rank, out.ndim)
    return (out if perm is None else _s.transpose_p.bind(out, permutation=perm)), 0


@scatter_p.def_batch
def _scatter_batch(
    args: Sequence[Any], dims: Dims, *, spec: IndexSpec, combine: str
) -> tuple[Any, int]:
    size = axis_size(args, dims)
    x = bdim_at_front(args[0], dims[0], size)
    new_spec = _batched_spec(spec)
    indices, rank = _batch_indices(args[2:], dims[2:], size)
    target = new_spec.result_shape(tuple(x.shape), [tuple(i.shape) for i in indices])
    perm = _reorder(spec, rank, len(target))
    if perm is not None:  # build the updates in the per-element layout, then permute back
        target = tuple(target[p] for p in perm)
    updates, du = args[1], dims[1]
    if du is not None:
        updates = moveaxis(updates, du, 0)
        rest = tuple(updates.shape[1:])
        updates = _s.broadcast_in_dim_p.bind(
            updates,
            shape=target,
            broadcast_dimensions=(0, *range(len(target) - len(rest), len(target))),
        )
    elif tuple(updates.shape) != target:
        n = updates.ndim
        updates = _s.broadcast_in_dim_p.bind(
            updates, shape=target, broadcast_dimensions=tuple(range(len(target) - n, len(target)))
        )
    if perm is not None:
        inverse = tuple(sorted(range(len(perm)), key=lambda i: perm[i]))
        updates = _s.transpose_p.bind(updates, permutation=inverse)
    return scatter_p.bind(x, updates, *indices, spec=new_spec, combine=combine), 0


def _window_indices(
    x_shape: Sequence[int], starts: Sequence[Any], dims: Dims, sizes: Sequence[int], size: int
) -> list[Any]:
    """Index arrays for the window at ``starts`` (clamped so it fits) of every batch element:
    the batch iota, then per axis ``k`` an array of rank ``1 + len(sizes)`` varying along
    ``1 + k``."""
    n = len(sizes)
    iota = _s.iota_p.bind(dtype=dtypes.int32, shape=(size,), dimension=0)
    out = [_s.reshape_p.bind(iota, new_sizes=(size,) + (1,) * n, dimensions=None)]
    for k, (s, d, w) in enumerate(zip(starts, dims, sizes)):
        s = _s.convert_element_type_p.bind(s, new_dtype=dtypes.int32, weak_type=False)
        hi = x_shape[k] - w
        s = _s.clamp_p.bind(_i32(0), s, _i32(hi))
        lead = 1 if d is None else size
        s = _s.reshape_p.bind(s, new_sizes=(lead,) + (1,) * n, dimensions=None)
        ramp = _s.iota_p.bind(
            dtype=dtypes.int32, shape=(1,) * (k + 1) + (w,) + (1,) * (n - k - 1), dimension=k + 1
        )
        out.append(ew.add_p.bind(s, ramp))
    return out


def _i32(v: int) -> Any:
    from trellax._src.lax._base import asarray

    return _s.convert_element_type_p.bind(asarray(v), new_dtype=dtypes.int32, weak_type=False)


def dynamic_slice_gather(
    args: Sequence[Any], dims: Dims, slice_sizes: Sequence[int]
) -> tuple[Any, int]:
    size = axis_size(args, dims)
    x = bdim_at_front(args[0], dims[0], size)
    indices = _window_indices(tuple(x.shape[1:]), args[1:], dims[1:], slice_sizes, size)
    spec = IndexSpec((("array",),) * x.ndim, x.ndim)
    return gather_p.bind(x, *indices, spec=spec, mode="clip"), 0


def dynamic_update_slice_scatter(args: Sequence[Any], dims: Dims) -> tuple[Any, int]:
    size = axis_size(args, dims)
    x = bdim_at_front(args[0], dims[0], size)
    update = bdim_at_front(args[1], dims[1], size)
    indices = _window_indices(tuple(x.shape[1:]), args[2:], dims[2:], update.shape[1:], size)
    spec = IndexSpec((("array",),) * x.ndim, x.ndim)
    return scatter_p.bind(x, update, *indices, spec=spec, combine="set"), 0
