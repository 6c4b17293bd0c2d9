"""The logistic distribution (``loc``, ``scale``)."""

from __future__ import annotations

from trellax._src.core.basearray import Array
from trellax._src.numpy import ufuncs as u
from trellax._src.scipy import special
from trellax._src.scipy.stats._util import ArrayLike, k, promote, strong_if_shaped


def _y(name: str, x: ArrayLike, loc: ArrayLike, scale: ArrayLike) -> tuple[Array, Array]:
    x, loc, scale = promote(name, x, loc, scale)
    return u.divide(u.subtract(x, loc), scale), scale


def logpdf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """``-|y| - 2 log1p(exp(-|y|)) - log(scale)``, stable for large ``|y|``."""
    y, scale = _y("logistic.logpdf", x, loc, scale)
    a = u.abs(y)
    return u.subtract(
        u.subtract(u.negative(a), u.multiply(k(2, a), u.log1p(u.exp(u.negative(a))))),
        u.log(scale),
    )


def pdf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """The density."""
    return u.exp(logpdf(x, loc, scale))


def cdf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """``expit(y)``."""
    y, _ = _y("logistic.cdf", x, loc, scale)
    return special.expit(y)


def sf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """``expit(-y)``."""
    y, _ = _y("logistic.sf", x, loc, scale)
    return special.expit(u.negative(y))


def ppf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """``loc + scale * logit(q)``."""
    q, loc, scale = promote("logistic.ppf", x, loc, scale)
    return strong_if_shaped(u.add(loc, u.multiply(scale, special.logit(q))))


def isf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """``loc - scale * logit(q)``."""
    q, loc, scale = promote("logistic.isf", x, loc, scale)
    return strong_if_shaped(u.subtract(loc, u.multiply(scale, special.logit(q))))
