"""``custom_gradient`` and ``closure_convert`` (JAX's ``jax.custom_gradient`` and
``jax.closure_convert``).

``custom_gradient(f)``: ``f(*args)`` returns ``(out, vjp)``; the result is a ``custom_vjp``
function whose forward pass runs ``f`` and keeps ``vjp`` (a closure) as its residual, carried in
the static part of the residual pytree. As in JAX it supports reverse mode only.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from trellax._src.core import core
from trellax._src.core.jaxpr import ClosedJaxpr
from trellax._src.custom.derivatives import custom_vjp
from trellax._src.interpreters import tracing
from trellax._src.lax._base import asarray
from trellax._src.tree.registry import register_pytree_node
from trellax._src.tree.tree_util import PyTreeDef, tree_flatten, tree_unflatten


class _Closure:
    """A residual holding a Python function: a pytree with no leaves (the function is static)."""

    __slots__ = ("fun",)

    def __init__(self, fun: Callable[..., Any]) -> None:
        self.fun = fun


register_pytree_node(_Closure, lambda c: ((), c.fun), lambda fun, _: _Closure(fun))


def custom_gradient(fun: Callable[..., Any]) -> Callable[..., Any]:
    """A function with a hand-written gradient: ``fun`` returns ``(output, vjp)`` where
    ``vjp(ct)`` returns one cotangent per argument (a bare value is accepted for a single
    argument).

    >>> import trellax, trellax.numpy as tnp
    >>> @trellax.custom_gradient
    ... def f(x):
    ...     return tnp.sin(x), lambda g: (3.0 * g,)
    >>> trellax.grad(f)(1.0)
    Array(3., dtype=float32, weak_type=True)
    """

    @custom_vjp
    def wrapped(*args: Any) -> Any:
        return fun(*args)[0]

    def fwd(*args: Any) -> tuple[Any, _Closure]:
        out, vjp = fun(*args)
        return out, _Closure(vjp)

    def bwd(res: _Closure, ct: Any) -> Any:
        cts = res.fun(ct)
        return cts if isinstance(cts, tuple | list) else (cts,)

    wrapped.defvjp(fwd, bwd)
    functools.update_wrapper(wrapped, fun, updated=())
    return wrapped


def closure_convert(
    fun: Callable[..., Any], *example_args: Any
) -> tuple[Callable[..., Any], list[Any]]:
    """``fun`` with the traced values it closes over made explicit: returns
    ``(converted, consts)`` with ``converted(*args, *consts) == fun(*args)``. Only tracers of an
    enclosing transformation are hoisted (concrete constants stay closed over), as in JAX.
    """
    leaves, in_tree = tree_flatten(example_args)
    arrays = [asarray(x) for x in leaves]
    out_box: list[PyTreeDef] = []

    def flat_fun(*xs: Any) -> list[Any]:
        out_leaves, out_tree = tree_flatten(fun(*tree_unflatten(in_tree, list(xs))))
        out_box.append(out_tree)
        return [asarray(o) for o in out_leaves]

    closed = tracing.trace_to_jaxpr(
        flat_fun, [core.get_aval(a) for a in arrays], getattr(fun, "__name__", "fun")
    )
    hoisted = [i for i, c in enumerate(closed.consts) if isinstance(c, core.Tracer)]

    def converted(*args_and_consts: Any) -> Any:
        # the last len(hoisted) values are the constants; the others must have the structure of
        # the example arguments (JAX's TypeError otherwise)
        n = max(len(args_and_consts) - len(hoisted), 0)
        args, given = args_and_consts[:n], args_and_consts[n:]
        flat_args, tree = tree_flatten(tuple(args))
        if tree != in_tree or len(given) != len(hoisted):
            raise TypeError(
                "The inputs to the closure produced by closure_convert must have the same Pytree "
                "structure as the example arguments passed when closure_convert was called. "
                f"Expected {in_tree}, but got {tree}"
            )
        consts = list(closed.consts)
        for i, c in zip(hoisted, given):
            consts[i] = c
        flat = [asarray(x) for x in flat_args]
        outs = tracing.eval_jaxpr(ClosedJaxpr(closed.jaxpr, consts), *flat)
        return tree_unflatten(out_box[0], outs)

    functools.update_wrapper(converted, fun)
    return converted, [closed.consts[i] for i in hoisted]
