"""``trellax.scipy.cluster.vq`` (mirrors ``jax.scipy.cluster.vq``)."""

from trellax._src.scipy.cluster_vq import vq

__all__ = ["vq"]
