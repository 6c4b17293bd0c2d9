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
    # one rank; sizes of 1 broadcast (the elementwise batch rule gives an unbatched operand a
    # leading 1, as for every other elementwise primitive)
    shape = _one_shape(a.shape, b.shape, c.shape)
    if shape is None or not a.dtype == b.dtype == c.dtype:
        raise TypeError(
            f"fma: operands of one shape and dtype required, got "
            f"{a.dtype}{list(a.shape)}, {b.dtype}{list(b.shape)}, {c.dtype}{list(c.shape)}"
        )
    weak = bool(a.weak_type and b.weak_type and c.weak_type)
    return ShapedArray._fast(shape, a.dtype, weak)


def _one_shape(*shapes: tuple[int, ...]) -> tuple[int, ...] | None:
    """The shape of operands of one rank whose sizes agree or are 1, else None."""
    if len({len(s) for s in shapes}) != 1:
        return None
    out = []
    for sizes in zip(*shapes, strict=True):
        big = {n for n in sizes if n != 1}
        if len(big) > 1:
            return None
        out.append(big.pop() if big else 1)
    return tuple(out)


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
