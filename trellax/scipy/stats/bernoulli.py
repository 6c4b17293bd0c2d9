"""``trellax.scipy.stats.bernoulli`` (mirrors ``jax.scipy.stats.bernoulli``)."""

from trellax._src.scipy.stats.bernoulli import (
    cdf,
    logpmf,
    pmf,
    ppf,
)

__all__ = [
    "cdf",
    "logpmf",
    "pmf",
    "ppf",
]
