"""``trellax.scipy.stats.expon`` (mirrors ``jax.scipy.stats.expon``)."""

from trellax._src.scipy.stats.expon import (
    cdf,
    logcdf,
    logpdf,
    logsf,
    pdf,
    ppf,
    sf,
)

__all__ = [
    "cdf",
    "logcdf",
    "logpdf",
    "logsf",
    "pdf",
    "ppf",
    "sf",
]
