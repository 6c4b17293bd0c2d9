"""Stacked outputs of a scan computed once after the loop instead of at every iteration.

A scan body often computes values only to stack them: ``1 - tanh(h)**2`` kept for the backward
pass, ``h * 2`` returned as ``ys``. When such a value is a NumPy ufunc of values that are stacked
anyway (or of the scan's constants and literals), and nothing inside the loop reads it, the
compiled program applies the ufunc once to the stacked buffers after the loop: the same
elementwise operation on every element, so the same values, with one NumPy call instead of one
call and one store per iteration.
"""

from __future__ import annotations

import numpy as np

from trellax._src.core.jaxpr import Jaxpr, JaxprEqn, Literal, Var, eqn_kernel


def _eligible(e: JaxprEqn) -> bool:
    return (
        isinstance(eqn_kernel(e), np.ufunc)
        and bool(getattr(e.primitive, "elementwise", False))
        and not e.params
        and len(e.outvars) == 1
        and e.outvars[0].aval.dtype.kind != "V"  # ml_dtypes' loops: keep them per iteration
        and all(a.aval.dtype.kind != "V" for a in e.invars)
    )


def split(body: Jaxpr, n_consts: int, n_carry: int) -> tuple[Jaxpr, list[JaxprEqn], list[int]]:
    """The body without the equations that can run after the loop (and without their ``ys``),
    those equations in order, and the indices (among the ``ys``) of the values they compute."""
    ys = body.outvars[n_carry:]
    stacked = {id(a) for a in ys if type(a) is Var}
    consts = {id(v) for v in body.invars[:n_consts]}
    carried = {id(a) for a in body.outvars[:n_carry] if type(a) is Var}
    moved: set[int] = set()
    for e in body.eqns:
        if (
            _eligible(e)
            and all(
                type(a) is Literal or id(a) in consts or id(a) in stacked or id(a) in moved
                for a in e.invars
            )
            # at least one operand per iteration (else the result is not stacked by itself)
            and any(type(a) is Var and (id(a) in stacked or id(a) in moved) for a in e.invars)
            # and those of the result's rank: a 0-d one broadcasts inside the loop, but its
            # stacked (length,) buffer would pair with the other operand's last axis after it
            and all(
                len(a.aval.shape) == len(e.outvars[0].aval.shape)
                for a in e.invars
                if type(a) is Var and (id(a) in stacked or id(a) in moved)
            )
        ):
            moved.add(id(e.outvars[0]))
    while True:  # keep in the loop what the loop reads, and what depended on it
        bad = {i for i in moved if i in carried}
        for e in body.eqns:
            if e.outvars and id(e.outvars[0]) in moved:
                if any(
                    type(a) is Var and id(a) not in consts and id(a) not in stacked | moved
                    for a in e.invars
                ):
                    bad.add(id(e.outvars[0]))
            else:
                bad.update(id(a) for a in e.invars if type(a) is Var and id(a) in moved)
        bad &= moved
        if not bad:
            break
        moved -= bad
    if not moved:
        return body, [], []
    late = [e for e in body.eqns if e.outvars and id(e.outvars[0]) in moved]
    kept = [e for e in body.eqns if not (e.outvars and id(e.outvars[0]) in moved)]
    late_ys = [j for j, a in enumerate(ys) if type(a) is Var and id(a) in moved]
    skip = set(late_ys)
    outvars = [*body.outvars[:n_carry], *[a for j, a in enumerate(ys) if j not in skip]]
    return Jaxpr(body.constvars, body.invars, outvars, kept), late, late_ys
