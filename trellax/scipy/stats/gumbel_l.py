"""``trellax.scipy.stats.gumbel_l`` (mirrors ``jax.scipy.stats.gumbel_l``)."""

from trellax._src.scipy.stats.gumbel_l import (
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
