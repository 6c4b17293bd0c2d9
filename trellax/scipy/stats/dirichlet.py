"""``trellax.scipy.stats.dirichlet`` (mirrors ``jax.scipy.stats.dirichlet``)."""

from trellax._src.scipy.stats.dirichlet import (
    logpdf,
    pdf,
)

__all__ = [
    "logpdf",
    "pdf",
]
