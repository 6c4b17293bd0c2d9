"""Value-changing rewrites that XLA applies to every compiled program, applied to ``jit``'s.

XLA's algebraic simplifier turns ``convert(pred) * v`` into ``select(pred, v, 0)`` when the
converted boolean is an operand of the product itself (not broadcast first) and the product is
float16/32/64 or complex (bfloat16 and float8 products are widened to float32 before it runs,
which hides the pattern). The two differ where ``v`` is NaN, ±inf or -0.0, or complex with
either: ``False * nan`` is +0.0 after the rewrite, NaN by IEEE. So in JAX, under ``jit``,
``b.astype(jnp.float32) * v`` selects, while the same two operations run one at a time multiply.

trellax's ``jnp.multiply`` of a boolean array already binds ``select_n`` (``numpy/bool_product``),
eagerly and traced alike, as JAX's single-operation program does. This pass covers the rest:
a ``mul`` whose operand is a ``convert_element_type`` of a boolean of the product's shape, in a
program compiled by ``jit`` (its loop bodies included; gradients too, since the transpose of such
a product is one). It becomes ``select_n(pred, converted, v)``: the converted boolean is 0
exactly where the predicate is False, so no zero constant is needed.
"""

from __future__ import annotations

import numpy as np

from trellax._src.core.jaxpr import Jaxpr, JaxprEqn, Var
from trellax._src.lax.select_n import select_n_p

_SELECTING = frozenset(
    np.dtype(name) for name in ("float16", "float32", "float64", "complex64", "complex128")
)


def select_bool_products(jaxpr: Jaxpr) -> Jaxpr:
    """``jaxpr`` with XLA's ``convert(pred) * v -> select(pred, v, 0)`` applied (the same object
    when nothing matches)."""
    eqns = jaxpr.eqns
    if not any(e.primitive.name == "mul" for e in eqns):
        return jaxpr
    converted: dict[int, Var] = {}  # id(converted var) -> the boolean it was converted from
    out: list[JaxprEqn] = []
    changed = False
    for e in eqns:
        name = e.primitive.name
        if name == "convert_element_type":
            (x,) = e.invars
            if type(x) is Var and x.aval.dtype == np.bool_:
                converted[id(e.outvars[0])] = x
        elif name == "mul" and converted:
            new = _select(e, converted)
            if new is not None:
                out.append(new)
                changed = True
                continue
        out.append(e)
    return Jaxpr(jaxpr.constvars, jaxpr.invars, jaxpr.outvars, out) if changed else jaxpr


def _select(e: JaxprEqn, converted: dict[int, Var]) -> JaxprEqn | None:
    (result,) = e.outvars
    aval = result.aval
    if aval.dtype not in _SELECTING:
        return None
    for i, a in enumerate(e.invars):
        pred = converted.get(id(a)) if type(a) is Var else None
        other = e.invars[1 - i]
        if (
            pred is not None
            and pred.aval.shape == aval.shape
            and a.aval.dtype == aval.dtype
            and other.aval.shape in (aval.shape, ())  # a scalar operand: XLA's is broadcast
            and other.aval.dtype == aval.dtype
        ):
            return JaxprEqn(select_n_p, [pred, a, other], [result], {}, e.source, e.api)
    return None
