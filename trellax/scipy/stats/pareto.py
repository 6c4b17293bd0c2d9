"""``trellax.scipy.stats.pareto`` (mirrors ``jax.scipy.stats.pareto``)."""

from trellax._src.scipy.stats.pareto import (
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
