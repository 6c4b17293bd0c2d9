"""The binomial distribution (``n`` trials, success probability ``p``, shift ``loc``)."""

from __future__ import annotations

from trellax._src.core.basearray import Array
from trellax._src.numpy import ufuncs as u
from trellax._src.numpy.selection import where
from trellax._src.scipy import special
from trellax._src.scipy.stats._util import ArrayLike, promote


def logpmf(k: ArrayLike, n: ArrayLike, p: ArrayLike, loc: ArrayLike = 0) -> Array:
    """``log C(n, y) + y log p + (n - y) log(1 - p)`` for ``0 <= y <= n`` (``y = k - loc``,
    the binomial coefficient through ``gammaln``), ``-inf`` outside. Weak when every promoted
    input is (a bool array with the Python-int ``loc`` promotes to a weak float32): JAX's
    formula has no dtype-fixing constant."""
    k, n, p, loc = promote("binom.logpmf", k, n, p, loc)
    y = u.subtract(k, loc)
    comb = u.subtract(
        special.gammaln(u.add(n, 1)),
        u.add(special.gammaln(u.add(y, 1)), special.gammaln(u.add(u.subtract(n, y), 1))),
    )
    linear = u.add(special.xlogy(y, p), special.xlog1py(u.subtract(n, y), u.negative(p)))
    inside = u.logical_and(u.greater_equal(y, 0), u.less_equal(y, n))
    return where(inside, u.add(comb, linear), -float("inf"))


def pmf(k: ArrayLike, n: ArrayLike, p: ArrayLike, loc: ArrayLike = 0) -> Array:
    """The probability mass."""
    return u.exp(logpmf(k, n, p, loc))
