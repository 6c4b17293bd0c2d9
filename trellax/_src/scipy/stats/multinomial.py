"""The multinomial distribution (``n`` trials over the categories of ``p``, the last axis)."""

from __future__ import annotations

import math

import trellax.numpy as jnp
from trellax._src.core.basearray import Array
from trellax._src.dtypes import dtypes
from trellax._src.numpy.util import check_arraylike, promote_args_inexact, promote_args_numeric
from trellax._src.scipy import special
from trellax._src.scipy.stats._util import ArrayLike


def logpmf(x: ArrayLike, n: ArrayLike, p: ArrayLike) -> Array:
    """``log(n!) + sum(x log(p) - log(x!))`` over the last axis; ``-inf`` unless the counts
    add up to ``n``. ``x`` and ``n`` must be integers. As in JAX, the counts compared with ``n``
    are those of *all* of ``x`` (``sum(x)`` over every axis)."""
    check_arraylike("multinomial.logpmf", x, n, p)
    (p,) = promote_args_inexact("multinomial.logpmf", p)
    x, n = promote_args_numeric("multinomial.logpmf", x, n)
    if dtypes.kind(x.dtype) not in "iu":
        raise ValueError(
            f"x and n must be of integer type; got x.dtype={x.dtype}, n.dtype={n.dtype}"
        )
    x = x.astype(p.dtype)
    n = n.astype(p.dtype)
    terms = special.xlogy(x, p) - special.gammaln(x + 1)
    value = special.gammaln(n + 1) + jnp.sum(terms, axis=-1)
    return jnp.where(jnp.sum(x) == n, value, -math.inf)


def pmf(x: ArrayLike, n: ArrayLike, p: ArrayLike) -> Array:
    """The probability mass, ``exp(logpmf)``."""
    return jnp.exp(logpmf(x, n, p))
