"""The multivariate normal distribution (``mean`` of shape ``(n,)``, ``cov`` ``(n, n)``)."""

from __future__ import annotations

import math
from typing import Any

from trellax._src.core.basearray import Array
from trellax._src.numpy import linalg, reductions, shapes
from trellax._src.numpy import ufuncs as u
from trellax._src.scipy.linalg import solve_triangular
from trellax._src.scipy.stats._util import ArrayLike, promote


def logpdf(x: ArrayLike, mean: ArrayLike, cov: ArrayLike, allow_singular: None = None) -> Any:
    """``-(d^T cov^-1 d) / 2 - n log(2 pi) / 2 - log det(cov) / 2`` with ``d = x - mean``
    (via the Cholesky factor; ``x`` may have leading batch axes)."""
    if allow_singular is not None:
        raise NotImplementedError("allow_singular argument of multivariate_normal.logpdf")
    x, mean, cov = promote("multivariate_normal.logpdf", x, mean, cov, keep_shapes=True)
    diff = u.subtract(x, mean)
    if mean.ndim == 0:  # a scalar mean: the univariate normal, elementwise (JAX's reading)
        log_var = u.add(math.log(2 * math.pi), u.log(cov))
        return u.subtract(
            u.divide(u.multiply(-0.5, u.multiply(diff, diff)), cov), u.multiply(0.5, log_var)
        )
    n = mean.shape[-1]
    if cov.ndim < 2:
        variance = shapes.broadcast_to(cov, (n,))
        quad = reductions.sum(u.divide(u.multiply(diff, diff), variance), axis=-1)
        log_det = reductions.sum(u.log(variance))
    else:
        if tuple(cov.shape[-2:]) != (n, n):
            raise ValueError(
                f"multivariate_normal.logpdf got incompatible shapes: mean {mean.shape}, "
                f"cov {cov.shape}"
            )
        chol = linalg.cholesky(cov)
        if n == 0:  # a zero-dimensional space: density 1 (JAX's -0.0), one per batch element
            zero = u.multiply(-0.0, reductions.sum(diff, axis=-1))
            return u.add(zero, u.multiply(-0.0, reductions.sum(chol, axis=(-2, -1))))
        flat = shapes.reshape(diff, (-1, n))
        y = solve_triangular(chol, shapes.transpose(flat), lower=True)
        quad = shapes.reshape(reductions.sum(u.multiply(y, y), axis=0), tuple(diff.shape[:-1]))
        log_det = u.multiply(2, reductions.sum(u.log(linalg.diagonal(chol))))
    return u.subtract(u.multiply(-0.5, u.add(quad, log_det)), n / 2 * math.log(2 * math.pi))


def pdf(x: ArrayLike, mean: ArrayLike, cov: ArrayLike) -> Array:
    """The density."""
    return u.exp(logpdf(x, mean, cov))
