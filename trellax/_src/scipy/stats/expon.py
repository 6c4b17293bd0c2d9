"""The exponential distribution (``loc``, ``scale``): density ``exp(-(x - loc) / scale) / scale``
for ``x >= loc``."""

from __future__ import annotations

from trellax._src.core.basearray import Array
from trellax._src.numpy import ufuncs as u
from trellax._src.numpy.selection import where
from trellax._src.scipy.stats._util import ArrayLike, c, promote


def _y(name: str, x: ArrayLike, loc: ArrayLike, scale: ArrayLike) -> tuple[Array, Array]:
    x, loc, scale = promote(name, x, loc, scale)
    return u.divide(u.subtract(x, loc), scale), scale


def logpdf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """``-y - log(scale)`` for ``y = (x - loc) / scale >= 0``, ``-inf`` below."""
    y, scale = _y("expon.logpdf", x, loc, scale)
    return where(u.less(y, 0), c(float("-inf"), y), u.subtract(u.negative(y), u.log(scale)))


def pdf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """The density."""
    return u.exp(logpdf(x, loc, scale))


def cdf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """``1 - exp(-y)`` for ``y >= 0``, 0 below."""
    y, _ = _y("expon.cdf", x, loc, scale)
    return where(u.less(y, 0), c(0, y), u.negative(u.expm1(u.negative(y))))


def logcdf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """``log(cdf(x))``."""
    y, _ = _y("expon.logcdf", x, loc, scale)
    return where(u.less(y, 0), c(float("-inf"), y), u.log(u.negative(u.expm1(u.negative(y)))))


def sf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """``exp(-y)`` for ``y >= 0``, 1 below."""
    return u.exp(logsf(x, loc, scale))


def logsf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """``-y`` for ``y >= 0``, 0 below."""
    y, _ = _y("expon.logsf", x, loc, scale)
    return where(u.less(y, 0), c(0, y), u.negative(y))


def ppf(q: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """``loc - scale * log1p(-q)`` for ``q`` in ``[0, 1]``, NaN outside."""
    q, loc, scale = promote("expon.ppf", q, loc, scale)
    value = u.subtract(loc, u.multiply(scale, u.log1p(u.negative(q))))
    outside = u.logical_or(u.less(q, 0), u.greater(q, 1))
    return where(outside, c(float("nan"), value), value)
