"""``trellax.scipy.stats.t`` (mirrors ``jax.scipy.stats.t``)."""

from trellax._src.scipy.stats.t import (
    logpdf,
    pdf,
)

__all__ = [
    "logpdf",
    "pdf",
]
