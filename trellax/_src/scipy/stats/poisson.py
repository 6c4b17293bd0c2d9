"""The Poisson distribution (rate ``mu``, shift ``loc``)."""

from __future__ import annotations

import math

import trellax.numpy as jnp
from trellax._src.core.basearray import Array
from trellax._src.numpy import ufuncs as u
from trellax._src.numpy.selection import where
from trellax._src.numpy.util import check_arraylike, promote_args_inexact_keep_shapes
from trellax._src.scipy import special
from trellax._src.scipy.stats._util import (
    ArrayLike,
    log_gamma_kernel,
    promote,
    strong_if_shaped,
)


def logpmf(k: ArrayLike, mu: ArrayLike, loc: ArrayLike = 0) -> Array:
    """``k log(mu) - gammaln(k + 1) - mu`` for integral ``k >= 0``, ``-inf`` otherwise."""
    k, mu, loc = promote("poisson.logpmf", k, mu, loc)
    x = u.subtract(k, loc)
    value = u.subtract(u.subtract(special.xlogy(x, mu), special.gammaln(u.add(x, 1))), mu)
    value = log_gamma_kernel(u.add(x, 1), mu, value)  # Stirling's form for k >= 7
    valid = u.logical_and(u.greater_equal(x, 0), u.equal(x, u.floor(x)))
    return where(valid, value, -float("inf"))


def pmf(k: ArrayLike, mu: ArrayLike, loc: ArrayLike = 0) -> Array:
    """The probability mass."""
    return u.exp(logpmf(k, mu, loc))


def _cdf(k: ArrayLike, mu: ArrayLike, loc: ArrayLike = 0) -> Array:
    """``P(X <= k) = gammaincc(floor(k) + 1, mu)`` (0 below ``loc``)."""
    k, mu, loc = promote("poisson.cdf", k, mu, loc)
    x = u.subtract(k, loc)
    value = special.gammaincc(u.floor(u.add(x, 1)), mu)
    return where(u.less(x, 0), 0, value)


def cdf(k: ArrayLike, mu: ArrayLike, loc: ArrayLike = 0) -> Array:
    """See ``_cdf``; strong unless every input is a weak scalar (JAX's constants)."""
    return strong_if_shaped(_cdf(k, mu, loc))


def _entropy_by_sum(mu: Array, terms: int, upper: Array) -> Array:
    """``-sum p log p`` over ``k < min(terms, upper)`` (one row per ``k``, one column per mu)."""
    ks = jnp.arange(terms, dtype=mu.dtype)[:, None]
    probs = pmf(ks, mu, 0)
    return jnp.sum(special.entr(jnp.where(ks < upper[None, :], probs, 0.0)), axis=0)


def entropy(mu: ArrayLike, loc: ArrayLike = 0) -> Array:
    """The entropy, as JAX computes it: 0 for ``mu == 0``; below 10 the sum of ``-p log p``
    over ``k < mu + 20`` (35 terms at most), below 100 over ``k < mu + 10 sqrt(mu) + 20``
    (250 terms at most), and beyond the asymptotic ``log(2 pi e mu) / 2 - 1 / (12 mu)``.
    ``loc`` only shifts the distribution (its shape broadcasts with ``mu``'s); results are
    strongly typed."""
    check_arraylike("poisson.entropy", mu, loc)
    mu, loc = promote_args_inexact_keep_shapes("poisson.entropy", mu, loc)
    shape = jnp.broadcast_shapes(mu.shape, loc.shape)
    m = jnp.ravel(mu)
    small = _entropy_by_sum(m, 35, jnp.ceil(m + 20))
    medium = _entropy_by_sum(m, 250, jnp.ceil(m + 10 * jnp.sqrt(m) + 20))
    large = 0.5 * jnp.log(2 * math.pi * math.e * m) - 1.0 / (12 * m)
    value = jnp.where(m < 10, small, jnp.where(m < 100, medium, large))
    value = jnp.where(m == 0, jnp.zeros_like(m), value)
    return jnp.broadcast_to(value.reshape(mu.shape), shape)
