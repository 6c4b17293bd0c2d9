"""``lax.scatter_apply``, ``lax.conv_general_dilated_patches``, ``lax.index_take`` and
``lax.ragged_dot`` (with ``ragged_dot_general`` and ``RaggedDotDimensionNumbers``), written with
existing primitives and ``trellax.numpy``.

* ``scatter_apply`` applies ``func`` once per occurrence of an index, as XLA's scatter does with
  an update computation that ignores the update: positions named ``k`` times get ``func``
  applied ``k`` times (a ``while_loop`` over the largest count).
* ``conv_general_dilated_patches`` is ``conv_general_dilated`` with a one-hot kernel: output
  feature ``c * prod(filter_shape) + s`` is input feature ``c`` at window position ``s``.
* ``index_take`` is one ``gather`` of the index arrays stacked as columns, each index taken
  modulo the size of its axis (as in JAX).
* ``ragged_dot(lhs [m, k], rhs [g, k, n], group_sizes [g])``: the rows of ``lhs`` are split
  into consecutive groups of the given sizes and group ``i`` is multiplied by ``rhs[i]``; rows
  after the last group give zeros. One matrix product per group, masked.
  ``ragged_dot_general`` does the same for any dimension numbers, in JAX's three modes.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

import numpy as np

import trellax.numpy as tnp
from trellax._src.control_flow import while_loop
from trellax._src.core.basearray import Array
from trellax._src.core.typing import ArrayLike, DTypeLike
from trellax._src.dtypes import dtypes
from trellax._src.lax import indexing
from trellax._src.lax._base import asarray
from trellax._src.lax.conv import conv_dimension_numbers, conv_general_dilated
from trellax._src.lax.reductions import dot_dimension_numbers, dot_general
from trellax._src.lax.shapes import broadcast_in_dim, expand_dims


def scatter_apply(
    operand: ArrayLike,
    scatter_indices: ArrayLike,
    func: Callable[[Array], Array],
    dimension_numbers: Any,
    *,
    update_shape: Sequence[int] = (),
    indices_are_sorted: bool = False,
    unique_indices: bool = False,
    mode: Any = None,
) -> Array:
    """``operand`` with ``func`` applied at the positions ``scatter`` with these indices and
    dimension numbers would update (``update_shape`` is the updates' shape), once per
    occurrence."""

    x = asarray(operand)
    counts = indexing.scatter_add(
        tnp.zeros(x.shape, dtypes.int32),
        scatter_indices,
        tnp.ones(tuple(update_shape), dtypes.int32),
        dimension_numbers,
        indices_are_sorted=indices_are_sorted,
        unique_indices=unique_indices,
        mode=mode,
    )
    top = tnp.max(counts) if x.size else tnp.asarray(0, dtypes.int32)

    def body(state: tuple[Array, Array]) -> tuple[Array, Array]:
        i, v = state
        return i + 1, tnp.where(counts > i, func(v), v)

    _, out = while_loop(lambda s: s[0] < top, body, (tnp.asarray(0, dtypes.int32), x))
    result: Array = out
    return result


def conv_general_dilated_patches(
    lhs: ArrayLike,
    filter_shape: Sequence[int],
    window_strides: Sequence[int],
    padding: str | Sequence[tuple[int, int]],
    lhs_dilation: Sequence[int] | None = None,
    rhs_dilation: Sequence[int] | None = None,
    dimension_numbers: Any = None,
    precision: Any = None,
    preferred_element_type: DTypeLike | None = None,
) -> Array:
    """The patches a ``conv_general_dilated`` with a kernel of spatial ``filter_shape`` would
    read: ``C * prod(filter_shape)`` output features, ``c * prod(filter_shape) + s`` holding
    input feature ``c`` at window position ``s`` (row-major)."""

    x = asarray(lhs)
    nsp = x.ndim - 2
    dn = conv_dimension_numbers(x.shape, (1, 1, *filter_shape), dimension_numbers)
    channels = x.shape[dn.lhs_spec[1]]
    size = math.prod(filter_shape)
    # kernel in OI<spatial> layout: output c * size + s is one-hot at (input c, position s)
    eye = np.eye(channels * size, dtype=np.float64).reshape(
        channels * size, channels, *filter_shape
    )
    if preferred_element_type is not None:
        pref = dtypes.check_user_dtype(preferred_element_type, "conv_general_dilated_patches")
        if dtypes.kind(pref) == dtypes.kind(x.dtype) and pref.itemsize < x.dtype.itemsize:
            raise TypeError("`preferred_element_type` must not be narrower than the original type.")
    rhs_perm = dn.rhs_spec
    kernel = np.transpose(eye, np.argsort(rhs_perm)) if rhs_perm != tuple(range(nsp + 2)) else eye
    w = tnp.asarray(kernel.astype(x.dtype))
    return conv_general_dilated(
        x,
        w,
        window_strides,
        padding,
        lhs_dilation,
        rhs_dilation,
        dimension_numbers,
        precision=precision,
        preferred_element_type=preferred_element_type,
    )


class RaggedDotDimensionNumbers(NamedTuple):
    """``ragged_dot_general``'s dimensions: the ``dot_general`` dimension numbers, the ragged
    dimensions of ``lhs`` and the group dimensions of ``rhs``."""

    dot_dimension_numbers: Any
    lhs_ragged_dimensions: Sequence[int]
    rhs_group_dimensions: Sequence[int]


#: ``ragged_dot``'s layout: lhs [m, k] ragged along m, rhs [g, k, n] grouped along g.
_RAGGED_DOT_DN = RaggedDotDimensionNumbers((((1,), (1,)), ((), ())), (0,), (0,))


def ragged_dot(
    lhs: ArrayLike,
    rhs: ArrayLike,
    group_sizes: ArrayLike,
    precision: Any = None,
    preferred_element_type: DTypeLike | None = None,
    group_offset: ArrayLike | None = None,
    out_sharding: Any = None,
) -> Array:
    """``[m, n]``: row ``r`` of ``lhs`` (``[m, k]``) times ``rhs[i]`` (``[g, k, n]``) for the
    group ``i`` that holds ``r`` (consecutive groups of ``group_sizes``; rows past the last
    group give zeros)."""
    return ragged_dot_general(
        lhs, rhs, group_sizes, _RAGGED_DOT_DN, precision, preferred_element_type, group_offset
    )


def ragged_dot_general(
    lhs: ArrayLike,
    rhs: ArrayLike,
    group_sizes: ArrayLike,
    ragged_dot_dimension_numbers: RaggedDotDimensionNumbers,
    precision: Any = None,
    preferred_element_type: DTypeLike | None = None,
    group_offset: ArrayLike | None = None,
    out_sharding: Any = None,
) -> Array:
    """``dot_general`` with one ragged ``lhs`` dimension split into consecutive groups of
    ``group_sizes`` (its last axis; leading axes, if any, give sizes per position of the
    ``lhs`` dimensions listed by :func:`_ragged_prefix`). Where the ragged dimension is:

    * non-contracting: ``rhs`` has one group dimension, and the part of ``lhs`` in group ``i``
      is multiplied by ``rhs``'s group ``i`` (the output has no group dimension);
    * contracting: each group's part of the contraction is a separate output, stacked on a new
      leading axis of size ``g``;
    * batch: an ordinary ``dot_general`` (JAX's values: positions past the last group count).

    Otherwise positions past the last group contribute nothing (zeros). The first two modes are
    one ``dot_general`` of ``lhs`` masked per group (``g`` times the products of one)."""

    if group_offset is not None:
        raise NotImplementedError("ragged_dot: group_offset is not supported")
    x, y, gs = asarray(lhs), asarray(rhs), asarray(group_sizes)
    dn = ragged_dot_dimension_numbers
    # JAX checks the dot dimension numbers first: its TypeErrors before any layout question
    (lc, rc), (lb, rb) = dot_dimension_numbers(dn.dot_dimension_numbers, x.ndim, y.ndim)
    for a, b in zip(lc, rc):
        if x.shape[a] != y.shape[b]:
            raise TypeError(
                f"ragged_dot: contracting dimensions must have the same size, got lhs "
                f"{tuple(x.shape[i] for i in lc)} and rhs {tuple(y.shape[i] for i in rc)}"
            )
    mode, ragged, prefix, group_dim = _ragged_layout(x, y, gs, dn, lc, rc, lb, rb)
    if dtypes.kind(gs.dtype) not in ("i", "u"):
        raise TypeError(
            "ragged_dot_general requires that group_sizes.dtype is subtype of np.integer."
        )
    if mode == "batch":  # as JAX: the groups change nothing (no position is dropped)
        return dot_general(x, y, ((lc, rc), (lb, rb)), precision, preferred_element_type)
    g = gs.shape[-1]
    # member[..., r, i]: position r of the ragged dimension is in group i (per prefix position)
    ends = tnp.cumsum(gs, axis=-1)
    starts = ends - gs
    # equal ranks (no implicit rank promotion, which a user's config may forbid)
    pos = tnp.arange(x.shape[ragged], dtype=ends.dtype).reshape((1,) * (gs.ndim - 1) + (-1, 1))
    member = (pos >= starts[..., None, :]) & (pos < ends[..., None, :])
    # the mask over lhs's axes plus a last axis of groups: member's axes stand for ``dims``
    dims = (*prefix, ragged, x.ndim) if gs.ndim > 1 else (ragged, x.ndim)
    perm = tuple(int(i) for i in np.argsort(dims))
    mask = broadcast_in_dim(tnp.transpose(member, perm), (*x.shape, g), tuple(sorted(dims)))
    zero = tnp.zeros((), x.dtype)
    per_group = tnp.where(mask, x[..., None], zero)  # lhs.shape + (g,)
    if mode == "noncontracting":
        assert group_dim is not None
        dnums = ((lc, rc), ((*lb, x.ndim), (*rb, group_dim)))
        out = dot_general(per_group, y, dnums, precision, preferred_element_type)
        summed: Array = tnp.sum(out, axis=len(lb), dtype=out.dtype)
        return summed
    out = dot_general(per_group, y, ((lc, rc), (lb, rb)), precision, preferred_element_type)
    lhs_free = sum(1 for d in range(x.ndim) if d not in lc and d not in lb)
    moved: Array = tnp.moveaxis(out, len(lb) + lhs_free, 0)
    return moved


def _ragged_prefix(
    mode: str, ndim: int, ragged: int, lb: Sequence[int], lc: Sequence[int]
) -> tuple[int, ...]:
    """The ``lhs`` dimensions ``group_sizes``'s leading axes stand for (JAX's order): the batch
    dimensions, then the dimensions of the ragged one's kind that precede it (none before a
    ragged batch dimension's own predecessors among the batch dimensions)."""
    free = [d for d in range(ndim) if d not in lc and d not in lb]
    if mode == "noncontracting":
        return (*lb, *free[: free.index(ragged)])
    if mode == "contracting":
        return (*lb, *lc[: list(lc).index(ragged)])
    return tuple(lb[: list(lb).index(ragged)])


def _ragged_layout(
    x: Array,
    y: Array,
    gs: Array,
    dn: RaggedDotDimensionNumbers,
    lc: Sequence[int],
    rc: Sequence[int],
    lb: Sequence[int],
    rb: Sequence[int],
) -> tuple[str, int, tuple[int, ...], int | None]:
    """(mode, ragged lhs dimension, prefix dimensions, rhs group dimension), checked in JAX's
    order and with its ``TypeError`` words."""
    if len(dn.lhs_ragged_dimensions) != 1:
        raise TypeError("ragged_dot_general expects exactly one lhs ragged dimension.")
    ragged = operator.index(dn.lhs_ragged_dimensions[0])
    if not 0 <= ragged < x.ndim:
        raise TypeError(
            "ragged_dot_general requires lhs ragged dimension numbers to be nonnegative and "
            f"less than the number of axes of the lhs value, got {ragged} for lhs of rank "
            f"{x.ndim}."
        )
    mode = "batch" if ragged in lb else "contracting" if ragged in lc else "noncontracting"
    prefix = _ragged_prefix(mode, x.ndim, ragged, lb, lc)
    if gs.ndim == 0:
        raise TypeError("expected rank of group_sizes to be >=1.")
    if gs.ndim != 1:
        expected = (*(x.shape[d] for d in prefix), gs.shape[-1])
        if tuple(gs.shape) != expected:
            raise TypeError(
                f"expected group_sizes to have shape {expected}, got {tuple(gs.shape)}."
            )
    g = gs.shape[-1]
    groups = [operator.index(d) for d in dn.rhs_group_dimensions]
    if mode != "noncontracting":
        if groups:
            raise TypeError(
                "ragged_dot_general requires zero group dimensions in the rhs when lhs ragged "
                "dimension is contracting or batch."
            )
        return mode, ragged, prefix, None
    if len(groups) != 1:
        raise TypeError(
            "ragged_dot_general requires exactly one rhs group dimension when lhs ragged "
            "dimension is noncontracting."
        )
    (group_dim,) = groups
    if not 0 <= group_dim < y.ndim:
        raise TypeError(
            "ragged_dot_general requires rhs group dimension numbers to be nonnegative and less "
            f"than the number of axes of the rhs value, got {group_dim} for rhs of rank "
            f"{y.ndim}."
        )
    if group_dim in rb or group_dim in rc:
        raise TypeError(
            "ragged_dot_general requires rhs group dimension numbers to be distinct from "
            "contracting and batch dimensions."
        )
    if y.shape[group_dim] != g:
        raise TypeError(f"expected rhs group dimension size to be {g}, got {y.shape[group_dim]}.")
    return mode, ragged, prefix, group_dim


def conv_general_dilated_local(
    lhs: ArrayLike,
    rhs: ArrayLike,
    window_strides: Sequence[int],
    padding: str | Sequence[tuple[int, int]],
    filter_shape: Sequence[int],
    lhs_dilation: Sequence[int] | None = None,
    rhs_dilation: Sequence[int] | None = None,
    dimension_numbers: Any = None,
    precision: Any = None,
) -> Array:
    """A convolution with unshared weights: every output position has its own kernel.
    ``rhs`` holds, in the ``rhs`` layout of ``dimension_numbers``, ``O`` output features by
    ``C * prod(filter_shape)`` inputs (ordered as ``conv_general_dilated_patches``'s features)
    by the output's spatial sizes."""

    x, w = asarray(lhs), asarray(rhs)
    dn = conv_dimension_numbers(x.shape, w.shape, dimension_numbers)
    x_logical = tnp.transpose(x, dn.lhs_spec)  # N C spatial...
    w_logical = tnp.transpose(w, dn.rhs_spec)  # O I spatial...
    patches = conv_general_dilated_patches(
        x_logical, filter_shape, window_strides, padding, lhs_dilation, rhs_dilation
    )  # N (C * F) out-spatial...
    if tuple(patches.shape[2:]) != tuple(w_logical.shape[2:]) or (
        patches.shape[1] != w_logical.shape[1]
    ):
        raise TypeError(
            "conv_general_dilated_local: rhs must have (in the rhs layout) O x "
            f"{patches.shape[1]} x {tuple(patches.shape[2:])} (output features x "
            "C * prod(filter_shape) x output spatial sizes), got "
            f"{tuple(w_logical.shape)}"
        )
    out = tnp.einsum("ni...,oi...->no...", patches, w_logical, precision=precision)
    return tnp.transpose(out, tuple(int(i) for i in np.argsort(dn.out_spec)))


def index_take(src: ArrayLike, idxs: Sequence[ArrayLike], axes: Sequence[int]) -> Array:
    """``src`` indexed along ``axes`` (increasing) by the integer arrays ``idxs``, one per axis:
    ``out[i, ...] = src[..., idxs[0][i] at axes[0], ..., idxs[-1][i] at axes[-1], ...]`` with
    the remaining axes of ``src`` after the first. As in JAX, every index is taken modulo the
    size of its axis (``-1`` is the last element, ``size`` the first): one ``gather`` whose
    errors are JAX's (``IndexError`` for an axis past the rank, ``TypeError`` for axes out of
    order or a count that does not match, ``ValueError`` for no index array at all)."""
    x = asarray(src)
    columns = [expand_dims(asarray(i), (1,)) for i in idxs]
    if not columns:
        raise ValueError("index_take: needs at least one index array")
    ax = tuple(operator.index(a) for a in axes)
    sizes = [x.shape[a] for a in ax]  # an axis past the rank: IndexError, as in JAX
    indices = tnp.concatenate(columns, axis=1)
    if dtypes.kind(indices.dtype) not in ("i", "u"):
        raise ValueError(f"index_take: indices must be integers, got {indices.dtype.name}")
    # sizes as a (1, k) row: no rank promotion (it raises under numpy_rank_promotion="raise")
    indices = tnp.remainder(indices, np.array([sizes], dtypes.canonicalize_dtype(np.int64)))
    slice_sizes = list(x.shape)
    for a in ax:
        slice_sizes[a] = 1
    dn = indexing.GatherDimensionNumbers(
        offset_dims=tuple(range(1, x.ndim - len(ax) + 1)),
        collapsed_slice_dims=ax,
        start_index_map=ax,
    )
    return indexing.gather(x, indices, dn, tuple(slice_sizes))
