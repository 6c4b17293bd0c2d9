"""Batch rules (``vmap``) of the window primitives: one convolution over the whole batch.

As in JAX, the batch axis is folded into one of the convolution's own axes, so a batched
convolution is one call of the primitive (one im2col product) and never a loop over examples:

* only the input batched: the batch joins the input's batch dimension ``N``;
* only the kernel batched: it joins the kernel's output features ``O`` (inside each feature
  group), and the output's features are split again;
* both batched: the batch joins the input's features ``C`` and the kernel's ``O``, and the
  feature groups multiply by the batch size (each example convolves only its own channels).

The two transposes (the convolution's cotangents, ``conv_lhs_transpose(ct, w)`` and
``conv_rhs_transpose(x, ct)``) fold the same way, each as the transpose of the corresponding
forward fold. ``reduce_window`` gains a window of size 1 along the batch axis; a batched initial
value (a per-example padding value) pads explicitly and combines the initial value at the end.

A batch axis merged into an axis of size ``n`` with ``g`` feature groups is laid out as
``(g, batch, n // g)`` (group-major, so each group stays contiguous); ``g = 1`` is batch-major.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from trellax._src.lax import conv as _c
from trellax._src.lax import elementwise as _ew
from trellax._src.lax import structural as _s
from trellax._src.lax._base import asarray
from trellax._src.lax._batch import Dims, axis_size, moveaxis


def _fold(x: Any, bdim: int, axis: int, groups: int = 1) -> Any:
    """``x`` with its batch axis ``bdim`` merged into ``axis`` (numbered without the batch),
    laid out as ``(groups, batch, n // groups)``."""
    x = moveaxis(x, bdim, axis)  # (..., B, n, ...)
    shape = tuple(x.shape)
    b, n = shape[axis], shape[axis + 1]
    if groups > 1:
        split = (*shape[:axis], b, groups, n // groups, *shape[axis + 2 :])
        x = _s.reshape_p.bind(x, new_sizes=split, dimensions=None)
        perm = list(range(len(split)))
        perm[axis], perm[axis + 1] = axis + 1, axis
        x = _s.transpose_p.bind(x, permutation=tuple(perm))
    merged = (*shape[:axis], b * n, *shape[axis + 2 :])
    return _s.reshape_p.bind(x, new_sizes=merged, dimensions=None)


def _unfold(x: Any, axis: int, size: int, groups: int = 1) -> Any:
    """Inverse of :func:`_fold`: axis ``axis`` (``(groups, size, m)``) split into a batch axis
    of ``size`` at ``axis`` followed by the axis of ``groups * m``."""
    shape = tuple(x.shape)
    n = shape[axis]
    if groups == 1:
        split = (*shape[:axis], size, n // size, *shape[axis + 1 :])
        return _s.reshape_p.bind(x, new_sizes=split, dimensions=None)
    m = n // (groups * size)
    split = (*shape[:axis], groups, size, m, *shape[axis + 1 :])
    x = _s.reshape_p.bind(x, new_sizes=split, dimensions=None)
    perm = list(range(len(split)))
    perm[axis], perm[axis + 1] = axis + 1, axis
    x = _s.transpose_p.bind(x, permutation=tuple(perm))
    out = (*shape[:axis], size, groups * m, *shape[axis + 1 :])
    return _s.reshape_p.bind(x, new_sizes=out, dimensions=None)


def _with_size(shape: Sequence[int], axis: int, factor: int) -> tuple[int, ...]:
    out = list(shape)
    out[axis] *= factor
    return tuple(out)


# -- conv_general_dilated(x, w): output (N, O, ...) --------------------------------------------------


@_c.conv_general_dilated_p.def_batch
def _conv_batch(args: Sequence[Any], dims: Dims, **params: Any) -> tuple[Any, int]:
    (x, w), (dx, dw) = args, dims
    size = axis_size(args, dims)
    lspec, rspec, ospec = params["dimension_numbers"]
    g = params["feature_group_count"]
    if dw is None:  # the batch joins the input's batch dimension
        assert dx is not None
        out = _c.conv_general_dilated_p.bind(_fold(x, dx, lspec[0]), w, **params)
        return _unfold(out, ospec[0], size), ospec[0]
    if dx is None:  # the batch joins each group's output features
        out = _c.conv_general_dilated_p.bind(x, _fold(w, dw, rspec[0], g), **params)
        return _unfold(out, ospec[1], size, g), ospec[1]
    # both: every example is a feature group of its own (per original group)
    new = dict(params, feature_group_count=g * size)
    out = _c.conv_general_dilated_p.bind(_fold(x, dx, lspec[1]), _fold(w, dw, rspec[0]), **new)
    return _unfold(out, ospec[1], size), ospec[1]


# -- conv_lhs_transpose(ct, w): input-shaped (N, C, ...) -----------------------------------------------


@_c.conv_lhs_transpose_p.def_batch
def _lhs_t_batch(args: Sequence[Any], dims: Dims, **params: Any) -> tuple[Any, int]:
    (ct, w), (dc, dw) = args, dims
    size = axis_size(args, dims)
    lspec, rspec, ospec = params["dimension_numbers"]
    g = params["feature_group_count"]
    lhs_shape = params["lhs_shape"]
    prim = _c.conv_lhs_transpose_p
    if dw is None:  # transpose of the input-batched fold (N)
        assert dc is not None
        new = dict(params, lhs_shape=_with_size(lhs_shape, lspec[0], size))
        return _unfold(prim.bind(_fold(ct, dc, ospec[0]), w, **new), lspec[0], size), lspec[0]
    if dc is None:  # kernel batched: its input features carry the batch, as do the input's
        new = dict(params, lhs_shape=_with_size(lhs_shape, lspec[1], size))
        out = prim.bind(ct, _fold(w, dw, rspec[1]), **new)
        return _unfold(out, lspec[1], size, g), lspec[1]
    new = dict(
        params, feature_group_count=g * size, lhs_shape=_with_size(lhs_shape, lspec[1], size)
    )
    out = prim.bind(_fold(ct, dc, ospec[1]), _fold(w, dw, rspec[0]), **new)
    return _unfold(out, lspec[1], size), lspec[1]


# -- conv_rhs_transpose(x, ct): kernel-shaped (O, I, ...) ----------------------------------------------


@_c.conv_rhs_transpose_p.def_batch
def _rhs_t_batch(args: Sequence[Any], dims: Dims, **params: Any) -> tuple[Any, int]:
    (x, ct), (dx, dc) = args, dims
    size = axis_size(args, dims)
    lspec, rspec, ospec = params["dimension_numbers"]
    g = params["feature_group_count"]
    rhs_shape = params["rhs_shape"]
    prim = _c.conv_rhs_transpose_p
    if dc is None:  # input batched: its features (per group) and the kernel's inputs carry it
        assert dx is not None
        new = dict(params, rhs_shape=_with_size(rhs_shape, rspec[1], size))
        out = prim.bind(_fold(x, dx, lspec[1], g), ct, **new)
        return _unfold(out, rspec[1], size), rspec[1]
    if dx is None:  # cotangent batched: the kernel's output features (per group) carry it
        new = dict(params, rhs_shape=_with_size(rhs_shape, rspec[0], size))
        out = prim.bind(x, _fold(ct, dc, ospec[1], g), **new)
        return _unfold(out, rspec[0], size, g), rspec[0]
    new = dict(
        params, feature_group_count=g * size, rhs_shape=_with_size(rhs_shape, rspec[0], size)
    )
    out = prim.bind(_fold(x, dx, lspec[1]), _fold(ct, dc, ospec[1]), **new)
    return _unfold(out, rspec[0], size), rspec[0]


# -- reduce_window ---------------------------------------------------------------------------------


_COMBINE = {"add": _ew.add_p, "max": _ew.max_p, "min": _ew.min_p, "mul": _ew.mul_p}


@_c.reduce_window_p.def_batch
def _reduce_window_batch(args: Sequence[Any], dims: Dims, **params: Any) -> tuple[Any, int]:
    (x, init), (dx, di) = args, dims
    if di is None:  # a window of one along the batch axis
        assert dx is not None
        new = {
            "computation": params["computation"],
            "window_dimensions": _ins(params["window_dimensions"], dx, 1),
            "window_strides": _ins(params["window_strides"], dx, 1),
            "padding": _ins(params["padding"], dx, (0, 0)),
            "base_dilation": _ins(params["base_dilation"], dx, 1),
            "window_dilation": _ins(params["window_dilation"], dx, 1),
        }
        return _c.reduce_window_p.bind(x, init, **new), dx
    # A per-example initial value: pad (and dilate) with it explicitly, fold the windows from
    # the identity, then combine the initial value once, as the fold would have started with it.
    pad_rule = _s.pad_p.batch_rule
    assert pad_rule is not None
    cfg = tuple(
        (lo, hi, bd - 1) for (lo, hi), bd in zip(params["padding"], params["base_dilation"])
    )
    xp, dp = pad_rule([x, init], [dx, di], padding_config=cfg)
    ident = asarray(_c._identity(params["computation"], x.dtype))
    new = {
        "computation": params["computation"],
        "window_dimensions": _ins(params["window_dimensions"], dp, 1),
        "window_strides": _ins(params["window_strides"], dp, 1),
        "padding": ((0, 0),) * xp.ndim,
        "base_dilation": (1,) * xp.ndim,
        "window_dilation": _ins(params["window_dilation"], dp, 1),
    }
    acc = moveaxis(_c.reduce_window_p.bind(xp, ident, **new), dp, 0)
    first = moveaxis(init, di, 0)
    if acc.ndim > 1:
        first = _s.broadcast_in_dim_p.bind(first, shape=tuple(acc.shape), broadcast_dimensions=(0,))
    return _COMBINE[params["computation"]].bind(acc, first), 0


def _ins(values: tuple[Any, ...], at: int, value: Any) -> tuple[Any, ...]:
    return (*values[:at], value, *values[at:])
