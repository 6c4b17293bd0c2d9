"""``checkpoint`` / ``remat``: a function whose residuals are recomputed in the backward pass.

trellax computes the same values and derivatives as JAX. Under any transformation a
checkpointed function is one ``remat2`` equation holding its jaxpr, as in JAX (``prevent_cse``,
``policy`` and ``differentiated`` are its parameters); eagerly that equation is traced and run.
In reverse mode (``grad``, ``vjp``, ``linearize``, ``jacrev``) the forward pass keeps only the
equation's inputs and the values its ``policy`` calls saveable (``partial_eval.py``), and the
linear function holds one ``remat2[differentiated=True]`` equation that recomputes the rest, as
in JAX (the last section of this module). Forward mode and batching inline the body.
"""

from __future__ import annotations

import contextlib
import functools
import inspect
import logging
import weakref
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from trellax._src.checkpoint.dce import dce
from trellax._src.checkpoint.partial_eval import Plan, plan
from trellax._src.config import settings as _config
from trellax._src.core import core
from trellax._src.core.core import Primitive
from trellax._src.core.jaxpr import ClosedJaxpr, Jaxpr, Var
from trellax._src.interpreters import tracing
from trellax._src.interpreters.ad import _LinearDispatch, backward_pass, jvp_flat
from trellax._src.interpreters.call_jaxpr import batch_body, inline_codegen, trace_call
from trellax._src.interpreters.tracing import JaxprTrace
from trellax._src.lax._base import asarray
from trellax._src.lax.ad_util import (
    Zero,
    differentiable,
    instantiate,
    is_undefined,
    tangent_aval,
)
from trellax._src.tree.tree_util import PyTreeDef, tree_flatten, tree_unflatten

remat_p = Primitive("remat2", multiple_results=True)


@remat_p.def_abstract_eval
def _remat_abstract_eval(*args: Any, jaxpr: ClosedJaxpr, **params: Any) -> Any:
    return tuple(jaxpr.out_avals)


@remat_p.def_impl
def _remat_impl(*args: Any, jaxpr: ClosedJaxpr, differentiated: bool, **params: Any) -> Any:
    # A linear function's (differentiated) equation runs op by op, as JAX's does, so that the
    # recomputation it holds calls each primitive's implementation; a checkpointed function
    # called eagerly runs its compiled program.
    if differentiated:
        return tuple(tracing.eval_jaxpr(jaxpr, *args))
    full = {"jaxpr": jaxpr, "differentiated": differentiated, **params}
    return tracing.run_equation(remat_p, args, full)


tracing.codegen_rules[remat_p] = inline_codegen("jaxpr")


@remat_p.def_jvp
def _remat_jvp(
    primals: Sequence[Any], tangents: Sequence[Any], *, jaxpr: ClosedJaxpr, **params: Any
) -> tuple[Any, Any]:

    if isinstance(core.current_trace(), _LinearDispatch):  # reverse mode: rematerialize
        return remat_jvp_reverse(primals, tangents, {"jaxpr": jaxpr, **params})
    outs, t_outs = jvp_flat(lambda *xs: tracing.eval_jaxpr(jaxpr, *xs), primals, tangents)
    return tuple(outs), tuple(t_outs)


@remat_p.def_batch
def _remat_batch(args: Sequence[Any], dims: Sequence[Any], **params: Any) -> tuple[Any, Any]:
    return batch_body(params["jaxpr"], args, dims)


def _static_positions(static_argnums: int | Iterable[int], n: int) -> frozenset[int]:
    nums = (static_argnums,) if isinstance(static_argnums, int) else tuple(static_argnums)
    if any(not -n <= i < n for i in nums):
        raise ValueError(
            "the `static_argnums` argument to `trellax.checkpoint` / `trellax.remat` can only "
            "take integer values greater than or equal to `-len(args)` and less than "
            f"`len(args)`, but got {nums}, while `len(args)` = {n}"
        )
    return frozenset(i % n for i in nums)


def checkpoint(
    fun: Callable[..., Any],
    *,
    prevent_cse: bool | Sequence[bool] = True,
    policy: Callable[..., bool] | None = None,
    static_argnums: int | tuple[int, ...] = (),
    static_argnames: str | Iterable[str] = (),
    concrete: Any = None,
) -> Callable[..., Any]:
    """``fun`` marked for rematerialization (same values and derivatives).

    >>> import trellax, trellax.numpy as tnp
    >>> f = trellax.checkpoint(lambda x: tnp.sin(tnp.sin(x)))
    >>> trellax.grad(f)(1.0)
    Array(0.36003944, dtype=float32, weak_type=True)
    """
    if concrete is not None:
        raise TypeError(
            "The `concrete` option to trellax.checkpoint has been removed (as in JAX); use "
            "`static_argnums` instead."
        )
    names = (static_argnames,) if isinstance(static_argnames, str) else tuple(static_argnames)

    @functools.wraps(fun)
    def checkpointed(*args: Any, **kwargs: Any) -> Any:
        static = _static_positions(static_argnums, len(args)) if static_argnums != () else set()
        if names and kwargs:
            bound = inspect.signature(fun).bind(*args, **kwargs)
            args, kwargs = tuple(bound.args), dict(bound.kwargs)
        # eagerly too the body is traced (as in JAX: Python control flow on its arguments'
        # values raises), then its equation runs
        return _bind(fun, args, kwargs, static, names, prevent_cse, policy)

    return checkpointed


remat = checkpoint


def _bind(
    fun: Callable[..., Any],
    args: tuple[Any, ...],
    kwargs: dict[str, Any],
    static: Iterable[int],
    static_names: Sequence[str],
    prevent_cse: bool | Sequence[bool],
    policy: Callable[..., bool] | None,
) -> Any:
    """One ``remat2`` equation for ``fun(*args, **kwargs)`` in the current jaxpr trace."""
    dyn = [a for i, a in enumerate(args) if i not in static]
    dyn_kwargs = {k: v for k, v in kwargs.items() if k not in static_names}
    leaves, in_tree = tree_flatten((dyn, dyn_kwargs))
    arrays = [asarray(x) for x in leaves]
    out_box: list[PyTreeDef] = []

    def flat_fun(*xs: Any) -> list[Any]:
        d, dk = tree_unflatten(in_tree, list(xs))
        it = iter(d)
        full = [a if i in static else next(it) for i, a in enumerate(args)]
        full_kwargs = {k: (v if k in static_names else dk[k]) for k, v in kwargs.items()}
        out_leaves, out_tree = tree_flatten(fun(*full, **full_kwargs))
        out_box.append(out_tree)
        return [asarray(o) for o in out_leaves]

    key = _trace_key(fun, args, kwargs, static, static_names, in_tree, arrays)
    cached = _cached_trace(fun, key)
    if cached is None:
        body, consts = trace_call(flat_fun, arrays, getattr(fun, "__name__", "fun"))
        _store_trace(fun, key, (body, consts, out_box[0]))
    else:
        body, consts, out_tree = cached
        out_box.append(out_tree)
    outs = remat_p.bind_multi(
        *consts,
        *arrays,
        jaxpr=body,
        prevent_cse=prevent_cse if isinstance(prevent_cse, bool) else tuple(prevent_cse),
        differentiated=False,
        policy=policy,
    )
    return tree_unflatten(out_box[0], list(outs))


# -- the traces of a function, by signature --------------------------------------------------------
#
# As JAX does, ``checkpoint`` traces a function once per signature (its input tree, the shapes,
# dtypes and weak flags of its array arguments, its static arguments and the configuration) and
# keeps the trace with the function object, for every ``checkpoint`` wrapper of it: a global the
# function reads that is rebound afterwards is not seen by later calls (JAX's autodiff_remat guide
# redefines ``predict`` under an already traced ``loss`` and prints the residuals of the first
# trace). A trace that closes over another transformation's tracers is not kept.

_TRACES: weakref.WeakKeyDictionary[Callable[..., Any], dict[Any, Any]] = weakref.WeakKeyDictionary()


def _trace_key(
    fun: Callable[..., Any],
    args: tuple[Any, ...],
    kwargs: dict[str, Any],
    static: Iterable[int],
    static_names: Sequence[str],
    in_tree: PyTreeDef,
    arrays: Sequence[Any],
) -> Any:
    """The signature ``fun``'s trace is kept under; None when a static argument is not
    hashable (JAX keys those by identity; they are traced every time here)."""
    static_vals = tuple((i, args[i]) for i in sorted(static))
    static_kw = tuple((k, kwargs[k]) for k in sorted(static_names) if k in kwargs)
    avals = tuple((a.shape, a.dtype, a.weak_type) for a in map(core.get_aval, arrays))
    key = (in_tree, avals, static_vals, static_kw, _config.state())
    try:
        hash(key)
    except TypeError:
        return None
    return key


def _cached_trace(fun: Callable[..., Any], key: Any) -> Any:
    if key is None:
        return None
    try:
        return _TRACES.get(fun, {}).get(key)
    except TypeError:  # not weakly referenceable
        return None


def _store_trace(fun: Callable[..., Any], key: Any, entry: tuple[Any, ...]) -> None:
    if key is None or any(isinstance(c, core.Tracer) for c in entry[1]):
        return
    with contextlib.suppress(TypeError):  # TypeError: not weakly referenceable
        _TRACES.setdefault(fun, {})[key] = entry


# -- reverse mode: the residuals are recomputed ---------------------------------------------------
#
# Linearizing a ``remat2`` equation (``grad``/``vjp``/``linearize``) splits its body's
# linearization by the policy (``partial_eval.py``): the known part runs in the parent trace
# (the forward pass: primal outputs and the residuals the policy keeps), and the linear function
# gets one ``remat2[differentiated=True]`` equation holding the staged part, which recomputes
# what was not kept and applies the body's linear map, as in JAX. Transposing a ``remat2``
# equation transposes its body in its linear inputs: the recomputation runs forward inside it,
# in the backward pass (again one ``remat2[differentiated=True]`` equation under a jaxpr trace).

#: The plan of each body, by body, differentiated inputs and policy.
_PLANS: weakref.WeakKeyDictionary[ClosedJaxpr, dict[Any, Plan]] = weakref.WeakKeyDictionary()


def _plan(jaxpr: ClosedJaxpr, lin_pos: tuple[int, ...], policy: Any) -> Plan:
    plans = _PLANS.setdefault(jaxpr, {})
    key = (lin_pos, policy)
    found = plans.get(key)
    if found is None:
        found = plans[key] = plan(jaxpr, lin_pos, policy)
        _log_residuals(found, policy)
    return found


def _log_residuals(p: Plan, policy: Any) -> None:
    """JAX's debug log of what a checkpointed function saves (its inputs, its intermediates)."""
    if not _LOG.isEnabledFor(logging.DEBUG):
        return
    j = p.known.jaxpr
    ins = {id(v) for v in j.invars}
    res = j.outvars[p.num_outputs :]
    inputs = [str(a.aval.str_short()) for a in res if type(a) is Var and id(a) in ins]
    producers = {id(v): e for e in j.eqns for v in e.outvars}
    inter = [producers[id(a)] for a in res if type(a) is Var and id(a) in producers]
    lines = []
    if inputs:
        lines.append(f"remat-decorated function saving inputs with shapes: {', '.join(inputs)}")
    if inter:
        what = (
            "and saving these intermediates:"
            if inputs
            else ("remat-decorated function saving these intermediates:")
        )
        names = ", ".join(f"{e.outvars[0].aval.str_short()} {e.primitive.name} " for e in inter)
        lines.append(f"{what} {names}")
    for line in lines:
        _LOG.debug(line)


_LOG = logging.getLogger("trellax.checkpoint")


def remat_jvp_reverse(
    primals: Sequence[Any], tangents: Sequence[Any], params: dict[str, Any]
) -> tuple[Any, Any]:
    """The ``remat2`` JVP rule in reverse mode (the current trace routes tangent work to the
    linear jaxpr): the known part in the parent, one ``remat2[differentiated=True]``."""
    rule_trace = core.current_trace()
    assert rule_trace.parent is not None
    jaxpr: ClosedJaxpr = params["jaxpr"]
    lin_pos = tuple(
        i
        for i, (p, t) in enumerate(zip(primals, tangents))
        if type(t) is not Zero and differentiable(core.get_aval(p).dtype)
    )
    with core.using_trace(rule_trace.parent):
        p = _plan(jaxpr, lin_pos, params["policy"])
        known = tracing.eval_jaxpr(p.known, *primals)
    outs, residuals = known[: p.num_outputs], known[p.num_outputs :]
    t_avals = [tangent_aval(a) for a in jaxpr.out_avals]
    if all(p.out_zero):
        return tuple(outs), tuple(Zero(a) for a in t_avals)
    t_in = [instantiate(tangents[i]) for i in lin_pos]
    t_outs = iter(
        remat_p.bind_multi(
            *residuals,
            *t_in,
            jaxpr=p.staged,
            prevent_cse=params["prevent_cse"],
            differentiated=True,
            policy=params["policy"],
        )
    )
    tans = [Zero(a) if z else next(t_outs) for a, z in zip(t_avals, p.out_zero)]
    return tuple(outs), tuple(tans)


@remat_p.def_transpose
def _remat_transpose(cts: Sequence[Any], *args: Any, jaxpr: ClosedJaxpr, **params: Any) -> Any:
    """The body transposed in its linear inputs (the others are residuals): what it computes
    from the residuals alone runs forward first, in the backward pass."""
    lin = [is_undefined(a) for a in args]
    known = [a for a, u in zip(args, lin) if not u]
    lin_avals = [a.aval for a, u in zip(args, lin) if u]
    out_avals = [tangent_aval(a) for a in jaxpr.out_avals]
    cts = [instantiate(Zero(a)) if type(c) is Zero else c for c, a in zip(cts, out_avals)]
    j = jaxpr.jaxpr
    nonlin_vars = [v for v, u in zip(j.invars, lin) if not u]
    lin_vars = [v for v, u in zip(j.invars, lin) if u]
    body = Jaxpr([*j.constvars, *nonlin_vars], lin_vars, j.outvars, j.eqns)

    def backward(*xs: Any) -> list[Any]:
        closed = ClosedJaxpr(body, [*jaxpr.consts, *xs[: len(known)]])
        in_cts = backward_pass(closed, lin_avals, xs[len(known) :])
        return [instantiate(c) for c in in_cts]

    in_cts: Sequence[Any]
    if isinstance(core.current_trace(), JaxprTrace):
        avals = [core.get_aval(x) for x in [*known, *cts]]
        traced = tracing.trace_to_jaxpr(backward, avals, "remat transpose")
        transposed = ClosedJaxpr(dce(traced.jaxpr), traced.consts)
        params = {**params, "differentiated": True}
        in_cts = remat_p.bind_multi(*known, *cts, jaxpr=transposed, **params)
    else:
        in_cts = backward(*known, *cts)
    it = iter(in_cts)
    return [next(it) if u else None for u in lin]
