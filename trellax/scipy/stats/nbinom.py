"""``trellax.scipy.stats.nbinom`` (mirrors ``jax.scipy.stats.nbinom``)."""

from trellax._src.scipy.stats.nbinom import (
    logpmf,
    pmf,
)

__all__ = [
    "logpmf",
    "pmf",
]
