"""The normal distribution truncated to ``[a, b]`` (in units of ``scale`` around ``loc``).

The normalizing mass ``Phi(b) - Phi(a)`` is computed in logarithms, from the tail that keeps
it accurate: for ``a > 0`` by symmetry from the upper tail, for ``b <= 0`` from the lower tail
(``log(exp(log_ndtr(b)) - exp(log_ndtr(a)))``), otherwise as ``log1p(-Phi(a) - Phi(-b))``. As in
JAX, ``a >= b`` gives NaN and the results are strongly typed.
"""

from __future__ import annotations

import math

import trellax.numpy as jnp
from trellax._src.core.basearray import Array
from trellax._src.lax import elementwise as lax
from trellax._src.numpy.util import check_arraylike, promote_args_inexact
from trellax._src.scipy import special
from trellax._src.scipy.stats import norm
from trellax._src.scipy.stats._util import ArrayLike

_Args = tuple[Array, Array, Array, Array, Array]


def _promote(name: str, *args: ArrayLike) -> _Args:
    check_arraylike(name, *args)
    x, a, b, loc, scale = promote_args_inexact(name, *args)
    return x, a, b, loc, scale


def _log_diff(x: Array, y: Array) -> Array:
    """``log(exp(x) - exp(y))``, stably (NaN where ``x < y``)."""
    stacked = jnp.array([x, y])
    signs = jnp.array([jnp.ones_like(x), -jnp.ones_like(y)])
    out: Array = special.logsumexp(stacked, b=signs, axis=0)  # type: ignore[assignment]
    return out


def _log_gauss_mass(a: Array, b: Array) -> Array:
    """``log(Phi(b) - Phi(a))`` for ``a <= b``."""
    a, b = jnp.broadcast_arrays(a, b)
    right = a > 0
    central = ~((b <= 0) | right)
    lo = jnp.where(right, -b, a)
    hi = jnp.where(right, -a, b)
    tail = _log_diff(special.log_ndtr(hi), special.log_ndtr(lo))
    middle = jnp.log1p(-special.ndtr(a) - special.ndtr(-b))
    return jnp.where(central, middle, tail)


def logpdf(
    x: ArrayLike, a: ArrayLike, b: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1
) -> Array:
    """``norm.logpdf(x, loc, scale) - log(Phi(b) - Phi(a))`` inside the truncation,
    ``-inf`` outside, NaN for ``a >= b``."""
    x, a, b, loc, scale = _promote("truncnorm.logpdf", x, a, b, loc, scale)
    # lax.sub, as JAX: the strong mass meets a weak density without a cast, so gradients
    # with respect to weak inputs come back strong, as JAX's do.
    value = lax.sub(norm.logpdf(x, loc, scale), _log_gauss_mass(a, b))
    z = (x - loc) / scale
    value = jnp.where((z < a) | (z > b), -math.inf, value)
    return jnp.where(a >= b, math.nan, value)


def pdf(
    x: ArrayLike, a: ArrayLike, b: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1
) -> Array:
    """The density, ``exp(logpdf)``."""
    return jnp.exp(logpdf(x, a, b, loc, scale))


def _logcdf(x: Array, a: Array, b: Array, loc: Array, scale: Array) -> Array:
    x, a, b = jnp.broadcast_arrays(x, a, b)
    z = (x - loc) / scale
    total = _log_gauss_mass(a, b)
    below = _log_gauss_mass(a, z) - total
    above = _log_gauss_mass(z, b) - total
    # Near 1 the complement is the accurate one; a NaN ``z`` meets no condition and gives 0.
    value = jnp.select(
        [z >= b, z <= a, below > -0.1, z > a],
        [0, -math.inf, jnp.log1p(-jnp.exp(above)), below],
    )
    return jnp.where(a >= b, math.nan, value)


def logcdf(
    x: ArrayLike, a: ArrayLike, b: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1
) -> Array:
    """``log(P(X <= x))``: 0 from ``b`` on, ``-inf`` up to ``a``, NaN for ``a >= b``."""
    return _logcdf(*_promote("truncnorm.logcdf", x, a, b, loc, scale))


def cdf(
    x: ArrayLike, a: ArrayLike, b: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1
) -> Array:
    """``P(X <= x)``, ``exp(logcdf)``."""
    return jnp.exp(logcdf(x, a, b, loc, scale))


def logsf(
    x: ArrayLike, a: ArrayLike, b: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1
) -> Array:
    """``log(P(X > x))``, the ``logcdf`` of the mirrored distribution."""
    x, a, b, loc, scale = _promote("truncnorm.logsf", x, a, b, loc, scale)
    return _logcdf(-x, -b, -a, -loc, scale)


def sf(x: ArrayLike, a: ArrayLike, b: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """``P(X > x)``, ``exp(logsf)``."""
    return jnp.exp(logsf(x, a, b, loc, scale))
