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

from trellax._src.core.core import Primitive
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


# -- the convolution and its two cotangent primitives ------------------------------------------------

#: Where a batch axis goes: (which spec of the dimension numbers: 0 lhs, 1 rhs, 2 out; position in
#: it: 0 the batch/out-feature axis, 1 the feature/in-feature axis; whether group-major).
Fold = tuple[int, int, bool]
_L, _R, _O = 0, 1, 2


def _fold_rule(
    prim: Primitive,
    shape_param: str | None,
    only_first: tuple[Fold, Fold],
    only_second: tuple[Fold, Fold],
    both: tuple[Fold, Fold, Fold],
) -> None:
    """Registers the batch rule of a two-operand window primitive: per case (which operand is
    batched), where each batched operand's batch is folded and where the result's is split off.
    With both batched, every example becomes a feature group of its own."""

    def rule(args: Sequence[Any], dims: Dims, **params: Any) -> tuple[Any, int]:
        (a, b), (da, db) = args, dims
        size = axis_size(args, dims)
        specs = params["dimension_numbers"]
        g = params["feature_group_count"]
        new = dict(params)

        def fold(x: Any, d: Any, where: Fold) -> Any:
            return _fold(x, d, specs[where[0]][where[1]], g if where[2] else 1)

        if db is None:
            a, out = fold(a, da, only_first[0]), only_first[1]
        elif da is None:
            b, out = fold(b, db, only_second[0]), only_second[1]
        else:
            a, b, out = fold(a, da, both[0]), fold(b, db, both[1]), both[2]
            new["feature_group_count"] = g * size
        axis = specs[out[0]][out[1]]
        if shape_param is not None:
            new[shape_param] = _with_size(params[shape_param], axis, size)
        res = prim.bind(a, b, **new)
        return _unfold(res, axis, size, g if out[2] else 1), axis

    prim.def_batch(rule)


# conv(x, w) -> (N, O, ...): x alone joins N; w alone joins each group's O; both: x's C and w's O.
_fold_rule(
    _c.conv_general_dilated_p,
    None,
    only_first=((_L, 0, False), (_O, 0, False)),
    only_second=((_R, 0, True), (_O, 1, True)),
    both=((_L, 1, False), (_R, 0, False), (_O, 1, False)),
)
# conv_lhs_transpose(ct, w) -> input-shaped (N, C, ...): the transposes of the folds above (w
# alone: its input features carry the batch, as do the result's features within each group).
_fold_rule(
    _c.conv_lhs_transpose_p,
    "lhs_shape",
    only_first=((_O, 0, False), (_L, 0, False)),
    only_second=((_R, 1, False), (_L, 1, True)),
    both=((_O, 1, False), (_R, 0, False), (_L, 1, False)),
)
# conv_rhs_transpose(x, ct) -> kernel-shaped (O, I, ...).
_fold_rule(
    _c.conv_rhs_transpose_p,
    "rhs_shape",
    only_first=((_L, 1, True), (_R, 1, False)),
    only_second=((_O, 1, True), (_R, 0, True)),
    both=((_L, 1, False), (_O, 1, False), (_R, 0, False)),
)


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
