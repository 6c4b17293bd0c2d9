"""A fused multiply-add ``a * b + c`` rounded once, as XLA's CPU compiler contracts it inside
compiled code (``llvm.fma``): the primitive ``optim_fma`` that ``trellax.optim`` uses where the
code optax runs is compiled and XLA contracts a product and a sum into one FMA (``MultiSteps``'
accumulation inside its ``lax.cond``, the fused sum of squares of ``jnp.linalg.norm``).

Its values are ``backend.xla_erf.fma`` (as the samplers' ``random_fma``): float32 exact, float16
and bfloat16 by way of float32, float64 ``a * b + c`` (two roundings, no exact float64 FMA in
NumPy).
"""

from __future__ import annotations

from typing import Any

import trellax.numpy as jnp
from trellax._src.backend.xla_erf import fma as fma_values
from trellax._src.core.core import Primitive, ShapedArray
from trellax._src.lax import ad_util
from trellax._src.lax.shapes import def_elementwise


def _aval(a: Any, b: Any, c: Any) -> ShapedArray:
    if not (a.shape == b.shape == c.shape and a.dtype == b.dtype == c.dtype):
        raise TypeError(
            f"optim_fma: operands of one shape and dtype required, got "
            f"{a.dtype}{list(a.shape)}, {b.dtype}{list(b.shape)}, {c.dtype}{list(c.shape)}"
        )
    weak = bool(a.weak_type and b.weak_type and c.weak_type)
    return ShapedArray._fast(tuple(a.shape), a.dtype, weak)


optim_fma_p = Primitive("optim_fma")
optim_fma_p.def_impl(fma_values)
optim_fma_p.def_abstract_eval(_aval)
def_elementwise(optim_fma_p, fusable=False)
ad_util.defjvp(
    optim_fma_p,
    lambda t, ans, a, b, c: jnp.multiply(t, b),
    lambda t, ans, a, b, c: jnp.multiply(a, t),
    lambda t, ans, a, b, c: t,
)


def fma(a: Any, b: Any, c: Any) -> Any:
    """``a * b + c`` rounded once: the operands promoted as ``a * b + c`` would promote them
    (weak Python scalars take the arrays' dtype) and broadcast to one shape."""
    dtype = jnp.result_type(a, b, c)
    arrays = [jnp.asarray(x) for x in (a, b, c)]
    shape = jnp.broadcast_shapes(*(x.shape for x in arrays))
    return optim_fma_p.bind(*(jnp.broadcast_to(x.astype(dtype), shape) for x in arrays))
