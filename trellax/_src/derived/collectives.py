"""More collectives over named ``vmap`` axes: ``ppermute``, ``pshuffle``, ``pbroadcast``,
``psum_scatter``, ``all_to_all``, ``pswapaxes`` (and ``pcast``, which needs ``shard_map``).

Each is written with :func:`all_gather`, :func:`psum` and :func:`axis_index` (see
``parallel.py``): an element gathers the values of all elements along the axis and picks its
share by its own index, so ``vmap`` batches them through those primitives' rules.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

import trellax.numpy as tnp
from trellax._src.lax.convenience import dynamic_index_in_dim, dynamic_slice_in_dim
from trellax._src.parallel.collectives import (
    _check_bound,
    _names,
    _no_groups,
    all_gather,
    axis_index,
    in_shard_map,
    pmax,
    pmin,
    psum,
)
from trellax._src.parallel.collectives import axis_size as _axis_size
from trellax._src.tree.tree_util import tree_map


def _one_name(axis_name: Any, fun: str) -> Any:
    names = _names(axis_name)
    if len(names) != 1:
        raise NotImplementedError(f"{fun} over several axis names at once")
    _check_bound(names, fun)
    return names[0]


def _pick(x: Any, name: Any, sources: Sequence[int | None]) -> Any:
    """Element ``i`` gets element ``sources[i]``'s ``x`` (zeros where ``None``)."""

    def leaf(v: Any) -> Any:
        v = tnp.asarray(v)
        gathered = all_gather(v, name)  # [n, ...]
        zeros = tnp.zeros((1, *v.shape), v.dtype)
        table = tnp.concatenate([gathered, zeros])
        idx = np.array([len(sources) if s is None else s for s in sources], np.int32)
        return table[tnp.asarray(idx)[axis_index(name)]]

    return tree_map(leaf, x)


def ppermute(x: Any, axis_name: Any, perm: Sequence[tuple[int, int]]) -> Any:
    """Sends element ``src``'s ``x`` to element ``dst`` for each ``(src, dst)`` in ``perm``,
    which must be a whole permutation of the ``vmap`` axis (JAX refuses a partial one there)."""
    name = _one_name(axis_name, "ppermute")
    n = _axis_size(name)
    pairs = [(int(s), int(d)) for s, d in perm]
    srcs, dsts = [s for s, _ in pairs], [d for _, d in pairs]
    if len(set(srcs)) != len(srcs) or len(set(dsts)) != len(dsts):
        raise ValueError(f"ppermute sources and destinations must be unique, got perm={pairs}")
    if any(not 0 <= i < n for i in srcs + dsts):
        raise ValueError(f"ppermute perm indices must lie in [0, {n}) for axis size {n}: {pairs}")
    if len(pairs) != n and not in_shard_map(name):
        # JAX's vmap rule asserts this (an AssertionError there): no silent zeros; under
        # shard_map the devices no pair sends to get zeros, as in JAX
        raise ValueError(
            f"ppermute under vmap needs a whole permutation of the axis (size {n}), got {pairs}"
        )
    sources: list[int | None] = [None] * n
    for s, d in pairs:
        sources[d] = s
    return _pick(x, name, sources)


def pshuffle(x: Any, axis_name: Any, perm: Sequence[int]) -> Any:
    """Element ``i`` gets element ``perm[i]``'s ``x`` (``perm`` a permutation of the axis)."""
    name = _one_name(axis_name, "pshuffle")
    p = [int(i) for i in perm]
    if sorted(p) != list(range(_axis_size(name))):
        raise ValueError(f"`perm` does not represent a permutation: {list(perm)}")
    return _pick(x, name, p)


def pbroadcast(x: Any, axis_name: Any, source: int) -> Any:
    """Every element gets element ``source``'s ``x``."""
    name = _one_name(axis_name, "pbroadcast")
    n = _axis_size(name)
    if not 0 <= int(source) < n:
        raise ValueError(f"pbroadcast source {source} is out of range for axis size {n}")
    return _pick(x, name, [int(source)] * n)


def pcast(x: Any, axis_name: Any, *, to: str) -> Any:
    """Changes whether ``x`` is typed as varying along mesh axes inside ``shard_map`` (JAX's
    replication types). The values do not change; outside ``shard_map`` it is a ``ValueError``,
    as in JAX. trellax infers replication from the values' batching instead of types, so the
    cast only checks its arguments."""
    if to not in ("varying", "invariant", "reduced", "unreduced"):
        raise ValueError(f"pcast's `to` must be 'varying' or 'invariant', got {to!r}")
    names = _names(axis_name)
    for name in names:
        if not in_shard_map(name):
            raise ValueError(
                f"pcast(..., to={to!r}) should be called under shard_map, with axis names of "
                f"its mesh; got {name!r}"
            )
    return x


def psum_scatter(
    x: Any,
    axis_name: Any,
    *,
    scatter_dimension: int = 0,
    axis_index_groups: Any = None,
    tiled: bool = False,
) -> Any:
    """The sum over the axis, scattered: element ``i`` gets block ``i`` of the sum along
    ``scatter_dimension`` (that dimension removed when not ``tiled``; it must equal the axis
    size, or be divisible by it when ``tiled``)."""

    _no_groups(axis_index_groups)
    name = _one_name(axis_name, "psum_scatter")
    n = _axis_size(name)

    def leaf(v: Any) -> Any:
        v = tnp.asarray(v)
        dim = scatter_dimension % v.ndim if v.ndim else 0
        size = v.shape[dim] if v.ndim else 0
        if (size % n) if tiled else (size != n):
            want = f"divisible by {n}" if tiled else f"equal to {n}"
            raise ValueError(
                f"psum_scatter: dimension {dim} of the operand (size {size}) must be {want}, "
                f"the size of axis {name[0] if len(name) == 1 else name!r}"
            )
        total = psum(v, name)
        i = axis_index(name)
        if not tiled:
            return dynamic_index_in_dim(total, i, dim, keepdims=False)
        chunk = size // n
        return dynamic_slice_in_dim(total, i * chunk, chunk, dim)

    return tree_map(leaf, x)


def all_to_all(
    x: Any,
    axis_name: Any,
    split_axis: int,
    concat_axis: int,
    *,
    axis_index_groups: Any = None,
    tiled: bool = False,
) -> Any:
    """Element ``i`` gets chunk ``i`` (along ``split_axis``) of every element's ``x``, joined
    along ``concat_axis`` in element order. Without ``tiled`` the split dimension must equal the
    axis size; it is removed and the elements' axis is inserted at ``concat_axis``."""

    _no_groups(axis_index_groups)
    name = _names(axis_name)
    _check_bound(name, "all_to_all")
    n = _axis_size(name)

    def leaf(v: Any) -> Any:
        v = tnp.asarray(v)
        split = split_axis % v.ndim
        size = v.shape[split]
        if (size % n) if tiled else (size != n):
            want = f"divisible by {n}" if tiled else f"equal to {n}"
            raise ValueError(
                f"all_to_all: dimension {split} of the operand (size {size}) must be {want}, "
                f"the size of axis {name[0] if len(name) == 1 else name!r}"
            )
        gathered = all_gather(v, name)  # [n, ...v]
        i = axis_index(name)
        if not tiled:
            mine = dynamic_index_in_dim(gathered, i, split + 1, keepdims=False)  # [n, ...]
            return tnp.moveaxis(mine, 0, concat_axis % v.ndim)
        chunk = size // n
        mine = dynamic_slice_in_dim(gathered, i * chunk, chunk, split + 1)  # [n, ...]
        concat = concat_axis % v.ndim
        moved = tnp.moveaxis(mine, 0, concat)  # [..., n, c, ...]
        shape = list(moved.shape)
        return tnp.reshape(moved, (*shape[:concat], n * shape[concat + 1], *shape[concat + 2 :]))

    return tree_map(leaf, x)


def pswapaxes(x: Any, axis_name: Any, axis: int, *, axis_index_groups: Any = None) -> Any:
    """Swaps the named axis with positional axis ``axis`` (``all_to_all(x, axis_name, axis,
    axis)``)."""
    return all_to_all(x, axis_name, axis, axis, axis_index_groups=axis_index_groups)


def _no_point_to_point(name: str) -> NotImplementedError:
    return NotImplementedError(
        f"lax.{name} sends values between devices; trellax runs on one CPU device, and vmap's "
        "named axes have no sender and receiver (JAX has no vmap rule for it either): use "
        "lax.ppermute, lax.all_to_all or lax.all_gather over a vmap axis instead"
    )


def psend(x: Any, axis_name: Any, perm: Any) -> Any:
    """Point-to-point send between devices: ``NotImplementedError`` (one device here)."""
    raise _no_point_to_point("psend")


def precv(token: Any, out_shape: Any, axis_name: Any, perm: Any) -> Any:
    """Point-to-point receive between devices: ``NotImplementedError`` (one device here)."""
    raise _no_point_to_point("precv")


def ragged_all_to_all(
    operand: Any,
    output: Any,
    input_offsets: Any,
    send_sizes: Any,
    output_offsets: Any,
    recv_sizes: Any,
    *,
    axis_name: Any,
    axis_index_groups: Any = None,
) -> Any:
    """Ragged all-to-all between devices: ``NotImplementedError`` (one device here)."""
    raise _no_point_to_point("ragged_all_to_all")


def _parg(x: Any, axis_name: Any, best: Any, fun: str) -> Any:
    name = _one_name(axis_name, fun)
    n = _axis_size(name)
    index = axis_index(name)

    def leaf(v: Any) -> Any:
        v = tnp.asarray(v)
        top = best(v, name)
        hit = (v == top) | (tnp.isnan(v) & tnp.isnan(top)) if v.dtype.kind in "fc" else v == top
        # the first element holding the extreme value (NaN counts as extreme, as in argmax)
        return pmin(tnp.where(hit, index, np.int32(n)), name)

    return tree_map(leaf, x)


def pargmax(x: Any, axis_name: Any) -> Any:
    """The position along the named axis of the largest ``x`` (the first one on ties; a NaN
    wins), as ``argmax`` over that axis; int32, unmapped along it."""
    return _parg(x, axis_name, pmax, "pargmax")


def pargmin(x: Any, axis_name: Any) -> Any:
    """The position along the named axis of the smallest ``x`` (the first one on ties; a NaN
    wins), as ``argmin`` over that axis; int32, unmapped along it."""
    return _parg(x, axis_name, pmin, "pargmin")
