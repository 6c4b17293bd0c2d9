"""The few ``jax.core`` names that libraries written against JAX use (``trellax.core``)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from trellax._src.core.core import Primitive
from trellax._src.core.jaxpr import Atom, ClosedJaxpr, Jaxpr, JaxprEqn, Var
from trellax._src.interpreters import tracing


def eval_jaxpr(
    jaxpr: Jaxpr, consts: Sequence[Any], *args: Any, propagate_source_info: bool = True
) -> list[Any]:
    """Evaluates ``jaxpr`` with its constants ``consts`` on ``args`` (binding each equation in
    the current trace, so it inlines when traced); returns the list of outputs."""
    del propagate_source_info
    if isinstance(jaxpr, ClosedJaxpr):
        raise TypeError("eval_jaxpr takes an open Jaxpr and its consts; got a ClosedJaxpr")
    return tracing.eval_jaxpr(ClosedJaxpr(jaxpr, list(consts)), *args)


def max_dim(d1: int, d2: int) -> int:
    """The larger of two dimension sizes (JAX's also handles symbolic sizes; trellax's shapes
    are concrete)."""
    return max(int(d1), int(d2))


def min_dim(d1: int, d2: int) -> int:
    """The smaller of two dimension sizes."""
    return min(int(d1), int(d2))


def jaxpr_as_fun(closed: ClosedJaxpr) -> Callable[..., list[Any]]:
    """``closed`` as a function of its inputs returning the list of its outputs (it binds each
    equation in the current trace)."""

    def fun(*args: Any) -> list[Any]:
        return tracing.eval_jaxpr(closed, *args)

    return fun


def new_jaxpr_eqn(
    invars: Sequence[Atom],
    outvars: Sequence[Var],
    primitive: Primitive,
    params: dict[str, Any],
    effects: Any = frozenset(),
    source_info: Any = None,
    ctx: Any = None,
) -> JaxprEqn:
    """An equation ``outvars = primitive[params] invars`` (effects and context are not
    recorded: trellax runs a jaxpr's equations in order)."""
    del effects, ctx
    source = source_info if isinstance(source_info, str) else None
    return JaxprEqn(primitive, list(invars), list(outvars), dict(params), source)
