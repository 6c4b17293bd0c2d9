"""Differentiation of ``cond``, ``while`` and ``scan`` (forward mode; reverse mode for ``cond``;
``scan``'s reverse mode is in ``scan_ad``).

Each sub-jaxpr is differentiated into a jaxpr over (primals, tangents) -> (primal outputs, output
tangents), and the primitive is bound again with it. Every differentiable carry of a loop gets a
tangent (zeros where the input had none), so the carry types stay fixed without a fixpoint; an
integer or bool value never gets one.

Reverse mode: under ``grad``/``vjp``/``linearize`` the primal outputs of ``cond`` and ``while``
are computed by the plain primitive and the output tangents by the differentiated one, which is
recorded in the linear program (recomputing the primal part, like JAX's rematerializing partial
evaluation of a while). ``cond`` transposes: each branch is transposed in its linear arguments
(the primal operands are residuals) and one ``cond`` of the transposed branches is bound.
Transposing a ``while`` raises JAX's ValueError. ``scan`` is split into a residual scan and a
linear scan and transposed into a reversed scan (``control_flow.scan_ad``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from trellax._src import ad_util, core
from trellax._src.ad_util import Zero
from trellax._src.control_flow.conditionals import cond_p
from trellax._src.control_flow.loops import while_p
from trellax._src.control_flow.scan import scan_p
from trellax._src.control_flow.scan_ad import scan_linearize
from trellax._src.interpreters import tracing
from trellax._src.jaxpr import ClosedJaxpr, Jaxpr, Var


def _diff(a: Any) -> bool:
    return ad_util.differentiable(a.dtype)


def _has_tangent(p: Any, t: Any) -> bool:
    return type(t) is not Zero and _diff(p)


def _jvp_jaxpr(
    closed: ClosedJaxpr, nz: Sequence[bool], name: str
) -> tuple[Jaxpr, list[Any], list[bool]]:
    """``closed`` (no consts) differentiated: a jaxpr over (hoisted consts, inputs, tangents of
    the ``nz`` inputs) returning (outputs, tangents of the differentiable outputs); also the
    hoisted consts and which outputs are differentiable."""
    from trellax._src.interpreters.ad import jvp_flat

    in_avals = list(closed.in_avals)
    out_diff = [_diff(a) for a in closed.out_avals]
    n = len(in_avals)
    t_avals = [ad_util.tangent_aval(a) for a, z in zip(in_avals, nz) if z]

    def g(*args: Any) -> list[Any]:
        ps, ts_nz = list(args[:n]), iter(args[n:])
        ts = [next(ts_nz) if z else Zero(ad_util.tangent_aval(a)) for a, z in zip(in_avals, nz)]
        outs, touts = jvp_flat(lambda *x: tracing.eval_jaxpr(closed, *x), ps, ts)
        return [*outs, *[ad_util.instantiate(t) for t, d in zip(touts, out_diff) if d]]

    res = tracing.trace_to_jaxpr(g, [*in_avals, *t_avals], name)
    j = res.jaxpr
    return Jaxpr([], [*j.constvars, *j.invars], j.outvars, j.eqns), list(res.consts), out_diff


def _reverse_mode() -> bool:
    from trellax._src.interpreters.ad import _LinearDispatch

    return isinstance(core.current_trace(), _LinearDispatch)


def _split(outs: Sequence[Any], diff: Sequence[bool]) -> tuple[list[Any], list[Any]]:
    n = len(diff)
    prim, tans = list(outs[:n]), iter(outs[n:])
    return prim, [next(tans) if d else ad_util.zero_of(p) for p, d in zip(prim, diff)]


# -- cond -----------------------------------------------------------------------------------------


def _cond_jvp(
    primals: Sequence[Any], tangents: Sequence[Any], *, branches: tuple[ClosedJaxpr, ...]
) -> tuple[Any, Any]:
    index, *ops = primals
    ts = tangents[1:]
    nz = [_has_tangent(p, t) for p, t in zip(ops, ts)]
    jvps = [_jvp_jaxpr(b, nz, f"jvp of branch {i}") for i, b in enumerate(branches)]
    # every branch takes all branches' hoisted consts (its own used, the others ignored)
    all_consts = [c for _, consts, _ in jvps for c in consts]
    new = []
    for i, (j, consts, _) in enumerate(jvps):
        before = [Var(core.get_aval(c)) for _, cs, _ in jvps[:i] for c in cs]
        after = [Var(core.get_aval(c)) for _, cs, _ in jvps[i + 1 :] for c in cs]
        k = len(consts)
        invars = [*before, *j.invars[:k], *after, *j.invars[k:]]
        new.append(ClosedJaxpr(Jaxpr([], invars, j.outvars, j.eqns), []))
    t_in = [t for t, z in zip(ts, nz) if z]
    outs = cond_p.bind_multi(index, *all_consts, *ops, *t_in, branches=tuple(new))
    prim, tans = _split(outs, jvps[0][2])
    if _reverse_mode():
        prim = list(cond_p.bind_multi(index, *ops, branches=branches))
    return tuple(prim), tuple(tans)


def _cond_transpose(cts: Sequence[Any], index: Any, *args: Any, branches: Any) -> list[Any]:
    """Each branch transposed in its linear arguments (the others are residuals) and one ``cond``
    of the transposed branches bound: the cotangents of the linear arguments."""
    from trellax._src.interpreters.ad import linearize_flat

    if ad_util.is_undefined(index):
        raise TypeError("cond is not linear in its branch index")
    lin_pos = [i for i, a in enumerate(args) if ad_util.is_undefined(a)]
    res = [a for a in args if not ad_util.is_undefined(a)]
    lin_avals = [args[i].aval for i in lin_pos]
    ct_pos = [i for i, c in enumerate(cts) if type(c) is not Zero]
    out_avals = list(branches[0].out_avals)

    def transposed(branch: ClosedJaxpr) -> ClosedJaxpr:
        def tb(*xs: Any) -> list[Any]:
            rs, cs = list(xs[: len(res)]), list(xs[len(res) :])

            def lin_fun(*ls: Any) -> list[Any]:
                it_r, it_l = iter(rs), iter(ls)
                full = [next(it_l) if i in lin_pos else next(it_r) for i in range(len(args))]
                return tracing.eval_jaxpr(branch, *full)

            _, lin = linearize_flat(lin_fun, [ad_util.zeros(a) for a in lin_avals])
            it_c = iter(cs)
            full_cts = [
                next(it_c) if i in ct_pos else Zero(ad_util.tangent_aval(a))
                for i, a in enumerate(out_avals)
            ]
            return [ad_util.instantiate(c) for c in lin.transpose(full_cts)]

        ct_avals = [core.get_aval(cts[i]) for i in ct_pos]
        closed = tracing.trace_to_jaxpr(
            tb, [*[core.get_aval(r) for r in res], *ct_avals], "transposed branch"
        )
        j = closed.jaxpr
        return ClosedJaxpr(Jaxpr(j.constvars, j.invars, j.outvars, j.eqns), closed.consts)

    new = tuple(transposed(b) for b in branches)
    # branches may have closed over different constants: give each one all of them
    all_consts = [c for b in new for c in b.consts]
    fixed = []
    for i, b in enumerate(new):
        before = [Var(core.get_aval(c)) for nb in new[:i] for c in nb.consts]
        after = [Var(core.get_aval(c)) for nb in new[i + 1 :] for c in nb.consts]
        j = b.jaxpr
        invars = [*before, *j.constvars, *after, *j.invars]
        fixed.append(ClosedJaxpr(Jaxpr([], invars, j.outvars, j.eqns), []))
    outs = cond_p.bind_multi(
        index, *all_consts, *res, *[cts[i] for i in ct_pos], branches=tuple(fixed)
    )
    out: list[Any] = [None] * len(args)
    for i, o in zip(lin_pos, outs):
        out[i] = o
    return [None, *out]


cond_p.def_jvp(_cond_jvp)
cond_p.def_transpose(_cond_transpose)


# -- while ----------------------------------------------------------------------------------------


def _while_jvp(
    primals: Sequence[Any],
    tangents: Sequence[Any],
    *,
    cond_jaxpr: ClosedJaxpr,
    body_jaxpr: ClosedJaxpr,
    cond_nconsts: int,
    body_nconsts: int,
) -> tuple[Any, Any]:
    n_c, n_b = cond_nconsts, body_nconsts
    cconsts, bconsts, carry = primals[:n_c], primals[n_c : n_c + n_b], primals[n_c + n_b :]
    bts, cts = tangents[n_c : n_c + n_b], tangents[n_c + n_b :]
    b_nz = [_has_tangent(p, t) for p, t in zip(bconsts, bts)]
    c_nz = [_diff(p) for p in carry]
    j, hoisted, _ = _jvp_jaxpr(body_jaxpr, [*b_nz, *c_nz], "jvp of while body")
    h, nb, nc, nbt = len(hoisted), len(bconsts), len(carry), sum(b_nz)
    iv = j.invars
    consts_v, carry_v = iv[: h + nb], iv[h + nb : h + nb + nc]
    bt_v, ct_v = iv[h + nb + nc : h + nb + nc + nbt], iv[h + nb + nc + nbt :]
    body = ClosedJaxpr(Jaxpr([], [*consts_v, *bt_v, *carry_v, *ct_v], j.outvars, j.eqns), [])
    cj = cond_jaxpr.jaxpr
    extra = [Var(ad_util.tangent_aval(p)) for p, z in zip(carry, c_nz) if z]
    cond = ClosedJaxpr(Jaxpr([], [*cj.invars, *extra], cj.outvars, cj.eqns), cond_jaxpr.consts)
    carry_t = [ad_util.instantiate(t) for t, z in zip(cts, c_nz) if z]
    carry_t = [ad_util.instantiate(t) if type(t) is Zero else t for t in carry_t]
    outs = while_p.bind_multi(
        *cconsts,
        *hoisted,
        *bconsts,
        *[t for t, z in zip(bts, b_nz) if z],
        *carry,
        *carry_t,
        cond_jaxpr=cond,
        body_jaxpr=body,
        cond_nconsts=n_c,
        body_nconsts=h + nb + nbt,
    )
    prim, tans = _split(outs, c_nz)
    if _reverse_mode():
        prim = list(
            while_p.bind_multi(
                *primals,
                cond_jaxpr=cond_jaxpr,
                body_jaxpr=body_jaxpr,
                cond_nconsts=n_c,
                body_nconsts=n_b,
            )
        )
    return tuple(prim), tuple(tans)


def _while_transpose(cts: Any, *args: Any, **params: Any) -> list[Any]:
    raise ValueError(
        "Reverse-mode differentiation does not work for lax.while_loop or lax.fori_loop with "
        "dynamic start/stop values. Try using lax.scan, or using fori_loop with static "
        "start/stop."
    )


while_p.def_jvp(_while_jvp)
while_p.def_transpose(_while_transpose)


# -- scan -----------------------------------------------------------------------------------------


def _scan_jvp(
    primals: Sequence[Any],
    tangents: Sequence[Any],
    *,
    jaxpr: ClosedJaxpr,
    num_consts: int,
    num_carry: int,
    length: int,
    reverse: bool,
) -> tuple[Any, Any]:
    if _reverse_mode():
        return scan_linearize(
            primals,
            tangents,
            jaxpr=jaxpr,
            num_consts=num_consts,
            num_carry=num_carry,
            length=length,
            reverse=reverse,
        )
    nk, nc = num_consts, num_carry
    consts, carry, xs = primals[:nk], primals[nk : nk + nc], primals[nk + nc :]
    kts, cts, xts = tangents[:nk], tangents[nk : nk + nc], tangents[nk + nc :]
    k_nz = [_has_tangent(p, t) for p, t in zip(consts, kts)]
    c_nz = [_diff(p) for p in carry]
    x_nz = [_has_tangent(p, t) for p, t in zip(xs, xts)]
    j, hoisted, out_diff = _jvp_jaxpr(jaxpr, [*k_nz, *c_nz, *x_nz], "jvp of scan body")
    h, nx = len(hoisted), len(xs)
    nkt, nct = sum(k_nz), sum(c_nz)
    iv = list(j.invars)
    hv, kv = iv[:h], iv[h : h + nk]
    cv, xv = iv[h + nk : h + nk + nc], iv[h + nk + nc : h + nk + nc + nx]
    rest = iv[h + nk + nc + nx :]
    ktv, ctv, xtv = rest[:nkt], rest[nkt : nkt + nct], rest[nkt + nct :]
    ov = list(j.outvars)
    n_out = len(out_diff)
    c_out, y_out = ov[:nc], ov[nc:n_out]
    t_out = ov[n_out:]
    n_ct_out = sum(out_diff[:nc])
    body = Jaxpr(
        [],
        [*hv, *kv, *ktv, *cv, *ctv, *xv, *xtv],
        [*c_out, *t_out[:n_ct_out], *y_out, *t_out[n_ct_out:]],
        j.eqns,
    )
    carry_t = [ad_util.instantiate(t) for t, z in zip(cts, c_nz) if z]
    outs = list(
        scan_p.bind_multi(
            *hoisted,
            *consts,
            *[t for t, z in zip(kts, k_nz) if z],
            *carry,
            *carry_t,
            *xs,
            *[t for t, z in zip(xts, x_nz) if z],
            jaxpr=ClosedJaxpr(body, []),
            num_consts=h + nk + nkt,
            num_carry=nc + nct,
            length=length,
            reverse=reverse,
        )
    )
    c_prim, c_tan = outs[:nc], outs[nc : nc + nct]
    ys = outs[nc + nct : nc + nct + (n_out - nc)]
    y_tan = outs[nc + nct + (n_out - nc) :]
    prim = [*c_prim, *ys]
    tans_iter = iter([*c_tan, *y_tan])
    tans = [next(tans_iter) if d else ad_util.zero_of(p) for p, d in zip(prim, out_diff)]
    return tuple(prim), tuple(tans)


scan_p.def_jvp(_scan_jvp)
