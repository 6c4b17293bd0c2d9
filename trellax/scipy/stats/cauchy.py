"""``trellax.scipy.stats.cauchy`` (mirrors ``jax.scipy.stats.cauchy``)."""

from trellax._src.scipy.stats.cauchy import (
    cdf,
    isf,
    logcdf,
    logpdf,
    logsf,
    pdf,
    ppf,
    sf,
)

__all__ = [
    "cdf",
    "isf",
    "logcdf",
    "logpdf",
    "logsf",
    "pdf",
    "ppf",
    "sf",
]
