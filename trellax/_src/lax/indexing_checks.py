"""The well-formedness checks of ``gather`` and ``scatter``'s dimension numbers, in JAX's order
and with JAX's words (which follow XLA's shape inference), so that a malformed call raises the
``TypeError`` a JAX user expects. Shapes are plain int tuples; the index vector is always the
last axis of the indices (as in JAX)."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

Dims = Sequence[int]


def _sorted(dims: Dims, op: str, name: str) -> None:
    if any(b < a for a, b in itertools.pairwise(dims)):
        raise TypeError(f"{name} in {op} op must be sorted; got {tuple(dims)}")


def _unique(dims: Dims, op: str, name: str) -> None:
    if len(set(dims)) != len(dims):
        raise TypeError(f"{name} in {op} op must not repeat; got: {tuple(dims)}.")


def _in_range(dims: Dims, rank: int, op: str, name: str, *, sorted_: bool) -> None:
    """Every dim in [0, rank); for dims already known sorted only the ends are looked at
    (so the dim named is the first or last one, as in JAX)."""
    bad = [d for d in ((dims[0], dims[-1]) if sorted_ and dims else dims) if not 0 <= d < rank]
    if bad:
        raise TypeError(
            f"Invalid {name} set in {op} op; valid range is [0, {rank}); got: {bad[0]}."
        )


def _disjoint(a: Dims, b: Dims, op: str, name_a: str, name_b: str) -> None:
    if set(a) & set(b):
        raise TypeError(
            f"{name_a} and {name_b} in {op} op must be disjoint; got: {tuple(a)} and {tuple(b)}."
        )


def _index_vector_dim(indices_shape: Dims, op: str) -> int:
    ivd = len(indices_shape) - 1
    if ivd < 0:
        raise TypeError(
            f"{op.capitalize()} index leaf dimension must be within [0, rank(indices) + 1). "
            f"rank(indices) is {len(indices_shape)} and {op} index leaf dimension is {ivd}."
        )
    return ivd


def _batching(
    op: str,
    operand_shape: Dims,
    indices_shape: Dims,
    operand_batching: Dims,
    indices_batching: Dims,
    indices_batching_name: str,
) -> tuple[int, ...]:
    """The checks of the batching dims common to both ops; returns the operand's batch shape."""
    ivd = len(indices_shape) - 1
    _unique(indices_batching, op, indices_batching_name)
    _in_range(indices_batching, len(indices_shape), op, indices_batching_name, sorted_=False)
    cap = op.capitalize()
    if ivd in indices_batching:
        raise TypeError(
            f"{cap} op cannot have the index vector dimension as a batching dimension; got "
            f"{tuple(indices_batching)}."
        )
    if len(operand_batching) != len(indices_batching):
        sep = "" if op == "gather" else " "  # JAX's gather message lacks the space
        raise TypeError(
            f"{cap} op requires equal numbers of operand_batching_dims and "
            f"{indices_batching_name}, got {tuple(operand_batching)} and{sep}"
            f"{tuple(indices_batching)}."
        )
    operand_batch = tuple(operand_shape[d] for d in operand_batching)
    indices_batch = tuple(indices_shape[d] for d in indices_batching)
    if operand_batch != indices_batch:
        raise TypeError(
            f"{cap} op requires operand batching dimensions and indices batching dimensions "
            f"to have the same shape, got {operand_batch} and {indices_batch}."
        )
    return operand_batch


def check_gather(operand_shape: Dims, indices_shape: Dims, dn: Any, slice_sizes: Dims) -> None:
    """Raises JAX's ``TypeError`` for malformed gather dimension numbers or slice sizes."""
    rank = len(operand_shape)
    ivd = _index_vector_dim(indices_shape, "gather")
    offset = tuple(dn.offset_dims)
    _sorted(offset, "gather", "offset_dims")
    _unique(offset, "gather", "offset_dims")
    out_rank = len(offset) + len(indices_shape) - 1
    for i, d in enumerate(offset):
        if not 0 <= d < out_rank:
            raise TypeError(
                f"Offset dimension {i} in gather op is out of bounds; got {d}, but should have "
                f"been in [0, {out_rank})"
            )
    smap = tuple(dn.start_index_map)
    if len(smap) != indices_shape[ivd]:
        raise TypeError(
            f"Gather op has {len(smap)} elements in start_index_map and the bound of dimension "
            f"index_vector_dim={ivd} of indices is {indices_shape[ivd]}. These two numbers "
            "must be equal."
        )
    for i, d in enumerate(smap):
        if not 0 <= d < rank:
            raise TypeError(f"Invalid start_index_map; domain is [0, {rank}), got: {i}->{d}.")
    _unique(smap, "gather", "start_index_map")
    collapsed = tuple(dn.collapsed_slice_dims)
    _sorted(collapsed, "gather", "collapsed_slice_dims")
    _in_range(collapsed, rank, "gather", "collapsed_slice_dims", sorted_=True)
    _unique(collapsed, "gather", "collapsed_slice_dims")
    obatch = tuple(dn.operand_batching_dims)
    _unique(obatch, "gather", "operand_batching_dims")
    _sorted(obatch, "gather", "operand_batching_dims")
    _in_range(obatch, rank, "gather", "operand_batching_dims", sorted_=True)
    _disjoint(collapsed, obatch, "gather", "collapsed_slice_dims", "operand_batching_dims")
    _disjoint(smap, obatch, "gather", "start_index_map", "operand_batching_dims")
    _batching(
        "gather",
        operand_shape,
        indices_shape,
        obatch,
        tuple(dn.start_indices_batching_dims),
        "start_indices_batching_dims",
    )
    _check_slice_sizes(operand_shape, indices_shape, offset, collapsed, obatch, slice_sizes)


def _check_slice_sizes(
    operand_shape: Dims,
    indices_shape: Dims,
    offset: Dims,
    collapsed: Dims,
    obatch: Dims,
    slice_sizes: Dims,
) -> None:
    rank = len(operand_shape)
    if rank != len(slice_sizes):
        raise TypeError(
            "Gather op must have one slice size for every input dimension; got: "
            f"len(slice_sizes)={len(slice_sizes)}, input_shape.rank={rank}"
        )
    if len(slice_sizes) != len(offset) + len(collapsed) + len(obatch):
        raise TypeError(
            "All components of the offset index in a gather op must either be a offset "
            "dimension or explicitly collapsed/batching; got "
            f"len(slice_sizes)={len(slice_sizes)}, output_slice_sizes={tuple(offset)}, "
            f"collapsed_slice_dims={tuple(collapsed)}, operand_batching_dims={tuple(obatch)}."
        )
    empty = 0 in indices_shape
    for i, (s, n) in enumerate(zip(slice_sizes, operand_shape)):
        if not empty and not 0 <= s <= n:
            raise TypeError(
                f"Slice size at index {i} in gather op is out of range, must be within "
                f"[0, {n} + 1), got {s}."
            )
    for i, d in enumerate(collapsed):
        if slice_sizes[d] != 1:
            raise TypeError(
                "Gather op can only collapse slice dims with bound 1, but bound is "
                f"{slice_sizes[d]} for index {d} at position {i}."
            )
    for i, d in enumerate(obatch):
        if slice_sizes[d] > 1:
            raise TypeError(
                "Gather op can only have operand batching dims with bound 0/1, but bound is "
                f"{slice_sizes[d]} for index {d} at position {i}."
            )


def check_scatter(operand_shape: Dims, indices_shape: Dims, updates_shape: Dims, dn: Any) -> None:
    """Raises JAX's ``TypeError`` for malformed scatter dimension numbers or update shapes."""
    rank = len(operand_shape)
    ivd = _index_vector_dim(indices_shape, "scatter")
    uwin = tuple(dn.update_window_dims)
    want_rank = len(indices_shape) - 1 + len(uwin)
    if len(updates_shape) != want_rank:
        raise TypeError(f"Updates tensor must be of rank {want_rank}; got {len(updates_shape)}.")
    inserted = tuple(dn.inserted_window_dims)
    obatch = tuple(dn.operand_batching_dims)
    for dims, name, bound in (
        (uwin, "update_window_dims", len(updates_shape)),
        (inserted, "inserted_window_dims", rank),
        (obatch, "operand_batching_dims", rank),
    ):
        _sorted(dims, "scatter", name)
        _unique(dims, "scatter", name)
        _in_range(dims, bound, "scatter", name, sorted_=True)
    smap = tuple(dn.scatter_dims_to_operand_dims)
    _disjoint(inserted, obatch, "scatter", "inserted_window_dims", "operand_batching_dims")
    _disjoint(smap, obatch, "scatter", "scatter_dims_to_operand_dims", "operand_batching_dims")
    ibatch = tuple(dn.scatter_indices_batching_dims)
    operand_batch = _batching(
        "scatter", operand_shape, indices_shape, obatch, ibatch, "scatter_indices_batching_dims"
    )
    # where each indices batch axis sits among the scatter axes of updates
    scatter_axes = [p for p in range(len(updates_shape)) if p not in uwin]
    updates_batch = tuple(updates_shape[scatter_axes[d]] for d in ibatch)
    if operand_batch != updates_batch:
        raise TypeError(
            "Scatter op requires operand batching dimensions and updates batching dimensions "
            f"to have the same shape, got {operand_batch} and {updates_batch}."
        )
    window = len(uwin) + len(inserted) + len(obatch)
    if rank != window:
        raise TypeError(
            f"Scatter op has window of size {window}; doesn't match operand of rank {rank}."
        )
    if len(smap) != indices_shape[ivd]:
        raise TypeError(
            f"Scatter op has {len(smap)} elements in scatter_dims_to_operand_dims and the bound "
            f"of dimension index_vector_dim={ivd} of indices is {indices_shape[ivd]}. These two "
            "numbers must be equal"
        )
    for i, d in enumerate(smap):
        if not 0 <= d < rank:
            raise TypeError(
                f"Invalid scatter_dims_to_operand_dims mapping; domain is [0, {rank}), got: "
                f"{i}->{d}."
            )
    _unique(smap, "scatter", "scatter_dims_to_operand_dims")
    _check_update_bounds(operand_shape, indices_shape, updates_shape, uwin, inserted, obatch)


def _check_update_bounds(
    operand_shape: Dims,
    indices_shape: Dims,
    updates_shape: Dims,
    uwin: Dims,
    inserted: Dims,
    obatch: Dims,
) -> None:
    skip = set(inserted) | set(obatch)
    window_bounds = [n for d, n in enumerate(operand_shape) if d not in skip]
    for i, p in enumerate(uwin):
        if window_bounds[i] < updates_shape[p]:
            raise TypeError(
                "Bounds of the window dimensions of updates must not exceed the bounds of the "
                f"corresponding dimensions of operand. For dimension {p}, updates bound is "
                f"{updates_shape[p]}, operand bound is {window_bounds[i]}."
            )
    batch = list(indices_shape[:-1])
    scatter_axes = [p for p in range(len(updates_shape)) if p not in uwin]
    for p, b in zip(scatter_axes, batch):
        if updates_shape[p] != b:
            raise TypeError(
                "Bounds of the scatter dimensions of updates must be the same as the bounds of "
                f"the corresponding dimensions of scatter indices. For scatter dimension {p}, "
                f"updates bound is {updates_shape[p]}, indices bound is {b}."
            )
