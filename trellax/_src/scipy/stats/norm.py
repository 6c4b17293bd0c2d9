"""The normal distribution (``loc``, ``scale``): ``norm.logpdf`` and friends."""

from __future__ import annotations

import math

from trellax._src.core.basearray import Array
from trellax._src.dtypes import dtypes
from trellax._src.lax import elementwise as lax
from trellax._src.lax.structural import _convert
from trellax._src.numpy import ufuncs as u
from trellax._src.numpy.util import check_arraylike
from trellax._src.scipy import special
from trellax._src.scipy.stats._util import ArrayLike, k, promote


def logpdf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """``log(pdf(x))``: ``-(log(2 pi scale**2) + ((x - loc) / scale)**2) / 2``, JAX's formula
    (so a negative ``scale`` acts as its absolute value; lax operations, so weak operands meet
    strong constants without a cast, as in JAX's gradients)."""
    x, loc, scale = promote("norm.logpdf", x, loc, scale)
    scale_sq = lax.square(scale)
    log_normalizer = lax.log(lax.mul(k(2 * math.pi, x), scale_sq))
    quadratic = lax.div(lax.square(lax.sub(x, loc)), scale_sq)
    return lax.div(lax.add(log_normalizer, quadratic), k(-2, x))


def pdf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """The normal density."""
    return u.exp(logpdf(x, loc, scale))


def _z(name: str, x: ArrayLike, loc: ArrayLike, scale: ArrayLike) -> Array:
    x, loc, scale = promote(name, x, loc, scale)
    return u.divide(u.subtract(x, loc), scale)


def cdf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """``P(X <= x)``."""
    return special.ndtr(_z("norm.cdf", x, loc, scale))


def logcdf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """``log(cdf(x))``, accurate in the lower tail."""
    return special.log_ndtr(_z("norm.logcdf", x, loc, scale))


def sf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """The survival function ``1 - cdf(x)``, accurate in the upper tail."""
    return special.ndtr(u.negative(_z("norm.sf", x, loc, scale)))


def logsf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """``log(sf(x))``."""
    return special.log_ndtr(u.negative(_z("norm.logsf", x, loc, scale)))


def ppf(q: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """The quantile function, the inverse of ``cdf``. As in JAX, ``q`` must be float32 or
    float64 (``ndtri``'s rule) and the result is cast to the default float dtype (float64 with
    x64 on, even for float32 input)."""
    check_arraylike("norm.ppf", q, loc, scale)
    value = u.add(u.multiply(special.ndtri(q), scale), loc)
    return _convert(value, dtypes.default_float_dtype(), False)


def isf(q: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """The inverse of ``sf`` (``ppf``'s dtype rule)."""
    check_arraylike("norm.isf", q, loc, scale)
    value = u.add(u.multiply(u.negative(special.ndtri(q)), scale), loc)
    return _convert(value, dtypes.default_float_dtype(), False)
