"""The right-skewed Gumbel distribution (``loc``, ``scale``)."""

from __future__ import annotations

from trellax._src.core.basearray import Array
from trellax._src.numpy import ufuncs as u
from trellax._src.numpy.selection import where
from trellax._src.scipy.stats._util import ArrayLike, promote, strong_if_shaped


def _z(name: str, x: ArrayLike, loc: ArrayLike, scale: ArrayLike) -> tuple[Array, Array]:
    x, loc, scale = promote(name, x, loc, scale)
    return u.divide(u.subtract(x, loc), scale), scale


def logpdf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """``-(z + exp(-z)) - log(scale)``."""
    z, scale = _z("gumbel_r.logpdf", x, loc, scale)
    return u.subtract(u.negative(u.add(z, u.exp(u.negative(z)))), u.log(scale))


def pdf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """The density."""
    return u.exp(logpdf(x, loc, scale))


def logcdf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """``-exp(-z)``."""
    z, _ = _z("gumbel_r.logcdf", x, loc, scale)
    return u.negative(u.exp(u.negative(z)))


def cdf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """``exp(-exp(-z))``."""
    return u.exp(logcdf(x, loc, scale))


def _sf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """``1 - cdf``, accurate in the upper tail."""
    z, _ = _z("gumbel_r.sf", x, loc, scale)
    return u.negative(u.expm1(u.negative(u.exp(u.negative(z)))))


def logsf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """``log(sf)``."""
    return u.log(_sf(x, loc, scale))


def ppf(p: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """``loc - scale * log(-log(p))`` for ``p`` in ``(0, 1)``, NaN at 0, 1 and outside (JAX)."""
    p, loc, scale = promote("gumbel_r.ppf", p, loc, scale)
    value = u.subtract(loc, u.multiply(scale, u.log(u.negative(u.log(p)))))
    return where(u.logical_or(u.less_equal(p, 0), u.greater_equal(p, 1)), float("nan"), value)


def sf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """See ``_sf``; strong unless every input is a weak scalar (JAX's constants)."""
    return strong_if_shaped(_sf(x, loc, scale))
