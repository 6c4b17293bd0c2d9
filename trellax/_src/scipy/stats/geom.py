"""The geometric distribution (trials until the first success, probability ``p``)."""

from __future__ import annotations

from trellax._src.core.basearray import Array
from trellax._src.numpy import ufuncs as u
from trellax._src.numpy.selection import where
from trellax._src.scipy import special
from trellax._src.scipy.stats._util import ArrayLike, promote, strong_if_shaped


def _logpmf(k: ArrayLike, p: ArrayLike, loc: ArrayLike = 0) -> Array:
    """``(k - 1) log(1 - p) + log(p)`` for ``k >= 1``, ``-inf`` below."""
    k, p, loc = promote("geom.logpmf", k, p, loc)
    x = u.subtract(k, loc)
    value = u.add(special.xlog1py(u.subtract(x, 1), u.negative(p)), u.log(p))
    return where(u.less_equal(x, 0), -float("inf"), value)


def _pmf(k: ArrayLike, p: ArrayLike, loc: ArrayLike = 0) -> Array:
    """The probability mass."""
    return u.exp(logpmf(k, p, loc))


def logpmf(k: ArrayLike, p: ArrayLike, loc: ArrayLike = 0) -> Array:
    """See ``_logpmf``; strong unless every input is a weak scalar (JAX's constants)."""
    return strong_if_shaped(_logpmf(k, p, loc))


def pmf(k: ArrayLike, p: ArrayLike, loc: ArrayLike = 0) -> Array:
    """See ``_pmf``; strong unless every input is a weak scalar (JAX's constants)."""
    return strong_if_shaped(_pmf(k, p, loc))
