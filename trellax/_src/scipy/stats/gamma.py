"""The gamma distribution (shape ``a``, ``loc``, ``scale``)."""

from __future__ import annotations

from trellax._src.core.basearray import Array
from trellax._src.numpy import ufuncs as u
from trellax._src.numpy.selection import where
from trellax._src.scipy import special
from trellax._src.scipy.stats._util import (
    ArrayLike,
    log_gamma_kernel,
    promote,
    strong_if_shaped,
)


def _y(
    name: str, x: ArrayLike, a: ArrayLike, loc: ArrayLike, scale: ArrayLike
) -> tuple[Array, ...]:
    x, a, loc, scale = promote(name, x, a, loc, scale)
    return u.divide(u.subtract(x, loc), scale), a, scale


def _logpdf(x: ArrayLike, a: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """``(a - 1) log(y) - y - gammaln(a) - log(scale)`` for ``y >= 0``, ``-inf`` below (for
    ``a >= 8`` by Stirling's form, ``stats._util.log_gamma_kernel``)."""
    y, a, scale = _y("gamma.logpdf", x, a, loc, scale)
    direct = u.subtract(u.subtract(special.xlogy(u.subtract(a, 1), y), y), special.gammaln(a))
    value = u.subtract(log_gamma_kernel(a, y, direct), u.log(scale))
    return where(u.less(y, 0), -float("inf"), value)


def _pdf(x: ArrayLike, a: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """The density."""
    return u.exp(logpdf(x, a, loc, scale))


def _cdf(x: ArrayLike, a: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """``gammainc(a, y)`` (0 below ``loc``)."""
    y, a, _ = _y("gamma.cdf", x, a, loc, scale)
    return special.gammainc(a, u.maximum(y, 0))


def _logcdf(x: ArrayLike, a: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """``log(cdf)``."""
    return u.log(cdf(x, a, loc, scale))


def sf(x: ArrayLike, a: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """``gammaincc(a, y)`` (1 below ``loc``)."""
    y, a, _ = _y("gamma.sf", x, a, loc, scale)
    return special.gammaincc(a, u.maximum(y, 0))


def logsf(x: ArrayLike, a: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """``log(sf)``."""
    return u.log(sf(x, a, loc, scale))


def cdf(x: ArrayLike, a: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """See ``_cdf``; strong unless every input is a weak scalar (JAX's constants)."""
    return strong_if_shaped(_cdf(x, a, loc, scale))


def logcdf(x: ArrayLike, a: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """See ``_logcdf``; strong unless every input is a weak scalar (JAX's constants)."""
    return strong_if_shaped(_logcdf(x, a, loc, scale))


def logpdf(x: ArrayLike, a: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """See ``_logpdf``; strong unless every input is a weak scalar (JAX's constants)."""
    return strong_if_shaped(_logpdf(x, a, loc, scale))


def pdf(x: ArrayLike, a: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """See ``_pdf``; strong unless every input is a weak scalar (JAX's constants)."""
    return strong_if_shaped(_pdf(x, a, loc, scale))
