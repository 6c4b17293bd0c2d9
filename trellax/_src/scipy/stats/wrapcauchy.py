"""The wrapped Cauchy distribution on ``[0, 2 pi]`` (shape ``0 < c < 1``)."""

from __future__ import annotations

import math

from trellax._src.core.basearray import Array
from trellax._src.numpy import ufuncs as u
from trellax._src.numpy.selection import where
from trellax._src.numpy.util import check_arraylike, promote_args_inexact
from trellax._src.scipy.stats._util import ArrayLike


def logpdf(x: ArrayLike, c: ArrayLike) -> Array:
    """``log(1 - c**2) - log(2 pi) - log(1 + c**2 - 2 c cos(x))`` on ``[0, 2 pi]``, ``-inf``
    outside it, NaN unless ``0 < c < 1``."""
    check_arraylike("wrapcauchy.logpdf", x, c)
    x, c = promote_args_inexact("wrapcauchy.logpdf", x, c)
    c2 = u.multiply(c, c)
    value = u.subtract(
        u.subtract(u.log(u.subtract(1, c2)), u.log(2 * math.pi)),
        u.log(u.subtract(u.add(1, c2), u.multiply(u.multiply(2, c), u.cos(x)))),
    )
    inside = u.logical_and(u.greater_equal(x, 0), u.less_equal(x, 2 * math.pi))
    valid = u.logical_and(u.greater(c, 0), u.less(c, 1))
    return where(valid, where(inside, value, -math.inf), math.nan)


def pdf(x: ArrayLike, c: ArrayLike) -> Array:
    """The density, ``exp(logpdf)``."""
    return u.exp(logpdf(x, c))
