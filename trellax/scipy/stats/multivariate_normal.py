"""``trellax.scipy.stats.multivariate_normal`` (mirrors ``jax.scipy.stats.multivariate_normal``)."""

from trellax._src.scipy.stats.multivariate_normal import (
    logpdf,
    pdf,
)

__all__ = [
    "logpdf",
    "pdf",
]
