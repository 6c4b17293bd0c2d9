"""``trellax.scipy.stats.laplace`` (mirrors ``jax.scipy.stats.laplace``)."""

from trellax._src.scipy.stats.laplace import (
    cdf,
    logpdf,
    pdf,
)

__all__ = [
    "cdf",
    "logpdf",
    "pdf",
]
