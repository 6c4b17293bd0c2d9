"""Primitives of ``owens_t``, ``hyp1f1`` (with ``hyp1f1_grad_a``/``_b``, its derivatives in
the parameters) and ``bessel_j`` (``J_n(z)`` for integer-valued ``n``), from
``backend/special_series.py`` (float64, rounded once).

Derivatives: ``owens_t`` in both operands (closed forms), ``hyp1f1`` in all three (in ``x``
``a/b 1F1(a+1; b+1; x)``; in ``a``/``b`` the differentiated series, which have no further
derivative), ``bessel_j`` in ``z`` (``(J_(n-1) - J_(n+1))/2``; none in the order).
"""

from __future__ import annotations

import math

from trellax._src.backend import special_hyp2f1 as special_hyp2f1_kernels
from trellax._src.backend import special_series as special_series_kernels
from trellax._src.backend import special_wofz as special_wofz_kernels
from trellax._src.backend.numpy import Impl
from trellax._src.core.basearray import Array
from trellax._src.core.core import Primitive
from trellax._src.core.typing import ArrayLike
from trellax._src.lax import ad_util
from trellax._src.lax._base import asarray, complex_, floating
from trellax._src.lax.elementwise import abs, add, div, erf, exp, mul, neg, sign, sub
from trellax._src.lax.naryop import naryop

_c = ad_util.const


def _elementwise(name: str, kernel: Impl, nargs: int) -> Primitive:
    return naryop(name, kernel, [floating] * nargs, fusable=False)


owens_t_p = _elementwise("owens_t", special_series_kernels.owens_t, 2)
hyp1f1_p = _elementwise("hyp1f1", special_series_kernels.hyp1f1, 3)
hyp1f1_grad_a_p = _elementwise("hyp1f1_grad_a", special_series_kernels.hyp1f1_grad_a, 3)
hyp1f1_grad_b_p = _elementwise("hyp1f1_grad_b", special_series_kernels.hyp1f1_grad_b, 3)
bessel_j_p = _elementwise("bessel_j", special_series_kernels.bessel_j, 2)


def owens_t(h: ArrayLike, a: ArrayLike) -> Array:
    """Owen's T function ``1/(2π) ∫_0^a exp(-h²(1+t²)/2) / (1+t²) dt``."""
    return owens_t_p.bind(asarray(h), asarray(a))


def hyp1f1(a: ArrayLike, b: ArrayLike, x: ArrayLike) -> Array:
    """Kummer's confluent hypergeometric function ``1F1(a; b; x)``."""
    return hyp1f1_p.bind(asarray(a), asarray(b), asarray(x))


def bessel_j(n: ArrayLike, z: ArrayLike) -> Array:
    """The Bessel function of the first kind ``J_n(z)`` (NaN unless ``n`` is a non-negative
    integer value)."""
    return bessel_j_p.bind(asarray(n), asarray(z))


_INV_2PI = 1 / (2 * math.pi)
_INV_SQRT_2PI = 1 / math.sqrt(2 * math.pi)
_INV_SQRT_2 = 1 / math.sqrt(2)


def _owens_t_dh(t: Array, ans: Array, h: Array, a: Array) -> Array:
    # -φ(h) erf(a h / √2) / 2
    phi = mul(_c(h, _INV_SQRT_2PI), exp(mul(_c(h, -0.5), mul(h, h))))
    return mul(t, neg(mul(mul(_c(h, 0.5), phi), erf(mul(_c(h, _INV_SQRT_2), mul(a, h))))))


def _owens_t_da(t: Array, ans: Array, h: Array, a: Array) -> Array:
    # exp(-h²(1+a²)/2) / (2π(1+a²))
    one_a2 = add(_c(a, 1), mul(a, a))
    e = exp(mul(_c(a, -0.5), mul(mul(h, h), one_a2)))
    return mul(t, div(mul(_c(a, _INV_2PI), e), one_a2))


ad_util.defjvp(owens_t_p, _owens_t_dh, _owens_t_da)


def _hyp1f1_dx(t: Array, ans: Array, a: Array, b: Array, x: Array) -> Array:
    one = _c(a, 1)
    return mul(t, mul(div(a, b), hyp1f1(add(a, one), add(b, one), x)))


ad_util.defjvp(
    hyp1f1_p,
    lambda t, ans, a, b, x: mul(t, hyp1f1_grad_a_p.bind(a, b, x)),
    lambda t, ans, a, b, x: mul(t, hyp1f1_grad_b_p.bind(a, b, x)),
    _hyp1f1_dx,
)


def _bessel_j_dz(t: Array, ans: Array, n: Array, z: Array) -> Array:
    # (J_(n-1) - J_(n+1)) / 2, with J_(-1) = -J_1
    one = _c(n, 1)
    lower = bessel_j(abs(sub(n, one)), z)
    lower = mul(lower, sign(add(sub(n, one), _c(n, 0.5))))  # -J_1 for n == 0
    return mul(t, mul(_c(z, 0.5), sub(lower, bessel_j(add(n, one), z))))


ad_util.defjvp(bessel_j_p, None, _bessel_j_dz)


wofz_p = naryop("wofz", special_wofz_kernels.wofz, [complex_], fusable=False)


def wofz(z: ArrayLike) -> Array:
    """The Faddeeva function ``exp(-z²) erfc(-iz)`` of a complex operand."""
    return wofz_p.bind(asarray(z))


_TWO_I_OVER_SQRT_PI = 2j / math.sqrt(math.pi)
# w'(z) = -2 z w(z) + 2i/√π (holomorphic)
ad_util.defjvp(
    wofz_p,
    lambda t, ans, z: mul(t, add(mul(_c(z, -2), mul(z, ans)), _c(z, _TWO_I_OVER_SQRT_PI))),
)


hyp2f1_p = _elementwise("hyp2f1", special_hyp2f1_kernels.hyp2f1, 4)
hyp2f1_grad_p = {
    "a": _elementwise("hyp2f1_grad_a", special_hyp2f1_kernels.hyp2f1_grad_a, 4),
    "b": _elementwise("hyp2f1_grad_b", special_hyp2f1_kernels.hyp2f1_grad_b, 4),
    "c": _elementwise("hyp2f1_grad_c", special_hyp2f1_kernels.hyp2f1_grad_c, 4),
}


def hyp2f1(a: ArrayLike, b: ArrayLike, c: ArrayLike, x: ArrayLike) -> Array:
    """Gauss's hypergeometric function ``2F1(a, b; c; x)``."""
    return hyp2f1_p.bind(asarray(a), asarray(b), asarray(c), asarray(x))


def _hyp2f1_dx(t: Array, ans: Array, a: Array, b: Array, c: Array, x: Array) -> Array:
    one = _c(a, 1)
    scale = div(mul(a, b), c)
    return mul(t, mul(scale, hyp2f1(add(a, one), add(b, one), add(c, one), x)))


def _hyp2f1_dparam(name: str) -> ad_util.PerOperandRule:
    prim = hyp2f1_grad_p[name]
    return lambda t, ans, a, b, c, x: mul(t, prim.bind(a, b, c, x))


ad_util.defjvp(hyp2f1_p, *(_hyp2f1_dparam(n) for n in ("a", "b", "c")), _hyp2f1_dx)
