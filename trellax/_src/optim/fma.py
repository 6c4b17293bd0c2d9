"""``fma(a, b, c)`` for ``trellax.optim``: the operands promoted and broadcast as ``a * b + c``
would be, then the one fused multiply-add primitive (:mod:`trellax._src.lax.fma`), used where the
code optax runs is compiled and XLA contracts a product and a sum into one FMA (``MultiSteps``'
accumulation inside its ``lax.cond``, the fused sum of squares of ``jnp.linalg.norm``, lion's
momentum, adamw's decayed update). float32 and float64 are rounded once exactly.
"""

from __future__ import annotations

from typing import Any

import trellax.numpy as jnp
from trellax._src.lax.fma import fma_p


def fma(a: Any, b: Any, c: Any) -> Any:
    """``a * b + c`` rounded once: the operands promoted as ``a * b + c`` would promote them
    (weak Python scalars take the arrays' dtype) and broadcast to one shape."""
    dtype = jnp.result_type(a, b, c)
    arrays = [jnp.asarray(x) for x in (a, b, c)]
    shape = jnp.broadcast_shapes(*(x.shape for x in arrays))
    return fma_p.bind(*(jnp.broadcast_to(x.astype(dtype), shape) for x in arrays))
