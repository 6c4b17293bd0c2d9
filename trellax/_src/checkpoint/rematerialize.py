"""``checkpoint`` / ``remat``: a function whose residuals are recomputed in the backward pass.

trellax computes the same values and derivatives as JAX. Under any transformation a
checkpointed function is one ``remat2`` equation holding its jaxpr, as in JAX (``prevent_cse``,
``policy`` and ``differentiated`` are its parameters); eagerly it is just called. In reverse
mode (``grad``, ``vjp``, ``jacrev``) the equation's inputs are its only residuals and the body's
forward pass runs again in the backward pass (``_src/checkpoint/remat_ad.py``): under ``jit`` or
``make_jaxpr`` that is a ``remat2[differentiated=True]`` equation, as in JAX. ``policy`` is
recorded but nothing is saved selectively: every intermediate of the body is recomputed.
Forward mode and batching inline the body.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from trellax._src.core import core
from trellax._src.core.core import EvalTrace, Primitive
from trellax._src.core.jaxpr import ClosedJaxpr
from trellax._src.interpreters import tracing
from trellax._src.interpreters.call_jaxpr import batch_body, inline_codegen, trace_call
from trellax._src.lax._base import asarray
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
    from trellax._src.checkpoint.remat_ad import remat_jvp_reverse
    from trellax._src.interpreters.ad import _LinearDispatch, jvp_flat

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
