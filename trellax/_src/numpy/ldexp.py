"""``trellax.numpy.ldexp``: ``x1 * 2**x2`` rounded once, with its derivative.

Split from :mod:`trellax._src.numpy.ufuncs` (whose helpers it uses) to keep modules small.
"""

from __future__ import annotations

from typing import Any

from trellax._src.core.basearray import Array
from trellax._src.core.typing import ArrayLike
from trellax._src.dtypes import dtypes
from trellax._src.lax import elementwise as lax
from trellax._src.lax._base import scalar_to_array
from trellax._src.lax.structural import _convert, clamp, select_n
from trellax._src.numpy.ufuncs import _custom_jvp, _full_scalar, _kind
from trellax._src.numpy.util import ensure_array, promote_args_inexact, promote_shapes


def ldexp(x1: ArrayLike, x2: ArrayLike, /) -> Array:
    """``x1 * 2**x2``; ``x2`` must be an integer (its dtype doesn't join the promotion)."""
    (a,) = promote_args_inexact("ldexp", x1)
    b = ensure_array("ldexp", x2)
    if _kind(a) == "c":
        raise ValueError(f"ldexp not supported for input types ({a.dtype.name}, {b.dtype.name})")
    if _kind(b) not in ("i", "u", "b"):
        raise ValueError(f"ldexp: exponent must be an integer array, got {b.dtype.name}")
    # an exponent beyond int32 scales to 0 or inf as int32's extremes do: clamped, not wrapped
    info = dtypes.iinfo(b.dtype) if _kind(b) != "b" else None
    if info is not None and (info.max > 2**31 - 1 or info.min < -(2**31)):
        lo, hi = max(int(info.min), -(2**31)), 2**31 - 1
        b = clamp(scalar_to_array(lo, b.dtype, False), b, scalar_to_array(hi, b.dtype, False))
    # equal ranks first: lax broadcasts only size-1 axes and 0-d operands
    out: Array = _ldexp(*promote_shapes([a, _convert(b, dtypes.int32, False)]))
    return out


def _ldexp_jvp(primals: tuple[Array, Array], tangents: tuple[Array, Array]) -> Any:
    # the tangent scaled exactly like the value (frexp's rule alone would build 2**-k * 2**(k+e),
    # whose first factor overflows for subnormal x)
    (a, e), (t, _) = primals, tangents
    info = dtypes.finfo(a.dtype)
    lo, hi, nmant = int(info.minexp), int(info.maxexp) - 1, int(info.nmant)
    i32 = dtypes.int32
    # linear in t: three factors 2**(e/3), each a normal number once e is clamped to where the
    # result is 0 or inf all the same (exact unless the tangent itself is subnormal)
    e = clamp(
        scalar_to_array(2 * lo - nmant - 4, i32, False), e, scalar_to_array(2 * hi, i32, False)
    )
    third = lax.div(e, scalar_to_array(3, i32, False))
    two = _full_scalar(2, a)
    # made strong first as jnp.multiply would (its transpose gives a weak cotangent back)
    out = lax.mul(_convert(t, t.dtype, False), lax.pow(two, third))
    out = lax.mul(out, lax.pow(two, third))
    return _ldexp(a, e), lax.mul(out, lax.pow(two, lax.sub(e, lax.add(third, third))))


def _scale_by_power_of_two(a: Array, e: Array) -> Array:
    """``a * 2**e`` rounded once, with no intermediate ``2**e`` that overflows or underflows.

    With ``a = m * 2**k`` (frexp, ``m`` in [0.5, 1)), the result is ``m * 2**(k + e)``, built in
    two multiplications by representable powers of two: the first keeps the value normal (so it
    is exact), the second is the only one that can round (into the subnormals) or overflow.
    Exponents far out of range are clamped first; they give 0 or inf all the same.
    """
    info = dtypes.finfo(a.dtype)
    lo, hi, nmant = int(info.minexp), int(info.maxexp) - 1, int(info.nmant)
    m, k = lax.frexp_p.bind_multi(a)
    i32 = dtypes.int32
    low, high = 2 * lo - nmant - 4, 2 * hi  # beyond these, 0 and inf all the same
    span = scalar_to_array(high - low, i32, False)
    e = clamp(lax.neg(span), e, span)  # so that adding k cannot overflow int32
    n = clamp(scalar_to_array(low, i32, False), lax.add(e, k), scalar_to_array(high, i32, False))
    # n > 0: two positive halves; n <= 0: first to the smallest normal exponent, then down.
    down = lax.le(n, scalar_to_array(0, i32, False))
    half = lax.div(n, scalar_to_array(2, i32, False))
    first = select_n(down, half, lax.max(n, scalar_to_array(lo + 1, i32, False)))
    second = lax.max(lax.sub(n, first), scalar_to_array(lo - nmant, i32, False))
    two = _full_scalar(2, a)
    step = lax.mul(m, lax.pow(two, first))
    return lax.mul(step, lax.pow(two, second))


_ldexp = _custom_jvp(lambda a, e: _scale_by_power_of_two(a, e), _ldexp_jvp)
