"""The binomial distribution (``n`` trials, success probability ``p``, shift ``loc``)."""

from __future__ import annotations

from trellax._src.core.basearray import Array
from trellax._src.numpy import ufuncs as u
from trellax._src.numpy.selection import where
from trellax._src.scipy import special
from trellax._src.scipy.stats._util import ArrayLike, promote


def logpmf(k: ArrayLike, n: ArrayLike, p: ArrayLike, loc: ArrayLike = 0) -> Array:
    """``log C(n, y) + y log p + (n - y) log(1 - p)`` for ``0 <= y <= n`` (``y = k - loc``),
    ``-inf`` outside, NaN for ``p`` outside ``[0, 1]`` (SciPy's; JAX's formula gives numbers
    such as ``pmf(1.5, 1.5, 1.5) = 1.84`` there). Weak when every promoted
    input is (a bool array with the Python-int ``loc`` promotes to a weak float32): JAX's
    formula has no dtype-fixing constant."""
    k, n, p, loc = promote("binom.logpmf", k, n, p, loc)
    y = u.subtract(k, loc)
    # log C(n, y) as -log(n + 1) - betaln(n - y + 1, y + 1): no two overflowing log-gammas
    # to subtract (gammaln(n + 1) is inf in float16 from n = 8,000 on: inf - inf was NaN)
    comb = u.negative(u.add(u.log1p(n), special.betaln(u.add(u.subtract(n, y), 1), u.add(y, 1))))
    linear = u.add(special.xlogy(y, p), special.xlog1py(u.subtract(n, y), u.negative(p)))
    inside = u.logical_and(u.greater_equal(y, 0), u.less_equal(y, n))
    # where the linear term is exactly 0 (p = 0 at y = 0, p = 1 at y = n, or n = y = 0) so is
    # log C(n, y): 0 exactly, as JAX (the betaln form rounds to +-1e-15 there)
    exact = u.logical_or(u.logical_and(u.equal(y, 0), u.equal(n, 0)), u.equal(linear, 0))
    value = where(exact, 0.0, u.add(comb, linear))
    out = where(inside, value, -float("inf"))
    # p outside [0, 1] is no probability: NaN, as SciPy (the formula alone gives p^n at y = n)
    bad = u.logical_or(u.less(p, 0), u.greater(p, 1))
    return where(bad, float("nan"), out)


def pmf(k: ArrayLike, n: ArrayLike, p: ArrayLike, loc: ArrayLike = 0) -> Array:
    """The probability mass."""
    return u.exp(logpmf(k, n, p, loc))
