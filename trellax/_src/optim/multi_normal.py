"""optax's ``multi_normal``: a normal distribution with a diagonal covariance given by its mean
and the log of its standard deviations (the parameterisation of evolution strategies)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import trellax.numpy as jnp
from trellax import lax
from trellax._src.random import samplers as random
from trellax._src.scipy.stats import norm


class MultiNormalDiagFromLogScale:
    """The distribution ``N(loc, diag(exp(log_scale))**2)``; ``params`` are ``[loc,
    log_scale]``."""

    def __init__(self, loc: Any, log_scale: Any) -> None:
        self._log_scale = jnp.asarray(log_scale)
        self._scale = jnp.exp(log_scale)
        self._mean = jnp.asarray(loc)
        self._param_shape = lax.broadcast_shapes(self._mean.shape, self._scale.shape)

    def sample(self, shape: Sequence[int], key: Any) -> Any:
        """Draws of shape ``shape + param_shape`` (a standard normal scaled and shifted)."""
        draws = random.normal(key, shape=(*tuple(shape), *self._param_shape))
        return draws * self._scale + self._mean

    def log_prob(self, x: Any) -> Any:
        """The log density of ``x``, summed over the parameters' axes."""
        per_entry = norm.logpdf(x, loc=self._mean, scale=self._scale)
        return jnp.sum(per_entry, axis=tuple(-(i + 1) for i in range(len(self._param_shape))))

    @property
    def log_scale(self) -> Any:
        """The log standard deviations."""
        return self._log_scale

    @property
    def params(self) -> Sequence[Any]:
        """``[loc, log_scale]``."""
        return [self._mean, self._log_scale]


def multi_normal(loc: Any, log_scale: Any) -> MultiNormalDiagFromLogScale:
    """The diagonal normal with mean ``loc`` and standard deviations ``exp(log_scale)``."""
    return MultiNormalDiagFromLogScale(loc=loc, log_scale=log_scale)
