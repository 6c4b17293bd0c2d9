"""``trellax.scipy.stats.truncnorm`` (mirrors ``jax.scipy.stats.truncnorm``)."""

from trellax._src.scipy.stats.truncnorm import (
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
