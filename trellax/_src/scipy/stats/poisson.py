"""The Poisson distribution (rate ``mu``, shift ``loc``)."""

from __future__ import annotations

from trellax._src.basearray import Array
from trellax._src.numpy import ufuncs as u
from trellax._src.numpy.selection import where
from trellax._src.scipy import special
from trellax._src.scipy.stats._util import ArrayLike, promote, strong_if_shaped


def logpmf(k: ArrayLike, mu: ArrayLike, loc: ArrayLike = 0) -> Array:
    """``k log(mu) - gammaln(k + 1) - mu`` for integral ``k >= 0``, ``-inf`` otherwise."""
    k, mu, loc = promote("poisson.logpmf", k, mu, loc)
    x = u.subtract(k, loc)
    value = u.subtract(u.subtract(special.xlogy(x, mu), special.gammaln(u.add(x, 1))), mu)
    valid = u.logical_and(u.greater_equal(x, 0), u.equal(x, u.floor(x)))
    return where(valid, value, -float("inf"))


def pmf(k: ArrayLike, mu: ArrayLike, loc: ArrayLike = 0) -> Array:
    """The probability mass."""
    return u.exp(logpmf(k, mu, loc))


def _cdf(k: ArrayLike, mu: ArrayLike, loc: ArrayLike = 0) -> Array:
    """``P(X <= k) = gammaincc(floor(k) + 1, mu)`` (0 below ``loc``)."""
    k, mu, loc = promote("poisson.cdf", k, mu, loc)
    x = u.subtract(k, loc)
    value = special.gammaincc(u.floor(u.add(x, 1)), mu)
    return where(u.less(x, 0), 0, value)


def cdf(k: ArrayLike, mu: ArrayLike, loc: ArrayLike = 0) -> Array:
    """See ``_cdf``; strong unless every input is a weak scalar (JAX's constants)."""
    return strong_if_shaped(_cdf(k, mu, loc))
