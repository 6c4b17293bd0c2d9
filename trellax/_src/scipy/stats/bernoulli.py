"""The Bernoulli distribution (success probability ``p``)."""

from __future__ import annotations

from trellax._src.core.basearray import Array
from trellax._src.numpy import ufuncs as u
from trellax._src.numpy.selection import where
from trellax._src.scipy import special
from trellax._src.scipy.stats._util import ArrayLike, k, promote, strong_if_shaped


def _logpmf(k: ArrayLike, p: ArrayLike, loc: ArrayLike = 0) -> Array:
    """``log(p)`` at 1, ``log(1 - p)`` at 0, ``-inf`` elsewhere; NaN for a NaN ``k`` (JAX's
    and SciPy's)."""
    k, p, loc = promote("bernoulli.logpmf", k, p, loc)
    x = u.subtract(k, loc)
    value = u.add(special.xlogy(x, p), special.xlog1py(u.subtract(1, x), u.negative(p)))
    out = where(u.logical_or(u.equal(x, 0), u.equal(x, 1)), value, -float("inf"))
    return where(u.isnan(x), float("nan"), out)


def _pmf(k: ArrayLike, p: ArrayLike, loc: ArrayLike = 0) -> Array:
    """The probability mass."""
    return u.exp(logpmf(k, p, loc))


def cdf(k: ArrayLike, p: ArrayLike) -> Array:
    """0 below 0, ``1 - p`` on ``[0, 1)``, 1 from 1 on (NaN for ``p`` outside ``[0, 1]``)."""
    k, p = promote("bernoulli.cdf", k, p)
    value = where(u.less(k, 0), 0, where(u.less(k, 1), u.subtract(1, p), 1))
    bad = u.logical_or(u.logical_or(u.less(p, 0), u.greater(p, 1)), u.isnan(k))
    return where(bad, float("nan"), value)


def _ppf(q: ArrayLike, p: ArrayLike) -> Array:
    """The smallest ``k`` with ``cdf(k) >= q``: 0 for ``q <= 1 - p``, else 1 (NaN outside)."""
    q, p = promote("bernoulli.ppf", q, p)
    zero, one = k(0, q), k(1, q)  # the result has q's dtype (JAX's lax._const constants)
    value = where(u.less_equal(q, u.subtract(one, p)), zero, one)
    bad = u.logical_or(
        u.logical_or(u.less(q, 0), u.greater(q, 1)), u.logical_or(u.less(p, 0), u.greater(p, 1))
    )
    bad = u.logical_or(bad, u.logical_or(u.isnan(q), u.isnan(p)))
    return where(bad, float("nan"), value)


def logpmf(k: ArrayLike, p: ArrayLike, loc: ArrayLike = 0) -> Array:
    """See ``_logpmf``; strong unless every input is a weak scalar (JAX's constants)."""
    return strong_if_shaped(_logpmf(k, p, loc))


def pmf(k: ArrayLike, p: ArrayLike, loc: ArrayLike = 0) -> Array:
    """See ``_pmf``; strong unless every input is a weak scalar (JAX's constants)."""
    return strong_if_shaped(_pmf(k, p, loc))


def ppf(q: ArrayLike, p: ArrayLike) -> Array:
    """See ``_ppf``; strong unless every input is a weak scalar (JAX's constants)."""
    return strong_if_shaped(_ppf(q, p))
