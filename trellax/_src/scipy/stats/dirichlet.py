"""The Dirichlet distribution on the simplex (concentrations ``alpha``, along axis 0)."""

from __future__ import annotations

import math

import trellax.numpy as jnp
from trellax._src.core.basearray import Array
from trellax._src.numpy.util import check_arraylike, promote_args_inexact_keep_shapes
from trellax._src.scipy import special
from trellax._src.scipy.stats._util import ArrayLike, k

#: How far from 1 the coordinates of a point of the simplex may sum (JAX's tolerance).
_SIMPLEX_ATOL = 1e-6


def _on_simplex(x: Array) -> Array:
    """Positive coordinates summing to 1, per point (axis 0 indexes the coordinates)."""
    return jnp.all(x > 0, axis=0) & (abs(jnp.sum(x, axis=0) - 1) < _SIMPLEX_ATOL)


def logpdf(x: ArrayLike, alpha: ArrayLike) -> Array:
    """``sum((alpha - 1) log(x)) - log(B(alpha))`` for ``x`` on the simplex, ``-inf`` off it.

    ``alpha`` has shape ``(K,)``; ``x`` has ``K`` coordinates along its first axis, or
    ``K - 1`` (the last is then ``1 - sum``), and any further axes index points.
    """
    check_arraylike("dirichlet.logpdf", x, alpha)
    x, alpha = promote_args_inexact_keep_shapes("dirichlet.logpdf", x, alpha)
    if alpha.ndim != 1:
        raise ValueError(f"`alpha` must be one-dimensional; got alpha.shape={alpha.shape}")
    if x.ndim == 0:  # JAX fails indexing the shape, an IndexError
        raise IndexError(f"`x` must have at least one dimension; got x.shape={x.shape}")
    if x.shape[0] not in (alpha.shape[0], alpha.shape[0] - 1):
        raise ValueError(
            "`x` must have either the same number of entries as `alpha` or one entry fewer; "
            f"got x.shape={x.shape}, alpha.shape={alpha.shape}"
        )
    one = k(1, x)
    if x.shape[0] != alpha.shape[0]:
        x = jnp.concatenate([x, one - x.sum(0, keepdims=True)], axis=0)
    log_beta = jnp.sum(special.gammaln(alpha)) - special.gammaln(jnp.sum(alpha))
    alpha = alpha.reshape(alpha.shape + (1,) * (x.ndim - 1))
    value = jnp.sum(special.xlogy(alpha - one, x), axis=0) - log_beta
    return jnp.where(_on_simplex(x), value, -math.inf)


def pdf(x: ArrayLike, alpha: ArrayLike) -> Array:
    """The density, ``exp(logpdf)``."""
    return jnp.exp(logpdf(x, alpha))
