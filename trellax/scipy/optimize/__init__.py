"""``trellax.scipy.optimize`` (mirrors ``jax.scipy.optimize``)."""

from trellax._src.scipy.optimize import OptimizeResults, minimize

__all__ = ["OptimizeResults", "minimize"]
