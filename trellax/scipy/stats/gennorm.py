"""``trellax.scipy.stats.gennorm`` (mirrors ``jax.scipy.stats.gennorm``)."""

from trellax._src.scipy.stats.gennorm import (
    cdf,
    logpdf,
    pdf,
)

__all__ = [
    "cdf",
    "logpdf",
    "pdf",
]
