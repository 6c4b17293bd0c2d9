"""What a rematerialization policy saves, and a body that uses the saved values.

``checkpoint(f, policy=p)`` in reverse mode: the values of ``f``'s body that ``p`` calls
saveable (``p(primitive, *input avals, **params)``, JAX's policy signature) and that a later
equation of the body reads are kept from the forward pass as residuals, beside the body's
inputs; the backward pass recomputes everything else. A kept value enters the recomputation
through the ``use_saved`` primitive: its value is the kept one, its tangent the original
equation's (whose primal result, recomputed inside the rule, nothing reads: under ``jit`` dead
code elimination drops it). Values and derivatives are the same for every policy; what changes
is which values are held between the passes (``ad_checkpoint.print_saved_residuals`` lists
them, as JAX's does).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from trellax._src.core import core
from trellax._src.core.core import Primitive, ShapedArray
from trellax._src.core.jaxpr import ClosedJaxpr, Literal, Var
from trellax._src.interpreters import tracing

#: (equation index, output index) of each value kept, in program order
Saved = tuple[tuple[int, int], ...]


def saved_positions(jaxpr: ClosedJaxpr, policy: Callable[..., bool] | None) -> Saved:
    """The values of ``jaxpr`` that ``policy`` lets the forward pass keep (single-result
    equations whose result a later equation reads)."""
    if policy is None:
        return ()
    eqns = jaxpr.jaxpr.eqns
    read: set[int] = {id(a) for e in eqns for a in e.invars if type(a) is Var}
    found: list[tuple[int, int]] = []
    for i, e in enumerate(eqns):
        if e.primitive.multiple_results or len(e.outvars) != 1:
            continue
        if id(e.outvars[0]) not in read:
            continue
        avals = [a.aval for a in e.invars]
        if policy(e.primitive, *avals, **e.params):
            found.append((i, 0))
    return tuple(found)


def saves_everything(jaxpr: ClosedJaxpr, policy: Callable[..., bool] | None) -> bool:
    """Whether ``policy`` lets every equation's results be kept (``everything_saveable``): then
    nothing is recomputed, and reverse mode keeps what plain linearization keeps."""
    if policy is None:
        return False
    eqns = jaxpr.jaxpr.eqns
    return all(policy(e.primitive, *[a.aval for a in e.invars], **e.params) for e in eqns)


def saved_avals(jaxpr: ClosedJaxpr, saved: Saved) -> list[ShapedArray]:
    eqns = jaxpr.jaxpr.eqns
    return [eqns[i].outvars[j].aval for i, j in saved]


def _interpret(
    jaxpr: ClosedJaxpr, args: Sequence[Any], replace: Callable[[int, list[Any]], Any] | None
) -> tuple[list[Any], dict[int, Any]]:
    """``jaxpr`` bound equation by equation in the current trace: its outputs and the value of
    every variable (by id). ``replace(i, inputs)``, when it returns a value, stands for the
    result of equation ``i`` (a single-result equation)."""
    j = jaxpr.jaxpr
    env: dict[int, Any] = {id(v): c for v, c in zip(j.constvars, jaxpr.consts)}
    env.update({id(v): a for v, a in zip(j.invars, args)})

    def read(a: Any) -> Any:
        if type(a) is Literal:
            return core.new_array(a.value, a.aval.dtype, a.aval.weak_type)
        return env[id(a)]

    for i, e in enumerate(j.eqns):
        ins = [read(a) for a in e.invars]
        kept = replace(i, ins) if replace is not None else None
        if kept is not None:
            outs: Sequence[Any] = (kept,)
        elif e.primitive.multiple_results:
            outs = e.primitive.bind_multi(*ins, **e.params)
        else:
            outs = (e.primitive.bind(*ins, **e.params),)
        env.update({id(v): o for v, o in zip(e.outvars, outs)})
    return [read(a) for a in j.outvars], env


def eval_keeping(
    jaxpr: ClosedJaxpr, args: Sequence[Any], saved: Saved
) -> tuple[list[Any], list[Any]]:
    """``jaxpr``'s outputs on ``args`` (bound in the current trace) and the saved values."""
    if not saved:
        return tracing.eval_jaxpr(jaxpr, *args), []
    outs, env = _interpret(jaxpr, args, None)
    eqns = jaxpr.jaxpr.eqns
    return outs, [env[id(eqns[i].outvars[k])] for i, k in saved]


use_saved_p = Primitive("use_saved")


@use_saved_p.def_abstract_eval
def _use_saved_abstract_eval(kept: Any, *ins: Any, eqn_primitive: Primitive, **params: Any) -> Any:
    return core.get_aval(kept)


use_saved_p.def_impl(lambda kept, *ins, **params: kept, fp_free=True)


@use_saved_p.def_jvp
def _use_saved_jvp(
    primals: Sequence[Any], tangents: Sequence[Any], *, eqn_primitive: Primitive, **params: Any
) -> tuple[Any, Any]:
    kept, *ins = primals
    rule = eqn_primitive.jvp_rule
    assert rule is not None
    _, t_out = rule(list(ins), list(tangents[1:]), **params)
    return use_saved_p.bind(kept, *ins, eqn_primitive=eqn_primitive, **params), t_out


@use_saved_p.def_batch
def _use_saved_batch(
    args: Sequence[Any], dims: Sequence[Any], *, eqn_primitive: Primitive, **params: Any
) -> tuple[Any, Any]:
    return args[0], dims[0]  # the kept value as it is: the inputs only feed the tangent


def body_using_saved(jaxpr: ClosedJaxpr, saved: Saved, kept: Sequence[Any]) -> Any:
    """The body as a function of its inputs, with each saved equation replaced by its kept
    value (the equation's tangent still flows through ``use_saved``)."""
    where = {i: value for (i, _), value in zip(saved, kept)}
    eqns = jaxpr.jaxpr.eqns

    def use(i: int, ins: list[Any]) -> Any:
        if i not in where:
            return None
        e = eqns[i]
        return use_saved_p.bind(where[i], *ins, eqn_primitive=e.primitive, **e.params)

    def body(*args: Any) -> list[Any]:
        return _interpret(jaxpr, args, use)[0]

    return body
