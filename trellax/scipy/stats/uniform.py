"""``trellax.scipy.stats.uniform`` (mirrors ``jax.scipy.stats.uniform``)."""

from trellax._src.scipy.stats.uniform import (
    cdf,
    logpdf,
    pdf,
    ppf,
)

__all__ = [
    "cdf",
    "logpdf",
    "pdf",
    "ppf",
]
