"""``trellax.scipy.stats.gamma`` (mirrors ``jax.scipy.stats.gamma``)."""

from trellax._src.scipy.stats.gamma import (
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
