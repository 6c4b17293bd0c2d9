"""Batch rules (``vmap``) of the elementwise, structural, reduction, linear-algebra and FFT
primitives: each batched primitive is one call of a primitive over the whole batch.

Kept in one module beside the primitives' modules (rather than at their ends, where the
differentiation rules are) so the two kinds of rules merge independently; the rule for a
primitive is still found by grepping its name. Signature: ``rule(args, dims, **params) ->
(out, out_dim)``; see ``trellax._src.lax._batch``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from trellax._src.core import core
from trellax._src.core.core import Primitive
from trellax._src.lax import ad_util
from trellax._src.lax import elementwise as ew
from trellax._src.lax import fft as _fft
from trellax._src.lax import indexing_batch as _idx
from trellax._src.lax import linalg as _la
from trellax._src.lax import reductions as _r
from trellax._src.lax import structural as _s
from trellax._src.lax._base import asarray
from trellax._src.lax._batch import (
    Dims,
    all_at_front,
    axis_size,
    bdim_at_front,
    elementwise_rule,
    leading_rule,
    moveaxis,
    shift_axes,
)

# -- elementwise: every primitive of lax/elementwise.py, and select_n ------------------------------

for _p in [p for p in vars(ew).values() if isinstance(p, Primitive)]:
    _p.def_batch(elementwise_rule(_p))
_s.select_n_p.def_batch(elementwise_rule(_s.select_n_p))


def _add_any_batch(args: Sequence[Any], dims: Dims) -> tuple[Any, int]:
    # add_any takes equal shapes: both operands get the batch at axis 0 (an unbatched one copied)
    return ad_util.add_any_p.bind(*all_at_front(args, dims)), 0


ad_util.add_any_p.def_batch(_add_any_batch)


# -- conversions: the batch stays where it is (bitcast may change the trailing axis) ------------

_s.convert_element_type_p.def_batch(elementwise_rule(_s.convert_element_type_p))


@_s.bitcast_convert_type_p.def_batch
def _bitcast_batch(args: Sequence[Any], dims: Dims, *, new_dtype: Any) -> tuple[Any, int]:
    return _s.bitcast_convert_type_p.bind(moveaxis(args[0], dims[0], 0), new_dtype=new_dtype), 0  # type: ignore[arg-type]


# -- shapes ----------------------------------------------------------------------------------------


@_s.broadcast_in_dim_p.def_batch
def _broadcast_in_dim_batch(
    args: Sequence[Any],
    dims: Dims,
    *,
    shape: tuple[int, ...],
    broadcast_dimensions: tuple[int, ...],
) -> tuple[Any, int]:
    (x,), (d,) = args, dims
    assert d is not None
    x = moveaxis(x, d, 0)
    bd = (0, *(b + 1 for b in broadcast_dimensions))
    return _s.broadcast_in_dim_p.bind(x, shape=(x.shape[0], *shape), broadcast_dimensions=bd), 0


@_s.reshape_p.def_batch
def _reshape_batch(
    args: Sequence[Any], dims: Dims, *, new_sizes: tuple[int, ...], dimensions: Any
) -> tuple[Any, int]:
    (x,), (d,) = args, dims
    assert d is not None
    x = moveaxis(x, d, 0)
    if dimensions is not None:
        x = _s.transpose_p.bind(x, permutation=(0, *(i + 1 for i in dimensions)))
    return _s.reshape_p.bind(x, new_sizes=(x.shape[0], *new_sizes), dimensions=None), 0


def _front_axes_rule(prim: Primitive, key: str) -> None:
    """Batch at axis 0; the axis tuple parameter ``key`` shifts by one."""

    def rule(args: Sequence[Any], dims: Dims, **params: Any) -> tuple[Any, int]:
        (x,), (d,) = args, dims
        assert d is not None
        params[key] = tuple(a + 1 for a in params[key])
        return prim.bind(moveaxis(x, d, 0), **params), 0

    prim.def_batch(rule)


_front_axes_rule(_s.squeeze_p, "dimensions")
_front_axes_rule(_s.expand_dims_p, "dimensions")
_front_axes_rule(_s.rev_p, "dimensions")


@_s.transpose_p.def_batch
def _transpose_batch(
    args: Sequence[Any], dims: Dims, *, permutation: tuple[int, ...]
) -> tuple[Any, int]:
    (x,), (d,) = args, dims
    assert d is not None
    perm = (d, *shift_axes(permutation, d))
    return _s.transpose_p.bind(x, permutation=perm), 0


@_s.concatenate_p.def_batch
def _concatenate_batch(args: Sequence[Any], dims: Dims, *, dimension: int) -> tuple[Any, int]:
    return _s.concatenate_p.bind(*all_at_front(args, dims), dimension=dimension + 1), 0


@_s.pad_p.def_batch
def _pad_batch(
    args: Sequence[Any], dims: Dims, *, padding_config: tuple[tuple[int, int, int], ...]
) -> tuple[Any, int]:
    (x, value), (dx, dv) = args, dims
    size = axis_size(args, dims)
    x = bdim_at_front(x, dx, size)
    config = ((0, 0, 0), *padding_config)
    if dv is None:
        return _s.pad_p.bind(x, value, padding_config=config), 0
    # A padding value per batch element: pad with zeros, then take the values where a mask
    # (True on the operand's cells, padded with False) is False.
    padded = _s.pad_p.bind(x, _zero_like(value), padding_config=config)
    mask = _s.pad_p.bind(
        _s.broadcast_in_dim_p.bind(
            asarray(True), shape=tuple(x.shape[1:]), broadcast_dimensions=()
        ),
        asarray(False),
        padding_config=padding_config,
    )
    mask = _s.broadcast_in_dim_p.bind(
        mask, shape=tuple(padded.shape), broadcast_dimensions=tuple(range(1, padded.ndim))
    )
    values = _s.broadcast_in_dim_p.bind(
        moveaxis(value, dv, 0), shape=tuple(padded.shape), broadcast_dimensions=(0,)
    )
    return _s.select_n_p.bind(mask, values, padded), 0


def _zero_like(value: Any) -> Any:
    """A 0-d zero of ``value``'s dtype and weak flag (a constant)."""
    return core.new_array(np.zeros((), value.dtype), value.dtype, value.weak_type)


@_s.slice_p.def_batch
def _slice_batch(
    args: Sequence[Any],
    dims: Dims,
    *,
    start_indices: tuple[int, ...],
    limit_indices: tuple[int, ...],
    strides: tuple[int, ...] | None,
) -> tuple[Any, int]:
    (x,), (d,) = args, dims
    assert d is not None
    x = moveaxis(x, d, 0)
    return _s.slice_p.bind(
        x,
        start_indices=(0, *start_indices),
        limit_indices=(x.shape[0], *limit_indices),
        strides=None if strides is None else (1, *strides),
    ), 0


def _zero_index(like: Any) -> Any:
    return core.new_array(np.zeros((), like.dtype), like.dtype, False)


@_s.dynamic_slice_p.def_batch
def _dynamic_slice_batch(
    args: Sequence[Any], dims: Dims, *, slice_sizes: tuple[int, ...]
) -> tuple[Any, int]:
    x, *starts = args
    if any(d is not None for d in dims[1:]):
        return _idx.dynamic_slice_gather(args, dims, slice_sizes)
    x = bdim_at_front(x, dims[0], axis_size(args, dims))
    zero = [_zero_index(starts[0])] if starts else []
    return _s.dynamic_slice_p.bind(x, *zero, *starts, slice_sizes=(x.shape[0], *slice_sizes)), 0


@_s.dynamic_update_slice_p.def_batch
def _dynamic_update_slice_batch(args: Sequence[Any], dims: Dims) -> tuple[Any, int]:
    x, update, *starts = args
    if any(d is not None for d in dims[2:]):
        return _idx.dynamic_update_slice_scatter(args, dims)
    size = axis_size(args, dims)
    x, update = bdim_at_front(x, dims[0], size), bdim_at_front(update, dims[1], size)
    zero = [_zero_index(starts[0])] if starts else []
    return _s.dynamic_update_slice_p.bind(x, update, *zero, *starts), 0


@_s.clamp_p.def_batch
def _clamp_batch(args: Sequence[Any], dims: Dims) -> tuple[Any, int]:
    (lo, x, hi), (dlo, dx, dhi) = args, dims
    size = axis_size(args, dims)
    x = bdim_at_front(x, dx, size)
    bounds = []
    for b, db in ((lo, dlo), (hi, dhi)):
        if db is not None or b.ndim:  # a bound per element, or one of the operand's shape
            b = bdim_at_front(b, db, size)
            if b.ndim < x.ndim:
                b = _s.broadcast_in_dim_p.bind(b, shape=tuple(x.shape), broadcast_dimensions=(0,))
        bounds.append(b)
    return _s.clamp_p.bind(bounds[0], x, bounds[1]), 0


# -- reductions ------------------------------------------------------------------------------------


def _reduce_rule(prim: Primitive) -> None:
    """The batch stays put; the reduced axes are renamed around it."""

    def rule(args: Sequence[Any], dims: Dims, **params: Any) -> tuple[Any, int]:
        (x,), (d,) = args, dims
        assert d is not None
        axes = shift_axes(params["axes"], d)
        params["axes"] = axes
        return prim.bind(x, **params), d - sum(1 for a in axes if a < d)

    prim.def_batch(rule)


for _p in (
    _r.reduce_sum_p,
    _r.reduce_prod_p,
    _r.reduce_max_p,
    _r.reduce_min_p,
    _r.reduce_and_p,
    _r.reduce_or_p,
    _r.reduce_xor_p,
    _r.argmax_p,
    _r.argmin_p,
):
    _reduce_rule(_p)


def _cumulative_rule(prim: Primitive) -> None:
    def rule(args: Sequence[Any], dims: Dims, *, axis: int, reverse: bool) -> tuple[Any, int]:
        (x,), (d,) = args, dims
        assert d is not None
        return prim.bind(x, axis=axis + (axis >= d), reverse=reverse), d

    prim.def_batch(rule)


for _p in (_r.cumsum_p, _r.cumprod_p, _r.cummax_p, _r.cummin_p):
    _cumulative_rule(_p)


@_r.sort_p.def_batch
def _sort_batch(args: Sequence[Any], dims: Dims, *, dimension: int, **params: Any) -> Any:
    outs = _r.sort_p.bind_multi(*all_at_front(args, dims), dimension=dimension + 1, **params)
    return outs, (0,) * len(outs)


@_r.dot_general_p.def_batch
def _dot_general_batch(
    args: Sequence[Any], dims: Dims, *, dimension_numbers: Any, preferred_element_type: Any
) -> tuple[Any, int]:
    """Both batched: a new batch dimension. One batched: its batch is a free dimension of that
    operand, which keeps its place among the free dimensions of the result."""
    (x, y), (dx, dy) = args, dims
    (lc, rc), (lb, rb) = dimension_numbers
    if dx is not None and dy is not None:
        x, y = moveaxis(x, dx, 0), moveaxis(y, dy, 0)
        dn = (
            (tuple(a + 1 for a in lc), tuple(a + 1 for a in rc)),
            ((0, *(a + 1 for a in lb)), (0, *(a + 1 for a in rb))),
        )
        out_dim = 0
    elif dx is not None:
        lc, lb = shift_axes(lc, dx), shift_axes(lb, dx)
        dn = ((lc, rc), (lb, rb))
        free = [i for i in range(x.ndim) if i not in lc and i not in lb]
        out_dim = len(lb) + free.index(dx)
    else:
        assert dy is not None
        rc, rb = shift_axes(rc, dy), shift_axes(rb, dy)
        dn = ((lc, rc), (lb, rb))
        x_free = x.ndim - len(lc) - len(lb)
        free = [i for i in range(y.ndim) if i not in rc and i not in rb]
        out_dim = len(lb) + x_free + free.index(dy)
    out = _r.dot_general_p.bind(
        x, y, dimension_numbers=dn, preferred_element_type=preferred_element_type
    )
    return out, out_dim


# -- linear algebra and FFT: they map over leading axes --------------------------------------------

for _p in (
    _la.cholesky_p,
    _la.eigh_p,
    _la.eig_p,
    _la.qr_p,
    _la.svd_p,
    _la.triangular_solve_p,
    _la.solve_p,
    _la.inv_p,
    _la.det_p,
    _la.slogdet_p,
    _fft.fft_p,
):
    _p.def_batch(leading_rule(_p))
