"""``trellax.scipy.stats.poisson`` (mirrors ``jax.scipy.stats.poisson``)."""

from trellax._src.scipy.stats.poisson import (
    cdf,
    entropy,
    logpmf,
    pmf,
)

__all__ = [
    "cdf",
    "entropy",
    "logpmf",
    "pmf",
]
