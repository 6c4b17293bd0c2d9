"""Primitives of the special functions JAX keeps in ``jax.scipy.special`` only: ``erfcx``,
``dawsn``, the Fresnel integrals, the exponential integrals, the sine/cosine integrals and
``spence``. Values from ``backend/special_error.py`` and ``backend/special_integrals.py``
(float64, rounded once); each derivative is the closed form (``d erfcx = 2x erfcx - 2/√π``, ...).
Tuple-valued functions (``sici``, ``fresnel``) are one primitive per component.
"""

from __future__ import annotations

import math

from trellax._src.backend import special_fast
from trellax._src.backend import special_integrals as special_integrals_kernels
from trellax._src.backend.numpy import Impl
from trellax._src.core.basearray import Array
from trellax._src.core.core import Primitive
from trellax._src.core.typing import ArrayLike
from trellax._src.lax import ad_util
from trellax._src.lax._base import asarray, floating
from trellax._src.lax.elementwise import (
    abs,
    add,
    cos,
    div,
    eq,
    exp,
    gt,
    log,
    mul,
    neg,
    rem,
    sin,
    sub,
)
from trellax._src.lax.naryop import naryop
from trellax._src.lax.structural import select_n

_c = ad_util.const


def _unary(name: str, kernel: Impl) -> Primitive:
    return naryop(name, kernel, [floating], fusable=False)


erfcx_p = _unary("erfcx", special_fast.erfcx)
dawsn_p = _unary("dawsn", special_fast.dawsn)
fresnel_s_p = _unary("fresnel_s", special_fast.fresnel_s)
fresnel_c_p = _unary("fresnel_c", special_fast.fresnel_c)
exp1_p = _unary("exp1", special_fast.exp1)
expi_p = _unary("expi", special_fast.expi)
sici_si_p = _unary("sici_si", special_fast.sici_si)
sici_ci_p = _unary("sici_ci", special_fast.sici_ci)
spence_p = _unary("spence", special_integrals_kernels.spence)
expn_p = naryop("expn", special_fast.expn, [floating, floating], fusable=False)


def erfcx(x: ArrayLike) -> Array:
    """``exp(x²) erfc(x)``."""
    return erfcx_p.bind(asarray(x))


def dawsn(x: ArrayLike) -> Array:
    """Dawson's integral ``exp(-x²) ∫_0^x exp(t²) dt``."""
    return dawsn_p.bind(asarray(x))


def fresnel_s(x: ArrayLike) -> Array:
    """``∫_0^x sin(π t²/2) dt``."""
    return fresnel_s_p.bind(asarray(x))


def fresnel_c(x: ArrayLike) -> Array:
    """``∫_0^x cos(π t²/2) dt``."""
    return fresnel_c_p.bind(asarray(x))


def exp1(x: ArrayLike) -> Array:
    """``E_1(x) = ∫_1^∞ e^(-xt)/t dt``."""
    return exp1_p.bind(asarray(x))


def expi(x: ArrayLike) -> Array:
    """``Ei(x)``, the principal value of ``∫_-∞^x e^t/t dt``."""
    return expi_p.bind(asarray(x))


def expn(n: ArrayLike, x: ArrayLike) -> Array:
    """``E_n(x) = ∫_1^∞ e^(-xt)/t^n dt`` (any real order ``n``)."""
    return expn_p.bind(asarray(n), asarray(x))


def sici_si(x: ArrayLike) -> Array:
    """``Si(x) = ∫_0^x sin(t)/t dt``."""
    return sici_si_p.bind(asarray(x))


def sici_ci(x: ArrayLike) -> Array:
    """``Ci(x) = γ + log x + ∫_0^x (cos t - 1)/t dt``."""
    return sici_ci_p.bind(asarray(x))


def spence(x: ArrayLike) -> Array:
    """``∫_1^x log(t)/(1 - t) dt = Li_2(1 - x)``."""
    return spence_p.bind(asarray(x))


def _ratio_with_limit(num: Array, den: Array, at_zero_den: float) -> Array:
    """``num/den`` where ``den != 0``, ``at_zero_den`` where it is 0 (a removable singularity)."""
    zero = eq(den, _c(den, 0))
    safe = select_n(zero, den, _c(den, 1))
    return select_n(zero, div(num, safe), _c(den, at_zero_den))


_TWO_OVER_SQRT_PI = 2 / math.sqrt(math.pi)
#: beyond this |x| the derivatives of erfcx and dawsn come from their asymptotic series: the
#: closed forms 2x erfcx(x) - 2/sqrt(pi) and 1 - 2x D(x) cancel to noise there (at x = 1e4,
#: float32, dawsn' was 0 and its second derivative -4e31 at the largest float)
_ASYMPTOTIC = 50.0


def _inverse_square_series(x: Array, coefficients: tuple[float, ...]) -> tuple[Array, Array]:
    """(|x| > _ASYMPTOTIC, sum c_k / x**(2k+2)) with x kept away from 0 in the unused lanes
    (so that no infinity leaks into a derivative through the select)."""
    far = gt(abs(x), _c(x, _ASYMPTOTIC))
    xs = select_n(far, _c(x, 2 * _ASYMPTOTIC), x)
    u = div(_c(xs, 1), mul(xs, xs))
    total = _c(xs, coefficients[-1])
    for c in coefficients[-2::-1]:
        total = add(_c(xs, c), mul(total, u))
    return far, mul(total, u)


def _erfcx_derivative(x: Array, ans: Array) -> Array:
    near = sub(mul(_c(x, 2), mul(x, ans)), _c(x, _TWO_OVER_SQRT_PI))
    # erfcx(x) ~ (1/(x sqrt(pi))) (1 - 1/(2x^2) + 3/(4x^4) - ...) for large positive x
    far, series = _inverse_square_series(x, (-0.5, 0.75, -1.875, 6.5625, -29.53125))
    positive_far = select_n(gt(x, _c(x, 0)), _c(far, False), far)
    return select_n(positive_far, near, mul(_c(x, _TWO_OVER_SQRT_PI), series))


def _dawsn_derivative(x: Array, ans: Array) -> Array:
    near = sub(_c(x, 1), mul(_c(x, 2), mul(x, ans)))
    # 2x D(x) ~ 1 + 1/(2x^2) + 3/(4x^4) + 15/(8x^6) + ...
    far, series = _inverse_square_series(x, (-0.5, -0.75, -1.875, -6.5625, -29.53125))
    return select_n(far, near, series)


ad_util.defjvp(erfcx_p, lambda t, ans, x: mul(t, _erfcx_derivative(x, ans)))
ad_util.defjvp(dawsn_p, lambda t, ans, x: mul(t, _dawsn_derivative(x, ans)))


def _half_pi_x_squared(x: Array) -> Array:
    """``π x² / 2`` reduced by whole periods first (``x²`` mod 4, exact): ``π/2 * x²`` itself
    loses the phase once ``x²`` is large (``sin`` of it at ``x = 1e4`` in float32 was -0.63
    instead of 0)."""
    return mul(_c(x, math.pi / 2), rem(mul(x, x), _c(x, 4)))


ad_util.defjvp(fresnel_s_p, lambda t, ans, x: mul(t, sin(_half_pi_x_squared(x))))
ad_util.defjvp(fresnel_c_p, lambda t, ans, x: mul(t, cos(_half_pi_x_squared(x))))
ad_util.defjvp(exp1_p, lambda t, ans, x: mul(t, neg(div(exp(neg(x)), x))))
ad_util.defjvp(expi_p, lambda t, ans, x: mul(t, div(exp(x), x)))


def _expn_derivative(n: Array, x: Array, ans: Array) -> Array:
    """``-E_{n-1}(x)``, and for ``n = 0`` (``E_0 = e^-x / x``) ``-E_0(x) (1 + 1/x)``: the
    recurrence alone asked for ``E_{-1}``, NaN, so third derivatives of ``expn(2, x)`` were NaN."""
    zero = eq(n, _c(n, 0))
    lower = neg(expn(select_n(zero, sub(n, _c(n, 1)), _c(n, 0)), x))
    return select_n(zero, lower, neg(mul(ans, add(_c(x, 1), div(_c(x, 1), x)))))


ad_util.defjvp(expn_p, None, lambda t, ans, n, x: mul(t, _expn_derivative(n, x, ans)))
ad_util.defjvp(sici_si_p, lambda t, ans, x: mul(t, _ratio_with_limit(sin(x), x, 1.0)))
ad_util.defjvp(sici_ci_p, lambda t, ans, x: mul(t, div(cos(x), x)))
ad_util.defjvp(
    spence_p, lambda t, ans, x: mul(t, _ratio_with_limit(log(x), sub(_c(x, 1), x), -1.0))
)
