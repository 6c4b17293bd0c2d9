"""``cond`` and ``switch``: the branches are traced into sub-jaxprs of one ``cond`` primitive.

Dtype rules (JAX's): branch outputs must have equal shapes and dtypes (weak flags may differ); the
result has branch 0's types, weak flags included.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from trellax._src.control_flow import unjitted
from trellax._src.control_flow.common import (
    _avals_of,
    _block,
    _int32,
    _out_batched,
    _run_batched,
    _run_eagerly,
    _trace,
    batch_jaxpr,
    eager_cached,
    fun_key,
)
from trellax._src.core import core
from trellax._src.core.basearray import Array
from trellax._src.core.core import Primitive, ShapedArray
from trellax._src.core.jaxpr import ClosedJaxpr, Jaxpr, JaxprEqn, Var
from trellax._src.dtypes import dtypes
from trellax._src.interpreters import batching, tracing
from trellax._src.lax import sharding_rules
from trellax._src.lax._base import asarray, scalar_to_array
from trellax._src.lax.ad_util import differentiable
from trellax._src.lax.elementwise import eq_p, ne
from trellax._src.lax.shapes import Dims, bdim_at_front, moveaxis
from trellax._src.lax.stop_gradient import stop_gradient_p
from trellax._src.lax.structural import (
    _convert,
    broadcast_in_dim_p,
    clamp_p,
    select_n_p,
)
from trellax._src.tree.keys import keystr
from trellax._src.tree.tree_util import (
    PyTreeDef,
    tree_flatten,
    tree_flatten_with_path,
    tree_unflatten,
)

# -- cond / switch -------------------------------------------------------------------------------

cond_p = Primitive("cond", multiple_results=True)


@cond_p.def_abstract_eval
def _cond_abstract_eval(
    index: Any, *args: Any, branches: tuple[ClosedJaxpr, ...]
) -> tuple[ShapedArray, ...]:
    # JAX's rule: the branches agree on shapes and dtypes (checked when tracing) and the result
    # has branch 0's types, weak flags included -- false_fun's for cond: ``cond(p, lambda: f32,
    # lambda: 1.0)`` is a weak float32, ``cond(p, lambda: 1.0, lambda: f32)`` a strong one.
    return tuple(branches[0].out_avals)


def _cond_codegen(
    em: tracing.Emitter, eqn: JaxprEqn, args: list[str], outs: list[str], indent: str
) -> None:
    """``if i <= 0: <branch 0> elif i == 1: <branch 1> ... else: <last branch>`` inline."""
    branches: tuple[ClosedJaxpr, ...] = eqn.params["branches"]
    index, ops = args[0], args[1:]
    inner = indent + "    "
    i = em.fresh("i")
    em.emit(f"{indent}{i} = int({index})")
    last = len(branches) - 1
    for k, branch in enumerate(branches):
        if k == last:
            em.emit(f"{indent}else:" if k else f"{indent}if True:")
        else:
            em.emit(f"{indent}{'if' if k == 0 else 'elif'} {i} {'<=' if k == 0 else '=='} {k}:")
        start = len(em.lines)
        em.assign(outs, em.jaxpr(branch.jaxpr, branch.consts, ops, inner), inner)
        _block(em, inner, start)


cond_p.def_impl(_run_eagerly(cond_p))
tracing.codegen_rules[cond_p] = _cond_codegen


def _cond_dce(eqn: JaxprEqn, used: list[bool]) -> JaxprEqn | None:
    """A ``cond`` computing only its results that are read (each branch without the work only
    the others need), reading only the operands some branch still reads."""
    keep = [i for i, u in enumerate(used) if u]
    pruned = []
    for b in eqn.params["branches"]:
        j = b.jaxpr
        outs = [j.outvars[i] for i in keep]
        pruned.append(tracing.without_dead_code(Jaxpr(j.constvars, j.invars, outs, j.eqns)))
    read: set[int] = set()
    for j in pruned:
        read.update(id(a) for e in j.eqns for a in e.invars if type(a) is Var)
        read.update(id(a) for a in j.outvars if type(a) is Var)
    n_ops = len(eqn.invars) - 1
    live = [k for k in range(n_ops) if any(id(j.invars[k]) in read for j in pruned)]
    branches = tuple(
        ClosedJaxpr(Jaxpr(j.constvars, [j.invars[k] for k in live], j.outvars, j.eqns), b.consts)
        for j, b in zip(pruned, eqn.params["branches"])
    )
    operands = [eqn.invars[0], *[eqn.invars[1 + k] for k in live]]
    outvars = [eqn.outvars[i] for i in keep]
    params = dict(eqn.params, branches=branches)
    return JaxprEqn(eqn.primitive, operands, outvars, params, eqn.source, eqn.api)


tracing.dce_rules[cond_p] = _cond_dce


_NO_OPERAND = object()


def _legacy_operand(operands: tuple[Any, ...], operand: Any) -> tuple[Any, ...]:
    """The operands of the older one-operand form ``operand=`` (still accepted by JAX)."""
    if operand is _NO_OPERAND:
        return operands
    if operands:
        raise TypeError(
            "if 'operand' keyword is passed then no positional operands can be passed, got "
            f"operand={operand!r} and positional operands {operands!r}"
        )
    return (operand,)


def switch(
    index: Any, branches: Sequence[Callable[..., Any]], *operands: Any, operand: Any = _NO_OPERAND
) -> Any:
    """Applies ``branches[index](*operands)``; ``index`` is clamped to the valid range.

    Every branch must return the same tree of (shape, dtype); weak flags may differ, and the
    result has ``branches[0]``'s. ``operand=x`` is the older spelling of one operand ``x``.
    """
    operands = _legacy_operand(operands, operand)
    funs = tuple(branches)
    _check_switch_args(index, funs)
    if (out := unjitted.switch(index, funs, operands)) is not unjitted.NOT_HANDLED:
        return out
    names = [f"branches[{i}]" for i in range(len(funs))]
    return eager_cached(
        ("switch", *[fun_key(b) for b in funs]),
        lambda i, *ops: _switch(i, funs, ops, names),
        (index, *operands),
    )


def _check_switch_args(index: Any, funs: Sequence[Any]) -> None:
    """JAX's checks of ``switch``'s arguments, in its order and words."""
    if not all(callable(b) for b in funs):
        raise TypeError("lax.switch: branches argument should be a sequence of callables.")
    if len(np.shape(index)) != 0:
        raise TypeError(f"Branch index must be scalar, got {index} of shape {np.shape(index)}.")
    try:
        index_dtype = dtypes.result_type(index)
    except TypeError as err:
        raise TypeError(f"Index type must be an integer, got {index}.") from err
    if index_dtype.kind not in "iu":
        raise TypeError(f"Index type must be an integer, got {index} as {index_dtype}")
    if not funs:
        raise ValueError("Empty branch sequence")


def _check_cond_args(pred: Any, true_fun: Any, false_fun: Any) -> None:
    """JAX's checks of ``cond``'s arguments, in its order and words."""
    if not (callable(true_fun) and callable(false_fun)):
        raise TypeError("lax.cond: true_fun and false_fun arguments should be callable.")
    if pred is None:
        raise TypeError("cond predicate is None")
    if isinstance(pred, Sequence) or np.ndim(pred) != 0:
        raise TypeError(
            f"Pred must be a scalar, got {pred} of "
            + (f"type {type(pred)}" if isinstance(pred, Sequence) else f"shape {np.shape(pred)}.")
        )
    try:
        pred_dtype = dtypes.result_type(pred)
    except TypeError as err:
        raise TypeError(f"Pred type must be either boolean or number, got {pred}.") from err
    if pred_dtype.kind not in "biuf":
        raise TypeError(f"Pred type must be either boolean or number, got {pred_dtype}.")


def _switch(
    index: Any, branches: Sequence[Callable[..., Any]], operands: Sequence[Any], names: list[str]
) -> Any:
    if not branches:
        raise ValueError("switch requires at least one branch")
    idx = asarray(index)
    if idx.shape != ():
        raise TypeError(f"Branch index must be scalar, got {index!r} of shape {idx.shape}.")
    if dtypes.kind(idx.dtype) not in ("i", "u"):
        raise TypeError(
            f"Index type must be an integer, got {index!r} as {idx.dtype.name}. Use an integer "
            "index (or lax.cond for a boolean predicate)."
        )
    idx = _convert(idx, dtypes.int32, False)
    if len(branches) == 1:
        return branches[0](*operands)
    leaves, in_tree = tree_flatten(tuple(operands))
    in_avals = _avals_of(leaves)
    traced = [_trace(b, in_tree, in_avals, f"branch {i}") for i, b in enumerate(branches)]
    order = list(range(len(traced)))[::-1] if names == ["false_fun", "true_fun"] else None
    _check_branch_outputs(
        [traced[i] for i in order] if order else traced,
        [names[i] for i in order] if order else names,
    )
    # Every branch takes all branches' constants (its own used, the others ignored).
    all_consts: list[Any] = []
    jaxprs = []
    const_avals = [[core.get_aval(c) for c in consts] for _, consts, _ in traced]
    for i, (closed, consts, _) in enumerate(traced):
        before = [a for avals in const_avals[:i] for a in avals]
        after = [a for avals in const_avals[i + 1 :] for a in avals]
        j = closed.jaxpr
        n_c = len(consts)
        pre = [Var(a) for a in before]
        post = [Var(a) for a in after]
        invars = [*pre, *j.invars[:n_c], *post, *j.invars[n_c:]]
        jaxprs.append(ClosedJaxpr(Jaxpr([], invars, j.outvars, j.eqns), []))
        all_consts.extend(consts)
    out_tree = traced[0][2]
    operands_in = [asarray(x) for x in leaves]
    # An output that every branch returns as the same operand, untouched, is that operand (as
    # in JAX): it leaves the cond, so under vmap it stays unbatched when the operand is.
    fwd = _forwarded_outputs(
        [closed.jaxpr for closed, _, _ in traced], [len(c) for _, c, _ in traced]
    )
    kept = [k for k, p in enumerate(fwd) if p is None]
    if len(kept) < len(fwd):
        jaxprs = [
            ClosedJaxpr(
                Jaxpr([], j.jaxpr.invars, [j.jaxpr.outvars[k] for k in kept], j.jaxpr.eqns), []
            )
            for j in jaxprs
        ]
    outs = iter(cond_p.bind_multi(idx, *all_consts, *operands_in, branches=tuple(jaxprs)))
    flat = [next(outs) if p is None else operands_in[p] for p in fwd]
    return tree_unflatten(out_tree, flat)


def _forwarded_outputs(branches: Sequence[Jaxpr], n_consts: Sequence[int]) -> list[int | None]:
    """Per output, the operand index every branch returns there unchanged (else None)."""
    found: list[int | None] | None = None
    for j, n_c in zip(branches, n_consts):
        operand_vars = j.invars[n_c:]
        mine: list[int | None] = []
        for v in j.outvars:
            where = [p for p, iv in enumerate(operand_vars) if iv is v]
            mine.append(where[0] if where else None)
        found = mine if found is None else [a if a == b else None for a, b in zip(found, mine)]
    return found or []


def _check_branch_outputs(
    traced: Sequence[tuple[ClosedJaxpr, list[Any], PyTreeDef]], names: Sequence[str]
) -> None:
    first_closed, _, first_tree = traced[0]
    kind = "cond" if "true_fun" in names else "switch"
    for (closed, _, tree), name in zip(traced[1:], names[1:]):
        if tree != first_tree:
            raise TypeError(
                f"{kind} branches must have equal output types but they differ: the output of "
                f"{names[0]} has structure {first_tree} but the output of {name} has structure "
                f"{tree}."
            )
        for k, (a, b) in enumerate(zip(first_closed.out_avals, closed.out_avals)):
            if (
                a.shape != b.shape
                or a.dtype != b.dtype
                or (
                    sharding_rules.active[0]
                    and sharding_rules.type_spec(a) != sharding_rules.type_spec(b)
                )
            ):
                what = (
                    "shapes"
                    if a.shape != b.shape
                    else "dtypes"
                    if a.dtype != b.dtype
                    else "shardings"
                )
                paths = tree_flatten_with_path(
                    tree_unflatten(first_tree, [0] * first_tree.num_leaves)
                )
                leaf = "output" + keystr(paths[0][k][0]) if k < len(paths[0]) else f"output {k}"
                raise TypeError(
                    f"{kind} branches must have equal output types but they differ.\nThe "
                    f"{leaf} of {names[0]} has type {a} but the corresponding {leaf} of "
                    f"{name} has type {b}, so the {what} do not match. Cast one "
                    "branch's result (e.g. with .astype) so both agree."
                )


def cond(
    pred: Any,
    true_fun: Callable[..., Any],
    false_fun: Callable[..., Any],
    *operands: Any,
    operand: Any = _NO_OPERAND,
) -> Any:
    """``true_fun(*operands)`` if ``pred`` else ``false_fun(*operands)``, traced both ways.

    ``pred`` must be a scalar bool or number (nonzero is true). Both branches must return the
    same tree of (shape, dtype). ``operand=x`` is the older spelling of one operand ``x``.
    """
    operands = _legacy_operand(operands, operand)
    _check_cond_args(pred, true_fun, false_fun)
    if (out := unjitted.cond(pred, true_fun, false_fun, operands)) is not unjitted.NOT_HANDLED:
        return out
    return eager_cached(
        ("cond", fun_key(true_fun), fun_key(false_fun)),
        lambda p, *ops: _cond(p, true_fun, false_fun, ops),
        (pred, *operands),
    )


def _cond(
    pred: Any, true_fun: Callable[..., Any], false_fun: Callable[..., Any], operands: Any
) -> Any:
    p = asarray(pred)
    if p.shape != ():
        raise TypeError(f"Pred must be a scalar, got {pred!r} of shape {p.shape}.")
    if dtypes.kind(p.dtype) == "c":
        raise TypeError(f"Pred type must be either boolean or number, got {p.dtype.name}.")
    if p.dtype != dtypes.bool_:
        p = ne(p, _zero_like(p))
    return _switch(
        _convert(p, dtypes.int32, False), (false_fun, true_fun), operands, ["false_fun", "true_fun"]
    )


def _zero_like(x: Array) -> Array:
    return scalar_to_array(0, x.dtype, x.weak_type)


# -- batch rules --------------------------------------------------------------------------------
# With an unbatched index the ``cond`` stays one ``cond`` whose branches are batched; with a
# batched index every branch runs on the whole batch and ``select_n`` picks each element's result
# (so side effects of every branch happen, and values of unselected branches are discarded).


@cond_p.def_batch
def _cond_batch(
    args: Sequence[Any], dims: Dims, *, branches: tuple[ClosedJaxpr, ...]
) -> tuple[list[Any], list[int | None]]:
    size = batching.current_axis().size  # also when only a collective inside is batched
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
    idx = clamp_p.bind(asarray(np.int32(0)), idx, asarray(np.int32(n - 1)))
    ops = [bdim_at_front(o, 0 if b else None, size) for o, b in zip(ops, ops_b)]
    results = []
    for i, br in enumerate(branches):
        taken = eq_p.bind(idx, asarray(np.int32(i))) if n > 1 else None
        masked = [_mask_untaken(taken, o) for o in ops]
        outs, ob = _run_batched(br, masked, [True] * len(ops), size)
        results.append([bdim_at_front(o, 0 if b else None, size) for o, b in zip(outs, ob)])
    selected = [_select_per_example(idx, list(cases)) for cases in zip(*results)]
    return selected, [0] * len(selected)


def _per_example(which: Any, like: Any) -> Any:
    """``which`` (one entry per example, batch at axis 0) broadcast to the shape of ``like``."""
    if like.ndim > 1:
        return broadcast_in_dim_p.bind(which, shape=tuple(like.shape), broadcast_dimensions=(0,))
    return which


def _mask_untaken(taken: Any, x: Any) -> Any:
    """``x`` where ``taken``, ``stop_gradient(x)`` elsewhere (inexact ``x`` only)."""
    if taken is None or not differentiable(x.dtype):
        return x
    return select_n_p.bind(_per_example(taken, x), stop_gradient_p.bind(x), x)


def _select_per_example(idx: Any, cases: list[Any]) -> Any:
    return select_n_p.bind(_per_example(idx, cases[0]), *cases) if len(cases) > 1 else cases[0]


def _pad_invars(
    j: ClosedJaxpr, before: list[ShapedArray], n_own: int, after: list[ShapedArray]
) -> ClosedJaxpr:
    inner = j.jaxpr
    invars = [
        *[Var(a) for a in before],
        *inner.invars[:n_own],
        *[Var(a) for a in after],
        *inner.invars[n_own:],
    ]
    return ClosedJaxpr(Jaxpr([], invars, inner.outvars, inner.eqns), [])
