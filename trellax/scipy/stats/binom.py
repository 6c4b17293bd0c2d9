"""``trellax.scipy.stats.binom`` (mirrors ``jax.scipy.stats.binom``)."""

from trellax._src.scipy.stats.binom import (
    logpmf,
    pmf,
)

__all__ = [
    "logpmf",
    "pmf",
]
