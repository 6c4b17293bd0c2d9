"""``trellax.scipy.cluster`` (mirrors ``jax.scipy.cluster``)."""

from trellax.scipy.cluster import vq as vq

__all__ = ["vq"]
