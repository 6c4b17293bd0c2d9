"""``trellax.image``: image resampling (mirrors ``jax.image``)."""

from trellax._src.image.scale import ResizeMethod, resize, scale_and_translate

__all__ = ["ResizeMethod", "resize", "scale_and_translate"]
