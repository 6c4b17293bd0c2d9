"""``lax.betainc``: the ``regularized_incomplete_beta`` primitive (JAX's name).

Values from ``backend/special_beta.py`` (float64 continued fraction, rounded once). The
derivative in ``x`` is the beta density ``x^(a-1) (1-x)^(b-1) / B(a, b)``; in ``a`` or ``b`` it
is JAX's ``ValueError``.
"""

from __future__ import annotations

from trellax._src.backend import special_beta as special_beta_kernels
from trellax._src.core.basearray import Array
from trellax._src.core.typing import ArrayLike
from trellax._src.lax import ad_util
from trellax._src.lax._base import asarray, floating
from trellax._src.lax.elementwise import add, exp, lgamma, log, log1p, mul, neg, sub
from trellax._src.lax.naryop import naryop

_c = ad_util.const

regularized_incomplete_beta_p = naryop(
    "regularized_incomplete_beta",
    special_beta_kernels.regularized_incomplete_beta,
    [floating] * 3,
    fusable=False,
)


def betainc(a: ArrayLike, b: ArrayLike, x: ArrayLike) -> Array:
    """The regularized incomplete beta function ``I_x(a, b)``; operands of one float dtype.

    >>> float(betainc(1.0, 2.0, 0.3))  # 1 - 0.7**2
    0.51
    """
    return regularized_incomplete_beta_p.bind(asarray(a), asarray(b), asarray(x))


def _no_ab_derivative(t: Array, ans: Array, a: Array, b: Array, x: Array) -> Array:
    raise ValueError("Betainc gradient with respect to a and b not supported.")


def _density(t: Array, ans: Array, a: Array, b: Array, x: Array) -> Array:
    log_beta = sub(add(lgamma(a), lgamma(b)), lgamma(add(a, b)))
    one = _c(a, 1)
    log_pdf = sub(add(mul(sub(b, one), log1p(neg(x))), mul(sub(a, one), log(x))), log_beta)
    return mul(t, exp(log_pdf))


ad_util.defjvp(regularized_incomplete_beta_p, _no_ab_derivative, _no_ab_derivative, _density)
