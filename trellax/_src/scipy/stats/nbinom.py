"""The negative binomial distribution (failures before the ``n``-th success, success
probability ``p``, shift ``loc``)."""

from __future__ import annotations

from trellax._src.core.basearray import Array
from trellax._src.numpy import ufuncs as u
from trellax._src.numpy.selection import where
from trellax._src.scipy import special
from trellax._src.scipy.stats._util import ArrayLike, promote, strong_if_shaped


def _logpmf(k: ArrayLike, n: ArrayLike, p: ArrayLike, loc: ArrayLike = 0) -> Array:
    """``gammaln(y + n) - gammaln(n) - gammaln(y + 1) + n log p + y log(1 - p)`` for
    ``y = k - loc >= 0``, ``-inf`` below."""
    k, n, p, loc = promote("nbinom.logpmf", k, n, p, loc)
    y = u.subtract(k, loc)
    comb = u.subtract(
        u.subtract(special.gammaln(u.add(y, n)), special.gammaln(n)),
        special.gammaln(u.add(y, 1)),
    )
    linear = u.add(special.xlogy(n, p), special.xlog1py(y, u.negative(p)))
    return where(u.less(y, 0), -float("inf"), u.add(comb, linear))


def logpmf(k: ArrayLike, n: ArrayLike, p: ArrayLike, loc: ArrayLike = 0) -> Array:
    """See ``_logpmf``; strong unless every input is a weak scalar (JAX's constants)."""
    return strong_if_shaped(_logpmf(k, n, p, loc))


def pmf(k: ArrayLike, n: ArrayLike, p: ArrayLike, loc: ArrayLike = 0) -> Array:
    """The probability mass."""
    return u.exp(logpmf(k, n, p, loc))
