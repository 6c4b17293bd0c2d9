"""``custom_vjp``'s ``optimize_remat``: a forward pass that becomes the primal function when its
residuals go unused.

``defvjp(fwd, bwd, optimize_remat=True)`` (and JAX's internal
``optimize_remat_of_custom_vjp_fwd``) wraps ``fwd`` so that, traced, it is one ``remat_opt``
equation holding two jaxprs: ``fwd`` (primal outputs, then residuals) and the primal function.
Dead-code elimination (``jit``'s compiler, :func:`dce.dce_jaxpr`) swaps in the primal function
when nothing reads the residuals, so a rematerialized forward pass does not compute residuals
it then throws away. The two must agree on the primal outputs (as the contract of ``custom_vjp``
already asks); where they do not, which one a program sees depends on whether the residuals
are used, as in JAX. Eagerly ``fwd`` is simply called. ``vmap`` batches both jaxprs, ``jvp``
differentiates both (the residuals' tangents count as residuals).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from trellax._src.control_flow.common import batch_jaxpr
from trellax._src.core import core
from trellax._src.core.core import EvalTrace, Primitive
from trellax._src.core.jaxpr import ClosedJaxpr, JaxprEqn
from trellax._src.custom.arguments import resolve_args
from trellax._src.interpreters import batching, tracing
from trellax._src.interpreters.ad import jvp_flat
from trellax._src.interpreters.call_jaxpr import trace_call
from trellax._src.lax._base import asarray
from trellax._src.lax.ad_util import instantiate
from trellax._src.lax.shapes import moveaxis
from trellax._src.tree.tree_util import PyTreeDef, tree_flatten, tree_unflatten


def optimize_remat_of_custom_vjp_fwd(
    fun: Callable[..., Any],
    debug_fun: Any = None,
    fwd: Callable[..., Any] | None = None,
    debug_fwd: Any = None,
    nondiff_argnums: Sequence[int] = (),
    symbolic_zeros: bool = False,
) -> Callable[..., Any]:
    """``fwd`` wrapped so that dead-code elimination replaces it by ``fun`` when its residuals
    are unused (JAX's function of this name; the debug-info arguments are accepted and unused).
    With ``symbolic_zeros`` the arguments of ``fwd`` are not plain arrays and ``fwd`` is
    returned as it is."""
    del debug_fun, debug_fwd
    if fwd is None:
        raise TypeError("optimize_remat_of_custom_vjp_fwd needs the forward function fwd")
    if symbolic_zeros:
        return fwd
    static = frozenset(nondiff_argnums)
    cache: dict[str, Any] = {}
    fwd_fn = fwd

    def wrapped_fwd(*args: Any, **kwargs: Any) -> Any:
        args = resolve_args(fwd_fn, args, kwargs, "custom_vjp fwd", cache)
        if isinstance(core.current_trace(), EvalTrace):
            return fwd_fn(*args)
        dynamic = [i for i in range(len(args)) if i not in static]
        leaves, in_tree = tree_flatten([args[i] for i in dynamic])
        try:
            arrays = [asarray(x) for x in leaves]
        except TypeError:
            return fwd_fn(*args)  # an argument that is not an array: nothing to trace

        def full(xs: Sequence[Any]) -> list[Any]:
            out = list(args)
            for i, v in zip(dynamic, tree_unflatten(in_tree, list(xs))):
                out[i] = v
            return out

        trees: dict[str, PyTreeDef] = {}

        def flat_fwd(*xs: Any) -> list[Any]:
            result = fwd_fn(*full(xs))
            if not isinstance(result, tuple | list) or len(result) != 2:
                raise TypeError(
                    "a custom_vjp fwd function must return a pair (output, residuals); "
                    f"got {type(result).__name__}"
                )
            out, res = result
            out_leaves, trees["out"] = tree_flatten(out)
            res_leaves, trees["res"] = tree_flatten(res)
            return [asarray(o) for o in [*out_leaves, *res_leaves]]

        def flat_fun(*xs: Any) -> list[Any]:
            out_leaves, trees["prim"] = tree_flatten(fun(*full(xs)))
            return [asarray(o) for o in out_leaves]

        fwd_jaxpr, fwd_consts = trace_call(flat_fwd, arrays, "fwd")
        prim_jaxpr, prim_consts = trace_call(flat_fun, arrays, _name(fun))
        n_out = len(prim_jaxpr.out_avals)
        if trees["prim"] != trees["out"] or [(a.shape, a.dtype) for a in prim_jaxpr.out_avals] != [
            (a.shape, a.dtype) for a in fwd_jaxpr.out_avals[:n_out]
        ]:
            raise TypeError(
                f"optimize_remat: the primal outputs of the custom_vjp fwd function "
                f"({trees['out']}, {fwd_jaxpr.out_avals[:n_out]}) differ from those of the "
                f"function {_name(fun)} ({trees['prim']}, {prim_jaxpr.out_avals})"
            )
        outs = remat_opt_p.bind_multi(
            *fwd_consts,
            *prim_consts,
            *arrays,
            fwd=fwd_jaxpr,
            prim=prim_jaxpr,
            n_fwd=len(fwd_consts),
            n_prim=len(prim_consts),
            num_res=len(fwd_jaxpr.out_avals) - n_out,
            mode="fwd",
        )
        return (
            tree_unflatten(trees["out"], list(outs[:n_out])),
            tree_unflatten(trees["res"], list(outs[n_out:])),
        )

    return wrapped_fwd


def _name(f: Any) -> str:
    return getattr(f, "__name__", type(f).__name__)


def _split(args: Sequence[Any], n_fwd: int, n_prim: int) -> tuple[list[Any], list[Any], list[Any]]:
    """(fwd's constants, the primal function's constants, the arguments)."""
    return list(args[:n_fwd]), list(args[n_fwd : n_fwd + n_prim]), list(args[n_fwd + n_prim :])


remat_opt_p = Primitive("remat_opt", multiple_results=True)
remat_opt_p.def_abstract_eval(lambda *args, fwd, **params: tuple(fwd.out_avals))
remat_opt_p.def_impl(lambda *args, **params: tracing.run_equation(remat_opt_p, args, params))


def _codegen(em: Any, eqn: JaxprEqn, args: list[str], outs: list[str], indent: str) -> None:
    p = eqn.params
    fc, pc, xs = _split(args, p["n_fwd"], p["n_prim"])
    if p["mode"] == "fwd":
        j: ClosedJaxpr = p["fwd"]
        em.assign(outs, em.jaxpr(j.jaxpr, j.consts, [*fc, *xs], indent), indent)
        return
    j = p["prim"]
    n = len(outs) - p["num_res"]
    em.assign(outs[:n], em.jaxpr(j.jaxpr, j.consts, [*pc, *xs], indent), indent)
    # the residuals nobody reads: shared zeros, so the program's names stay defined
    zeros = [em.bind(np.zeros(a.shape, a.dtype), "z") for a in p["fwd"].out_avals[n:]]
    em.assign(outs[n:], zeros, indent)


tracing.codegen_rules[remat_opt_p] = _codegen


def _dce(eqn: JaxprEqn, used: list[bool]) -> JaxprEqn | None:
    """The primal function in place of ``fwd`` when no residual is read."""
    p = eqn.params
    if p["mode"] != "fwd" or any(used[len(used) - p["num_res"] :]):
        return None
    return JaxprEqn(
        eqn.primitive, eqn.invars, eqn.outvars, {**p, "mode": "prim"}, eqn.source, eqn.api
    )


tracing.dce_rules[remat_opt_p] = _dce


@remat_opt_p.def_jvp
def _jvp(
    primals: Sequence[Any],
    tangents: Sequence[Any],
    *,
    fwd: ClosedJaxpr,
    prim: ClosedJaxpr,
    n_fwd: int,
    n_prim: int,
    num_res: int,
    mode: str,
) -> tuple[Any, Any]:
    fc, pc, xs = _split(primals, n_fwd, n_prim)
    _, _, ts = _split(tangents, n_fwd, n_prim)
    ts = [instantiate(t) for t in ts]
    n_out = len(fwd.out_avals) - num_res
    k = len(xs)

    def jvp_fwd(*a: Any) -> list[Any]:
        outs, touts = jvp_flat(lambda *ys: tracing.eval_jaxpr(fwd, *fc, *ys), a[:k], a[k:])
        touts = [instantiate(t) for t in touts]
        # primal outputs and their tangents first, then the residuals and theirs
        return [*outs[:n_out], *touts[:n_out], *outs[n_out:], *touts[n_out:]]

    def jvp_prim(*a: Any) -> list[Any]:
        outs, touts = jvp_flat(lambda *ys: tracing.eval_jaxpr(prim, *pc, *ys), a[:k], a[k:])
        return [*outs, *[instantiate(t) for t in touts]]

    jf, jfc = trace_call(jvp_fwd, [*xs, *ts], "jvp(fwd)")
    jp, jpc = trace_call(jvp_prim, [*xs, *ts], "jvp(prim)")
    outs = remat_opt_p.bind_multi(
        *jfc,
        *jpc,
        *xs,
        *ts,
        fwd=jf,
        prim=jp,
        n_fwd=len(jfc),
        n_prim=len(jpc),
        num_res=2 * num_res,
        mode=mode,
    )
    p_outs = [*outs[:n_out], *outs[2 * n_out : 2 * n_out + num_res]]
    t_outs = [*outs[n_out : 2 * n_out], *outs[2 * n_out + num_res :]]
    return tuple(p_outs), tuple(t_outs)


@remat_opt_p.def_batch
def _batch(
    args: Sequence[Any],
    dims: Sequence[Any],
    *,
    fwd: ClosedJaxpr,
    prim: ClosedJaxpr,
    n_fwd: int,
    n_prim: int,
    num_res: int,
    mode: str,
) -> tuple[Any, Any]:
    size = batching.current_axis().size
    moved = [a if d is None else moveaxis(a, d, 0) for a, d in zip(args, dims)]
    flags = [d is not None for d in dims]
    fc, pc, xs = _split(moved, n_fwd, n_prim)
    bfc, bpc, bxs = _split(flags, n_fwd, n_prim)
    force_f = [True] * len(fwd.out_avals)
    force_p = [True] * len(prim.out_avals)
    bf, hf, _ = batch_jaxpr(fwd, [*bfc, *bxs], size, force=force_f)
    bp, hp, _ = batch_jaxpr(prim, [*bpc, *bxs], size, force=force_p)
    outs = remat_opt_p.bind_multi(
        *hf,
        *fc,
        *hp,
        *pc,
        *xs,
        fwd=bf,
        prim=bp,
        n_fwd=len(hf) + n_fwd,
        n_prim=len(hp) + n_prim,
        num_res=num_res,
        mode=mode,
    )
    return list(outs), [0] * len(outs)
