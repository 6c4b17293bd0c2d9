"""Reverse mode through ``scan``: partial evaluation into a residual scan and a linear scan, and
the transpose of a linear scan (a scan in the opposite direction over the residuals).

Under ``grad``/``vjp``/``linearize`` the JVP rule of ``scan`` does what JAX's partial evaluation
does: the body is linearized once, on abstract values, in the tangents of its differentiable
inputs. One *residual scan* (bound in the primal trace) computes the primal outputs and stacks,
per iteration, the primal values the linear part needs; loop-invariant residuals (the scan's own
constants, or values computed outside the loop) are passed once instead of stacked. One *linear
scan* (recorded in the linear program) runs the linearized body over the tangents, taking the
stacked residuals as ``xs``. The primal is computed once.

Transposing a scan (:func:`_scan_transpose`) handles any scan that is linear in its undefined
inputs (a linear scan from above, or a scan inside a function given to ``linear_transpose``):
the carry cotangents run backwards through the body's transpose, the cotangents of the linear
constants accumulate in the carry, and those of the linear ``xs`` are the stacked outputs.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from trellax._src.control_flow.scan import scan_p
from trellax._src.core import core
from trellax._src.core.core import ShapedArray
from trellax._src.core.jaxpr import ClosedJaxpr, Jaxpr, Var
from trellax._src.interpreters import tracing
from trellax._src.interpreters.ad import Linearized, backward_pass, linearize_flat
from trellax._src.lax import ad_util
from trellax._src.lax.ad_util import Zero


def _hoisted(closed: ClosedJaxpr) -> tuple[Jaxpr, list[Any]]:
    """``closed`` with its constants turned into leading inputs, and those constants."""
    j = closed.jaxpr
    return Jaxpr([], [*j.constvars, *j.invars], j.outvars, j.eqns), list(closed.consts)


def _as_aval(x: Any, aval: ShapedArray) -> Any:
    """``x`` with exactly ``aval``'s dtype and weak flag (scan carries keep one type)."""
    if x.dtype == aval.dtype and x.weak_type == aval.weak_type:
        return x
    return ad_util.convert(x, aval.dtype, aval.weak_type)


# -- partial evaluation (the JVP rule in reverse mode) ----------------------------------------


def linearize_in(
    closed: ClosedJaxpr, args: Sequence[Any], lin_pos: Sequence[int]
) -> tuple[list[Any], Linearized]:
    """Evaluates ``closed`` on ``args`` linearized in the arguments at ``lin_pos``: its outputs
    (values of the current trace) and the linear part (residuals as its constants)."""

    def f(*lin: Any) -> list[Any]:
        full = list(args)
        for i, v in zip(lin_pos, lin):
            full[i] = v
        return tracing.eval_jaxpr(closed, *full)

    return linearize_flat(f, [args[i] for i in lin_pos])


def scan_linearize(
    primals: Sequence[Any],
    tangents: Sequence[Any],
    *,
    jaxpr: ClosedJaxpr,
    num_consts: int,
    num_carry: int,
    length: int,
    reverse: bool,
) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
    """The residual scan (primal outputs) and the linear scan (tangents), see the module doc."""
    nk, nc = num_consts, num_carry
    diff = [ad_util.differentiable(core.get_aval(p).dtype) for p in primals]
    # Every differentiable carry has a tangent (as in forward mode): its type stays fixed.
    nz = [
        d and (nk <= i < nk + nc or type(t) is not Zero)
        for i, (d, t) in enumerate(zip(diff, tangents))
    ]
    lin_pos = [i for i in range(len(primals)) if nz[i]]
    prim_out, stacked_vals, lin, kinds = _residual_scan(
        primals, jaxpr, nk, nc, length, reverse, lin_pos
    )
    return _linear_scan(
        primals,
        tangents,
        jaxpr,
        nk,
        nc,
        length,
        reverse,
        lin_pos,
        prim_out,
        stacked_vals,
        lin,
        kinds,
    )


def _residual_scan(
    primals: Sequence[Any],
    jaxpr: ClosedJaxpr,
    nk: int,
    nc: int,
    length: int,
    reverse: bool,
    lin_pos: list[int],
) -> tuple[list[Any], list[Any], Linearized, list[tuple[str, Any]]]:
    """Binds the residual scan: the primal outputs, the stacked residuals, the body's linear
    part, and where each of its residuals comes from: ``("const", i)`` an input constant,
    ``("outer", value)`` a value made outside the loop, ``("stacked", j)`` the j-th stacked
    output."""
    in_avals = [core.get_aval(p) for p in primals]
    body_in = [
        ShapedArray._fast(tuple(a.shape[1:]), a.dtype, a.weak_type) for a in in_avals[nk + nc :]
    ]
    fwd_in_avals = [*in_avals[: nk + nc], *body_in]
    # filled while the residual body is traced
    info: dict[str, Any] = {}

    def fwd_body(*args: Any) -> list[Any]:
        trace = core.current_trace()

        outs, lin = linearize_in(jaxpr, args, lin_pos)
        kinds: list[tuple[str, Any]] = []
        stacked: list[Any] = []
        const_ids = {id(args[i]): i for i in range(nk)}
        for r in lin.closed.consts:
            if id(r) in const_ids:
                kinds.append(("const", const_ids[id(r)]))
            elif isinstance(r, core.Tracer) and r._trace is trace:
                kinds.append(("stacked", len(stacked)))
                stacked.append(r)
            else:
                kinds.append(("outer", r))
        # keep no tracer of this trace past it (check_tracer_leaks): the consts made inside the
        # body are found again through ``kinds``
        kept = [x if k == "outer" else None for k, x in kinds]
        closed = ClosedJaxpr(lin.closed.jaxpr, kept)
        info["lin"] = Linearized(closed, lin.in_avals, lin.out_avals, lin.out_zero)
        info["kinds"] = kinds
        return [*outs, *stacked]

    fwd = tracing.trace_to_jaxpr(fwd_body, fwd_in_avals, "scan residuals")
    fwd_jaxpr, fwd_consts = _hoisted(fwd)
    outs = scan_p.bind_multi(
        *fwd_consts,
        *primals,
        jaxpr=ClosedJaxpr(fwd_jaxpr, []),
        num_consts=len(fwd_consts) + nk,
        num_carry=nc,
        length=length,
        reverse=reverse,
    )
    n_out = len(jaxpr.out_avals)
    return list(outs[:n_out]), list(outs[n_out:]), info["lin"], info["kinds"]


def _linear_scan(
    primals: Sequence[Any],
    tangents: Sequence[Any],
    jaxpr: ClosedJaxpr,
    nk: int,
    nc: int,
    length: int,
    reverse: bool,
    lin_pos: list[int],
    prim_out: list[Any],
    stacked_vals: list[Any],
    lin: Linearized,
    kinds: list[tuple[str, Any]],
) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
    """Binds the linear scan over the tangents; returns the primal and tangent outputs."""
    n_out = len(jaxpr.out_avals)
    out_diff = [ad_util.differentiable(a.dtype) for a in jaxpr.out_avals]

    # The linear scan: consts = invariant residuals + constant tangents, carry = carry
    # tangents, xs = stacked residuals + xs tangents; outputs = carry tangents + the ys
    # tangents that are not symbolically zero.
    lj = lin.closed.jaxpr
    inv_vars: list[Var] = []
    inv_vals: list[Any] = []
    st_vars: list[Var | None] = [None] * len(stacked_vals)
    for v, (kind, x) in zip(lj.constvars, kinds):
        if kind == "stacked":
            st_vars[x] = v
        else:
            inv_vars.append(v)
            inv_vals.append(primals[x] if kind == "const" else x)
    lin_in = dict(zip(lin_pos, lj.invars))
    k_pos = [i for i in lin_pos if i < nk]
    c_pos = [i for i in lin_pos if nk <= i < nk + nc]
    x_pos = [i for i in lin_pos if i >= nk + nc]
    y_sel = [j for j in range(nc, n_out) if out_diff[j] and not lin.out_zero[j]]
    c_out = [j for j in range(nc) if out_diff[j]]
    assert [i - nk for i in c_pos] == c_out
    body = Jaxpr(
        [],
        [
            *inv_vars,
            *[lin_in[i] for i in k_pos],
            *[lin_in[i] for i in c_pos],
            *[v for v in st_vars if v is not None],
            *[lin_in[i] for i in x_pos],
        ],
        [*[lj.outvars[j] for j in c_out], *[lj.outvars[j] for j in y_sel]],
        lj.eqns,
    )
    c_tans = [
        _as_aval(ad_util.instantiate(tangents[i]), lin.in_avals[lin_pos.index(i)]) for i in c_pos
    ]
    touts = scan_p.bind_multi(
        *inv_vals,
        *[ad_util.instantiate(tangents[i]) for i in k_pos],
        *c_tans,
        *stacked_vals,
        *[ad_util.instantiate(tangents[i]) for i in x_pos],
        jaxpr=ClosedJaxpr(body, []),
        num_consts=len(inv_vals) + len(k_pos),
        num_carry=len(c_pos),
        length=length,
        reverse=reverse,
    )
    tans: list[Any] = [ad_util.zero_of(p) for p in prim_out]
    for j, t in zip([*c_out, *y_sel], touts):
        tans[j] = t
    return tuple(prim_out), tuple(tans)


# -- transpose --------------------------------------------------------------------------------


def _linear_outputs(jaxpr: Jaxpr, linear_in: Sequence[bool]) -> list[bool]:
    """Which outputs of ``jaxpr`` depend on the inputs marked in ``linear_in``."""
    lin = {id(v) for v, m in zip(jaxpr.invars, linear_in) if m}
    for eqn in jaxpr.eqns:
        if any(type(a) is Var and id(a) in lin for a in eqn.invars):
            lin.update(id(v) for v in eqn.outvars)
    return [type(a) is Var and id(a) in lin for a in jaxpr.outvars]


def _linear_inputs(
    body: Jaxpr, args: Sequence[Any], nk: int, nc: int
) -> tuple[list[bool], list[bool]]:
    """Which inputs and outputs of the scan body are linear. Every carry of a scan being
    transposed is linear (a tangent), also one whose initial value is concrete zeros and that
    the body feeds only from itself and residuals: as in JAX, which transposes all carries (a
    carry left out would have no value in the backward pass)."""
    lin = [ad_util.is_undefined(a) for a in args]
    lin[nk : nk + nc] = [True] * nc
    return lin, _linear_outputs(body, lin)


def _scan_transpose(
    cts: Sequence[Any],
    *args: Any,
    jaxpr: ClosedJaxpr,
    num_consts: int,
    num_carry: int,
    length: int,
    reverse: bool,
) -> list[Any]:
    """The transpose of a scan linear in its undefined inputs: a scan in the other direction
    whose carry holds the cotangents of the linear carries and constants."""
    nk, nc = num_consts, num_carry
    n_in = len(args)
    body = jaxpr.jaxpr
    lin, out_lin = _linear_inputs(body, args, nk, nc)
    if not any(lin):
        return [None] * n_in
    k_lin = [i for i in range(nk) if lin[i]]
    c_lin = [i for i in range(nk, nk + nc) if lin[i]]
    x_lin = [i for i in range(nk + nc, n_in) if lin[i]]
    k_res = [i for i in range(nk) if not lin[i]]
    x_res = [i for i in range(nk + nc, n_in) if not lin[i]]
    n_out = len(body.outvars)
    y_ct = [j for j in range(nc, n_out) if type(cts[j]) is not Zero and out_lin[j]]
    body_avals = body.in_avals
    out_avals = body.out_avals
    # The carry cotangents have the carry *output* types (a weak initial carry that the body
    # makes strong gets a strong cotangent, as in JAX).
    c_avals = [ad_util.tangent_aval(out_avals[i - nk]) for i in c_lin]
    closed = _transposed_body(jaxpr, nk, nc, lin, k_lin, c_lin, x_lin, k_res, x_res, y_ct, c_avals)
    ct_c = [
        ad_util.zeros(av) if type(cts[i - nk]) is Zero else _as_aval(cts[i - nk], av)
        for i, av in zip(c_lin, c_avals)
    ]
    acc0 = [ad_util.zeros(body_avals[i]) for i in k_lin]
    bj, bconsts = _hoisted(closed)
    outs = scan_p.bind_multi(
        *bconsts,
        *[args[i] for i in k_res],
        *acc0,
        *ct_c,
        *[args[i] for i in x_res],
        *[_as_aval(cts[j], out_avals[j]) for j in y_ct],
        jaxpr=ClosedJaxpr(bj, []),
        num_consts=len(bconsts) + len(k_res),
        num_carry=len(k_lin) + len(c_lin),
        length=length,
        reverse=not reverse,
    )
    result: list[Any] = [None] * n_in
    for i, o in zip([*k_lin, *c_lin, *x_lin], outs):
        if not ad_util.is_undefined(args[i]):
            continue  # a linear carry that started as a concrete value: no cotangent wanted
        result[i] = o
    return result


def _transposed_body(
    jaxpr: ClosedJaxpr,
    nk: int,
    nc: int,
    lin: list[bool],
    k_lin: list[int],
    c_lin: list[int],
    x_lin: list[int],
    k_res: list[int],
    x_res: list[int],
    y_ct: list[int],
    c_avals: list[ShapedArray],
) -> ClosedJaxpr:
    """Traces the body of the transposed scan: residual constants, accumulated constant
    cotangents and carry cotangents (the carry), residual ``xs`` and ``ys`` cotangents in; the
    new accumulators, carry cotangents and the ``xs`` cotangents out."""
    body = jaxpr.jaxpr
    n_out = len(body.outvars)
    body_avals = body.in_avals
    lin_vars = [body.invars[i] for i in (*k_lin, *c_lin, *x_lin)]
    lin_avals = [body_avals[i] for i in (*k_lin, *c_lin, *x_lin)]
    res_vars = [body.invars[i] for i in (*k_res, *x_res)]
    nkr, nkl, ncl, nxr = len(k_res), len(k_lin), len(c_lin), len(x_res)
    skip = [not ((j < nc and lin[nk + j]) or j in y_ct) for j in range(n_out)]
    out_avals = body.out_avals

    def bwd(*a: Any) -> list[Any]:
        rk, acc = a[:nkr], a[nkr : nkr + nkl]
        cc = a[nkr + nkl : nkr + nkl + ncl]
        rx = a[nkr + nkl + ncl : nkr + nkl + ncl + nxr]
        cy = a[nkr + nkl + ncl + nxr :]
        closed = ClosedJaxpr(
            Jaxpr([*body.constvars, *res_vars], lin_vars, body.outvars, body.eqns),
            [*jaxpr.consts, *rk, *rx],
        )
        c_of = dict(zip(c_lin, cc))
        y_of = dict(zip(y_ct, cy))
        cts_out: list[Any] = []
        for j in range(n_out):
            if j < nc and (nk + j) in c_of:
                cts_out.append(c_of[nk + j])
            elif j in y_of:
                cts_out.append(y_of[j])
            else:
                cts_out.append(Zero(ad_util.tangent_aval(out_avals[j])))
        cts_in = backward_pass(closed, lin_avals, cts_out, skip)
        new_acc = [
            _as_aval(ad_util.instantiate(c) if type(p) is Zero else ad_util.add_tangents(p, c), av)
            for p, c, av in zip(acc, cts_in[:nkl], lin_avals[:nkl])
        ]
        new_c = [
            _as_aval(ad_util.instantiate(c), av) for c, av in zip(cts_in[nkl : nkl + ncl], c_avals)
        ]
        ys = [
            _as_aval(ad_util.instantiate(c), av)
            for c, av in zip(cts_in[nkl + ncl :], lin_avals[nkl + ncl :])
        ]
        return [*new_acc, *new_c, *ys]

    bwd_in = [
        *[body_avals[i] for i in k_res],
        *[body_avals[i] for i in k_lin],
        *c_avals,
        *[body_avals[i] for i in x_res],
        *[
            ShapedArray._fast(tuple(av.shape), av.dtype, av.weak_type)
            for av in (out_avals[j] for j in y_ct)
        ],
    ]
    return tracing.trace_to_jaxpr(bwd, bwd_in, "transposed scan body")


scan_p.def_transpose(_scan_transpose)
