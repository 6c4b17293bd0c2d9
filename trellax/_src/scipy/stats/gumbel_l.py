"""The left-skewed Gumbel distribution (``loc``, ``scale``)."""

from __future__ import annotations

from trellax._src.core.basearray import Array
from trellax._src.numpy import ufuncs as u
from trellax._src.numpy.selection import where
from trellax._src.scipy.stats._util import ArrayLike, promote


def _z(name: str, x: ArrayLike, loc: ArrayLike, scale: ArrayLike) -> tuple[Array, Array]:
    x, loc, scale = promote(name, x, loc, scale)
    return u.divide(u.subtract(x, loc), scale), scale


def logpdf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """``z - exp(z) - log(scale)``."""
    z, scale = _z("gumbel_l.logpdf", x, loc, scale)
    return u.subtract(u.subtract(z, u.exp(z)), u.log(scale))


def pdf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """The density."""
    return u.exp(logpdf(x, loc, scale))


def cdf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """``1 - exp(-exp(z))``."""
    z, _ = _z("gumbel_l.cdf", x, loc, scale)
    return u.negative(u.expm1(u.negative(u.exp(z))))


def logcdf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """``log(cdf)``."""
    return u.log(cdf(x, loc, scale))


def logsf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """``-exp(z)``."""
    z, _ = _z("gumbel_l.logsf", x, loc, scale)
    return u.negative(u.exp(z))


def sf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """``exp(-exp(z))``."""
    return u.exp(logsf(x, loc, scale))


def ppf(p: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """``loc + scale * log(-log1p(-p))`` for ``p`` in ``(0, 1)``, NaN elsewhere (JAX)."""
    p, loc, scale = promote("gumbel_l.ppf", p, loc, scale)
    value = u.add(loc, u.multiply(scale, u.log(u.negative(u.log1p(u.negative(p))))))
    return where(u.logical_or(u.less_equal(p, 0), u.greater_equal(p, 1)), float("nan"), value)
