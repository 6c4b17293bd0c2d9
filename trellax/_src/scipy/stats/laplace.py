"""The Laplace distribution (``loc``, ``scale``)."""

from __future__ import annotations

import math

from trellax._src.core.basearray import Array
from trellax._src.numpy import ufuncs as u
from trellax._src.numpy.selection import where
from trellax._src.scipy.stats._util import ArrayLike, k, promote


def logpdf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """``-|x - loc| / scale - log(2 scale)``."""
    x, loc, scale = promote("laplace.logpdf", x, loc, scale)
    y = u.abs(u.divide(u.subtract(x, loc), scale))
    return u.subtract(u.subtract(u.negative(y), u.log(scale)), k(math.log(2), y))


def pdf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """The density."""
    return u.exp(logpdf(x, loc, scale))


def cdf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """``exp(y) / 2`` below ``loc``, ``1 - exp(-y) / 2`` above."""
    x, loc, scale = promote("laplace.cdf", x, loc, scale)
    y = u.divide(u.subtract(x, loc), scale)
    half = k(0.5, y)
    return where(
        u.less(y, 0),
        u.multiply(half, u.exp(y)),
        u.subtract(k(1, y), u.multiply(half, u.exp(u.negative(y)))),
    )
