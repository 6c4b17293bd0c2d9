"""``fma``: the fused multiply-add ``a * b + c`` rounded once, the primitive behind every place
where trellax reproduces a multiply-add that XLA:CPU contracts into one ``llvm.fma`` inside
compiled code: the samplers (``wald``, ``maxwell``, the gamma family's rejection loop) and the
optimizers (``MultiSteps``' accumulation, ``jnp.linalg.norm``'s fused sum of squares, lion's and
adamw's contracted updates).

Its values are :func:`trellax._src.backend.fma.fma`: float32 and float64 exactly rounded, float16
and bfloat16 by way of float32. The operands must have one shape and one dtype (the callers
promote and broadcast); the tangent is that of ``a * b + c``.
"""

from __future__ import annotations

from typing import Any

from trellax._src.backend.fma import fma as fma_values
from trellax._src.core.core import Primitive, ShapedArray
from trellax._src.lax import ad_util
from trellax._src.lax.elementwise import mul
from trellax._src.lax.shapes import def_elementwise


def _aval(a: Any, b: Any, c: Any) -> ShapedArray:
    if not (a.shape == b.shape == c.shape and a.dtype == b.dtype == c.dtype):
        raise TypeError(
            f"fma: operands of one shape and dtype required, got "
            f"{a.dtype}{list(a.shape)}, {b.dtype}{list(b.shape)}, {c.dtype}{list(c.shape)}"
        )
    weak = bool(a.weak_type and b.weak_type and c.weak_type)
    return ShapedArray._fast(tuple(a.shape), a.dtype, weak)


fma_p = Primitive("fma")
fma_p.def_impl(fma_values)
fma_p.def_abstract_eval(_aval)
def_elementwise(fma_p, fusable=False)
ad_util.defjvp(
    fma_p,
    lambda t, ans, a, b, c: mul(t, b),
    lambda t, ans, a, b, c: mul(a, t),
    lambda t, ans, a, b, c: t,
)
