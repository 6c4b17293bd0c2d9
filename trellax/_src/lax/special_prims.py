"""``zeta``, ``polygamma`` and ``bessel_i1e`` primitives, and the derivative rules they make
possible: ``digamma`` (``polygamma(1, x)``), ``polygamma`` in ``x``, ``i0`` (``i1``),
``bessel_i0e`` and ``bessel_i1e``. Values as XLA's (see ``backend/special.py``); derivatives as
JAX's, including ``0.5`` for ``bessel_i1e`` at 0, ``nan`` for ``i0`` where it overflows, and no
derivative of ``zeta`` (JAX has none) or of ``polygamma`` in ``m`` (a ValueError, as JAX).
"""

from __future__ import annotations

from trellax._src.backend import special as special_kernels
from trellax._src.core.basearray import Array
from trellax._src.core.typing import ArrayLike
from trellax._src.lax import ad_util
from trellax._src.lax._base import asarray, floating
from trellax._src.lax.elementwise import (
    abs,
    add,
    bessel_i0e,
    bessel_i0e_p,
    digamma_p,
    div,
    eq,
    exp,
    i0_p,
    lt,
    mul,
    neg,
    sign,
    sub,
)
from trellax._src.lax.naryop import naryop
from trellax._src.lax.structural import select_n

_c = ad_util.const

zeta_p = naryop("zeta", special_kernels.zeta, [floating, floating], fusable=False)


def zeta(x: ArrayLike, q: ArrayLike) -> Array:
    """The Hurwitz zeta function ``sum_k (q + k)**-x``; operands of one floating dtype."""
    return zeta_p.bind(asarray(x), asarray(q))


polygamma_p = naryop("polygamma", special_kernels.polygamma, [floating, floating], fusable=False)


def polygamma(m: ArrayLike, x: ArrayLike) -> Array:
    """The ``m``-th derivative of ``digamma`` (NaN unless ``m`` is a non-negative integer)."""
    return polygamma_p.bind(asarray(m), asarray(x))


def _polygamma_jvp_m(t: Array, ans: Array, m: Array, x: Array) -> Array:
    raise ValueError("polygamma gradient with respect to m is not supported")


ad_util.defjvp(
    polygamma_p, _polygamma_jvp_m, lambda t, ans, m, x: mul(t, polygamma(add(m, _c(m, 1)), x))
)
ad_util.defjvp(digamma_p, lambda t, ans, x: mul(t, polygamma(_c(x, 1), x)))

bessel_i1e_p = naryop("bessel_i1e", special_kernels.bessel_i1e, [floating], fusable=False)


def bessel_i1e(x: ArrayLike) -> Array:
    """``exp(-|x|) * I1(x)``, the exponentially scaled modified Bessel function of order 1."""
    return bessel_i1e_p.bind(asarray(x))


def _i1e_over_x(x: Array, ans: Array) -> Array:
    """``i1e(x) / x``; below 1e-4 its series ``e^-|x| (1 + x²/8) / 2`` (error under x⁴/192),
    whose derivatives stay finite: those of the quotient overflowed near 0 (the second
    derivative of ``bessel_i1e`` at the smallest normal float32 was inf, its limit is -1)."""
    small = lt(abs(x), _c(x, 1e-4))
    safe = select_n(small, x, _c(x, 1))
    xn = select_n(small, _c(x, 0), x)  # (each branch sees only the values it is used at)
    series = add(_c(x, 1), mul(_c(x, 0.125), mul(xn, xn)))
    near = mul(_c(x, 0.5), mul(exp(neg(abs(xn))), series))
    return select_n(small, div(ans, safe), near)


def _i1e_jvp(t: Array, ans: Array, x: Array) -> Array:
    # i0e(x) - i1e(x) (sign(x) + 1/x); at 0 (a kink of e^-|x|) the constant 1/2, so that the
    # higher derivatives there are 0, as JAX's
    d = sub(bessel_i0e(x), add(mul(sign(x), ans), _i1e_over_x(x, ans)))
    return mul(t, select_n(eq(x, _c(x, 0)), d, _c(x, 0.5)))


ad_util.defjvp(bessel_i1e_p, _i1e_jvp)
ad_util.defjvp(bessel_i0e_p, lambda t, ans, x: mul(t, sub(bessel_i1e(x), mul(sign(x), ans))))


def _i0_jvp(t: Array, ans: Array, x: Array) -> Array:
    # i0 = exp(|x|) i0e(x) differentiated as a product, as JAX does (so where exp(|x|)
    # overflows the derivative is NaN, as JAX's)
    s = sign(x)
    e = exp(abs(x))
    i0e = bessel_i0e(x)
    d_i0e = sub(bessel_i1e(x), mul(s, i0e))
    return mul(t, add(mul(mul(s, e), i0e), mul(e, d_i0e)))


ad_util.defjvp(i0_p, _i0_jvp)
