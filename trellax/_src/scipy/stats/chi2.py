"""The chi-squared distribution (``df`` degrees of freedom, ``loc``, ``scale``)."""

from __future__ import annotations

import math

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
    name: str, x: ArrayLike, df: ArrayLike, loc: ArrayLike, scale: ArrayLike
) -> tuple[Array, ...]:
    x, df, loc, scale = promote(name, x, df, loc, scale)
    return u.divide(u.subtract(x, loc), scale), df, scale


def _logpdf(x: ArrayLike, df: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """``(k/2 - 1) log(y) - y/2 - gammaln(k/2) - (k/2) log(2) - log(scale)``, ``-inf`` below
    (for ``k >= 16`` by Stirling's form, ``stats._util.log_gamma_kernel``)."""
    y, df, scale = _y("chi2.logpdf", x, df, loc, scale)
    half = u.divide(df, 2)
    value = u.subtract(special.xlogy(u.subtract(half, 1), y), u.divide(y, 2))
    value = u.subtract(value, u.add(special.gammaln(half), u.multiply(half, math.log(2))))
    # for df >= 16 Stirling's form of the Gamma(df/2) kernel at y/2 (less cancellation)
    value = log_gamma_kernel(half, u.divide(y, 2), value, -math.log(2))
    return where(u.less(y, 0), -float("inf"), u.subtract(value, u.log(scale)))


def _pdf(x: ArrayLike, df: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """The density."""
    return u.exp(logpdf(x, df, loc, scale))


def _cdf(x: ArrayLike, df: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """``gammainc(k/2, y/2)``."""
    y, df, _ = _y("chi2.cdf", x, df, loc, scale)
    return special.gammainc(u.divide(df, 2), u.divide(u.maximum(y, 0), 2))


def _logcdf(x: ArrayLike, df: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """``log(cdf)``."""
    return u.log(cdf(x, df, loc, scale))


def _sf(x: ArrayLike, df: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """``gammaincc(k/2, y/2)``."""
    y, df, _ = _y("chi2.sf", x, df, loc, scale)
    return special.gammaincc(u.divide(df, 2), u.divide(u.maximum(y, 0), 2))


def _logsf(x: ArrayLike, df: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """``log(sf)``."""
    return u.log(sf(x, df, loc, scale))


def logpdf(x: ArrayLike, df: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """See ``_logpdf``; strong unless every input is a weak scalar (JAX's constants)."""
    return strong_if_shaped(_logpdf(x, df, loc, scale))


def pdf(x: ArrayLike, df: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """See ``_pdf``; strong unless every input is a weak scalar (JAX's constants)."""
    return strong_if_shaped(_pdf(x, df, loc, scale))


def cdf(x: ArrayLike, df: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """See ``_cdf``; strong unless every input is a weak scalar (JAX's constants)."""
    return strong_if_shaped(_cdf(x, df, loc, scale))


def logcdf(x: ArrayLike, df: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """See ``_logcdf``; strong unless every input is a weak scalar (JAX's constants)."""
    return strong_if_shaped(_logcdf(x, df, loc, scale))


def sf(x: ArrayLike, df: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """See ``_sf``; strong unless every input is a weak scalar (JAX's constants)."""
    return strong_if_shaped(_sf(x, df, loc, scale))


def logsf(x: ArrayLike, df: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """See ``_logsf``; strong unless every input is a weak scalar (JAX's constants)."""
    return strong_if_shaped(_logsf(x, df, loc, scale))
