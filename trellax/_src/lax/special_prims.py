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
    mul,
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


def _i1e_jvp(t: Array, ans: Array, x: Array) -> Array:
    # i0e(x) - i1e(x) (sign(x) + 1/x), whose limit at 0 is 1/2
    tiny = eq(abs(x), _c(x, 0))
    safe = select_n(tiny, x, _c(x, 1))
    d = sub(bessel_i0e(safe), mul(ans, add(sign(safe), div(_c(x, 1), safe))))
    return mul(t, select_n(tiny, d, _c(x, 0.5)))


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
