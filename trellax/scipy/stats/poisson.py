"""``trellax.scipy.stats.poisson`` (mirrors ``jax.scipy.stats.poisson``)."""

from trellax._src.scipy.stats.poisson import (
    cdf,
    logpmf,
    pmf,
)

__all__ = [
    "cdf",
    "logpmf",
    "pmf",
]
