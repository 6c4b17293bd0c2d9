"""``trellax.scipy.stats.logistic`` (mirrors ``jax.scipy.stats.logistic``)."""

from trellax._src.scipy.stats.logistic import (
    cdf,
    isf,
    logpdf,
    pdf,
    ppf,
    sf,
)

__all__ = [
    "cdf",
    "isf",
    "logpdf",
    "pdf",
    "ppf",
    "sf",
]
