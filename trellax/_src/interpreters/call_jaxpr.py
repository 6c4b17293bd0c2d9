"""Helpers for primitives that hold a traced function (``remat2``, ``custom_vmap_call``): trace
it with its closed-over values as leading inputs, write its equations inline in a compiled
program, and batch it by batching its body."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from trellax._src.core import core
from trellax._src.core.jaxpr import ClosedJaxpr, Jaxpr
from trellax._src.interpreters import batching, tracing
from trellax._src.lax.shapes import moveaxis


def trace_call(
    flat_fun: Callable[..., Sequence[Any]], arrays: Sequence[Any], name: str
) -> tuple[ClosedJaxpr, list[Any]]:
    """``flat_fun`` traced on the avals of ``arrays``: a jaxpr without constants (the values it
    closes over are its leading inputs) and those values, to pass before ``arrays``."""
    closed = tracing.trace_to_jaxpr(flat_fun, [core.get_aval(a) for a in arrays], name)
    j = closed.jaxpr
    call = ClosedJaxpr(Jaxpr([], [*j.constvars, *j.invars], j.outvars, j.eqns), [])
    return call, list(closed.consts)


def inline_codegen(param: str) -> tracing.CodegenRule:
    """A code generation rule writing the jaxpr held in ``eqn.params[param]`` inline."""

    def rule(em: Any, eqn: Any, args: list[str], outs: list[str], indent: str) -> None:
        closed: ClosedJaxpr = eqn.params[param]
        em.assign(outs, em.jaxpr(closed.jaxpr, closed.consts, args, indent), indent)

    return rule


def batch_body(
    closed: ClosedJaxpr, args: Sequence[Any], dims: Sequence[int | None]
) -> tuple[list[Any], list[int | None]]:
    """The batching of an equation holding ``closed``: its body evaluated under ``vmap``."""

    info = batching.current_axis()
    outs, out_dims = batching.batch_flat(
        lambda *xs: tracing.eval_jaxpr(closed, *xs), args, dims, info.size, info.name
    )
    return [o if d is None else moveaxis(o, d, 0) for o, d in zip(outs, out_dims)], [
        None if d is None else 0 for d in out_dims
    ]
