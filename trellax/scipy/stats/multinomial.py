"""``trellax.scipy.stats.multinomial`` (mirrors ``jax.scipy.stats.multinomial``)."""

from trellax._src.scipy.stats.multinomial import (
    logpmf,
    pmf,
)

__all__ = [
    "logpmf",
    "pmf",
]
