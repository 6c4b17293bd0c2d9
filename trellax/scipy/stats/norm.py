"""``trellax.scipy.stats.norm`` (mirrors ``jax.scipy.stats.norm``)."""

from trellax._src.scipy.stats.norm import (
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
