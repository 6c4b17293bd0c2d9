"""The few ``jax.core`` names that libraries written against JAX use (``trellax.core``)."""

from __future__ import annotations

import weakref
from collections.abc import Callable, Sequence
from typing import Any

from trellax._src.core.core import (
    EvalTrace,
    Primitive,
    ShapedArray,
    Tracer,
    current_trace,
    eval_trace,
)
from trellax._src.core.jaxpr import Atom, ClosedJaxpr, Jaxpr, JaxprEqn, Var
from trellax._src.interpreters import tracing
from trellax._src.interpreters.dce import jaxprs_in
from trellax._src.interpreters.dce import subjaxprs as subjaxprs


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


def mapped_aval(size: int, axis: int | None, aval: Any) -> Any:
    """``aval`` without its axis ``axis`` of size ``size`` (``None``: not mapped, unchanged)."""
    if axis is None:
        return aval
    shape = tuple(aval.shape)
    if not -len(shape) <= axis < len(shape) or shape[axis] != size:
        raise ValueError(f"cannot map axis {axis} of size {size} out of shape {shape}")
    axis %= len(shape)
    return ShapedArray(shape[:axis] + shape[axis + 1 :], aval.dtype, aval.weak_type)


def unmapped_aval(size: int, axis: int | None, aval: Any, explicit_mesh_axis: Any = None) -> Any:
    """``aval`` with a new axis of size ``size`` at ``axis`` (``None``: unchanged)."""
    if axis is None:
        return aval
    shape = list(aval.shape)
    shape.insert(axis if axis >= 0 else len(shape) + 1 + axis, size)
    return ShapedArray(tuple(shape), aval.dtype, aval.weak_type)


class OpaqueTraceState:
    """Which trace was current when it was made, compared by identity only (libraries such as
    Flax's nnx check that an object is used under the trace it was made in). Holds the trace
    weakly, so it keeps no finished transformation alive."""

    __slots__ = ("_trace_ref",)

    def __init__(self, trace: Any) -> None:
        self._trace_ref = weakref.ref(trace)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, OpaqueTraceState) and self._trace_ref == other._trace_ref

    def __hash__(self) -> int:
        return hash(self._trace_ref)

    def __repr__(self) -> str:
        trace = self._trace_ref()
        return f"OpaqueTraceState({type(trace).__name__ if trace is not None else 'dead'})"


def get_opaque_trace_state(convention: str | None = None) -> OpaqueTraceState:
    """The current trace, as an opaque value that compares equal only under the same trace."""
    del convention
    trace = current_trace()
    # the op-by-op bottom trace (``disable_jit``, ``debug_nans``, a mesh set) is the evaluation
    # trace there: objects made before it was installed stay usable, as in JAX
    return OpaqueTraceState(eval_trace if isinstance(trace, EvalTrace) else trace)


def find_top_trace(xs: Sequence[Any]) -> Any:
    """The innermost trace among the tracers in ``xs``, else the trace in force."""
    tops = [x._trace for x in xs if isinstance(x, Tracer)]
    return tops[-1] if tops else current_trace()


def jaxprs_in_params(params: dict[str, Any]) -> list[Jaxpr]:
    """The jaxprs held in an equation's parameters (directly, closed, or in tuples/lists)."""
    return [j for value in params.values() for j in jaxprs_in(value)]
