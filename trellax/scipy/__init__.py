"""``trellax.scipy``: SciPy-style functions with JAX's dtype rules (mirrors ``jax.scipy``)."""

from trellax.scipy import special as special

__all__ = ["special"]
