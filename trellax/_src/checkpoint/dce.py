"""Dead-code elimination for the two parts of a checkpointed body (``partial_eval.py``).

``interpreters.dce.dce_jaxpr`` with every output used and a deeper pruning: unlike the
compiler's (``tracing.without_dead_code``, which keeps control flow whole and leaves the printed
jaxpr as traced), this one removes every equation whose results nobody reads
(effectful callbacks excepted) and prunes the results of ``cond``, ``scan`` and ``jit``
equations, inside their bodies too: what the backward pass recomputes is only what it reads,
as JAX's partial evaluation leaves it.
"""

from __future__ import annotations

from typing import Any

from trellax._src.core.jaxpr import ClosedJaxpr, Jaxpr, JaxprEqn, Var
from trellax._src.interpreters import tracing
from trellax._src.interpreters.dce import dce_jaxpr


def dce(jaxpr: Jaxpr) -> Jaxpr:
    """``jaxpr`` without the equations whose results nobody reads (see the module doc)."""
    return dce_jaxpr(jaxpr, [True] * len(jaxpr.outvars), instantiate=True, prune=_prune)[0]


def _inner(closed: ClosedJaxpr, outs: Any = None) -> ClosedJaxpr:
    j = closed.jaxpr
    body = Jaxpr(j.constvars, j.invars, j.outvars if outs is None else outs, j.eqns)
    return ClosedJaxpr(dce(body), closed.consts)


def _prune(e: JaxprEqn, used: list[bool]) -> JaxprEqn:
    """``e`` computing only the results that are read, its bodies without dead code."""
    name = e.primitive.name
    if name == "jit":
        inner: ClosedJaxpr = e.params["jaxpr"]
        outs = [a for a, u in zip(inner.jaxpr.outvars, used) if u]
        params = dict(e.params, jaxpr=_inner(inner, outs))
        outvars = [v for v, u in zip(e.outvars, used) if u]
        return JaxprEqn(e.primitive, e.invars, outvars, params, e.source, e.api)
    rule = tracing.dce_rules.get(e.primitive)
    if rule is not None and not all(used):
        e = rule(e, used) or e
    if name == "cond":
        branches = tuple(_inner(b) for b in e.params["branches"])
        return JaxprEqn(
            e.primitive, e.invars, e.outvars, dict(e.params, branches=branches), e.source, e.api
        )
    if name == "scan":
        return _unread_scan_inputs(dict(e.params, jaxpr=_inner(e.params["jaxpr"])), e)
    return e


def _unread_scan_inputs(params: dict[str, Any], e: JaxprEqn) -> JaxprEqn:
    """A ``scan`` without the constants and scanned inputs its body does not read."""
    closed: ClosedJaxpr = params["jaxpr"]
    body = closed.jaxpr
    nc, ncar = params["num_consts"], params["num_carry"]
    read = {id(a) for q in body.eqns for a in q.invars if type(a) is Var}
    read.update(id(a) for a in body.outvars if type(a) is Var)
    keep = [i for i, v in enumerate(body.invars) if nc <= i < nc + ncar or id(v) in read]
    if len(keep) == len(body.invars):
        return JaxprEqn(e.primitive, e.invars, e.outvars, params, e.source, e.api)
    invars = [body.invars[i] for i in keep]
    new_body = ClosedJaxpr(Jaxpr(body.constvars, invars, body.outvars, body.eqns), closed.consts)
    num_consts = sum(1 for i in keep if i < nc)
    params = dict(params, jaxpr=new_body, num_consts=num_consts)
    return JaxprEqn(e.primitive, [e.invars[i] for i in keep], e.outvars, params, e.source, e.api)
