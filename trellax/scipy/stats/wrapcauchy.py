"""``trellax.scipy.stats.wrapcauchy`` (mirrors ``jax.scipy.stats.wrapcauchy``)."""

from trellax._src.scipy.stats.wrapcauchy import (
    logpdf,
    pdf,
)

__all__ = [
    "logpdf",
    "pdf",
]
