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

from trellax._src.checkpoint import split_rules
from trellax._src.checkpoint.dce import dce
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


def _prune_consts(jaxpr: Jaxpr, consts: Sequence[Any]) -> ClosedJaxpr:
    read = {id(a) for e in jaxpr.eqns for a in e.invars if type(a) is Var}
    read.update(id(a) for a in jaxpr.outvars if type(a) is Var)
    pairs = [(v, c) for v, c in zip(jaxpr.constvars, consts) if id(v) in read]
    constvars = [v for v, _ in pairs]
    j = Jaxpr(constvars, jaxpr.invars, jaxpr.outvars, jaxpr.eqns)
    return ClosedJaxpr(j, [c for _, c in pairs])


def _producer_saveable(jaxpr: Jaxpr, atom: Any, policy: Callable[..., bool]) -> bool:
    """Whether the value ``atom`` of ``jaxpr`` may be kept: a literal (a zero a branch fills
    in) or an input passed through may (keeping it computes nothing), an equation's result as
    :func:`_saveable` says."""
    if type(atom) is not Var:
        return True
    for e in jaxpr.eqns:
        for k, v in enumerate(e.outvars):
            if v is atom:
                return _saveable(e, k, policy)
    return True


def _saveable(e: JaxprEqn, k: int, policy: Policy) -> bool:
    """Whether output ``k`` of the known equation ``e`` may be kept as a residual. The result
    of an equation holding jaxprs is judged by the equation inside that produces it (as JAX's
    rules for ``jit``, ``cond`` and ``scan`` do): a stacked output of a ``scan`` by its body, an
    output of a ``cond`` by every branch, an output of a ``jit`` by its jaxpr."""
    if policy is None:
        return False
    name = e.primitive.name
    if name == "scan" and k >= e.params["num_carry"]:
        body: ClosedJaxpr = e.params["jaxpr"]
        return _producer_saveable(body.jaxpr, body.jaxpr.outvars[k], policy)
    if name == "cond":
        branches: tuple[ClosedJaxpr, ...] = e.params["branches"]
        return all(_producer_saveable(b.jaxpr, b.jaxpr.outvars[k], policy) for b in branches)
    if name == "jit":
        inner: ClosedJaxpr = e.params["jaxpr"]
        return _producer_saveable(inner.jaxpr, inner.jaxpr.outvars[k], policy)
    return bool(policy(e.primitive, *[a.aval for a in e.invars], **e.params))


def split(closed: ClosedJaxpr, n_primals: int, n_outs: int, policy: Policy) -> tuple[
    ClosedJaxpr, ClosedJaxpr, int
]:  # fmt: skip
    """The known and staged jaxprs of the linearization ``closed`` (see the module doc), and the
    number of residuals."""
    j = dce(closed.jaxpr)  # what the outputs need (a scan's unread tangents need no residual)
    eqns = j.eqns
    unknown: set[int] = {id(v) for v in j.invars[n_primals:]}
    staged: list[bool] = []
    for e in eqns:
        s = any(type(a) is Var and id(a) in unknown for a in e.invars)
        if s:
            unknown.update(id(v) for v in e.outvars)
        staged.append(s)

    def saveable(e: JaxprEqn, k: int) -> bool:
        return _saveable(e, k, policy)

    need = {id(a) for a in j.outvars[n_outs:] if type(a) is Var}
    known_eqns: dict[int, JaxprEqn] = {}  # the forward pass, by position
    staged_eqns: dict[int, JaxprEqn] = {}  # the linear part, by position
    residuals: list[tuple[int, Var]] = []  # (position of the producer, value)
    for i in reversed(range(len(eqns))):
        e = eqns[i]
        if staged[i]:
            staged_eqns[i] = e
            need.update(id(a) for a in e.invars if type(a) is Var and id(a) not in unknown)
            continue
        known_eqns[i] = e
        split_rules.place_known(
            i, e, need, saveable, known_eqns, staged_eqns, residuals, policy is not None
        )
    inputs = [(-1, v) for v in j.invars[:n_primals] if id(v) in need]
    res = [v for _, v in sorted(inputs + residuals, key=lambda p: p[0])]

    fwd_eqns = [known_eqns[i] for i in sorted(known_eqns)]
    known = Jaxpr(j.constvars, j.invars[:n_primals], [*j.outvars[:n_outs], *res], fwd_eqns)
    bwd_eqns = [staged_eqns[i] for i in sorted(staged_eqns)]
    lin = Jaxpr(j.constvars, [*res, *j.invars[n_primals:]], j.outvars[n_outs:], bwd_eqns)
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
