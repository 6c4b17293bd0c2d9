"""``trellax.scipy.stats.gumbel_r`` (mirrors ``jax.scipy.stats.gumbel_r``)."""

from trellax._src.scipy.stats.gumbel_r import (
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
