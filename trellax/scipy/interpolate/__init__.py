"""``trellax.scipy.interpolate`` (mirrors ``jax.scipy.interpolate``)."""

from trellax._src.scipy.interpolate import RegularGridInterpolator

__all__ = ["RegularGridInterpolator"]
