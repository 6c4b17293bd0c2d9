"""``trellax.scipy.spatial.transform`` (mirrors ``jax.scipy.spatial.transform``)."""

from trellax._src.scipy.spatial_transform import Rotation, Slerp

__all__ = ["Rotation", "Slerp"]
