"""The Cauchy distribution (``loc``, ``scale``)."""

from __future__ import annotations

import math

from trellax._src.core.basearray import Array
from trellax._src.numpy import ufuncs as u
from trellax._src.scipy.stats._util import ArrayLike, k, promote


def _y(name: str, x: ArrayLike, loc: ArrayLike, scale: ArrayLike) -> tuple[Array, Array]:
    x, loc, scale = promote(name, x, loc, scale)
    return u.divide(u.subtract(x, loc), scale), scale


def logpdf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """``-log(pi) - log(scale) - log1p(y**2)``."""
    y, scale = _y("cauchy.logpdf", x, loc, scale)
    return u.subtract(u.subtract(k(-math.log(math.pi), y), u.log(scale)), u.log1p(u.multiply(y, y)))


def pdf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """The density."""
    return u.exp(logpdf(x, loc, scale))


def cdf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """``1/2 + atan(y) / pi``."""
    y, _ = _y("cauchy.cdf", x, loc, scale)
    return u.add(k(0.5, y), u.divide(u.arctan(y), k(math.pi, y)))


def logcdf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """``log(cdf(x))``."""
    return u.log(cdf(x, loc, scale))


def sf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """``cdf`` of the reflected point: ``1/2 - atan(y) / pi``."""
    y, _ = _y("cauchy.sf", x, loc, scale)
    return u.subtract(k(0.5, y), u.divide(u.arctan(y), k(math.pi, y)))


def logsf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """``log(sf(x))``."""
    return u.log(sf(x, loc, scale))


def ppf(q: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """``loc + scale * tan(pi (q - 1/2))``."""
    q, loc, scale = promote("cauchy.ppf", q, loc, scale)
    return u.add(loc, u.multiply(scale, u.tan(u.multiply(k(math.pi, q), u.subtract(q, k(0.5, q))))))


def isf(q: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """``loc + scale * tan(pi (1/2 - q))``."""
    q, loc, scale = promote("cauchy.isf", q, loc, scale)
    return u.add(loc, u.multiply(scale, u.tan(u.multiply(k(math.pi, q), u.subtract(k(0.5, q), q)))))
