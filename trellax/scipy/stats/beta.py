"""``trellax.scipy.stats.beta`` (mirrors ``jax.scipy.stats.beta``)."""

from trellax._src.scipy.stats.beta import (
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
