"""The beta-binomial distribution (``n`` trials, beta prior shapes ``a``, ``b``, shift
``loc``)."""

from __future__ import annotations

from trellax._src.core.basearray import Array
from trellax._src.numpy import ufuncs as u
from trellax._src.numpy.selection import where
from trellax._src.scipy import special
from trellax._src.scipy.stats._util import ArrayLike, promote, strong_if_shaped


def _logpmf(k: ArrayLike, n: ArrayLike, a: ArrayLike, b: ArrayLike, loc: ArrayLike = 0) -> Array:
    """``-log(n + 1) - betaln(n - y + 1, y + 1) + betaln(y + a, n - y + b) - betaln(a, b)`` for
    ``0 <= y <= n`` (``y = floor(k) - loc``), ``-inf`` outside."""
    k, n, a, b, loc = promote("betabinom.logpmf", k, n, a, b, loc)
    y = u.subtract(u.floor(k), loc)
    n_y = u.subtract(n, y)
    comb = u.negative(u.add(u.log(u.add(n, 1)), special.betaln(u.add(n_y, 1), u.add(y, 1))))
    beta = u.subtract(special.betaln(u.add(y, a), u.add(n_y, b)), special.betaln(a, b))
    outside = u.logical_or(u.less(y, 0), u.greater(y, n))
    # a and b must be positive, n non-negative: NaN otherwise, even outside (JAX, SciPy)
    invalid = u.logical_or(u.logical_or(u.less_equal(a, 0), u.less_equal(b, 0)), u.less(n, 0))
    return where(invalid, float("nan"), where(outside, -float("inf"), u.add(comb, beta)))


def logpmf(k: ArrayLike, n: ArrayLike, a: ArrayLike, b: ArrayLike, loc: ArrayLike = 0) -> Array:
    """See ``_logpmf``; strong unless every input is a weak scalar (JAX's constants)."""
    return strong_if_shaped(_logpmf(k, n, a, b, loc))


def pmf(k: ArrayLike, n: ArrayLike, a: ArrayLike, b: ArrayLike, loc: ArrayLike = 0) -> Array:
    """The probability mass."""
    return u.exp(logpmf(k, n, a, b, loc))
