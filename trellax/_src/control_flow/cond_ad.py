"""Differentiation of ``cond`` (and ``switch``): forward mode, partial evaluation, transpose.

Forward mode differentiates every branch into a jaxpr over (operands, tangents) and binds one
``cond`` of those.

Reverse mode (under ``grad``/``vjp``/``linearize``) does what JAX's partial evaluation does: each
branch is linearized in its differentiated operands. A *residual cond* (bound in the primal
trace) returns the primal outputs and the residuals of the branch taken — every branch returns
the residual slots of all branches, zeros in the others' — and a *linear cond* over the tangents
is recorded, each branch reading its own residual slots. The primal is computed once, and
functions with a ``custom_vjp`` rule inside a branch use it.

Transposing a ``cond`` transposes each branch in its linear arguments (the others, residuals, are
known) and binds one ``cond`` of the transposed branches.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from trellax._src.control_flow.ad import _diff, _reverse_mode, jvp_closed
from trellax._src.control_flow.conditionals import cond_p
from trellax._src.control_flow.scan_ad import linearize_in
from trellax._src.core import core
from trellax._src.core.jaxpr import ClosedJaxpr, Jaxpr, Var
from trellax._src.interpreters import tracing
from trellax._src.interpreters.ad import Linearized, backward_pass
from trellax._src.lax import ad_util
from trellax._src.lax.ad_util import Zero


def hoist_consts(branches: Sequence[ClosedJaxpr]) -> tuple[list[Any], tuple[ClosedJaxpr, ...]]:
    """Branches without constants: every branch takes all branches' constants as leading
    inputs (its own used, the others ignored); also the constants, in that order."""
    consts = [c for b in branches for c in b.consts]
    fixed = []
    for i, b in enumerate(branches):
        before = [Var(core.get_aval(c)) for nb in branches[:i] for c in nb.consts]
        after = [Var(core.get_aval(c)) for nb in branches[i + 1 :] for c in nb.consts]
        j = b.jaxpr
        invars = [*before, *j.constvars, *after, *j.invars]
        fixed.append(ClosedJaxpr(Jaxpr([], invars, j.outvars, j.eqns), []))
    return consts, tuple(fixed)


def _cond_jvp(
    primals: Sequence[Any], tangents: Sequence[Any], *, branches: tuple[ClosedJaxpr, ...]
) -> tuple[Any, Any]:
    if _reverse_mode():
        return _cond_linearize(primals, tangents, branches=branches)
    index, *ops = primals
    ts = tangents[1:]
    nz = [type(t) is not Zero and _diff(p) for p, t in zip(ops, ts)]
    jvps = [jvp_closed(b, nz, f"jvp of branch {i}") for i, b in enumerate(branches)]
    consts, new = hoist_consts(jvps)
    t_in = [t for t, z in zip(ts, nz) if z]
    outs = cond_p.bind_multi(index, *consts, *ops, *t_in, branches=new)
    out_diff = [_diff(a) for a in branches[0].out_avals]
    n = len(out_diff)
    prim, it = list(outs[:n]), iter(outs[n:])
    tans = [next(it) if d else ad_util.zero_of(p) for p, d in zip(prim, out_diff)]
    return tuple(prim), tuple(tans)


def _cond_linearize(
    primals: Sequence[Any], tangents: Sequence[Any], *, branches: tuple[ClosedJaxpr, ...]
) -> tuple[Any, Any]:
    """The residual cond and the linear cond (see the module doc)."""

    index, *ops = primals
    ts = tangents[1:]
    lin_pos = [i for i, (p, t) in enumerate(zip(ops, ts)) if type(t) is not Zero and _diff(p)]
    op_avals = [core.get_aval(o) for o in ops]
    n_out = len(branches[0].out_avals)
    lins: list[Linearized] = []
    fwds: list[ClosedJaxpr] = []
    for k, b in enumerate(branches):

        def fwd(*args: Any, b: ClosedJaxpr = b) -> list[Any]:
            outs, lin = linearize_in(b, args, lin_pos)
            lins.append(lin)
            return [*outs, *lin.closed.consts]

        fwds.append(tracing.trace_to_jaxpr(fwd, op_avals, f"residuals of branch {k}"))
    res_avals = [[core.get_aval(r) for r in lin.closed.consts] for lin in lins]

    def padded(k: int) -> ClosedJaxpr:
        """Branch ``k``'s residual jaxpr returning every branch's residual slots."""

        def g(*args: Any) -> list[Any]:
            outs = tracing.eval_jaxpr(fwds[k], *args)
            slots: list[Any] = []
            for j, avals in enumerate(res_avals):
                if j == k:
                    slots.extend(outs[n_out:])
                else:
                    slots.extend(ad_util.zeros(a) for a in avals)
            return [*outs[:n_out], *slots]

        return tracing.trace_to_jaxpr(g, op_avals, f"residuals of branch {k}")

    consts, res_branches = hoist_consts([padded(k) for k in range(len(branches))])
    outs = cond_p.bind_multi(index, *consts, *ops, branches=res_branches)
    prim, residuals = list(outs[:n_out]), list(outs[n_out:])

    out_diff = [_diff(a) for a in branches[0].out_avals]
    sel = [j for j in range(n_out) if out_diff[j]]
    lin_branches = []
    for k, lin in enumerate(lins):
        lj = lin.closed.jaxpr
        before = [Var(a) for avals in res_avals[:k] for a in avals]
        after = [Var(a) for avals in res_avals[k + 1 :] for a in avals]
        invars = [*before, *lj.constvars, *after, *lj.invars]
        outvars = [lj.outvars[j] for j in sel]
        lin_branches.append(ClosedJaxpr(Jaxpr([], invars, outvars, lj.eqns), []))
    t_in = [ad_util.instantiate(ts[i]) for i in lin_pos]
    touts = cond_p.bind_multi(index, *residuals, *t_in, branches=tuple(lin_branches))
    tans: list[Any] = [ad_util.zero_of(p) for p in prim]
    for j, t in zip(sel, touts):
        tans[j] = t
    return tuple(prim), tuple(tans)


def _cond_transpose(cts: Sequence[Any], index: Any, *args: Any, branches: Any) -> list[Any]:
    """Each branch transposed in its linear arguments (the others are residuals) and one ``cond``
    of the transposed branches bound: the cotangents of the linear arguments."""

    if ad_util.is_undefined(index):
        raise TypeError("cond is not linear in its branch index")
    lin_pos = [i for i, a in enumerate(args) if ad_util.is_undefined(a)]
    res = [a for a in args if not ad_util.is_undefined(a)]
    lin_avals = [args[i].aval for i in lin_pos]
    ct_pos = [i for i, c in enumerate(cts) if type(c) is not Zero]
    out_avals = list(branches[0].out_avals)

    def transposed(branch: ClosedJaxpr) -> ClosedJaxpr:
        j = branch.jaxpr
        lin_vars = [j.invars[i] for i in lin_pos]
        res_vars = [v for i, v in enumerate(j.invars) if i not in lin_pos]
        skip = [i not in ct_pos for i in range(len(out_avals))]

        def tb(*xs: Any) -> list[Any]:
            rs, cs = list(xs[: len(res)]), iter(xs[len(res) :])
            closed = ClosedJaxpr(
                Jaxpr([*j.constvars, *res_vars], lin_vars, j.outvars, j.eqns),
                [*branch.consts, *rs],
            )
            full_cts = [
                next(cs) if i in ct_pos else Zero(ad_util.tangent_aval(a))
                for i, a in enumerate(out_avals)
            ]
            cts_in = backward_pass(closed, lin_avals, full_cts, skip)
            return [ad_util.instantiate(c) for c in cts_in]

        ct_avals = [core.get_aval(cts[i]) for i in ct_pos]
        return tracing.trace_to_jaxpr(
            tb, [*[core.get_aval(r) for r in res], *ct_avals], "transposed branch"
        )

    consts, fixed = hoist_consts([transposed(b) for b in branches])
    outs = cond_p.bind_multi(index, *consts, *res, *[cts[i] for i in ct_pos], branches=fixed)
    out: list[Any] = [None] * len(args)
    for i, o in zip(lin_pos, outs):
        out[i] = o
    return [None, *out]


cond_p.def_jvp(_cond_jvp)
cond_p.def_transpose(_cond_transpose)
