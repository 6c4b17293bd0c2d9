"""Splitting a known ``cond`` or ``scan`` of a checkpointed body between the passes.

When the linear part of a checkpointed body needs results of a ``cond`` or ``scan`` that run in
the forward pass and the policy does not let it keep them whole, recomputing the whole equation
would redo work the policy saves (the products ``checkpoint_dots`` keeps). As JAX's partial
evaluation does, the equation is split instead: the forward equation also returns the values
of its body that the policy saves (a ``cond``: each branch its own, zeros in the others'
places; a ``scan``: stacked over the iterations), and the backward equation recomputes only
the rest from them. A rule returns ``(forward equation, backward equation, new residuals)``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from trellax._src.core.core import ShapedArray
from trellax._src.core.jaxpr import Atom, ClosedJaxpr, Jaxpr, JaxprEqn, Var
from trellax._src.interpreters import tracing
from trellax._src.lax.ad_util import zeros
from trellax._src.lax.structural import broadcast_in_dim

#: ``saveable(eqn, output index) -> bool`` (the policy, as ``partial_eval._saveable`` applies it)
Saveable = Callable[[JaxprEqn, int], bool]
Split = tuple[JaxprEqn, JaxprEqn, list[Var]]


Plan = tuple[list[Var], list[JaxprEqn], list[JaxprEqn]]


def place_known(
    i: int,
    e: JaxprEqn,
    need: set[int],
    saveable: Saveable,
    known: list[JaxprEqn] | dict[int, JaxprEqn],
    staged: dict[int, JaxprEqn],
    saved: list[tuple[int, Var]],
    use_rules: bool = True,
) -> None:
    """Where equation ``i`` of the forward pass goes, walking backward from what the backward
    pass ``need``s: nothing needed, its needed outputs saved (the policy allows it), split by its
    rule (control flow: part forward, part recomputed), or recomputed whole (its inputs needed)."""
    ks = [k for k, v in enumerate(e.outvars) if id(v) in need]
    if not ks:
        return
    if all(saveable(e, k) for k in ks):
        saved.extend((i, e.outvars[k]) for k in ks)
        return
    rule = RULES.get(e.primitive.name) if use_rules else None
    if rule is not None:
        fwd, bwd, res = rule(e, ks, saveable)
        known[i], staged[i] = fwd, bwd
        saved.extend((i, v) for v in res)
        new = {id(v) for v in res}
        need.update(id(a) for a in bwd.invars if type(a) is Var and id(a) not in new)
    else:
        staged[i] = e  # recomputed whole
        need.update(id(a) for a in e.invars if type(a) is Var)


def inner_plan(j: Jaxpr, needed: Sequence[Atom], saveable: Saveable) -> Plan:
    """In a jaxpr all of whose values are known, how to compute ``needed`` from its inputs in
    the backward pass: the values the forward pass keeps (in program order), the forward
    equations (some split, returning more values) and the equations recomputed."""
    need = {id(a) for a in needed if type(a) is Var}
    saved: list[tuple[int, Var]] = []
    known = list(j.eqns)
    staged: dict[int, JaxprEqn] = {}
    for i in reversed(range(len(j.eqns))):
        place_known(i, j.eqns[i], need, saveable, known, staged, saved)
    saved.sort(key=lambda p: p[0])
    return [v for _, v in saved], known, [staged[i] for i in sorted(staged)]


def _zeros(aval: ShapedArray) -> Any:
    z = zeros(ShapedArray((), aval.dtype, aval.weak_type))
    return broadcast_in_dim(z, aval.shape, ()) if aval.shape else z


def split_cond(e: JaxprEqn, ks: list[int], saveable: Saveable) -> Split:
    """A known ``cond`` whose results ``ks`` the linear part needs (see the module doc)."""
    branches: tuple[ClosedJaxpr, ...] = e.params["branches"]
    plans = [inner_plan(b.jaxpr, [b.jaxpr.outvars[k] for k in ks], saveable) for b in branches]
    slot_avals = [[v.aval for v in p[0]] for p in plans]
    known: list[ClosedJaxpr] = []
    staged: list[ClosedJaxpr] = []
    for bi, (b, (saved, fwd_eqns, rec)) in enumerate(zip(branches, plans)):
        j = b.jaxpr
        n = len(j.outvars)
        ext = ClosedJaxpr(Jaxpr(j.constvars, j.invars, [*j.outvars, *saved], fwd_eqns), b.consts)

        def fill(*xs: Any, ext: ClosedJaxpr = ext, bi: int = bi, n: int = n) -> list[Any]:
            outs = tracing.eval_jaxpr(ext, *xs)
            slots: list[Any] = []
            for bj, avals in enumerate(slot_avals):
                slots.extend(outs[n:] if bj == bi else [_zeros(a) for a in avals])
            return [*outs[:n], *slots]

        known.append(tracing.trace_to_jaxpr(fill, [v.aval for v in j.invars], "cond forward"))
        slots = [
            v
            for bj, avals in enumerate(slot_avals)
            for v in (saved if bj == bi else map(Var, avals))
        ]
        body = Jaxpr(j.constvars, [*slots, *j.invars], [j.outvars[k] for k in ks], rec)
        staged.append(ClosedJaxpr(body, b.consts))
    res = [Var(a) for avals in slot_avals for a in avals]
    fwd = JaxprEqn(
        e.primitive, e.invars, [*e.outvars, *res], dict(e.params, branches=tuple(known)), e.source
    )
    bwd = JaxprEqn(
        e.primitive,
        [e.invars[0], *res, *e.invars[1:]],
        [e.outvars[k] for k in ks],
        dict(e.params, branches=tuple(staged)),
        e.source,
    )
    rule = tracing.dce_rules.get(e.primitive)  # drop the operands no branch reads any more
    if rule is not None:
        bwd = rule(bwd, [True] * len(bwd.outvars)) or bwd
    return fwd, bwd, res


def _scan_plan(
    body: Jaxpr, ks: list[int], num_consts: int, num_carry: int, saveable: Saveable
) -> tuple[Plan, list[int]]:
    """The plan of the body and the carries the recomputing loop threads (a carry read by the
    recomputation is computed by it too, as JAX's rule does: a fixed point)."""
    carries = {k for k in ks if k < num_carry}
    while True:
        needed = [body.outvars[k] for k in sorted({*ks, *carries})]
        p = inner_plan(body, needed, saveable)
        read = {id(a) for q in p[2] for a in q.invars if type(a) is Var}
        read.update(id(a) for a in needed if type(a) is Var)
        more = {
            i
            for i in range(num_carry)
            if i not in carries and id(body.invars[num_consts + i]) in read
        }
        if not more:
            return p, sorted(carries)
        carries |= more


def split_scan(e: JaxprEqn, ks: list[int], saveable: Saveable) -> Split:
    """A known ``scan`` whose results ``ks`` the linear part needs (see the module doc)."""
    closed: ClosedJaxpr = e.params["jaxpr"]
    body = closed.jaxpr
    nc, ncar, length = e.params["num_consts"], e.params["num_carry"], e.params["length"]
    (saved, fwd_eqns, eqns), carries = _scan_plan(body, ks, nc, ncar, saveable)
    ys_needed = [k for k in ks if k >= ncar]
    res = [Var(ShapedArray((length, *v.aval.shape), v.aval.dtype, v.aval.weak_type)) for v in saved]
    fwd_body = Jaxpr(body.constvars, body.invars, [*body.outvars, *saved], fwd_eqns)
    fwd = JaxprEqn(
        e.primitive,
        e.invars,
        [*e.outvars, *res],
        dict(e.params, jaxpr=ClosedJaxpr(fwd_body, closed.consts)),
        e.source,
    )
    outs = [body.outvars[i] for i in carries] + [body.outvars[k] for k in ys_needed]
    read = {id(a) for q in eqns for a in q.invars if type(a) is Var}
    read.update(id(a) for a in outs if type(a) is Var)
    consts = [i for i in range(nc) if id(body.invars[i]) in read]
    xs = [i for i in range(nc + ncar, len(body.invars)) if id(body.invars[i]) in read]
    invars = [
        *[body.invars[i] for i in consts],
        *[body.invars[nc + i] for i in carries],
        *[body.invars[i] for i in xs],
        *saved,
    ]
    bwd_body = ClosedJaxpr(Jaxpr(body.constvars, invars, outs, eqns), closed.consts)
    operands = [
        *[e.invars[i] for i in consts],
        *[e.invars[nc + i] for i in carries],
        *[e.invars[i] for i in xs],
        *res,
    ]
    results = [e.outvars[i] if i in ks else Var(e.outvars[i].aval) for i in carries]
    params = dict(e.params, jaxpr=bwd_body, num_consts=len(consts), num_carry=len(carries))
    results += [e.outvars[k] for k in ys_needed]
    bwd = JaxprEqn(e.primitive, operands, results, params, e.source)
    return fwd, bwd, res


def split_jit(e: JaxprEqn, ks: list[int], saveable: Saveable) -> Split:
    """A known ``jit`` equation whose results ``ks`` the linear part needs."""
    inner: ClosedJaxpr = e.params["jaxpr"]
    j = inner.jaxpr
    saved, fwd_eqns, rec = inner_plan(j, [j.outvars[k] for k in ks], saveable)
    res = [Var(v.aval) for v in saved]
    fwd_body = Jaxpr(j.constvars, j.invars, [*j.outvars, *saved], fwd_eqns)
    fwd_params = dict(e.params, jaxpr=ClosedJaxpr(fwd_body, inner.consts))
    fwd = JaxprEqn(e.primitive, e.invars, [*e.outvars, *res], fwd_params, e.source)
    bwd_body = Jaxpr(j.constvars, [*saved, *j.invars], [j.outvars[k] for k in ks], rec)
    donated = (False,) * (len(res) + len(e.invars))
    bwd_params = dict(e.params, jaxpr=ClosedJaxpr(bwd_body, inner.consts), donated_invars=donated)
    bwd = JaxprEqn(e.primitive, [*res, *e.invars], [e.outvars[k] for k in ks], bwd_params, e.source)
    return fwd, bwd, res


RULES: dict[str, Callable[[JaxprEqn, list[int], Saveable], Split]] = {
    "cond": split_cond,
    "scan": split_scan,
    "jit": split_jit,
}
