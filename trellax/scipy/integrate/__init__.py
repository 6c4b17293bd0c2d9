"""``trellax.scipy.integrate`` (mirrors ``jax.scipy.integrate``)."""

from trellax._src.scipy.integrate import trapezoid

__all__ = ["trapezoid"]
