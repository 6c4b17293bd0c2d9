"""``trellax.scipy.ndimage`` (mirrors ``jax.scipy.ndimage``)."""

from trellax._src.scipy.ndimage import map_coordinates

__all__ = ["map_coordinates"]
