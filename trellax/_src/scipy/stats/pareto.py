"""The Pareto distribution (shape ``b``, ``loc``, ``scale``): support ``y = (x - loc) / scale
>= 1``."""

from __future__ import annotations

from trellax._src.core.basearray import Array
from trellax._src.numpy import ufuncs as u
from trellax._src.numpy.selection import where
from trellax._src.scipy.stats._util import ArrayLike, promote, strong_if_shaped


def _y(
    name: str, x: ArrayLike, b: ArrayLike, loc: ArrayLike, scale: ArrayLike
) -> tuple[Array, ...]:
    x, b, loc, scale = promote(name, x, b, loc, scale)
    return u.divide(u.subtract(x, loc), scale), b, scale


def _logpdf(x: ArrayLike, b: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """``log(b) - log(scale) - (b + 1) log(y)`` for ``y >= 1``, ``-inf`` below."""
    y, b, scale = _y("pareto.logpdf", x, b, loc, scale)
    value = u.subtract(u.subtract(u.log(b), u.log(scale)), u.multiply(u.add(b, 1), u.log(y)))
    return where(u.less(y, 1), -float("inf"), value)


def _pdf(x: ArrayLike, b: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """The density."""
    return u.exp(logpdf(x, b, loc, scale))


def _logsf(x: ArrayLike, b: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """``-b log(y)`` for ``y >= 1``, 0 below."""
    y, b, _ = _y("pareto.logsf", x, b, loc, scale)
    return where(u.less(y, 1), 0, u.negative(u.multiply(b, u.log(y))))


def _sf(x: ArrayLike, b: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """``y**-b`` for ``y >= 1``, 1 below."""
    return u.exp(logsf(x, b, loc, scale))


def _cdf(x: ArrayLike, b: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """``1 - y**-b`` for ``y >= 1``, 0 below."""
    return u.negative(u.expm1(_logsf(x, b, loc, scale)))


def logcdf(x: ArrayLike, b: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """``log(cdf)``."""
    return u.log(_cdf(x, b, loc, scale))


def ppf(q: ArrayLike, b: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """``loc + scale * (1 - q)**(-1/b)``, NaN for ``q`` outside ``[0, 1]`` (as JAX); a bool
    array ``q`` gives a strong result, as JAX's."""
    q, b, loc, scale = promote("pareto.ppf", q, b, loc, scale)
    value = u.add(loc, u.multiply(scale, u.power(u.subtract(1, q), u.negative(u.divide(1, b)))))
    outside = u.logical_or(u.less(q, 0), u.greater(q, 1))
    return strong_if_shaped(where(outside, float("nan"), value))


def cdf(x: ArrayLike, b: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """See ``_cdf``; strong unless every input is a weak scalar (JAX's constants)."""
    return strong_if_shaped(_cdf(x, b, loc, scale))


def logpdf(x: ArrayLike, b: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """See ``_logpdf``; strong unless every input is a weak scalar (JAX's constants)."""
    return strong_if_shaped(_logpdf(x, b, loc, scale))


def logsf(x: ArrayLike, b: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """See ``_logsf``; strong unless every input is a weak scalar (JAX's constants)."""
    return strong_if_shaped(_logsf(x, b, loc, scale))


def pdf(x: ArrayLike, b: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """See ``_pdf``; strong unless every input is a weak scalar (JAX's constants)."""
    return strong_if_shaped(_pdf(x, b, loc, scale))


def sf(x: ArrayLike, b: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """See ``_sf``; strong unless every input is a weak scalar (JAX's constants)."""
    return strong_if_shaped(_sf(x, b, loc, scale))
