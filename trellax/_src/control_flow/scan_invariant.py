"""Scalars scanned over as a broadcast become constants of the loop.

Reverse mode often scans over a broadcast scalar: the cotangent of ``ys.sum()`` is ``1.0``
broadcast to ``(length,)``, and the transposed loop reads one element of it per step (an index,
and the NumPy scalar wrapped back into an array: ~0.3 µs a step). When a scanned operand of shape
``(length,)`` is made, in the enclosing jaxpr, by a ``broadcast_in_dim`` of a 0-d value, every
step reads that value: the compiled program passes it to the body as a constant instead, with
the same value, dtype and weak flag. (Only 0-d steps: a slice of more dimensions of a broadcast
has its own memory layout, which a matrix product or reduction reading it could see.) The
printed jaxpr is unchanged: this runs in the compiler
(:data:`trellax._src.interpreters.peephole.rules`), with the other specializations.
"""

from __future__ import annotations

from collections.abc import Callable

from trellax._src.core.jaxpr import Atom, ClosedJaxpr, Jaxpr, JaxprEqn, Var
from trellax._src.interpreters import loop_buffers


def _invariant(a: Atom, x: Var, producer: Callable[[Atom], JaxprEqn | None]) -> Atom | None:
    """The 0-d value every step of the scanned operand ``a`` (read as ``x`` by the body)
    holds, or None."""
    if x.aval.shape:
        return None
    b = producer(a)
    if b is None or b.primitive.name != "broadcast_in_dim" or len(b.invars) != 1:
        return None
    op = b.invars[0]
    if op.aval.shape or op.aval.dtype != x.aval.dtype or op.aval.weak_type != x.aval.weak_type:
        return None
    return op


def hoist_invariant_xs(
    eqn: JaxprEqn, producer: Callable[[Atom], JaxprEqn | None]
) -> list[JaxprEqn] | None:
    """``eqn`` (a scan) with its broadcast scalar scanned operands moved to its constants; None
    if it has none."""
    if not loop_buffers.enabled:
        return None
    p = eqn.params
    n_consts, n_carry = p["num_consts"], p["num_carry"]
    closed: ClosedJaxpr = p["jaxpr"]
    body = closed.jaxpr
    first = n_consts + n_carry
    xs, body_xs = eqn.invars[first:], body.invars[first:]
    moved: dict[int, Atom] = {}
    for j, (a, x) in enumerate(zip(xs, body_xs)):
        value = _invariant(a, x, producer)
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
    params = dict(p, jaxpr=ClosedJaxpr(new_body, closed.consts), num_consts=n_consts + len(moved))
    return [JaxprEqn(eqn.primitive, operands, list(eqn.outvars), params, eqn.source, eqn.api)]
