"""Scanned operands that are the same at every step become constants of the loop.

Reverse mode often scans over a broadcast: the cotangent of ``ys.sum()`` is ``1.0`` broadcast to
``(length,)``, and the transposed loop reads one element of it per step (an index, and a NumPy
scalar wrapped back into an array: ~0.3 µs a step). When a scanned operand is made, in the
enclosing jaxpr, by a ``broadcast_in_dim`` that does not map any axis of its operand to the
leading (scanned) axis, every slice is that operand broadcast to the slice's shape: the compiled
program passes it to the body as a constant instead (the operand itself when it already has the
slice's shape, else one ``broadcast_in_dim`` before the loop), with the same values, dtype and
weak flag. The printed jaxpr is unchanged: this runs in the compiler
(:data:`trellax._src.interpreters.peephole.rules`), with the other specializations.
"""

from __future__ import annotations

from collections.abc import Callable

from trellax._src.core.jaxpr import Atom, ClosedJaxpr, Jaxpr, JaxprEqn, Var
from trellax._src.interpreters import loop_buffers


def _invariant_slice(
    a: Atom, x: Var, producer: Callable[[Atom], JaxprEqn | None], pre: list[JaxprEqn]
) -> Atom | None:
    """The per-step value of the scanned operand ``a`` (the body reads it as ``x``) if it is a
    broadcast constant along the scanned axis (adding its ``broadcast_in_dim`` to ``pre`` when
    one is needed), else None."""
    b = producer(a)
    if b is None or b.primitive.name != "broadcast_in_dim" or len(b.invars) != 1:
        return None
    dims = tuple(b.params["broadcast_dimensions"])
    op = b.invars[0]
    if 0 in dims or op.aval.dtype != x.aval.dtype or op.aval.weak_type != x.aval.weak_type:
        return None
    inner = tuple(d - 1 for d in dims)
    if tuple(op.aval.shape) == tuple(x.aval.shape) and inner == tuple(range(len(inner))):
        return op
    v = Var(x.aval)
    params = dict(b.params, shape=tuple(x.aval.shape), broadcast_dimensions=inner)
    pre.append(JaxprEqn(b.primitive, [op], [v], params, b.source, b.api))
    return v


def hoist_invariant_xs(
    eqn: JaxprEqn, producer: Callable[[Atom], JaxprEqn | None]
) -> list[JaxprEqn] | None:
    """``eqn`` (a scan) with its step-invariant scanned operands moved to its constants, preceded
    by the broadcasts that make them; None if it has none."""
    if not loop_buffers.enabled:
        return None
    p = eqn.params
    n_consts, n_carry = p["num_consts"], p["num_carry"]
    closed: ClosedJaxpr = p["jaxpr"]
    body = closed.jaxpr
    first = n_consts + n_carry
    xs, body_xs = eqn.invars[first:], body.invars[first:]
    pre: list[JaxprEqn] = []
    moved: dict[int, Atom] = {}
    for j, (a, x) in enumerate(zip(xs, body_xs)):
        value = _invariant_slice(a, x, producer, pre)
        if value is not None:
            moved[j] = value
    if not moved:
        return None
    new_body = Jaxpr(
        body.constvars,
        [
            *body.invars[:n_consts],
            *[body_xs[j] for j in moved],
            *body.invars[n_consts:first],
            *[x for j, x in enumerate(body_xs) if j not in moved],
        ],
        body.outvars,
        body.eqns,
    )
    operands = [
        *eqn.invars[:n_consts],
        *moved.values(),
        *eqn.invars[n_consts:first],
        *[a for j, a in enumerate(xs) if j not in moved],
    ]
    params = dict(
        p, jaxpr=ClosedJaxpr(new_body, closed.consts), num_consts=n_consts + len(moved)
    )
    return [*pre, JaxprEqn(eqn.primitive, operands, list(eqn.outvars), params, eqn.source, eqn.api)]
