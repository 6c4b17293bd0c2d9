"""``trellax.scipy.stats.betabinom`` (mirrors ``jax.scipy.stats.betabinom``)."""

from trellax._src.scipy.stats.betabinom import (
    logpmf,
    pmf,
)

__all__ = [
    "logpmf",
    "pmf",
]
