"""Reverse mode through ``checkpoint``: which values a policy saves and what is recomputed.

A checkpointed body is linearized into one jaxpr ``J`` (its *linearization*: primal inputs and
input tangents in; primal outputs and output tangents out). An equation of ``J`` that reads a
tangent is *staged*: it belongs to the linear part. The others are *known*: they run in the
forward pass. A known value that the linear part reads is either a *residual*, kept from the
forward pass, or recomputed in the backward pass:

- an input of the body is always a residual;
- the output of a known equation is a residual when the policy
  (``policy(primitive, *input avals, **params)``, JAX's signature) calls it saveable; for the
  residual scan of a ``scan`` (the loop that computes a scan's per-iteration residuals), each
  stacked output is judged by the equation of the loop body that produces it;
- otherwise the equation is copied into the linear part and its own inputs are judged the same
  way (so with no policy everything but the inputs is recomputed).

:func:`split` returns the *known* jaxpr (primals -> primal outputs and residuals), run in the
forward pass, and the *staged* jaxpr (residuals and tangents -> output tangents), which becomes
one ``remat2[differentiated=True]`` equation of the linear function, as in JAX. Both are freed of
the equations nothing reads.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from trellax._src.core import core
from trellax._src.core.core import ShapedArray
from trellax._src.core.jaxpr import ClosedJaxpr, Jaxpr, JaxprEqn, Var
from trellax._src.interpreters import tracing
from trellax._src.interpreters.ad import linearize_flat
from trellax._src.lax.ad_util import Zero, instantiate, tangent_aval

Policy = Callable[..., bool] | None


@dataclass(frozen=True)
class Plan:
    """How a checkpointed body runs in reverse mode, for one set of differentiated inputs."""

    known: ClosedJaxpr  #: primals -> (*primal outputs, *residuals)
    staged: ClosedJaxpr  #: (*residuals, *input tangents) -> nonzero output tangents
    num_outputs: int
    out_zero: tuple[bool, ...]  #: which output tangents are symbolically zero


def linearization(body: ClosedJaxpr, lin_pos: Sequence[int]) -> tuple[ClosedJaxpr, list[bool]]:
    """``J``: ``(*primals, *tangents of lin_pos) -> (*outputs, *nonzero output tangents)``, and
    which output tangents are zero."""
    n = len(body.in_avals)
    in_avals = body.in_avals
    avals = [*in_avals, *[tangent_aval(in_avals[i]) for i in lin_pos]]
    zero_box: list[list[bool]] = []

    def fun(*xs: Any) -> list[Any]:
        primals, tangents = list(xs[:n]), xs[n:]

        def f(*lin_args: Any) -> list[Any]:
            full = list(primals)
            for i, a in zip(lin_pos, lin_args):
                full[i] = a
            return tracing.eval_jaxpr(body, *full)

        outs, lin = linearize_flat(f, [primals[i] for i in lin_pos])
        t_outs = lin.apply(tangents)
        zero_box.append([type(t) is Zero for t in t_outs])
        return [*outs, *[instantiate(t) for t in t_outs if type(t) is not Zero]]

    closed = tracing.trace_to_jaxpr(fun, avals, "checkpoint linearization")
    return closed, zero_box[0]


def _effectful(e: JaxprEqn) -> bool:
    name = e.primitive.name
    if "callback" not in name:
        return False
    return name != "pure_callback" or e.params.get("vmap_method") in ("io", "ordered_io")


def dce(jaxpr: Jaxpr) -> Jaxpr:
    """``jaxpr`` without the equations (control flow included) whose results nobody reads,
    and without the constants nobody reads."""
    live = {id(a) for a in jaxpr.outvars if type(a) is Var}
    keep: list[JaxprEqn] = []
    for e in reversed(jaxpr.eqns):
        used = [id(v) in live for v in e.outvars]
        if not any(used) and not _effectful(e):
            continue
        rule = tracing.dce_rules.get(e.primitive)
        if rule is not None and not all(used):
            e = rule(e, used) or e
        keep.append(e)
        live.update(id(a) for a in e.invars if type(a) is Var)
    keep.reverse()
    return Jaxpr(jaxpr.constvars, jaxpr.invars, jaxpr.outvars, keep)


def _prune_consts(jaxpr: Jaxpr, consts: Sequence[Any]) -> ClosedJaxpr:
    read = {id(a) for e in jaxpr.eqns for a in e.invars if type(a) is Var}
    read.update(id(a) for a in jaxpr.outvars if type(a) is Var)
    pairs = [(v, c) for v, c in zip(jaxpr.constvars, consts) if id(v) in read]
    constvars = [v for v, _ in pairs]
    j = Jaxpr(constvars, jaxpr.invars, jaxpr.outvars, jaxpr.eqns)
    return ClosedJaxpr(j, [c for _, c in pairs])


def _producer_saveable(jaxpr: Jaxpr, atom: Any, policy: Callable[..., bool]) -> bool:
    """Whether the equation of ``jaxpr`` producing ``atom`` is saveable under ``policy``."""
    if type(atom) is not Var:
        return False
    for e in jaxpr.eqns:
        if any(v is atom for v in e.outvars):
            return _saveable(e, e.outvars.index(atom), policy)
    return False


def _saveable(e: JaxprEqn, k: int, policy: Policy) -> bool:
    """Whether output ``k`` of the known equation ``e`` may be kept as a residual."""
    if policy is None:
        return False
    if e.primitive.name == "scan":
        body: ClosedJaxpr = e.params["jaxpr"]
        num_carry = e.params["num_carry"]
        if k >= num_carry:  # a stacked output: judged by the body equation producing it
            return _producer_saveable(body.jaxpr, body.jaxpr.outvars[k], policy)
    return bool(policy(e.primitive, *[a.aval for a in e.invars], **e.params))


def split(closed: ClosedJaxpr, n_primals: int, n_outs: int, policy: Policy) -> tuple[
    ClosedJaxpr, ClosedJaxpr, int
]:  # fmt: skip
    """The known and staged jaxprs of the linearization ``closed`` (see the module doc), and the
    number of residuals."""
    j = closed.jaxpr
    eqns = j.eqns
    unknown: set[int] = {id(v) for v in j.invars[n_primals:]}
    staged: list[bool] = []
    for e in eqns:
        s = any(type(a) is Var and id(a) in unknown for a in e.invars)
        if s:
            unknown.update(id(v) for v in e.outvars)
        staged.append(s)
    producer = {id(v): i for i, e in enumerate(eqns) for v in e.outvars}
    consts = {id(v) for v in j.constvars}
    primal_ins = {id(v) for v in j.invars[:n_primals]}

    recompute: set[int] = set()
    residuals: dict[int, Var] = {}  # id -> var
    seen: set[int] = set()
    work: list[Any] = [a for e, s in zip(eqns, staged) if s for a in e.invars]
    work.extend(j.outvars[n_outs:])
    while work:
        a = work.pop()
        if type(a) is not Var or id(a) in unknown or id(a) in consts or id(a) in seen:
            continue
        seen.add(id(a))
        if id(a) in primal_ins:
            residuals[id(a)] = a
            continue
        i = producer[id(a)]
        if i in recompute:
            continue
        e = eqns[i]
        if _saveable(e, e.outvars.index(a), policy):
            residuals[id(a)] = a
        else:
            recompute.add(i)
            work.extend(e.invars)
    # a value of a recomputed equation comes from the recomputation
    res = [v for k, v in residuals.items() if producer.get(k) not in recompute]
    order = {id(v): n for n, v in enumerate(j.invars)}
    res.sort(key=lambda v: (producer.get(id(v), -1), order.get(id(v), 0)))

    known_eqns = [e for e, s in zip(eqns, staged) if not s]
    known = Jaxpr(j.constvars, j.invars[:n_primals], [*j.outvars[:n_outs], *res], known_eqns)
    staged_eqns = [e for i, e in enumerate(eqns) if staged[i] or i in recompute]
    lin = Jaxpr(j.constvars, [*res, *j.invars[n_primals:]], j.outvars[n_outs:], staged_eqns)
    return (
        _prune_consts(dce(known), closed.consts),
        _prune_consts(dce(lin), closed.consts),
        len(res),
    )


def plan(body: ClosedJaxpr, lin_pos: Sequence[int], policy: Policy) -> Plan:
    """The known and staged jaxprs of ``body`` differentiated in ``lin_pos``."""
    lin, out_zero = linearization(body, lin_pos)
    n_outs = len(body.out_avals)
    known, staged, _ = split(lin, len(body.in_avals), n_outs, policy)
    return Plan(known, staged, n_outs, tuple(out_zero))


def residual_avals(p: Plan) -> list[ShapedArray]:
    """The avals of the residuals a plan keeps."""
    return [core.get_aval(v) if not isinstance(v, Var) else v.aval for v in p.known.jaxpr.outvars][
        p.num_outputs :
    ]
