"""``trellax.scipy.stats.vonmises`` (mirrors ``jax.scipy.stats.vonmises``)."""

from trellax._src.scipy.stats.vonmises import (
    logpdf,
    pdf,
)

__all__ = [
    "logpdf",
    "pdf",
]
