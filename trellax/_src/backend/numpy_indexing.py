"""NumPy impls of ``gather`` and the ``scatter`` family (XLA's dimension numbers, see
``trellax._src.lax.indexing``).

Both build, for the layout ``(batch..., window...)``, one broadcastable NumPy index array per
operand axis (window start + offset within the window, or the batch position for batching axes),
then use NumPy's advanced indexing (``ufunc.at`` for combining scatters, so repeated indices apply
repeatedly). Window starts are always clamped into range, so indexing never fails; in
``FILL_OR_DROP`` mode the windows that were out of bounds are then filled (gather) or skipped
(scatter).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from trellax._src.backend.complex_order import complex_pick
from trellax._src.backend.float_facts import deciding_zeros, is_real_float, merge_zero_signs

_CLIP, _FILL, _PROMISE = "clip", "fill", "promise_in_bounds"


def _window_indices(
    shape: tuple[int, ...],
    indices: np.ndarray[Any, Any],
    start_index_map: tuple[int, ...],
    slice_sizes: tuple[int, ...],
    skip: set[int],
    operand_batching_dims: tuple[int, ...],
    indices_batching_dims: tuple[int, ...],
) -> tuple[tuple[Any, ...], np.ndarray[Any, Any], tuple[int, ...]]:
    """(index arrays into the operand, out-of-bounds mask over the batch, window shape)."""
    batch_shape = indices.shape[:-1]
    nb = len(batch_shape)
    window_axes = [d for d in range(len(shape)) if d not in skip]
    nw = len(window_axes)
    oob = np.zeros(batch_shape, dtype=bool)
    starts: dict[int, np.ndarray[Any, Any]] = {}
    for k, d in enumerate(start_index_map):
        s = indices[..., k]
        hi = shape[d] - slice_sizes[d]
        below, above = s < 0, s > hi
        if below.any() or above.any():
            oob |= below | above
            s = np.minimum(np.maximum(s, 0), max(hi, 0))
        starts[d] = s
    tail = (1,) * nw
    out: list[Any] = []
    for d in range(len(shape)):
        if d in operand_batching_dims:
            b = indices_batching_dims[operand_batching_dims.index(d)]
            base: Any = np.arange(batch_shape[b]).reshape(
                tuple(-1 if i == b else 1 for i in range(nb)) + tail
            )
        elif d in starts:
            base = starts[d].reshape(batch_shape + tail)
        else:
            base = 0
        if d in window_axes:
            w = window_axes.index(d)
            offsets = np.arange(slice_sizes[d]).reshape(
                (1,) * nb + tuple(-1 if i == w else 1 for i in range(nw))
            )
            base = base + offsets
        out.append(np.asarray(base, dtype=np.intp))
    return tuple(out), oob, tuple(slice_sizes[d] for d in window_axes)


def _default_fill(dtype: np.dtype[Any]) -> Any:
    """JAX's gather fill: NaN for inexact, the minimum of signed and the maximum of unsigned
    integers, True for bool."""
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        return info.min if dtype.kind == "i" else info.max
    if dtype.kind == "b":
        return True
    return np.nan


def _gather(
    operand: np.ndarray[Any, Any],
    indices: np.ndarray[Any, Any],
    *,
    dimension_numbers: Any,
    slice_sizes: tuple[int, ...],
    mode: Any,
    fill_value: Any,
) -> Any:
    dn = dimension_numbers
    skip = set(dn.collapsed_slice_dims) | set(dn.operand_batching_dims)
    idx, oob, window_shape = _window_indices(
        operand.shape,
        indices,
        dn.start_index_map,
        slice_sizes,
        skip,
        dn.operand_batching_dims,
        dn.start_indices_batching_dims,
    )
    batch_shape = indices.shape[:-1]
    full = batch_shape + window_shape
    if operand.size == 0:
        res = np.zeros(full, operand.dtype)
    else:
        res = operand[idx] if idx else operand[()]
        if res.shape != full:
            res = np.broadcast_to(res, full)
    if mode.value == _FILL and oob.any():
        fill = _default_fill(operand.dtype) if fill_value is None else fill_value
        mask = oob.reshape(batch_shape + (1,) * len(window_shape))
        res = np.where(mask, np.asarray(fill).astype(operand.dtype), res)
    # (batch..., window...) -> window axes at offset_dims, batch axes elsewhere in order
    nb = len(batch_shape)
    perm = []
    batch_axes = iter(range(nb))
    for p in range(res.ndim):
        if p in dn.offset_dims:
            perm.append(nb + dn.offset_dims.index(p))
        else:
            perm.append(next(batch_axes))
    if perm != list(range(res.ndim)):
        res = np.transpose(res, perm)
    return np.asarray(res)  # (a 0-d result may be a NumPy scalar; never np.ascontiguousarray,
    # which would make it 1-d)


gather = _gather


def _scatter_impl(combine: Any) -> Any:
    def impl(
        operand: np.ndarray[Any, Any],
        indices: np.ndarray[Any, Any],
        updates: np.ndarray[Any, Any],
        *,
        dimension_numbers: Any,
        mode: Any,
        indices_are_sorted: bool = False,
        unique_indices: bool = False,
    ) -> Any:
        # the two promises change nothing here: repeated indices combine in order either way
        del indices_are_sorted, unique_indices
        dn = dimension_numbers
        rank = operand.ndim
        skip = set(dn.inserted_window_dims) | set(dn.operand_batching_dims)
        window_axes = [d for d in range(rank) if d not in skip]
        sizes = [1] * rank
        for d, p in zip(window_axes, dn.update_window_dims):
            sizes[d] = updates.shape[p]
        idx, oob, window_shape = _window_indices(
            operand.shape,
            indices,
            dn.scatter_dims_to_operand_dims,
            tuple(sizes),
            skip,
            dn.operand_batching_dims,
            dn.scatter_indices_batching_dims,
        )
        # updates -> (batch..., window...)
        batch_pos = [p for p in range(updates.ndim) if p not in dn.update_window_dims]
        upd = np.transpose(updates, (*batch_pos, *dn.update_window_dims))
        full = upd.shape
        out = operand.copy()
        if upd.size == 0 or operand.size == 0:  # nothing to write, or nowhere to write it
            return out
        arrays = [np.broadcast_to(i, full) for i in idx]
        if mode.value != _CLIP and oob.any():
            keep = np.broadcast_to(~oob.reshape(oob.shape + (1,) * len(window_shape)), full)
            arrays = [a[keep] for a in arrays]
            upd = upd[keep]
        target = tuple(arrays)
        if combine is None:
            out[target] = upd
        elif out.dtype.kind == "c" and (combine is np.maximum or combine is np.minimum):
            _complex_extreme_at(out, target, upd, for_max=combine is np.maximum)
        else:
            with np.errstate(all="ignore"):  # NaN in min/max, inf * 0: JAX doesn't warn
                combine.at(out, target, upd)
            if combine is np.maximum or combine is np.minimum:
                out = _zero_signs_after_scatter(out, operand, target, upd, combine is np.maximum)
        return out

    return impl


def _complex_extreme_at(
    out: np.ndarray[Any, Any], target: tuple[Any, ...], upd: np.ndarray[Any, Any], for_max: bool
) -> None:
    """A complex scatter max/min in place: each update combined in order with what its target
    holds by XLA's complex max/min (``complex_order``: the held value stays only where it orders
    strictly after, or before, the update; NaN does not propagate). Updates are applied in
    rounds, the k-th update of every target in round k, so the order per target is kept."""
    full = np.broadcast_shapes(*(np.shape(t) for t in target), upd.shape)
    lin = np.ravel_multi_index(tuple(np.broadcast_to(t, full).ravel() for t in target), out.shape)
    vals = np.broadcast_to(upd, full).ravel()
    order = np.argsort(lin, kind="stable")
    sorted_lin = lin[order]
    starts = np.r_[0, np.flatnonzero(np.diff(sorted_lin)) + 1]
    rank = np.empty(lin.size, np.intp)
    rank[order] = np.arange(lin.size) - np.repeat(starts, np.diff(np.r_[starts, lin.size]))
    flat = out.reshape(-1)
    for r in range(int(rank.max()) + 1 if rank.size else 0):
        sel = rank == r
        where = lin[sel]
        flat[where] = complex_pick(flat[where], vals[sel], for_max=for_max)


def _zero_signs_after_scatter(
    out: np.ndarray[Any, Any],
    operand: np.ndarray[Any, Any],
    target: tuple[Any, ...],
    upd: np.ndarray[Any, Any],
    for_max: bool,
) -> np.ndarray[Any, Any]:
    """XLA's max/min order -0.0 below 0.0 (``backend/float_facts.py``): a scattered max that ends at
    zero is -0.0 only if every zero among the operand and its updates was -0.0; a min is -0.0 if
    any was."""
    d = out.dtype
    if not is_real_float(d):
        return out
    zero = out == 0
    if not zero.any():
        return out
    # an array even for a 0-d operand (NumPy's comparisons give a scalar there)
    seen = np.array(deciding_zeros(operand, for_max=for_max), dtype=bool)
    np.logical_or.at(seen, target, deciding_zeros(upd, for_max=for_max))
    return merge_zero_signs(out, zero, seen, for_max=for_max, dtype=d)  # type: ignore[no-any-return]


scatter = _scatter_impl(None)
scatter_add = _scatter_impl(np.add)
scatter_mul = _scatter_impl(np.multiply)
scatter_min = _scatter_impl(np.minimum)
scatter_max = _scatter_impl(np.maximum)
