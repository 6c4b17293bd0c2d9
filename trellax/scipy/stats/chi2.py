"""``trellax.scipy.stats.chi2`` (mirrors ``jax.scipy.stats.chi2``)."""

from trellax._src.scipy.stats.chi2 import (
    cdf,
    logcdf,
    logpdf,
    logsf,
    pdf,
    sf,
)

__all__ = [
    "cdf",
    "logcdf",
    "logpdf",
    "logsf",
    "pdf",
    "sf",
]
