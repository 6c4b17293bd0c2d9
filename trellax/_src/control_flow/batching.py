"""Batch rules (``vmap``) of ``cond``, ``while`` and ``scan``, as JAX batches them.

* ``cond``/``switch`` with an unbatched index stays one ``cond`` whose branches are batched; with
  a batched index every branch runs on the whole batch and ``select_n`` picks each element's
  result (so side effects of every branch happen, and values of unselected branches are
  discarded).
* ``while`` with an unbatched predicate stays one loop over batched carries; with a batched
  predicate it runs while *any* element's predicate holds, and elements whose predicate is False
  keep their carry unchanged (a select per step).
* ``scan`` carries batched values with the batch at axis 0; batched ``xs``/``ys`` hold the batch
  at axis 1 (the scanned axis stays leading).

Which carries are batched is a fixpoint: a carry becomes batched when the body makes it so.
Sub-jaxprs are batched by tracing ``batch_flat`` over their evaluation.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from trellax._src.control_flow.conditionals import cond_p
from trellax._src.control_flow.loops import while_p
from trellax._src.control_flow.scan import scan_p
from trellax._src.core import core
from trellax._src.core.core import ShapedArray
from trellax._src.core.jaxpr import ClosedJaxpr, Jaxpr
from trellax._src.dtypes import dtypes
from trellax._src.interpreters import batching, tracing
from trellax._src.lax import elementwise as _el
from trellax._src.lax import reductions as _r
from trellax._src.lax import structural as _s
from trellax._src.lax._base import asarray
from trellax._src.lax._batch import Dims, axis_size, bdim_at_front, elementwise_rule, moveaxis
from trellax._src.lax.ad_util import differentiable
from trellax._src.lax.stop_gradient import stop_gradient_p

Batched = Sequence[bool]

# stop_gradient (layer 6, custom_derivatives) is elementwise.
stop_gradient_p.def_batch(elementwise_rule(stop_gradient_p))


def _batched_aval(a: ShapedArray, batched: bool, size: int) -> ShapedArray:
    return ShapedArray._fast((size, *a.shape), a.dtype, a.weak_type) if batched else a


def _run_batched(
    closed: ClosedJaxpr, args: Sequence[Any], batched: Batched, size: int
) -> tuple[list[Any], list[bool]]:
    """Evaluates ``closed`` on ``args`` (batch at axis 0 where ``batched``) under a batching
    trace: the outputs (batch at axis 0 where batched) and which are batched."""
    info = batching.current_axis()
    outs, dims = batching.batch_flat(
        lambda *xs: tracing.eval_jaxpr(closed, *xs),
        args,
        [0 if b else None for b in batched],
        size,
        info.name,
    )
    return [o if d is None else moveaxis(o, d, 0) for o, d in zip(outs, dims)], [
        d is not None for d in dims
    ]


def batch_jaxpr(
    closed: ClosedJaxpr,
    batched: Batched,
    size: int,
    force: Sequence[bool] | None = None,
    wrap: Callable[[list[Any], list[Any]], list[Any]] | None = None,
) -> tuple[ClosedJaxpr, list[Any], list[bool]]:
    """``closed`` batched: inputs with the batch at axis 0 where ``batched``; outputs batched
    where the computation makes them so or ``force`` asks. Returns (jaxpr taking the hoisted
    constants first, those constants, which outputs are batched)."""
    in_avals = [_batched_aval(a, b, size) for a, b in zip(closed.in_avals, batched)]
    out_batched: list[bool] = []

    def fun(*xs: Any) -> list[Any]:
        outs, ob = _run_batched(closed, xs, batched, size)
        if force is not None:
            outs = [
                bdim_at_front(o, None, size) if f and not b else o
                for o, b, f in zip(outs, ob, force)
            ]
            ob = [b or f for b, f in zip(ob, force)]
        out_batched.extend(ob)
        return wrap(list(xs), outs) if wrap is not None else outs

    traced = tracing.trace_to_jaxpr(fun, in_avals, "batched")
    j = traced.jaxpr
    hoisted = Jaxpr([], [*j.constvars, *j.invars], j.outvars, j.eqns)
    return ClosedJaxpr(hoisted, []), list(traced.consts), out_batched


def _out_batched(closed: ClosedJaxpr, batched: Batched, size: int) -> list[bool]:
    return batch_jaxpr(closed, batched, size)[2]


def _int32(x: Any) -> Any:
    if x.dtype == dtypes.int32 and not x.weak_type:
        return x
    return _s.convert_element_type_p.bind(x, new_dtype=dtypes.int32, weak_type=False)


# -- cond --------------------------------------------------------------------------------------------


@cond_p.def_batch
def _cond_batch(
    args: Sequence[Any], dims: Dims, *, branches: tuple[ClosedJaxpr, ...]
) -> tuple[list[Any], list[int | None]]:
    size = axis_size(args, dims)
    index, ops = args[0], list(args[1:])
    ops_b = [d is not None for d in dims[1:]]
    ops = [o if d is None else moveaxis(o, d, 0) for o, d in zip(ops, dims[1:])]
    if dims[0] is None:
        out_b = [False] * len(branches[0].out_avals)
        for br in branches:
            out_b = [a or b for a, b in zip(out_b, _out_batched(br, ops_b, size))]
        new, consts = [], []
        for br in branches:
            j, c, _ = batch_jaxpr(br, ops_b, size, force=out_b)
            new.append(j)
            consts.append(c)
        # Every branch takes every branch's constants (its own used, the others ignored).
        flat_consts = [c for cs in consts for c in cs]
        avals = [[core.get_aval(c) for c in cs] for cs in consts]
        padded = []
        for i, j in enumerate(new):
            before = [a for av in avals[:i] for a in av]
            after = [a for av in avals[i + 1 :] for a in av]
            padded.append(_pad_invars(j, before, len(consts[i]), after))
        res = cond_p.bind_multi(index, *flat_consts, *ops, branches=tuple(padded))
        return list(res), [0 if b else None for b in out_b]
    # A batched index: run every branch on the whole batch, then select per element. As in
    # JAX, branch i sees its inexact operands through select(index == i, x, stop_gradient(x)),
    # so the derivative of a branch an element does not take (inf * 0 = NaN) cannot reach it.
    idx = moveaxis(_int32(index), dims[0], 0)
    n = len(branches)
    idx = _s.clamp_p.bind(asarray(np.int32(0)), idx, asarray(np.int32(n - 1)))
    ops = [bdim_at_front(o, 0 if b else None, size) for o, b in zip(ops, ops_b)]
    results = []
    for i, br in enumerate(branches):
        taken = _el.eq_p.bind(idx, asarray(np.int32(i))) if n > 1 else None
        masked = [_mask_untaken(taken, o) for o in ops]
        outs, ob = _run_batched(br, masked, [True] * len(ops), size)
        results.append([bdim_at_front(o, 0 if b else None, size) for o, b in zip(outs, ob)])
    selected = [_select_per_example(idx, list(cases)) for cases in zip(*results)]
    return selected, [0] * len(selected)


def _per_example(which: Any, like: Any) -> Any:
    """``which`` (one entry per example, batch at axis 0) broadcast to the shape of ``like``."""
    if like.ndim > 1:
        return _s.broadcast_in_dim_p.bind(which, shape=tuple(like.shape), broadcast_dimensions=(0,))
    return which


def _mask_untaken(taken: Any, x: Any) -> Any:
    """``x`` where ``taken``, ``stop_gradient(x)`` elsewhere (inexact ``x`` only)."""
    if taken is None or not differentiable(x.dtype):
        return x
    return _s.select_n_p.bind(_per_example(taken, x), stop_gradient_p.bind(x), x)


def _select_per_example(idx: Any, cases: list[Any]) -> Any:
    return _s.select_n_p.bind(_per_example(idx, cases[0]), *cases) if len(cases) > 1 else cases[0]


def _pad_invars(
    j: ClosedJaxpr, before: list[ShapedArray], n_own: int, after: list[ShapedArray]
) -> ClosedJaxpr:
    from trellax._src.core.jaxpr import Var

    inner = j.jaxpr
    invars = [
        *[Var(a) for a in before],
        *inner.invars[:n_own],
        *[Var(a) for a in after],
        *inner.invars[n_own:],
    ]
    return ClosedJaxpr(Jaxpr([], invars, inner.outvars, inner.eqns), [])


# -- while ---------------------------------------------------------------------------------------------


@while_p.def_batch
def _while_batch(
    args: Sequence[Any],
    dims: Dims,
    *,
    cond_jaxpr: ClosedJaxpr,
    body_jaxpr: ClosedJaxpr,
    cond_nconsts: int,
    body_nconsts: int,
) -> tuple[list[Any], list[int | None]]:
    size = axis_size(args, dims)
    vals = [a if d is None else moveaxis(a, d, 0) for a, d in zip(args, dims)]
    b = [d is not None for d in dims]
    cconsts, bconsts = vals[:cond_nconsts], vals[cond_nconsts : cond_nconsts + body_nconsts]
    carry = vals[cond_nconsts + body_nconsts :]
    cc_b = b[:cond_nconsts]
    bc_b = b[cond_nconsts : cond_nconsts + body_nconsts]
    carry_b = list(b[cond_nconsts + body_nconsts :])
    while True:  # the fixpoint of which carries are batched
        out_b = _out_batched(body_jaxpr, [*bc_b, *carry_b], size)
        grown = [x or y for x, y in zip(carry_b, out_b)]
        if grown == carry_b:
            break
        carry_b = grown
    (pred_b,) = _out_batched(cond_jaxpr, [*cc_b, *carry_b], size)
    if pred_b:
        carry_b = [True] * len(carry)
    carry = [
        bdim_at_front(c, None, size) if cb and not orig else c
        for c, cb, orig in zip(carry, carry_b, b[cond_nconsts + body_nconsts :])
    ]
    n_cc, n_bc = len(cconsts), len(bconsts)
    if not pred_b:
        cj, cconsts2, _ = batch_jaxpr(cond_jaxpr, [*cc_b, *carry_b], size)
        bj, bconsts2, _ = batch_jaxpr(body_jaxpr, [*bc_b, *carry_b], size, force=carry_b)
        outs = while_p.bind_multi(
            *cconsts2,
            *cconsts,
            *bconsts2,
            *bconsts,
            *carry,
            cond_jaxpr=cj,
            body_jaxpr=bj,
            cond_nconsts=len(cconsts2) + n_cc,
            body_nconsts=len(bconsts2) + n_bc,
        )
        return list(outs), [0 if x else None for x in carry_b]

    # A batched predicate: loop while any element's holds; finished elements keep their carry.
    def any_pred(xs: list[Any], outs: list[Any]) -> list[Any]:
        return [_r.reduce_or_p.bind(outs[0], axes=(0,))]

    cj, cconsts2, _ = batch_jaxpr(cond_jaxpr, [*cc_b, *carry_b], size, wrap=any_pred)

    def body(*xs: Any) -> list[Any]:
        cc, bc, cur = xs[:n_cc], xs[n_cc : n_cc + n_bc], list(xs[n_cc + n_bc :])
        (pred,), _ = _run_batched(cond_jaxpr, [*cc, *cur], [*cc_b, *carry_b], size)
        new, new_b = _run_batched(body_jaxpr, [*bc, *cur], [*bc_b, *carry_b], size)
        out = []
        for old, nw, nb in zip(cur, new, new_b):
            nw = bdim_at_front(nw, 0 if nb else None, size)
            which = pred
            if old.ndim > 1:
                which = _s.broadcast_in_dim_p.bind(
                    pred, shape=tuple(old.shape), broadcast_dimensions=(0,)
                )
            out.append(_s.select_n_p.bind(which, old, nw))
        return out

    body_avals = [core.get_aval(x) for x in [*cconsts, *bconsts, *carry]]
    traced = tracing.trace_to_jaxpr(body, body_avals, "batched while body")
    j = traced.jaxpr
    bj = ClosedJaxpr(Jaxpr([], [*j.constvars, *j.invars], j.outvars, j.eqns), [])
    bconsts2 = list(traced.consts)
    outs = while_p.bind_multi(
        *cconsts2,
        *cconsts,
        *bconsts2,
        *cconsts,
        *bconsts,
        *carry,
        cond_jaxpr=cj,
        body_jaxpr=bj,
        cond_nconsts=len(cconsts2) + n_cc,
        body_nconsts=len(bconsts2) + n_cc + n_bc,
    )
    return list(outs), [0] * len(outs)


# -- scan ------------------------------------------------------------------------------------------------


@scan_p.def_batch
def _scan_batch(
    args: Sequence[Any],
    dims: Dims,
    *,
    jaxpr: ClosedJaxpr,
    num_consts: int,
    num_carry: int,
    length: int,
    reverse: bool,
) -> tuple[list[Any], list[int | None]]:
    size = axis_size(args, dims)
    nc, nk = num_consts, num_carry
    consts = [a if d is None else moveaxis(a, d, 0) for a, d in zip(args[:nc], dims[:nc])]
    carry = [
        a if d is None else moveaxis(a, d, 0)
        for a, d in zip(args[nc : nc + nk], dims[nc : nc + nk])
    ]
    xs = [a if d is None else moveaxis(a, d, 1) for a, d in zip(args[nc + nk :], dims[nc + nk :])]
    c_b = [d is not None for d in dims[:nc]]
    carry_b = [d is not None for d in dims[nc : nc + nk]]
    x_b = [d is not None for d in dims[nc + nk :]]
    while True:
        out_b = _out_batched(jaxpr, [*c_b, *carry_b, *x_b], size)
        grown = [x or y for x, y in zip(carry_b, out_b[:nk])]
        if grown == carry_b:
            break
        carry_b = grown
    carry = [
        bdim_at_front(c, None, size) if cb and d is None else c
        for c, cb, d in zip(carry, carry_b, dims[nc : nc + nk])
    ]
    force = [*carry_b, *([False] * (len(jaxpr.out_avals) - nk))]
    new, new_consts, out_b = batch_jaxpr(jaxpr, [*c_b, *carry_b, *x_b], size, force=force)
    outs = scan_p.bind_multi(
        *new_consts,
        *consts,
        *carry,
        *xs,
        jaxpr=new,
        num_consts=len(new_consts) + nc,
        num_carry=nk,
        length=length,
        reverse=reverse,
    )
    out_dims: list[int | None] = [0 if b else None for b in out_b[:nk]]
    out_dims += [1 if b else None for b in out_b[nk:]]
    return list(outs), out_dims
