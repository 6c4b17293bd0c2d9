"""Reverse mode through ``remat2``: the residuals are recomputed in the backward pass.

Linearizing a ``remat2`` equation (``grad``/``vjp``) computes its primal outputs in the parent
trace (the body inlined) and records one *linear* equation, ``remat_lin``, in the tangent
jaxpr. Its only residuals are the equation's inputs, never the body's intermediates. Its
transpose linearizes the body again at those inputs and transposes that: the body's forward
pass runs a second time, in the backward pass. Under a jaxpr trace (``make_jaxpr(grad(f))``,
``jit(grad(f))``) that recomputation is one ``remat2[differentiated=True]`` equation holding
the body's VJP, as in JAX.

``remat_lin`` evaluated forward (``linearize``'s tangent function) is the body's JVP; its own
JVP and batching rules are those of that function.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from trellax._src.core import core
from trellax._src.core.core import Primitive, ShapedArray
from trellax._src.core.jaxpr import ClosedJaxpr
from trellax._src.interpreters import tracing
from trellax._src.interpreters.tracing import JaxprTrace
from trellax._src.lax.ad_util import Zero, instantiate, tangent_aval


def _body(jaxpr: ClosedJaxpr) -> Any:
    return lambda *xs: tracing.eval_jaxpr(jaxpr, *xs)


def _lin_fun(jaxpr: ClosedJaxpr, num_primals: int) -> Any:
    """``(*primals, *tangents) -> tangent outputs``: the body's JVP, as a flat function."""
    from trellax._src.interpreters.ad import jvp_flat

    def lin(*args: Any) -> list[Any]:
        primals, tangents = args[:num_primals], args[num_primals:]
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
def _remat_lin_impl(*values: Any, jaxpr: ClosedJaxpr, num_primals: int, **params: Any) -> Any:
    in_avals = jaxpr.jaxpr.in_avals
    avals = [*in_avals, *[tangent_aval(a) for a in in_avals]]
    arrays = [core.new_array(v, a.dtype, a.weak_type) for v, a in zip(values, avals)]
    return tuple(o._value for o in _lin_fun(jaxpr, num_primals)(*arrays))


@remat_lin_p.def_jvp
def _remat_lin_jvp(
    primals: Sequence[Any], tangents: Sequence[Any], *, jaxpr: ClosedJaxpr, num_primals: int,
    **params: Any,
) -> tuple[Any, Any]:  # fmt: skip
    from trellax._src.interpreters.ad import jvp_flat

    outs, t_outs = jvp_flat(_lin_fun(jaxpr, num_primals), primals, tangents)
    return tuple(outs), tuple(t_outs)


@remat_lin_p.def_batch
def _remat_lin_batch(
    args: Sequence[Any], dims: Sequence[Any], *, jaxpr: ClosedJaxpr, num_primals: int,
    **params: Any,
) -> tuple[Any, Any]:  # fmt: skip
    from trellax._src.interpreters import batching

    axis = batching.current_axis()
    return batching.batch_flat(_lin_fun(jaxpr, num_primals), args, dims, axis.size, axis.name)


@remat_lin_p.def_transpose
def _remat_lin_transpose(
    cts: Sequence[Any], *args: Any, jaxpr: ClosedJaxpr, num_primals: int, **params: Any
) -> list[Any]:
    from trellax._src.checkpoint.rematerialize import remat_p

    primals = list(args[:num_primals])
    out_avals = [tangent_aval(a) for a in jaxpr.out_avals]
    cts = [instantiate(Zero(a)) if type(c) is Zero else c for c, a in zip(cts, out_avals)]
    in_cts: Sequence[Any]
    if isinstance(core.current_trace(), JaxprTrace):
        in_cts = remat_p.bind_multi(
            *primals, *cts, jaxpr=_vjp_jaxpr(jaxpr, primals, cts), differentiated=True, **params
        )
    else:
        in_cts = _vjp(jaxpr, primals, cts)
    return [None] * num_primals + list(in_cts)


def _vjp(jaxpr: ClosedJaxpr, primals: Sequence[Any], cts: Sequence[Any]) -> list[Any]:
    """The body's cotangents at ``primals`` (its forward pass recomputed here)."""
    from trellax._src.interpreters.ad import linearize_flat

    _, lin = linearize_flat(_body(jaxpr), primals)
    in_cts = lin.transpose(cts)
    return [instantiate(c) if type(c) is Zero else c for c in in_cts]


def _vjp_jaxpr(jaxpr: ClosedJaxpr, primals: Sequence[Any], cts: Sequence[Any]) -> ClosedJaxpr:
    """The jaxpr of ``(*primals, *cts) -> input cotangents`` (the body of the differentiated
    ``remat2`` equation)."""
    from trellax._src.core.jaxpr import Jaxpr

    n = len(primals)
    closed = tracing.trace_to_jaxpr(
        lambda *xs: _vjp(jaxpr, xs[:n], xs[n:]),
        [core.get_aval(x) for x in [*primals, *cts]],
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
    with core.using_trace(rule_trace.parent):
        outs = tracing.eval_jaxpr(jaxpr, *primals)
    live = [instantiate(t) for t in tangents]
    t_outs = remat_lin_p.bind_multi(
        *primals,
        *live,
        jaxpr=jaxpr,
        num_primals=len(primals),
        prevent_cse=params["prevent_cse"],
        policy=params["policy"],
    )
    return tuple(outs), tuple(t_outs)
