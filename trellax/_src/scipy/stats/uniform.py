"""The uniform distribution on ``[loc, loc + scale]``."""

from __future__ import annotations

from trellax._src.core.basearray import Array
from trellax._src.lax._base import scalar_to_array
from trellax._src.lax.structural import _convert
from trellax._src.numpy import ufuncs as u
from trellax._src.numpy.selection import where
from trellax._src.scipy.stats._util import ArrayLike, c, promote


def logpdf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """``-log(scale)`` inside the interval, ``-inf`` outside."""
    x, loc, scale = promote("uniform.logpdf", x, loc, scale)
    inside = u.logical_and(u.greater_equal(x, loc), u.less_equal(x, u.add(loc, scale)))
    value = u.negative(u.log(scale))
    out = where(inside, value, c(float("-inf"), value))
    unknown = u.logical_or(u.isnan(x), u.logical_or(u.isnan(loc), u.isnan(scale)))
    return where(unknown, c(float("nan"), value), out)  # NaN in, NaN out (SciPy's)


def pdf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """``1 / scale`` inside the interval, 0 outside."""
    return u.exp(logpdf(x, loc, scale))


def cdf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """``(x - loc) / scale`` clipped to ``[0, 1]``."""
    x, loc, scale = promote("uniform.cdf", x, loc, scale)
    y = u.divide(u.subtract(x, loc), scale)
    # JAX selects among strong constants (jnp.array(0, dtype)): the result is always strong
    zero, one = scalar_to_array(0, y.dtype, False), scalar_to_array(1, y.dtype, False)
    return where(u.less(y, 0), zero, where(u.greater(y, 1), one, _convert(y, y.dtype, False)))


def ppf(q: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """``loc + q * scale`` for ``q`` in ``[0, 1]``, NaN outside."""
    q, loc, scale = promote("uniform.ppf", q, loc, scale)
    value = u.add(loc, u.multiply(q, scale))
    outside = u.logical_or(u.less(q, 0), u.greater(q, 1))
    return where(outside, c(float("nan"), value), value)
