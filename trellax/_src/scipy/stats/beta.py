"""The beta distribution (shapes ``a``, ``b``, ``loc``, ``scale``)."""

from __future__ import annotations

from trellax._src.core.basearray import Array
from trellax._src.lax.structural import clamp
from trellax._src.numpy import ufuncs as u
from trellax._src.numpy.selection import where
from trellax._src.scipy import special
from trellax._src.scipy.stats._util import ArrayLike, k, promote, strong_if_shaped


def _y(
    name: str, x: ArrayLike, a: ArrayLike, b: ArrayLike, loc: ArrayLike, scale: ArrayLike
) -> tuple[Array, ...]:
    x, a, b, loc, scale = promote(name, x, a, b, loc, scale)
    y = clamp(k(0, x), u.divide(u.subtract(x, loc), scale), k(1, x))
    return y, a, b


def _logpdf(
    x: ArrayLike, a: ArrayLike, b: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1
) -> Array:
    """``(a-1) log y + (b-1) log(1-y) - betaln(a, b) - log(scale)`` on the support, ``-inf``
    outside ``[loc, loc + scale]``."""
    x, a, b, loc, scale = promote("beta.logpdf", x, a, b, loc, scale)
    y = u.divide(u.subtract(x, loc), scale)
    linear = u.add(
        special.xlogy(u.subtract(a, 1), y), special.xlog1py(u.subtract(b, 1), u.negative(y))
    )
    value = u.subtract(u.subtract(linear, special.betaln(a, b)), u.log(scale))
    outside = u.logical_or(u.greater(x, u.add(loc, scale)), u.less(x, loc))
    # shapes and scale must be positive: NaN otherwise, even outside the support (JAX, SciPy)
    invalid = u.logical_or(
        u.logical_or(u.less_equal(a, 0), u.less_equal(b, 0)), u.less_equal(scale, 0)
    )
    return where(invalid, float("nan"), where(outside, -float("inf"), value))


def _cdf(
    x: ArrayLike, a: ArrayLike, b: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1
) -> Array:
    """``betainc(a, b, y)``, ``y`` clamped to ``[0, 1]``."""
    y, a, b = _y("beta.cdf", x, a, b, loc, scale)
    return special.betainc(a, b, y)


def _sf(
    x: ArrayLike, a: ArrayLike, b: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1
) -> Array:
    """``betainc(b, a, 1 - y)``, ``y`` clamped to ``[0, 1]``."""
    y, a, b = _y("beta.sf", x, a, b, loc, scale)
    return special.betainc(b, a, u.subtract(1, y))


def logpdf(
    x: ArrayLike, a: ArrayLike, b: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1
) -> Array:
    """See ``_logpdf``; strong unless every input is a weak scalar (JAX's constants)."""
    return strong_if_shaped(_logpdf(x, a, b, loc, scale))


def pdf(
    x: ArrayLike, a: ArrayLike, b: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1
) -> Array:
    """The density."""
    return u.exp(logpdf(x, a, b, loc, scale))


def cdf(
    x: ArrayLike, a: ArrayLike, b: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1
) -> Array:
    """See ``_cdf``."""
    return strong_if_shaped(_cdf(x, a, b, loc, scale))


def logcdf(
    x: ArrayLike, a: ArrayLike, b: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1
) -> Array:
    """``log(cdf)``."""
    return u.log(cdf(x, a, b, loc, scale))


def sf(x: ArrayLike, a: ArrayLike, b: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """See ``_sf``."""
    return strong_if_shaped(_sf(x, a, b, loc, scale))


def logsf(
    x: ArrayLike, a: ArrayLike, b: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1
) -> Array:
    """``log(sf)``."""
    return u.log(sf(x, a, b, loc, scale))
