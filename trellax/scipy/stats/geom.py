"""``trellax.scipy.stats.geom`` (mirrors ``jax.scipy.stats.geom``)."""

from trellax._src.scipy.stats.geom import (
    logpmf,
    pmf,
)

__all__ = [
    "logpmf",
    "pmf",
]
