"""``cond`` and ``switch``: the branches are traced into sub-jaxprs of one ``cond`` primitive.

Dtype rules (JAX's): branch outputs must have equal shapes and dtypes (weak flags may differ); the
result has branch 0's types, weak flags included.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from trellax._src.control_flow import unjitted
from trellax._src.control_flow.common import (
    _avals_of,
    _block,
    _run_eagerly,
    _trace,
    eager_cached,
    fun_key,
)
from trellax._src.core import core
from trellax._src.core.basearray import Array
from trellax._src.core.core import Primitive, ShapedArray
from trellax._src.core.jaxpr import ClosedJaxpr, Jaxpr, JaxprEqn, Var
from trellax._src.dtypes import dtypes
from trellax._src.interpreters import tracing
from trellax._src.lax._base import asarray
from trellax._src.lax.structural import _convert
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


def switch(index: Any, branches: Sequence[Callable[..., Any]], *operands: Any) -> Any:
    """Applies ``branches[index](*operands)``; ``index`` is clamped to the valid range.

    Every branch must return the same tree of (shape, dtype); weak flags may differ, and the
    result has ``branches[0]``'s.
    """
    funs = tuple(branches)
    if (out := unjitted.switch(index, funs, operands)) is not unjitted.NOT_HANDLED:
        return out
    names = [f"branches[{i}]" for i in range(len(funs))]
    return eager_cached(
        ("switch", *[fun_key(b) for b in funs]),
        lambda i, *ops: _switch(i, funs, ops, names),
        (index, *operands),
    )


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
    outs = cond_p.bind_multi(
        idx, *all_consts, *[asarray(x) for x in leaves], branches=tuple(jaxprs)
    )
    return tree_unflatten(out_tree, list(outs))


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
            if a.shape != b.shape or a.dtype != b.dtype:
                what = "shapes" if a.shape != b.shape else "dtypes"
                paths = tree_flatten_with_path(
                    tree_unflatten(first_tree, [0] * first_tree.num_leaves)
                )
                leaf = "output" + keystr(paths[0][k][0]) if k < len(paths[0]) else f"output {k}"
                raise TypeError(
                    f"{kind} branches must have equal output types but they differ. The "
                    f"{leaf} of {names[0]} has type {a} but the corresponding {leaf} of "
                    f"{name} has type {b}, so the {what} do not match. Cast one "
                    "branch's result (e.g. with .astype) so both agree."
                )


def cond(
    pred: Any, true_fun: Callable[..., Any], false_fun: Callable[..., Any], *operands: Any
) -> Any:
    """``true_fun(*operands)`` if ``pred`` else ``false_fun(*operands)``, traced both ways.

    ``pred`` must be a scalar bool or number (nonzero is true). Both branches must return the
    same tree of (shape, dtype).
    """
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
        from trellax._src.lax.elementwise import ne

        p = ne(p, _zero_like(p))
    return _switch(
        _convert(p, dtypes.int32, False), (false_fun, true_fun), operands, ["false_fun", "true_fun"]
    )


def _zero_like(x: Array) -> Array:
    from trellax._src.lax._base import scalar_to_array

    return scalar_to_array(0, x.dtype, x.weak_type)
