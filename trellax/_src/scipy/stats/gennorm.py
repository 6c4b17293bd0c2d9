"""The generalized normal distribution (shape ``beta``): density ``beta / (2 Gamma(1/beta))
exp(-|x|**beta)``."""

from __future__ import annotations

from trellax._src.core.basearray import Array
from trellax._src.numpy import ufuncs as u
from trellax._src.numpy.util import check_arraylike, promote_args_inexact
from trellax._src.scipy import special
from trellax._src.scipy.stats._util import ArrayLike


def _promote(name: str, x: ArrayLike, beta: ArrayLike) -> list[Array]:
    check_arraylike(name, x, beta)
    return promote_args_inexact(name, x, beta)


def logpdf(x: ArrayLike, beta: ArrayLike) -> Array:
    """``log(beta / 2) - gammaln(1 / beta) - |x|**beta``; NaN for ``beta <= 0`` where the
    formula gives it (as in JAX, parameters are not checked)."""
    x, beta = _promote("gennorm.logpdf", x, beta)
    return u.subtract(
        u.subtract(u.log(u.multiply(0.5, beta)), special.gammaln(u.divide(1, beta))),
        u.power(u.abs(x), beta),
    )


def pdf(x: ArrayLike, beta: ArrayLike) -> Array:
    """The density, ``exp(logpdf)``."""
    return u.exp(logpdf(x, beta))


def cdf(x: ArrayLike, beta: ArrayLike) -> Array:
    """``(1 + sign(x) gammainc(1 / beta, |x|**beta)) / 2``."""
    x, beta = _promote("gennorm.cdf", x, beta)
    tail = special.gammainc(u.divide(1, beta), u.power(u.abs(x), beta))
    return u.multiply(0.5, u.add(1, u.multiply(u.sign(x), tail)))
