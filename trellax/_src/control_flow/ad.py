"""Differentiation of ``while`` and ``scan`` (forward mode; ``scan``'s reverse mode is in
``scan_ad``, ``cond``'s rules in ``cond_ad``).

Each sub-jaxpr is differentiated into a jaxpr over (primals, tangents) -> (primal outputs, output
tangents), and the primitive is bound again with it. Every differentiable carry of a loop gets a
tangent (zeros where the input had none), so the carry types stay fixed without a fixpoint; an
integer or bool value never gets one.

Reverse mode: under ``grad``/``vjp``/``linearize`` the primal outputs of ``while`` are computed
by the plain primitive and the output tangents by the differentiated one, which is recorded in
the linear program (recomputing the primal part, like JAX's rematerializing partial evaluation
of a while), so ``linearize`` works; transposing a ``while`` raises JAX's ValueError.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from trellax._src.control_flow.loops import while_p
from trellax._src.control_flow.scan import scan_p
from trellax._src.control_flow.scan_ad import scan_linearize
from trellax._src.core import core
from trellax._src.core.jaxpr import ClosedJaxpr, Jaxpr, Var
from trellax._src.interpreters import tracing
from trellax._src.interpreters.ad import _LinearDispatch, jvp_flat
from trellax._src.lax import ad_util
from trellax._src.lax.ad_util import Zero


def _diff(a: Any) -> bool:
    return ad_util.differentiable(a.dtype)


def _has_tangent(p: Any, t: Any) -> bool:
    return type(t) is not Zero and _diff(p)


def jvp_closed(
    closed: ClosedJaxpr,
    nz: Sequence[bool],
    name: str,
    out_nz: Sequence[bool] | None = None,
) -> ClosedJaxpr:
    """``closed`` differentiated: (inputs, tangents of the ``nz`` inputs) -> (outputs, tangents
    of the differentiable outputs, or of the ``out_nz`` ones), with its constants."""

    in_avals = list(closed.in_avals)
    out_diff = [_diff(a) for a in closed.out_avals] if out_nz is None else list(out_nz)
    n = len(in_avals)
    t_avals = [ad_util.tangent_aval(a) for a, z in zip(in_avals, nz) if z]

    def g(*args: Any) -> list[Any]:
        ps, ts_nz = list(args[:n]), iter(args[n:])
        ts = [next(ts_nz) if z else Zero(ad_util.tangent_aval(a)) for a, z in zip(in_avals, nz)]
        outs, touts = jvp_flat(lambda *x: tracing.eval_jaxpr(closed, *x), ps, ts)
        return [*outs, *[ad_util.instantiate(t) for t, d in zip(touts, out_diff) if d]]

    return tracing.trace_to_jaxpr(g, [*in_avals, *t_avals], name)


def _jvp_jaxpr(
    closed: ClosedJaxpr, nz: Sequence[bool], name: str, out_nz: Sequence[bool] | None = None
) -> tuple[Jaxpr, list[Any], list[bool]]:
    """:func:`jvp_closed` with its constants hoisted to leading inputs; also the constants and
    which outputs are differentiable."""
    j = (res := jvp_closed(closed, nz, name, out_nz)).jaxpr
    out_diff = [_diff(a) for a in closed.out_avals]
    return Jaxpr([], [*j.constvars, *j.invars], j.outvars, j.eqns), list(res.consts), out_diff


def _nonzero_tangent_outputs(closed: ClosedJaxpr, nz: Sequence[bool]) -> list[bool]:
    """Which outputs of ``closed`` get a tangent that is not a symbolic zero when the ``nz``
    inputs have tangents (traced abstractly; nothing runs)."""
    in_avals = list(closed.in_avals)
    n = len(in_avals)
    found: list[bool] = []

    def g(*args: Any) -> list[Any]:
        ps, ts_nz = list(args[:n]), iter(args[n:])
        ts = [next(ts_nz) if z else Zero(ad_util.tangent_aval(a)) for a, z in zip(in_avals, nz)]
        outs, touts = jvp_flat(lambda *x: tracing.eval_jaxpr(closed, *x), ps, ts)
        found[:] = [type(t) is not Zero for t in touts]
        return list(outs)

    t_avals = [ad_util.tangent_aval(a) for a, z in zip(in_avals, nz) if z]
    tracing.trace_to_jaxpr(g, [*in_avals, *t_avals], "nonzero tangents")
    return [f and _diff(a) for f, a in zip(found, closed.out_avals)]


def _reverse_mode() -> bool:
    return isinstance(core.current_trace(), _LinearDispatch)


def _split(outs: Sequence[Any], diff: Sequence[bool]) -> tuple[list[Any], list[Any]]:
    n = len(diff)
    prim, tans = list(outs[:n]), iter(outs[n:])
    return prim, [next(tans) if d else ad_util.zero_of(p) for p, d in zip(prim, diff)]


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
    # the carries with a tangent: those given one, and those the body gives one, to a fixpoint
    # (as JAX: a carry the body never makes depend on a tangent stays a symbolic zero, so a
    # reverse-mode pass has no loop to transpose)
    c_nz = [_has_tangent(p, t) for p, t in zip(carry, cts)]
    while True:
        out_nz = _nonzero_tangent_outputs(body_jaxpr, [*b_nz, *c_nz])
        grown = [a or b for a, b in zip(c_nz, out_nz)]
        if grown == c_nz:
            break
        c_nz = grown
    j, hoisted, _ = _jvp_jaxpr(body_jaxpr, [*b_nz, *c_nz], "jvp of while body", c_nz)
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
