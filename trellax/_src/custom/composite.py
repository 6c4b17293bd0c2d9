"""``lax.composite``: a function kept whole as one ``composite`` equation, named and versioned.

A backend may replace a composite by its own kernel, so its decomposition is a reference, not
a definition that transformations may look through. As in JAX: traced, the call is one
``composite`` equation holding the decomposition's jaxpr (``make_jaxpr`` shows it, ``jit`` runs
it inline); it has no derivative (``ValueError``, pointing to ``custom_jvp``) and no batching
rule (``NotImplementedError``); a decomposition that closes over a value of an enclosing
transformation is refused (``UnexpectedTracerError``), since such a value cannot be a constant
of the named operation. Keyword arguments are attributes: fixed values the decomposition reads.
Called outside any transformation, the decomposition simply runs.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from trellax._src.core import core
from trellax._src.core.core import Primitive
from trellax._src.core.errors import UnexpectedTracerError
from trellax._src.interpreters import tracing
from trellax._src.interpreters.call_jaxpr import inline_codegen
from trellax._src.lax._base import asarray
from trellax._src.tree.tree_util import PyTreeDef, tree_flatten, tree_unflatten

composite_p = Primitive("composite", multiple_results=True)
composite_p.def_abstract_eval(lambda *args, jaxpr, **params: tuple(jaxpr.out_avals))
composite_p.def_impl(lambda *args, **params: tracing.run_equation(composite_p, args, params))
tracing.codegen_rules[composite_p] = inline_codegen("jaxpr")
tracing.call_bodies[composite_p] = lambda eqn: eqn.params["jaxpr"]


@composite_p.def_jvp
def _composite_jvp(primals: Any, tangents: Any, **params: Any) -> Any:
    raise ValueError(
        "JVP rule for composite not implemented. You can use `jax.custom_jvp` to add support. "
        "See https://docs.jax.dev/en/latest/_autosummary/jax.custom_jvp.html"
    )


@composite_p.def_batch
def _composite_batch(args: Any, dims: Any, **params: Any) -> Any:
    raise NotImplementedError("Batching rule for 'composite' not implemented")


def composite(decomposition: Callable[..., Any], name: str, version: int = 0) -> Callable[..., Any]:
    """``decomposition`` as the composite operation ``name`` (``version``): positional
    arguments are its operands (arrays), keyword arguments its attributes.

    >>> import trellax, trellax.numpy as tnp
    >>> square = trellax.lax.composite(lambda x: x * x, name="my.square")
    >>> square(tnp.arange(3.0))
    Array([0., 1., 4.], dtype=float32)
    """
    if not isinstance(name, str):
        raise TypeError(f"composite name must be a string, got {type(name).__name__}")

    @functools.wraps(decomposition)
    def call(*args: Any, **attributes: Any) -> Any:
        if core._current_trace.get() is core.eval_trace:
            return decomposition(*args, **attributes)
        leaves, in_tree = tree_flatten(args)
        arrays = [asarray(x) for x in leaves]
        box: list[PyTreeDef] = []

        def flat(*xs: Any) -> list[Any]:
            out = decomposition(*tree_unflatten(in_tree, list(xs)), **attributes)
            out_leaves, out_tree = tree_flatten(out)
            box.append(out_tree)
            return [asarray(o) for o in out_leaves]

        closed = tracing.trace_to_jaxpr(flat, [core.get_aval(a) for a in arrays], name)
        if any(isinstance(c, core.Tracer) for c in closed.consts):
            raise UnexpectedTracerError(
                None,
                f"Found a JAX Tracer as a constant in the decomposition for the composite op "
                f"'{name}'. This means that the decomposition function closes over a value that "
                "is involved in a JAX transformation. Any values that aren't explicitly known at "
                "compile time must be explicitly passed as arguments to the composite.",
            )
        outs = composite_p.bind_multi(*arrays, jaxpr=closed, name=name, version=version)
        return tree_unflatten(box[0], list(outs))

    return call
