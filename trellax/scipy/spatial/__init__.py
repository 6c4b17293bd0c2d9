"""``trellax.scipy.spatial`` (mirrors ``jax.scipy.spatial``)."""

from trellax.scipy.spatial import transform as transform

__all__ = ["transform"]
