"""``checkpoint`` / ``remat``: a function whose residuals are recomputed in the backward pass.

trellax computes the same values and derivatives as JAX. Under any transformation a
checkpointed function is one ``remat2`` equation holding its jaxpr, as in JAX (``prevent_cse``,
``policy`` and ``differentiated`` are its parameters); eagerly it is just called. In reverse
mode (``grad``, ``vjp``, ``jacrev``) the equation's inputs, and the values its ``policy`` lets
it keep (``saving.py``), are its only residuals, and the rest of the body's forward pass runs
again in the backward pass (the last section of this module): under ``jit`` or ``make_jaxpr``
that is a ``remat2[differentiated=True]`` equation, as in JAX. A policy that keeps everything
(``everything_saveable``) linearizes the body as if it were not checkpointed. Forward mode and
batching inline the body.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from trellax._src.checkpoint.saving import (
    Saved,
    body_using_saved,
    eval_keeping,
    saved_avals,
    saved_positions,
    saves_everything,
)
from trellax._src.core import core
from trellax._src.core.core import EvalTrace, Primitive, ShapedArray
from trellax._src.core.jaxpr import ClosedJaxpr, Jaxpr
from trellax._src.interpreters import batching, tracing
from trellax._src.interpreters.ad import _LinearDispatch, jvp_flat, linearize_flat
from trellax._src.interpreters.call_jaxpr import batch_body, inline_codegen, trace_call
from trellax._src.interpreters.tracing import JaxprTrace
from trellax._src.lax._base import asarray
from trellax._src.lax.ad_util import Zero, instantiate, tangent_aval
from trellax._src.tree.tree_util import PyTreeDef, tree_flatten, tree_unflatten

remat_p = Primitive("remat2", multiple_results=True)


@remat_p.def_abstract_eval
def _remat_abstract_eval(*args: Any, jaxpr: ClosedJaxpr, **params: Any) -> Any:
    return tuple(jaxpr.out_avals)


remat_p.def_impl(lambda *args, **params: tracing.run_equation(remat_p, args, params))


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
        if isinstance(core.current_trace(), EvalTrace):
            # eagerly, differentiated or batched: the body itself, on arrays (as JAX binds it)
            args = tuple(a if i in static else _arrays(a) for i, a in enumerate(args))
            kwargs = {k: (v if k in names else _arrays(v)) for k, v in kwargs.items()}
            return fun(*args, **kwargs)
        return _bind(fun, args, kwargs, static, names, prevent_cse, policy)

    return checkpointed


remat = checkpoint


def _arrays(tree: Any) -> Any:
    leaves, treedef = tree_flatten(tree)
    return tree_unflatten(treedef, [asarray(x) for x in leaves])


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

    body, consts = trace_call(flat_fun, arrays, getattr(fun, "__name__", "fun"))
    outs = remat_p.bind_multi(
        *consts,
        *arrays,
        jaxpr=body,
        prevent_cse=prevent_cse if isinstance(prevent_cse, bool) else tuple(prevent_cse),
        differentiated=False,
        policy=policy,
    )
    return tree_unflatten(out_box[0], list(outs))


# -- reverse mode: the residuals are recomputed ---------------------------------------------------
#
# Reverse mode through ``remat2``: the residuals are recomputed in the backward pass.
#
# Linearizing a ``remat2`` equation (``grad``/``vjp``) computes its primal outputs in the parent
# trace (the body inlined) and records one *linear* equation, ``remat_lin``, in the tangent
# jaxpr. Its only residuals are the equation's inputs, never the body's intermediates. Its
# transpose linearizes the body again at those inputs and transposes that: the body's forward
# pass runs a second time, in the backward pass. Under a jaxpr trace (``make_jaxpr(grad(f))``,
# ``jit(grad(f))``) that recomputation is one ``remat2[differentiated=True]`` equation holding
# the body's VJP, as in JAX.
#
# ``remat_lin`` evaluated forward (``linearize``'s tangent function) is the body's JVP; its own
# JVP and batching rules are those of that function.


def _body(jaxpr: ClosedJaxpr) -> Any:
    return lambda *xs: tracing.eval_jaxpr(jaxpr, *xs)


def _lin_fun(jaxpr: ClosedJaxpr, num_primals: int, num_saved: int = 0) -> Any:
    """``(*primals, *saved, *tangents) -> tangent outputs``: the body's JVP, as a flat function
    (values saved by the policy are not needed going forward: everything is recomputed)."""

    def lin(*args: Any) -> list[Any]:
        primals, tangents = args[:num_primals], args[num_primals + num_saved :]
        _, t_outs = jvp_flat(_body(jaxpr), primals, tangents)
        avals = [tangent_aval(a) for a in jaxpr.out_avals]
        return [instantiate(Zero(a)) if type(t) is Zero else t for t, a in zip(t_outs, avals)]

    return lin


remat_lin_p = Primitive("remat_lin", multiple_results=True)


@remat_lin_p.def_abstract_eval
def _remat_lin_abstract_eval(
    *args: Any, jaxpr: ClosedJaxpr, num_primals: int, **params: Any
) -> tuple[ShapedArray, ...]:
    return tuple(tangent_aval(a) for a in jaxpr.out_avals)


@remat_lin_p.def_impl
def _remat_lin_impl(
    *values: Any, jaxpr: ClosedJaxpr, num_primals: int, saved: Saved = (), **params: Any
) -> Any:
    in_avals = jaxpr.jaxpr.in_avals
    avals = [*in_avals, *saved_avals(jaxpr, saved), *[tangent_aval(a) for a in in_avals]]
    arrays = [core.new_array(v, a.dtype, a.weak_type) for v, a in zip(values, avals)]
    return tuple(o._value for o in _lin_fun(jaxpr, num_primals, len(saved))(*arrays))


@remat_lin_p.def_jvp
def _remat_lin_jvp(
    primals: Sequence[Any], tangents: Sequence[Any], *, jaxpr: ClosedJaxpr, num_primals: int,
    saved: Saved = (), **params: Any,
) -> tuple[Any, Any]:  # fmt: skip

    outs, t_outs = jvp_flat(_lin_fun(jaxpr, num_primals, len(saved)), primals, tangents)
    return tuple(outs), tuple(t_outs)


@remat_lin_p.def_batch
def _remat_lin_batch(
    args: Sequence[Any], dims: Sequence[Any], *, jaxpr: ClosedJaxpr, num_primals: int,
    saved: Saved = (), **params: Any,
) -> tuple[Any, Any]:  # fmt: skip

    axis = batching.current_axis()
    lin = _lin_fun(jaxpr, num_primals, len(saved))
    return batching.batch_flat(lin, args, dims, axis.size, axis.name)


@remat_lin_p.def_transpose
def _remat_lin_transpose(
    cts: Sequence[Any], *args: Any, jaxpr: ClosedJaxpr, num_primals: int, saved: Saved = (),
    **params: Any,
) -> list[Any]:  # fmt: skip

    primals = list(args[:num_primals])
    kept = list(args[num_primals : num_primals + len(saved)])
    out_avals = [tangent_aval(a) for a in jaxpr.out_avals]
    cts = [instantiate(Zero(a)) if type(c) is Zero else c for c, a in zip(cts, out_avals)]
    in_cts: Sequence[Any]
    if isinstance(core.current_trace(), JaxprTrace):
        vjp_jaxpr = _vjp_jaxpr(jaxpr, primals, kept, saved, cts)
        in_cts = remat_p.bind_multi(
            *primals, *kept, *cts, jaxpr=vjp_jaxpr, differentiated=True, **params
        )
    else:
        in_cts = _vjp(jaxpr, primals, kept, saved, cts)
    return [None] * (num_primals + len(saved)) + list(in_cts)


def _vjp(
    jaxpr: ClosedJaxpr,
    primals: Sequence[Any],
    kept: Sequence[Any],
    saved: Saved,
    cts: Sequence[Any],
) -> list[Any]:
    """The body's cotangents at ``primals``: its forward pass recomputed here, except the values
    the policy saved (``kept``), which are used as they are."""

    body = _body(jaxpr) if not saved else body_using_saved(jaxpr, saved, kept)
    _, lin = linearize_flat(body, primals)
    in_cts = lin.transpose(cts)
    return [instantiate(c) if type(c) is Zero else c for c in in_cts]


def _vjp_jaxpr(
    jaxpr: ClosedJaxpr,
    primals: Sequence[Any],
    kept: Sequence[Any],
    saved: Saved,
    cts: Sequence[Any],
) -> ClosedJaxpr:
    """The jaxpr of ``(*primals, *kept, *cts) -> input cotangents`` (the body of the
    differentiated ``remat2`` equation)."""

    n, k = len(primals), len(kept)
    closed = tracing.trace_to_jaxpr(
        lambda *xs: _vjp(jaxpr, xs[:n], xs[n : n + k], saved, xs[n + k :]),
        [core.get_aval(x) for x in [*primals, *kept, *cts]],
        "remat_vjp",
    )
    j = closed.jaxpr
    if closed.consts:  # values closed over by the body (none: its inputs are explicit)
        return ClosedJaxpr(Jaxpr(j.constvars, j.invars, j.outvars, j.eqns), closed.consts)
    return closed


def remat_jvp_reverse(
    primals: Sequence[Any], tangents: Sequence[Any], params: dict[str, Any]
) -> tuple[Any, Any]:
    """The ``remat2`` JVP rule in reverse mode (the current trace routes tangent work to the
    linear jaxpr): primal outputs computed in the parent, one ``remat_lin`` equation."""
    rule_trace = core.current_trace()
    assert rule_trace.parent is not None
    jaxpr: ClosedJaxpr = params["jaxpr"]
    if saves_everything(jaxpr, params["policy"]):  # nothing to recompute: plain linearization
        plain_outs, plain_t = jvp_flat(_body(jaxpr), primals, tangents)
        return tuple(plain_outs), tuple(plain_t)
    saved = saved_positions(jaxpr, params["policy"])
    with core.using_trace(rule_trace.parent):
        outs, kept = eval_keeping(jaxpr, primals, saved)
    live = [instantiate(t) for t in tangents]
    t_outs = remat_lin_p.bind_multi(
        *primals,
        *kept,
        *live,
        jaxpr=jaxpr,
        num_primals=len(primals),
        saved=saved,
        prevent_cse=params["prevent_cse"],
        policy=params["policy"],
    )
    return tuple(outs), tuple(t_outs)
